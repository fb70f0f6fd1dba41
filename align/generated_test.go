package align

import (
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// x86-64 numbers and flags of the calls below.
const (
	nrReadG    = 0
	nrWriteG   = 1
	nrCloseG   = 3
	nrUnlinkG  = 87
	nrMkdirG   = 83
	nrOpenatG  = 257
	nrNewfstat = 262
	oRDWR      = 0o2
	oCreat     = 0o100
	oExcl      = 0o200
	atFDCWDReg = 0xffffffffffffff9c
)

func openat(path string, flags uint64) *trace.Call {
	return &trace.Call{Nr: nrOpenatG, Path: path, Args: [6]uint64{atFDCWDReg, 0, flags, 0o600}}
}

func onPath(nr uint32, path string) *trace.Call { return &trace.Call{Nr: nr, Path: path} }

// TestStreamGeneratedNames: a program that makes a temporary file with a
// random name (mkstemp: open O_CREAT|O_EXCL), writes it, reads a
// config, and removes the file is matched call for call although every
// live name differs from the recorded one; the mapping also keys files
// made inside a temporary directory (mkdtemp) and pid-named files.
// Names a program chose are not matched by it.
func TestStreamGeneratedNames(t *testing.T) {
	tab := tracetest.Amd64(t)
	recK := NewKeyer(tab, "", "")
	recorded := []*trace.Call{
		onPath(nrMkdirG, "/tmp/tmpk2a_x9q1"), // Python's mkdtemp
		openat("/tmp/tmpk2a_x9q1/data", oRDWR|oCreat),
		openat("/tmp/tmp.Xk3bQzAa9c", oRDWR|oCreat|oExcl), // mktemp
		onPath(nrWriteG, "/tmp/tmp.Xk3bQzAa9c"),
		openat("/etc/app.conf", 0),
		onPath(nrReadG, "/etc/app.conf"),
		onPath(nrNewfstat, "/tmp/tmp.Xk3bQzAa9c"),
		onPath(nrUnlinkG, "/tmp/tmp.Xk3bQzAa9c"),
		openat("/run/app.4711.pid", oRDWR|oCreat), // pid-named
		onPath(nrUnlinkG, "/run/app.4711.pid"),
		onPath(nrUnlinkG, "/tmp/tmpk2a_x9q1/data"),
	}
	live := []*trace.Call{
		onPath(nrMkdirG, "/tmp/tmpz_81mmq0"),
		openat("/tmp/tmpz_81mmq0/data", oRDWR|oCreat),
		openat("/tmp/tmp.pa9Lw1Qq0Z", oRDWR|oCreat|oExcl),
		onPath(nrWriteG, "/tmp/tmp.pa9Lw1Qq0Z"),
		openat("/etc/app.conf", 0),
		onPath(nrReadG, "/etc/app.conf"),
		onPath(nrNewfstat, "/tmp/tmp.pa9Lw1Qq0Z"),
		onPath(nrUnlinkG, "/tmp/tmp.pa9Lw1Qq0Z"),
		openat("/run/app.98.pid", oRDWR|oCreat),
		onPath(nrUnlinkG, "/run/app.98.pid"),
		onPath(nrUnlinkG, "/tmp/tmpz_81mmq0/data"),
	}
	liveK := NewKeyer(tab, "", "")
	s := NewStream(recK.Keys(recorded), 0)
	for i, c := range live {
		key := liveK.Key(c)
		f := s.FeedLike(key, liveK.Like(c, key))
		if f.Verdict != Matched || f.Rec != i {
			t.Fatalf("live call %d (%s): %+v, want matched to recorded call %d", i, c.Path, f, i)
		}
		wantGen := key != recK.Key(recorded[i])
		if f.Generated != wantGen {
			t.Errorf("live call %d (%s): generated %v, want %v", i, c.Path, f.Generated, wantGen)
		}
		if f.Generated {
			liveK.MapName(c.Path, recorded[i].Path)
		}
	}

	// Without the rule's flags, or with a name the program chose, the
	// call is an extra one.
	for _, tc := range []struct {
		what      string
		rec, live *trace.Call
	}{
		{"open without O_CREAT|O_EXCL", openat("/tmp/tmp.Xk3bQzAa9c", oRDWR), openat("/tmp/tmp.pa9Lw1Qq0Z", oRDWR)},
		{"unlink of another name", onPath(nrUnlinkG, "/tmp/tmp.Xk3bQzAa9c"), onPath(nrUnlinkG, "/tmp/tmp.pa9Lw1Qq0Z")},
		{"another directory", openat("/tmp/a/tmp.Xk3bQz", oRDWR|oCreat|oExcl), openat("/tmp/b/tmp.pa9Lw1", oRDWR|oCreat|oExcl)},
		{"numbered files", openat("/out/file1", oRDWR|oCreat|oExcl), openat("/out/file2", oRDWR|oCreat|oExcl)},
		{"another call", onPath(nrMkdirG, "/tmp/tmp.Xk3bQz"), openat("/tmp/tmp.pa9Lw1", oRDWR|oCreat|oExcl)},
	} {
		k := NewKeyer(tab, "", "")
		s := NewStream([]Key{recK.Key(tc.rec)}, 0)
		key := k.Key(tc.live)
		if f := s.FeedLike(key, k.Like(tc.live, key)); f.Verdict != Extra {
			t.Errorf("%s: %+v, want an extra call", tc.what, f)
		}
	}
}

// TestStreamGeneratedPrefersExact: a recorded call with the live name
// itself, a little ahead, is matched before a generated-name match at the
// next position.
func TestStreamGeneratedPrefersExact(t *testing.T) {
	tab := tracetest.Amd64(t)
	k := NewKeyer(tab, "", "")
	rec := k.Keys([]*trace.Call{
		openat("/tmp/tmp.aaaaaa", oRDWR|oCreat|oExcl),
		openat("/tmp/tmp.bbbbbb", oRDWR|oCreat|oExcl),
	})
	s := NewStream(rec, 0)
	c := openat("/tmp/tmp.bbbbbb", oRDWR|oCreat|oExcl)
	key := k.Key(c)
	if f := s.FeedLike(key, k.Like(c, key)); f.Verdict != Matched || f.Rec != 1 || f.Generated {
		t.Errorf("%+v, want recorded call 1 by its own name", f)
	}
}

// TestMapNameUnder: a mapped name keys the paths under it, not a sibling
// that shares its prefix.
func TestMapNameUnder(t *testing.T) {
	k := NewKeyer(tracetest.Amd64(t), "/live", "/rec")
	k.MapName("/tmp/tmpLIVE", "/tmp/tmpREC")
	for in, want := range map[string]string{
		"/tmp/tmpLIVE":          "/tmp/tmpREC",
		"/tmp/tmpLIVE/a/b":      "/tmp/tmpREC/a/b",
		"/tmp/tmpLIVEx":         "/tmp/tmpLIVEx",
		"/live/file":            "/rec/file",
		"/tmp":                  "/tmp",
		"pipe:[12]":             "pipe:[]",
		"/proc/12/task/13/comm": "/proc/<pid>/task/<tid>/comm",
	} {
		if got := k.Path(in); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}
