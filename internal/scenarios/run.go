package scenarios

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Result is how one command ended.
type Result struct {
	Argv           []string
	Code           int // exit status; 128+N when killed by signal N; -1 when it could not run
	Stdout, Stderr []byte
	Elapsed        time.Duration
	// Err is set when the command could not be started or had to be
	// killed (timed out); a plain non-zero exit is not an error.
	Err error
}

// String sums the result up for a test failure: the command, how it
// ended, and its output.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\n", shellQuote(r.Argv))
	if r.Err != nil {
		fmt.Fprintf(&b, "error: %v\n", r.Err)
	}
	fmt.Fprintf(&b, "exit status %d after %v\n", r.Code, r.Elapsed.Round(time.Millisecond))
	if len(r.Stdout) > 0 {
		fmt.Fprintf(&b, "--- stdout\n%s", ensureNL(r.Stdout))
	}
	if len(r.Stderr) > 0 {
		fmt.Fprintf(&b, "--- stderr\n%s", ensureNL(r.Stderr))
	}
	return b.String()
}

func ensureNL(b []byte) string {
	s := string(b)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// shellQuote renders argv for reading and pasting into a shell.
func shellQuote(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			q[i] = a
			continue
		}
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// Run runs argv with env (nil: this process's) and waits up to timeout.
// The command gets a process group of its own, which is killed as a whole
// when the time is up, so that a hung server does not outlive the run.
func Run(ctx context.Context, timeout time.Duration, env []string, argv ...string) Result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A background process that keeps the output pipes open must not keep
	// Wait waiting forever.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := Result{Argv: argv, Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Elapsed: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil:
		r.Code = exitStatus(ee)
	case errors.As(err, &ee):
		r.Code = exitStatus(ee)
		r.Err = fmt.Errorf("killed after %v: %w", timeout, ctx.Err())
	default:
		r.Code, r.Err = -1, err
	}
	return r
}

func exitStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// HoldPort listens on 127.0.0.1:port, so that a server of the command
// cannot bind it, until release is called. It is an Occupy function.
func HoldPort(w *Work) (release func(), err error) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", w.Port))
	if err != nil {
		return nil, fmt.Errorf("hold port %d: %w", w.Port, err)
	}
	return func() { l.Close() }, nil
}

// RunIn runs argv (one of the scenario's *Argv commands for side) with the
// environment Environ(side) and, for the bad side, while Hold holds.
func (s *Scenario) RunIn(ctx context.Context, side Side, w *Work, timeout time.Duration, argv []string) (Result, error) {
	release := func() {}
	if side == Bad {
		var err error
		if release, err = s.Hold(w); err != nil {
			return Result{Argv: argv, Code: -1, Err: err}, err
		}
	}
	defer release()
	return Run(ctx, timeout, s.Environ(side), argv...), nil
}
