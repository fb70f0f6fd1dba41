package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// inWorkNS runs f on a thread of its own in a mount namespace of its own,
// with a tmpfs mounted on a fresh directory (the work tree, given to f).
// Processes f starts are in that namespace too; the host never sees the
// tmpfs or anything mounted in it. The thread ends with f, and the
// namespace with it.
func inWorkNS(t *testing.T, f func(work string) error) {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"))
	work := t.TempDir()
	errc := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	var onThread func()
	onThread = func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if unix.Gettid() == unix.Getpid() {
			// Go parks the main thread instead of ending it: keep it busy,
			// and work on another.
			go onThread()
			<-done
			runtime.UnlockOSThread()
			return
		}
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			errc <- fmt.Errorf("unshare: %w", err)
			return
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			errc <- fmt.Errorf("make private: %w", err)
			return
		}
		if err := unix.Mount("work", work, "tmpfs", 0, "mode=0755"); err != nil {
			errc <- fmt.Errorf("mount the work tree: %w", err)
			return
		}
		errc <- f(work)
	}
	go onThread()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// sandboxed is one run of a shell script in a sandbox.
type sandboxed struct {
	code           int
	stdout, stderr string
}

// runSandboxed runs script with sh -c in a sandbox built as spec says, in
// directory dir; it must be called from inWorkNS's f.
func runSandboxed(spec Spec, dir, script string) (sandboxed, error) {
	self, err := os.Executable()
	if err != nil {
		return sandboxed{}, err
	}
	b, _ := json.Marshal(spec)
	cmd := exec.Command(self)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childSpecEnv+"="+string(b), childScriptEnv+"="+script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	r := sandboxed{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	if r.code == 125 {
		return r, fmt.Errorf("the sandbox could not be made: %s", r.stderr)
	}
	return r, err
}

// treeHash hashes every name, mode, owner, size, link target and content
// under dir.
func treeHash(dir string) (string, error) {
	h := sha256.New()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	for _, p := range names {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %o %d %d %d\n", p, st.Mode, st.Uid, st.Gid, st.Size)
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			b, err := os.ReadFile(p)
			if err != nil {
				return "", err
			}
			h.Write(b)
		case unix.S_IFLNK:
			l, _ := os.Readlink(p)
			fmt.Fprintln(h, l)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// mountTable is this thread's mount table, as /proc/thread-self/mountinfo
// reads.
func mountTable() (string, error) {
	b, err := os.ReadFile("/proc/thread-self/mountinfo")
	return string(b), err
}

// waitFor polls cond for up to 10s.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// lineDiff returns the lines of a that b does not have.
func lineDiff(a, b string) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(b, "\n") {
		have[l] = true
	}
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !have[l] {
			out = append(out, l)
		}
	}
	return out
}
