package envobj

import (
	"fmt"
	"strings"
	"time"
)

// The words of an object's two states, for the report of the object
// search: what the object is here and in the good run, in one sentence.

// typeNoun names a type: "file", "directory".
func typeNoun(t Type) string {
	switch t {
	case TypeFile:
		return "file"
	case TypeDir:
		return "directory"
	case TypeSymlink:
		return "symbolic link"
	case TypeOther:
		return "special file"
	}
	return "path"
}

// Says is what differs, with both states: "/tmp is drwxr-xr-x here,
// drwxrwxrwt in the good run", "directory /run/mpd is missing here
// (drwxr-xr-x 0:0 in the good run)", "file /etc/app.d/extra.conf exists
// only here". Several aspects are joined with "; ".
func (o *Object) Says() string {
	if o.Tunable() {
		return o.tunableSays()
	}
	g, h := o.Good, o.Here
	switch {
	case g.Exists && !h.Exists:
		return fmt.Sprintf("%s %s is missing here (%s in the good run)", typeNoun(g.Type), o.Path, stateWords(g))
	case !g.Exists && h.Exists:
		return fmt.Sprintf("%s %s exists only here", typeNoun(h.Type), o.Path)
	case !g.Exists && !h.Exists:
		return o.Path + " exists on neither side"
	}
	var parts []string
	for _, a := range o.Differs {
		if s := o.aspectWords(a); s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return o.Describe()
	}
	return strings.Join(parts, "; ")
}

// aspectWords says how aspect a differs, both sides; "" for an aspect
// that has no words of its own.
func (o *Object) aspectWords(a Aspect) string {
	g, h := o.Good, o.Here
	p := o.Path
	switch a {
	case AspectType:
		return fmt.Sprintf("%s is a %s here, a %s in the good run", p, typeNoun(h.Type), typeNoun(g.Type))
	case AspectMode:
		return fmt.Sprintf("%s is %s here, %s in the good run", p, ModeString(h.Type, h.Mode), ModeString(g.Type, g.Mode))
	case AspectOwner:
		return fmt.Sprintf("%s is owned by %d:%d here, %d:%d in the good run", p, h.UID, h.GID, g.UID, g.GID)
	case AspectContent:
		if g.Size == h.Size {
			return fmt.Sprintf("the content of %s differs (%d bytes on both sides)", p, g.Size)
		}
		return fmt.Sprintf("the content of %s differs (%d bytes here, %d in the good run)", p, h.Size, g.Size)
	case AspectTarget:
		return fmt.Sprintf("%s leads to %s here, %s in the good run", p, h.Target, g.Target)
	case AspectMtime:
		return fmt.Sprintf("%s was modified %s here, %s in the good run", p, timeWords(h.MtimeNS), timeWords(g.MtimeNS))
	case AspectEntries:
		return fmt.Sprintf("the entries of %s differ", p)
	}
	return ""
}

// stateWords is a state's mode and owner, with a file's size and a
// link's target: "-rw-r--r-- 0:0, 1523 bytes", "-> /opt/x".
func stateWords(s State) string {
	if s.Type == TypeSymlink {
		return "-> " + s.Target
	}
	w := fmt.Sprintf("%s %d:%d", ModeString(s.Type, s.Mode), s.UID, s.GID)
	if s.Type == TypeFile {
		w += fmt.Sprintf(", %d bytes", s.Size)
	}
	return w
}

// timeWords is a time in nanoseconds since the epoch as a UTC date.
func timeWords(ns int64) string {
	if ns == 0 {
		return "at an unknown time"
	}
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05.000000000 UTC")
}

// tallyOrder names an object's main difference, most telling first.
var tallyOrder = []struct {
	a    Aspect
	word string
}{
	{AspectType, "of another type"},
	{AspectValue, "with another value"},
	{AspectContent, "with other content"},
	{AspectTarget, "leading elsewhere"},
	{AspectMode, "with another mode"},
	{AspectOwner, "with another owner"},
	{AspectEntries, "with other entries"},
	{AspectMtime, "with another modification time"},
}

