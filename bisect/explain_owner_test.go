package bisect

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// TestExplainDeniedRecordedParents: a program run as another user
// creates a file in its output directory without stat'ing it; here the
// directory is 0755, not 0777. The directory's good mode is the one
// record stored with the call (Call.Dirs), its mode here the one
// Options.StatHere finds; the explanation names the directory that
// differs, not its parent, the same on both sides.
func TestExplainDeniedRecordedParents(t *testing.T) {
	b := newTB(t)
	c := b.do("create", "openat", 3, []uint64{atCWD, 0x10000, 0o1101, 0o666},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 16, Data: []byte("/srv/out/result\x00")})
	c.Path = "/srv/out/result"
	c.Dirs = []trace.DirStat{{Path: "/srv", Mode: 0o40755}, {Path: "/srv/out", Mode: 0o40777}}
	b.do("", "close", 0, []uint64{3}).Path = "/srv/out/result"
	b.always(1)
	g := b.graph()
	create := b.l("create")
	here := map[uint64]*trace.Call{create: failed(call(t, g, create), 13)}
	hereModes := map[string]uint32{"/srv": 0o40755, "/srv/out": 0o40755}
	statHere := func(p string) (uint32, uint32, uint32, error) {
		m, ok := hereModes[p]
		if !ok {
			return 0, 0, 0, fs.ErrNotExist
		}
		return m, 0, 0, nil
	}
	rep, err := Locate(context.Background(), g, &fake{g: g, culprit: create, here: here}, Options{Events: b.Events, StatHere: statHere})
	if err != nil {
		t.Fatal(err)
	}
	cu := rep.Culprit
	if rep.Status != Located || cu.Seq != create {
		t.Fatalf("%s %+v; want call %d located", rep.Status, cu, create)
	}
	if cu.Facts == nil || len(cu.Facts.Paths) != 2 {
		t.Fatalf("facts %+v; want /srv/out and /srv", cu.Facts)
	}
	out := cu.Facts.Paths[0]
	if out.Path != "/srv/out" || out.Good == nil || out.Here == nil || out.Good.Mode != 0o40777 || out.Here.Mode != 0o40755 ||
		out.Good.From != "record" || out.Here.From != "locate after the runs" {
		t.Errorf("/srv/out: %+v good %+v here %+v", out, out.Good, out.Here)
	}
	want := "openat(/srv/out/result) is denied here (EACCES). /srv/out is drwxr-xr-x 0:0 here, drwxrwxrwx 0:0 in the good run."
	if cu.Explanation != want {
		t.Errorf("explanation %q, want %q", cu.Explanation, want)
	}
}

// TestExplainLibraryOwners: a library whose content differs here; the
// trace's file object names its package in the good run, and
// Options.PackageOwner another version here, or an error.
func TestExplainLibraryOwners(t *testing.T) {
	const lib = "/usr/lib/x86_64-linux-gnu/libz.so.1"
	good := &trace.Package{Manager: "dpkg", Name: "zlib1g", Version: "1:1.2.13.dfsg-1", Arch: "amd64"}
	for _, tc := range []struct {
		name string
		here *trace.Package
		err  error
		want string
	}{
		{"another version", &trace.Package{Manager: "dpkg", Name: "zlib1g", Version: "1:1.3.dfsg-3", Arch: "amd64"}, nil,
			lib + " belongs to zlib1g 1:1.2.13.dfsg-1 (dpkg) in the good run and to zlib1g 1:1.3.dfsg-3 (dpkg) here."},
		{"not owned here", &trace.Package{Manager: "dpkg"}, nil,
			lib + " belongs to zlib1g 1:1.2.13.dfsg-1 (dpkg) in the good run and is owned by no dpkg package here."},
		{"same version", good, nil, lib + " belongs to zlib1g 1:1.2.13.dfsg-1 (dpkg) in both runs, the same version."},
		{"unreadable here", nil, errors.New("rpm database (/var/lib/rpm) not read"),
			lib + " belongs to zlib1g 1:1.2.13.dfsg-1 (dpkg) in the good run; here the package database could not be read (rpm database (/var/lib/rpm) not read)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			b.file("lib.", lib, "\x7fELF\x02\x01\x01good")
			b.always(1)
			open := b.l("lib.open")
			for _, ev := range b.Events {
				if ev.Call != nil && ev.Call.Seq == open {
					ev.Call.Obj = 1
				}
			}
			g := b.graph()
			read := b.l("lib.read")
			hereRead := *call(t, g, read)
			hereRead.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 11, Data: []byte("\x7fELF\x02\x01\x01badd")}}
			obj := &trace.FileObject{ID: 1, Path: lib, Package: good}
			var asked string
			rep, err := Locate(context.Background(), g, &fake{g: g, culprit: open, here: map[uint64]*trace.Call{read: &hereRead}}, Options{
				Events: b.Events,
				Files: func(id uint32) *trace.FileObject {
					if id == 1 {
						return obj
					}
					return nil
				},
				PackageOwner: func(path, _ string) (*trace.Package, error) { asked = path; return tc.here, tc.err },
			})
			if err != nil {
				t.Fatal(err)
			}
			cu := rep.Culprit
			if cu == nil || cu.Path != lib {
				t.Fatalf("%s, culprit %+v; want a call on %s", rep.Status, cu, lib)
			}
			if cu.Facts == nil || cu.Facts.Package == nil || cu.Facts.Package.Good != good || asked != lib {
				t.Fatalf("facts %+v, looked up %q; want the package of %s", cu.Facts, asked, lib)
			}
			if got := render.Explain(cu); !strings.Contains(got, tc.want) {
				t.Errorf("explanation %q lacks %q", got, tc.want)
			}
		})
	}
}

// TestExplainUnownedFiles: record names the owner of every file, but
// that no package owns a file on either side is said of a program
// (installed by hand or built), not of a configuration file.
func TestExplainUnownedFiles(t *testing.T) {
	none := &trace.Package{Manager: "dpkg"}
	for _, tc := range []struct {
		path string
		mode uint32
		want string // "": no package facts
	}{
		{"/srv/app/app.conf", 0o100644, ""},
		{"/opt/tool/bin/tool", 0o100755, "/opt/tool/bin/tool belongs to no dpkg package, here or in the good run (installed by hand or built)."},
	} {
		t.Run(tc.path, func(t *testing.T) {
			b := newTB(t)
			b.file("f.", tc.path, "good")
			b.always(1)
			open := b.l("f.open")
			for _, ev := range b.Events {
				if ev.Call != nil && ev.Call.Seq == open {
					ev.Call.Obj = 1
				}
			}
			g := b.graph()
			read := b.l("f.read")
			hereRead := *call(t, g, read)
			hereRead.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 4, Data: []byte("badd")}}
			obj := &trace.FileObject{ID: 1, Path: tc.path, Mode: tc.mode, Package: none}
			rep, err := Locate(context.Background(), g, &fake{g: g, culprit: open, here: map[uint64]*trace.Call{read: &hereRead}}, Options{
				Events:       b.Events,
				Files:        func(id uint32) *trace.FileObject { return obj },
				PackageOwner: func(string, string) (*trace.Package, error) { return none, nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			cu := rep.Culprit
			if cu == nil || cu.Path != tc.path {
				t.Fatalf("%s, culprit %+v; want a call on %s", rep.Status, cu, tc.path)
			}
			got := ""
			if cu.Facts != nil && cu.Facts.Package != nil {
				got = render.Explain(cu)
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("explanation with package facts %q; want %q", got, tc.want)
			}
		})
	}
}
