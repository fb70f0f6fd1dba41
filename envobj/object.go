package envobj

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Type is what a path is.
type Type string

// The types of a State.
const (
	TypeFile    Type = "file"
	TypeDir     Type = "dir"
	TypeSymlink Type = "symlink"
	TypeOther   Type = "other" // a device, FIFO or socket: never materialized
)

// State is what a path is on one side: in the good run, as the trace
// shows it, or here, as inspection finds it. Fields a side does not know
// are zero (Known says which were seen).
type State struct {
	// Exists: the path exists (a stat of it succeeded); false when it is
	// missing (ENOENT).
	Exists bool `json:"exists"`
	Type   Type `json:"type,omitempty"`
	// Mode are the permission bits with set-user-ID, set-group-ID and
	// sticky (07777).
	Mode uint32 `json:"mode,omitempty"`
	UID  uint32 `json:"uid,omitempty"`
	GID  uint32 `json:"gid,omitempty"`
	Size int64  `json:"size,omitempty"`
	// SHA256 is the content's hash; zero when not known.
	SHA256 trace.Hash `json:"-"`
	// MtimeNS is the modification time in nanoseconds since the epoch.
	MtimeNS int64 `json:"mtime_ns,omitempty"`
	// Target is a symbolic link's target.
	Target string `json:"target,omitempty"`
	// Entries are a directory's entries (names, sorted), when the side
	// listed it; nil when not known.
	Entries []string `json:"entries,omitempty"`
	// Value is, for a kernel tunable (a file under /proc/sys or /sys),
	// the bytes a read of it gave (AspectValue, tunable.go).
	Value string `json:"value,omitempty"`
	// Known says which aspects this side saw: a stat gives type, mode,
	// owner, size and mtime; a read of the whole file the content; a
	// readlink the target; a listing the entries.
	Known Aspects `json:"known,omitempty"`
}

// Aspect is one thing about an object that can differ.
type Aspect string

// The aspects of an object.
const (
	AspectExists  Aspect = "exists"  // present on one side only
	AspectType    Aspect = "type"    // a file here, a directory there
	AspectContent Aspect = "content" // the bytes (by hash)
	AspectMode    Aspect = "mode"
	AspectOwner   Aspect = "owner"
	AspectMtime   Aspect = "mtime"
	AspectTarget  Aspect = "target"  // a symbolic link's
	AspectEntries Aspect = "entries" // a directory's names
	// AspectValue, a kernel tunable's value, is in tunable.go.
)

// Aspects is a set of aspects, in the order above.
type Aspects []Aspect

// Has reports whether a is in the set.
func (as Aspects) Has(a Aspect) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// String is "content, mode".
func (as Aspects) String() string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// Object is one object of the environment whose state here differs from
// its state in the good run.
type Object struct {
	// Path is the absolute path, as the command named it (in a container:
	// as the container sees it).
	Path string `json:"path"`
	Good State  `json:"good"`
	Here State  `json:"here"`
	// Differs are the aspects known on both sides that differ (for a
	// path present on one side only, AspectExists alone).
	Differs Aspects `json:"differs"`
	// File is the trace's FileObject that holds the good content (its
	// ID), 0 when the trace holds none; Stored says whether the content
	// itself is in the trace (a FileObject may hold only its hash).
	File   uint32 `json:"file,omitempty"`
	Stored bool   `json:"stored,omitempty"`
	// Package is the package that owned the path in the good run, nil
	// when not known.
	Package *trace.Package `json:"package,omitempty"`
	// FirstSeq is the first recorded call that met the path (or, for an
	// entry of a directory, listed it); 0 when none did.
	FirstSeq uint64 `json:"first_seq,omitempty"`
}

// Describe says what differs, for a person: "file /etc/app.conf (content
// differs)", "directory /run/mpd (missing here)", "file
// /etc/app.d/extra.conf (only here)".
func (o *Object) Describe() string {
	if o.Tunable() {
		return o.tunableDescribe()
	}
	what := map[Type]string{TypeFile: "file", TypeDir: "directory", TypeSymlink: "symbolic link", TypeOther: "special file"}
	t := o.Good.Type
	if !o.Good.Exists {
		t = o.Here.Type
	}
	name := what[t]
	if name == "" {
		name = "path"
	}
	switch {
	case o.Good.Exists && !o.Here.Exists:
		return fmt.Sprintf("%s %s (missing here)", name, o.Path)
	case !o.Good.Exists && o.Here.Exists:
		return fmt.Sprintf("%s %s (only here: missing in the good run)", name, o.Path)
	}
	return fmt.Sprintf("%s %s (%s differ%s)", name, o.Path, o.Differs, plural(len(o.Differs)))
}

func plural(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// Materializable reports whether a run can put the good state in place,
// and why not: a missing-here file or one whose content differs needs its
// content in the trace; a special file is never made.
func (o *Object) Materializable() (bool, string) {
	if path.Clean(o.Path) == "/" {
		return false, "the root directory of the run's view is not changed by a run"
	}
	if o.Tunable() {
		return o.tunableMaterializable()
	}
	if !o.Good.Exists {
		return true, "" // hidden: removed from the run's view
	}
	switch o.Good.Type {
	case TypeOther:
		return false, "a device, FIFO or socket is not made by a run"
	case TypeFile:
		needContent := !o.Here.Exists || o.Differs.Has(AspectContent) || o.Differs.Has(AspectType)
		if needContent && !o.Stored {
			return false, "the trace does not keep its content"
		}
	case TypeSymlink:
		if !o.Good.Known.Has(AspectTarget) {
			return false, "the trace does not show where the link leads"
		}
	case TypeDir:
	default:
		return false, "the good run's type is not known"
	}
	return true, ""
}

// ModeString is ls's form of a mode: "drwxrwxrwt", "-rwsr-xr-x".
func ModeString(t Type, mode uint32) string {
	b := []byte("-rwxrwxrwx")
	switch t {
	case TypeDir:
		b[0] = 'd'
	case TypeSymlink:
		b[0] = 'l'
	case TypeOther:
		b[0] = '?'
	}
	for i := range 9 {
		if mode&(1<<(8-i)) == 0 {
			b[1+i] = '-'
		}
	}
	special := func(bit uint32, at int, set, unset byte) {
		if mode&bit == 0 {
			return
		}
		if b[at] == '-' {
			b[at] = unset
		} else {
			b[at] = set
		}
	}
	special(0o4000, 3, 's', 'S')
	special(0o2000, 6, 's', 'S')
	special(0o1000, 9, 't', 'T')
	return string(b)
}

// SortedEntries returns names sorted, for a State's Entries.
func SortedEntries(names []string) []string {
	out := append([]string(nil), names...)
	sort.Strings(out)
	return out
}
