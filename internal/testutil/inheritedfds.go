package testutil

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// RunWithFDs runs argv with its output captured and, besides 0, 1 and 2,
// descriptors at the numbers fds (3 or more), each open on /dev/null
// without close-on-exec, as a shell's `exec 251</dev/null` or a CI
// runner leaves them to what it starts. It returns the exit status
// (128+N for signal N) and the output; it fails t when argv does not run
// to its end within ScriptTimeout.
func RunWithFDs(t *testing.T, fds []int, argv ...string) (code int, stdout, stderr string) {
	t.Helper()
	var extra []*os.File
	for _, fd := range fds {
		if fd < 3 {
			t.Fatalf("RunWithFDs: fd %d: give 3 or more", fd)
		}
		for len(extra) < fd-3+1 {
			extra = append(extra, nil)
		}
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		extra[fd-3] = f
	}
	limit := ScriptTimeout(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.ExtraFiles = extra // entry i is fd 3+i; nil entries are closed
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = pipeGrace
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s: still running after %v: killed\nstdout:\n%s\nstderr:\n%s", strings.Join(argv, " "), limit, &out, &errb)
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), out.String(), errb.String()
		}
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	return 0, out.String(), errb.String()
}

// ListedFDs reads what `ls -l /proc/PID/fd` printed (GNU's or busybox's
// format: "lr-x------ 1 root root 64 ... 3 -> /dev/null") and returns the
// descriptor numbers it lists, sorted, and what each names.
func ListedFDs(out string) ([]int, map[int]string) {
	targets := map[int]string{}
	var fds []int
	for _, line := range strings.Split(out, "\n") {
		link, target, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		f := strings.Fields(link)
		if len(f) == 0 {
			continue
		}
		fd, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			continue
		}
		fds = append(fds, fd)
		targets[fd] = target
	}
	slices.Sort(fds)
	return fds, targets
}
