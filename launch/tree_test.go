package launch

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestTreeMembers: the tree walked down through /proc/PID/task/TID/
// children holds the command and its descendants (a grandchild of a
// subshell included), not a child this process had before, and is the
// tree every /proc/PID/stat gives (membersByScan); once the command's
// processes are killed and reaped it is empty.
func TestTreeMembers(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/sh"), testutil.Binary("sleep"))
	if _, _, ok := procChildren(os.Getpid()); !ok {
		t.Skip("this kernel has no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): Members reads every /proc/PID/stat")
	}
	other := exec.Command("sleep", "100")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		other.Process.Kill()
		other.Wait()
	}()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The command: sh, a subshell running sleep (a grandchild), and a
	// sleep of its own; it says when all of them are up.
	cmd := exec.Command("/bin/sh", "-c", `(sleep 100 & echo $! >&3; wait) & sleep 100 & echo $! >&3; wait`)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	tree := NewTree(cmd.Process.Pid)
	var buf [64]byte
	var got strings.Builder
	for strings.Count(got.String(), "\n") < 2 {
		n, err := r.Read(buf[:])
		if err != nil {
			t.Fatalf("wait for the command's processes: %v (read %q)", err, got.String())
		}
		got.Write(buf[:n])
	}
	members := tree.Members()
	for _, f := range append(strings.Fields(got.String()), strconv.Itoa(cmd.Process.Pid)) {
		pid, _ := strconv.Atoi(f)
		if !slices.Contains(members, pid) {
			t.Errorf("members %v: want process %d of the command", members, pid)
		}
	}
	if len(members) != 4 {
		t.Errorf("members %v: want sh, its subshell and two sleeps", members)
	}
	if slices.Contains(members, other.Process.Pid) {
		t.Errorf("members %v hold %d, a child this process had before", members, other.Process.Pid)
	}
	if scan := tree.membersByScan(os.Getpid(), 0); !slices.Equal(members, scan) {
		t.Errorf("members %v; from every /proc/PID/stat: %v", members, scan)
	}
	tree.Kill()
	if !tree.Killed() {
		t.Error("Killed after Kill: false")
	}
	cmd.Wait()
	// The sleeps are no children of this process (no subreaper here):
	// they are gone once the kernel has killed them.
	limit := time.Now().Add(10 * time.Second)
	for len(tree.Members()) > 0 && time.Now().Before(limit) {
		time.Sleep(10 * time.Millisecond)
	}
	if m := tree.Members(); len(m) != 0 {
		t.Errorf("members after Kill and the command's end: %v", m)
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the other child is gone: %v", err)
	}
}

// BenchmarkTreeMembers is what listing a command's tree costs (Kill and
// Executables do it, the eBPF recorder at the command's exit), here with
// an exited command: the walk down through /proc/PID/task/TID/children
// against reading every /proc/PID/stat.
//
//	go test -run XXX -bench TreeMembers ./launch/
func BenchmarkTreeMembers(b *testing.B) {
	if _, _, ok := procChildren(os.Getpid()); !ok {
		b.Skip("no /proc/PID/task/TID/children")
	}
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	tree := NewTree(cmd.Process.Pid)
	b.Run("children", func(b *testing.B) {
		for b.Loop() {
			tree.Members()
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			tree.membersByScan(os.Getpid(), 0)
		}
	})
}