// mainDifference is an object's most telling difference in words:
// "missing here", "only here", "with other content".
func (o *Object) mainDifference() string {
	switch {
	case o.Good.Exists && !o.Here.Exists:
		return "missing here"
	case !o.Good.Exists && o.Here.Exists:
		return "only here"
	}
	for _, t := range tallyOrder {
		if o.Differs.Has(t.a) {
			return t.word
		}
	}
	return "differing"
}

// tally counts objs[idx] by their main difference: "38 missing here, 3
// with other content".
func tally(objs []Object, idx []int) string {
	counts := map[string]int{}
	var order []string
	for _, i := range idx {
		w := objs[i].mainDifference()
		if counts[w] == 0 {
			order = append(order, w)
		}
		counts[w]++
	}
	parts := make([]string, len(order))
	for i, w := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[w], w)
	}
	return strings.Join(parts, ", ")
}

// allMissing reports whether every object of idx exists in the good run
// and is missing here.
func allMissing(objs []Object, idx []int) bool {
	for _, i := range idx {
		if !objs[i].Good.Exists || objs[i].Here.Exists {
			return false
		}
	}
	return len(idx) > 0
}

// pathNoun is "files" when every object of idx is a file in the good
// run, else "paths".
func pathNoun(objs []Object, idx []int) (one, many string) {
	for _, i := range idx {
		if t := objs[i].Good.Type; !objs[i].Good.Exists || t != TypeFile {
			return "path", "paths"
		}
	}
	return "file", "files"
}

// byType counts objs[idx] by their type in the good run: "41 files",
// "10 files and 2 directories"; "N paths" when some are neither.
func byType(objs []Object, idx []int) string {
	files, dirs := 0, 0
	for _, i := range idx {
		switch objs[i].Good.Type {
		case TypeFile:
			files++
		case TypeDir:
			dirs++
		}
	}
	switch n := len(idx); {
	case files == n:
		return fmt.Sprintf("%d %s", n, nouns(n, "file", "files"))
	case files+dirs == n && files > 0:
		return fmt.Sprintf("%d %s and %d %s", files, nouns(files, "file", "files"), dirs, nouns(dirs, "directory", "directories"))
	default:
		return fmt.Sprintf("%d %s", n, nouns(n, "path", "paths"))
	}
}

// Says is what differs in the group, for a person: "python3-yaml 6.0-3
// is not installed here (41 files)", "python3-idna 3.3-1 is not installed
// here (10 files and 2 directories)", "3 objects under /etc/app.d differ
// here (2 only here, 1 with other content)", an object's own words
// (Object.Says). objs are the objects the group's indexes refer to.
func (g *Group) Says(objs []Object) string {
	n := len(g.Objects)
	one, many := pathNoun(objs, g.Objects)
	switch g.Kind {
	case GroupObject:
		return objs[g.Object].Says()
	case GroupPackage:
		p := g.Package
		name := strings.TrimSpace(p.Name + " " + p.Version)
		if allMissing(objs, g.Objects) {
			return fmt.Sprintf("%s is not installed here (%s)", name, byType(objs, g.Objects))
		}
		return fmt.Sprintf("%d %s of %s %s here (%s)", n, nouns(n, one, many), name, nouns(n, "differs", "differ"), tally(objs, g.Objects))
	case GroupMtime:
		return fmt.Sprintf("the modification time alone differs of %d %s", n, nouns(n, "object", "objects"))
	}
	if g.Object >= 0 {
		rest := g.Objects[1:]
		return fmt.Sprintf("%s; and %d %s under it %s (%s)", objs[g.Object].Says(), len(rest), nouns(len(rest), "object", "objects"),
			nouns(len(rest), "differs", "differ"), tally(objs, rest))
	}
	return fmt.Sprintf("%d %s under %s differ here (%s)", n, nouns(n, "object", "objects"), g.Path, tally(objs, g.Objects))
}
