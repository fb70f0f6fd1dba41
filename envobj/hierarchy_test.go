package envobj

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

var stat = Aspects{AspectType, AspectMode, AspectOwner, AspectMtime}

func fileObj(path string, differs ...Aspect) Object {
	return Object{Path: path, Stored: true,
		Good:    State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat},
		Here:    State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat},
		Differs: differs}
}

// outline prints the hierarchy one group a line, indented by level:
// "package python3-yaml 6.0-3 (dpkg) [0 1]".
func outline(gs []*Group, depth int, b *strings.Builder) {
	for _, g := range gs {
		fmt.Fprintf(b, "%s%s %v\n", strings.Repeat("  ", depth), g.Name(), g.Objects)
		outline(g.Children, depth+1, b)
	}
}

// Objects are grouped by package, then by directory under their nearest
// common directory (collapsed where a directory holds one node), the
// modification times last; objects no run can put in place are listed.
func TestBuild(t *testing.T) {
	yaml := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-yaml", Version: "6.0-3"}
	objs := []Object{
		0: fileObj("/usr/lib/python3/dist-packages/yaml/__init__.py", AspectContent),
		1: fileObj("/etc/app.d/10-a.conf", AspectContent),
		2: fileObj("/etc/app.d/20-b.conf", AspectMode),
		3: fileObj("/etc/hostname", AspectMtime),
		4: fileObj("/usr/lib/python3/dist-packages/yaml/nodes.py", AspectContent),
		5: {Path: "/run/mpd", Good: State{Exists: true, Type: TypeDir, Mode: 0o755, Known: stat}, Differs: Aspects{AspectExists}},
		6: {Path: "/run/mpd/state", Stored: true, Good: State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat}, Differs: Aspects{AspectExists}},
		7: {Path: "/etc/secret", Good: State{Exists: true, Type: TypeFile}, Here: State{Exists: true, Type: TypeFile}, Differs: Aspects{AspectContent}},
		8: {Path: "/srv/data", Good: State{Exists: true, Type: TypeDir, Known: Aspects{AspectEntries}, Entries: []string{"a"}},
			Here: State{Exists: true, Type: TypeDir, Entries: []string{"b"}, Known: Aspects{AspectEntries}}, Differs: Aspects{AspectEntries}},
		9:  fileObj("/var/log/app.log", AspectMtime),
		10: fileObj("/etc/app.d/10-a.conf", AspectMode),
	}
	objs[0].Package, objs[4].Package = yaml, yaml
	objs[3].Good.MtimeNS, objs[9].Good.MtimeNS = 1e18, 1e18
	h := Build(objs)
	var b strings.Builder
	outline(h.Top, 0, &b)
	want := `package python3-yaml 6.0-3 (dpkg) [0 4]
  /usr/lib/python3/dist-packages/yaml/__init__.py [0]
  /usr/lib/python3/dist-packages/yaml/nodes.py [4]
directory /etc/app.d [1 2]
  /etc/app.d/10-a.conf [1]
  /etc/app.d/20-b.conf [2]
directory /run/mpd [5 6]
  /run/mpd [5]
  /run/mpd/state [6]
2 objects whose modification time alone differs [3 9]
  /etc/hostname [3]
  /var/log/app.log [9]
`
	if b.String() != want {
		t.Errorf("hierarchy:\n%s\nwant:\n%s", b.String(), want)
	}
	var unplaced []string
	for _, u := range h.Unplaced {
		unplaced = append(unplaced, fmt.Sprintf("%d %s: %s", u.Index, u.Path, u.Why))
	}
	wantUnplaced := []string{
		"7 /etc/secret: the trace does not keep its content",
		"8 /srv/data: a run has nothing to change for it (what differs: entries)",
		"10 /etc/app.d/10-a.conf: object 1 has the same path",
	}
	if !slices.Equal(unplaced, wantUnplaced) {
		t.Errorf("unplaced %q, want %q", unplaced, wantUnplaced)
	}
}

// One object alone is the top; objects under one directory are the
// candidates there, not the directory.
func TestBuildCommonDirectory(t *testing.T) {
	h := Build([]Object{fileObj("/etc/app.conf", AspectContent)})
	if len(h.Top) != 1 || h.Top[0].Kind != GroupObject || h.Top[0].Path != "/etc/app.conf" {
		t.Errorf("top %+v", h.Top)
	}
	h = Build([]Object{fileObj("/etc/app.d/a", AspectContent), fileObj("/etc/app.d/b", AspectContent), fileObj("/etc/app.d/sub/c", AspectContent)})
	var names []string
	for _, g := range h.Top {
		names = append(names, g.Name())
	}
	if want := []string{"/etc/app.d/a", "/etc/app.d/b", "/etc/app.d/sub/c"}; !slices.Equal(names, want) {
		t.Errorf("top %q, want %q", names, want)
	}
	if h := Build(nil); len(h.Top) != 0 || len(h.Unplaced) != 0 {
		t.Errorf("nothing built %+v", h)
	}
}

// A group says what differs in it.
func TestGroupSays(t *testing.T) {
	yaml := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-yaml", Version: "6.0-3"}
	missing := func(p string) Object {
		return Object{Path: p, Stored: true, Package: yaml, Good: State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat}, Differs: Aspects{AspectExists}}
	}
	objs := []Object{missing("/usr/lib/y/a.py"), missing("/usr/lib/y/b.py"), missing("/usr/lib/y/c.py")}
	h := Build(objs)
	if got, want := h.Top[0].Says(objs), "python3-yaml 6.0-3 is not installed here (3 files)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	objs[1] = fileObj("/usr/lib/y/b.py", AspectContent)
	objs[1].Package = yaml
	h = Build(objs)
	if got, want := h.Top[0].Says(objs), "3 files of python3-yaml 6.0-3 differ here (2 missing here, 1 with other content)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := h.Top[0].Fix(objs)[0].Command, "apt-get install --reinstall python3-yaml=6.0-3"; got != want {
		t.Errorf("fix %q, want %q", got, want)
	}
	dir := []Object{
		{Path: "/run/mpd", Good: State{Exists: true, Type: TypeDir, Mode: 0o755, Known: stat}, Differs: Aspects{AspectExists}},
		{Path: "/run/mpd/state", Stored: true, Good: State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat}, Differs: Aspects{AspectExists}},
	}
	h = Build(dir)
	if got, want := h.Top[0].Says(dir), "directory /run/mpd is missing here (drwxr-xr-x 0:0 in the good run); and 1 object under it differs (1 missing here)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
