package launch

import (
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

func TestCommandFDs(t *testing.T) {
	cases := []struct {
		keep []int
		want []int
	}{
		{nil, []int{0, 1, 2}},
		{[]int{240, 7, 1, 7}, []int{0, 1, 2, 7, 240}},
	}
	for _, c := range cases {
		if got := CommandFDs(c.keep); !slices.Equal(got, c.want) {
			t.Errorf("CommandFDs(%v) = %v, want %v", c.keep, got, c.want)
		}
	}
}

// TestHelperFiles: kept descriptors sit at their own numbers, the
// numbers between them are closed, and the helper's own come after the
// highest.
func TestHelperFiles(t *testing.T) {
	std := [3]uintptr{10, 11, 12}
	cases := []struct {
		name string
		keep []int
		want []uintptr
	}{
		{"none", nil, []uintptr{10, 11, 12}},
		{"a standard one", []int{1}, []uintptr{10, 11, 12}},
		{"3, where the helper's pipe would be", []int{3}, []uintptr{10, 11, 12, 3}},
		{"a gap", []int{6, 4}, []uintptr{10, 11, 12, closedFD, 4, closedFD, 6}},
	}
	for _, c := range cases {
		if got := helperFiles(std, c.keep); !slices.Equal(got, c.want) {
			t.Errorf("%s: helperFiles(%v) = %v, want %v", c.name, c.keep, got, c.want)
		}
	}
}

func TestCheckKeepFDs(t *testing.T) {
	if err := CheckKeepFDs([]int{0, 1, 2}); err != nil {
		t.Errorf("0, 1, 2: %v", err)
	}
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	err = CheckKeepFDs([]int{fd})
	if err == nil || !strings.Contains(err.Error(), "descriptor "+strconv.Itoa(fd)+" is not open in envbisect") {
		t.Errorf("closed fd %d: %v", fd, err)
	}
	if err := CheckKeepFDs([]int{-1}); err == nil {
		t.Error("fd -1 accepted")
	}
}

// inheritable opens /dev/null without close-on-exec at fd at (as a
// shell's `exec 251</dev/null` leaves it), closed when the test ends.
func inheritable(t *testing.T, at int) {
	t.Helper()
	if _, err := unix.FcntlInt(uintptr(at), unix.F_GETFD, 0); err == nil {
		t.Fatalf("fd %d is open already", at)
	}
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Dup3(fd, at, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(at) })
}

// listFDs runs `ls -l /proc/$$/fd` in a shell started through the helper
// with keep (the shell's own descriptors: ls's are its own) and returns
// what each descriptor names, and the command's start events.
func listFDs(t *testing.T, keep []int) (map[int]string, []trace.StartEvent) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg := &Config{
		Path: "/bin/sh", Argv: []string{"sh", "-c", `ls -l /proc/$$/fd`}, Env: []string{"PATH=/usr/bin:/bin", "LC_ALL=C"},
		CPU: -1, ASLR: true, Stdout: w, KeepFDs: keep,
	}
	u, err := Start(cfg)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	start := u.StartEvents(cfg)
	if err := u.Release(); err != nil {
		t.Fatal(err)
	}
	var ws unix.WaitStatus
	if _, err := unix.Wait4(u.PID, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := u.ExecError(ws.ExitStatus()); err != nil || ws.ExitStatus() != 0 {
		t.Fatalf("command: status %d, %v", ws.ExitStatus(), err)
	}
	out, _ := io.ReadAll(r)
	return parseLsFDs(t, string(out)), start
}

// parseLsFDs reads `ls -l /proc/PID/fd`: "lr-x------ 1 root root 64 ... 0 -> /dev/null".
func parseLsFDs(t *testing.T, out string) map[int]string {
	t.Helper()
	fds := map[int]string{}
	for _, line := range strings.Split(out, "\n") {
		link, target, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		f := strings.Fields(link)
		fd, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatalf("ls line %q", line)
		}
		fds[fd] = target
	}
	return fds
}

// TestOnlyStdAndKeptReachCommand: descriptors this process holds without
// close-on-exec (a /dev/null at 240 and at 200) do not reach a command
// started through the helper, nor do the helper's own pipes: it has 0, 1
// and 2. A kept descriptor reaches it at its number, 3 too, where the
// helper's pipe would otherwise be; and the start events name the
// descriptors it got.
func TestOnlyStdAndKeptReachCommand(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/sh"), testutil.Binary("ls"))
	inheritable(t, 240)
	inheritable(t, 200)
	if _, err := os.Readlink("/proc/self/fd/3"); err != nil {
		inheritable(t, 3)
	}
	three, err := os.Readlink("/proc/self/fd/3")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		keep []int
		want map[int]string // "": any target
	}{
		{"none kept", nil, map[int]string{0: "", 1: "", 2: ""}},
		{"240 kept", []int{240}, map[int]string{0: "", 1: "", 2: "", 240: os.DevNull}},
		{"3 kept", []int{3, 200}, map[int]string{0: "", 1: "", 2: "", 3: three, 200: os.DevNull}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, start := listFDs(t, c.keep)
			if len(got) != len(c.want) {
				t.Errorf("the command has descriptors %v, want %v", got, c.want)
			}
			for fd, target := range c.want {
				if g, ok := got[fd]; !ok || target != "" && g != target {
					t.Errorf("fd %d: %q (open: %v), want %q", fd, g, ok, target)
				}
			}
			var named []string
			for _, e := range start {
				if e.Kind == trace.StartFD {
					named = append(named, e.Name+"="+e.Value)
					if n, _ := strconv.Atoi(e.Name); got[n] != e.Value {
						t.Errorf("start event fd %s=%s, the command's fd %d is %q", e.Name, e.Value, n, got[n])
					}
				}
			}
			if len(named) != len(c.want) {
				t.Errorf("start events %v, want one per descriptor of %v", named, c.want)
			}
		})
	}
}

// TestMarkOthersOnExec: without close_range, every descriptor from 3 up
// but the kept ones is marked close-on-exec, one by one.
func TestMarkOthersOnExec(t *testing.T) {
	inheritable(t, 241)
	inheritable(t, 242)
	if err := markOthersOnExec(CommandFDs([]int{241})); err != nil {
		t.Fatal(err)
	}
	for fd, want := range map[int]int{241: 0, 242: unix.FD_CLOEXEC} {
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC != want {
			t.Errorf("fd %d: flags %#x, %v; want close-on-exec %#x", fd, flags, err, want)
		}
	}
}
