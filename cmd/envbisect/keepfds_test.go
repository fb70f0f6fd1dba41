package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// closedFD returns a descriptor number this process does not have open.
func closedFD(t *testing.T) int {
	t.Helper()
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	return fd
}

// TestKeepFDsUsage: record, replay and locate refuse a --keep-fds that is
// not a number, or names a descriptor envbisect does not have, with exit
// 2 and the reason, before anything runs.
func TestKeepFDsUsage(t *testing.T) {
	fd := strconv.Itoa(closedFD(t))
	commands := map[string][]string{
		"record": {"record", "-q", "-o", t.TempDir() + "/t.envb"},
		"replay": {"replay", "--prefix", "all", t.TempDir() + "/missing.envb"},
		"locate": {"locate", t.TempDir() + "/missing.envb"},
	}
	for name, args := range commands {
		for _, c := range []struct{ value, want string }{
			{fd, "--keep-fds " + fd + ": envbisect has no descriptor " + fd + " open to pass on"},
			{"1," + fd, "--keep-fds " + fd + ": envbisect has no descriptor " + fd + " open to pass on"},
			{"x", `--keep-fds "x": give descriptor numbers, such as 3 or 3,251`},
			{"-3", `--keep-fds "-3": give descriptor numbers`},
		} {
			all := append(append(append([]string{}, args...), "--keep-fds", c.value, "--"), "true")
			code, _, stderr := runCLI(all...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("%s --keep-fds %s: exit %d, stderr %q; want %d and %q", name, c.value, code, stderr, exitUsage, c.want)
			}
		}
	}
}

func TestKeepFDsResolve(t *testing.T) {
	k := keepFDsFlag{given: []string{"2", "1", "2"}}
	got, err := k.resolve()
	if err != nil || len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("resolve(2,1,2) = %v, %v; want [1 2]", got, err)
	}
	if a := strings.Join(keepFDsArgs([]int{3, 251}), " "); a != "--keep-fds 3,251" {
		t.Errorf("keepFDsArgs = %q", a)
	}
	if a := keepFDsArgs(nil); a != nil {
		t.Errorf("keepFDsArgs(nil) = %q, want none", a)
	}
}

// TestWarnOtherFDs: the runs are warned about when they give CMD other
// descriptor numbers than the recording had, saying which --keep-fds
// passes the same; never for a trace that does not name them.
func TestWarnOtherFDs(t *testing.T) {
	fds := func(n ...string) []trace.StartEvent {
		var ev []trace.StartEvent
		for _, s := range n {
			ev = append(ev, trace.StartEvent{Kind: trace.StartFD, Name: s, Value: "pipe:[" + s + "]"})
		}
		return ev
	}
	cases := []struct {
		name     string
		recorded []trace.StartEvent
		keep     []int
		want     string // "": no warning
	}{
		{"the same", fds("0", "1", "2"), nil, ""},
		{"the same, kept", fds("0", "1", "2", "251"), []int{251}, ""},
		{"an old trace", nil, []int{7}, ""},
		{"kept in the recording", fds("0", "1", "2", "251"), nil,
			"CMD started with descriptors 0, 1, 2 and 251 in the recording, and gets 0, 1 and 2 in these runs: give --keep-fds 251 to pass the same"},
		{"kept in the runs", fds("0", "1", "2"), []int{9}, "drop --keep-fds to pass the same"},
	}
	for _, c := range cases {
		var errb bytes.Buffer
		warnOtherFDs(streams{err: &errb}, c.recorded, c.keep)
		got := errb.String()
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: warned %q, want %q", c.name, got, c.want)
		}
	}
}

// TestKeptFiles: a worker's ExtraFiles give it the kept descriptors at
// their numbers (entry i is fd 3+i), the numbers between closed.
func TestKeptFiles(t *testing.T) {
	var kept []int
	for range 2 {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		kept = append(kept, int(f.Fd()))
	}
	files, closeAll, err := keptFiles(append([]int{0, 1, 2}, kept...))
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	if len(files) != kept[1]-3+1 {
		t.Fatalf("keptFiles(%v): %d files, want %d", kept, len(files), kept[1]-3+1)
	}
	for i, f := range files {
		fd := 3 + i
		if want := fd == kept[0] || fd == kept[1]; (f != nil) != want {
			t.Errorf("entry %d (fd %d): %v, want a copy: %v", i, fd, f, want)
			continue
		}
		if f == nil {
			continue
		}
		var a, b unix.Stat_t
		unix.Fstat(fd, &a)
		unix.Fstat(int(f.Fd()), &b)
		if a.Ino != b.Ino || a.Dev != b.Dev {
			t.Errorf("entry %d is not a copy of fd %d", i, fd)
		}
	}
	if _, _, err := keptFiles([]int{closedFD(t)}); err == nil {
		t.Error("a closed descriptor was passed on")
	}
}
