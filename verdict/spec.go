package verdict

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Spec says how a run is judged.
type Spec struct {
	// Check is a shell command (run with sh -c) whose exit status is the
	// verdict: after the command exits, or with Alive while it runs.
	Check string `json:"check,omitempty"`
	// Alive: the command must still be running after this long (a
	// daemon that came up); it is then stopped.
	Alive time.Duration `json:"alive_ns,omitempty"`
	// Timeout ends a run that lasts longer; it fails.
	Timeout time.Duration `json:"timeout_ns,omitempty"`
	// WaitChildren: the run lasts until every process the command
	// started has exited, not only its own (--wait-children).
	WaitChildren bool `json:"wait_children,omitempty"`
}

// Validate reports a Spec that cannot work, naming the flag.
func (s Spec) Validate() error {
	switch {
	case s.Alive < 0:
		return errors.New("--alive must be a positive duration (such as 2s)")
	case s.Alive > 0 && s.WaitChildren:
		return errors.New("--wait-children cannot go with --alive: with --alive, every process is stopped after the check")
	case s.Timeout < 0:
		return errors.New("--timeout must be a positive duration (such as 30s)")
	case s.Alive > 0 && s.Timeout > 0 && s.Timeout <= s.Alive:
		return fmt.Errorf("--timeout %s ends the run before --alive %s is reached: make it longer", s.Timeout, s.Alive)
	}
	return nil
}

// Watch is what the tracer must do while the command runs. Without
// Alive or WaitChildren, the run ends when the command's own process
// exits: background processes it left behind are stopped.
func (s Spec) Watch() trace.Watch {
	w := trace.Watch{Alive: s.Alive, Timeout: s.Timeout, EndWithRoot: s.Alive == 0 && !s.WaitChildren}
	if s.Alive > 0 && s.Check != "" {
		w.Check = []string{"/bin/sh", "-c", s.Check}
	}
	return w
}

// Outcome is a judged run.
type Outcome struct {
	Verdict Verdict
	// Detail says what decided it: "exit status 1", "check exited 0",
	// "timed out after 5s", "exited with status 1 before 2s".
	Detail string
	// CheckOutput is what the check printed, when one ran.
	CheckOutput string
	// Abortive: the status that decided the verdict is 128 or more, or
	// the command was killed by a signal (a crash, not a test failure).
	// The verdict is Fail; `git bisect run` would stop the bisection
	// there, which locate --abort-on-signal does.
	Abortive bool
}

// Judge returns the verdict of a finished run. A check that comes after
// the command's exit runs here, in dir with env.
func (s Spec) Judge(ctx context.Context, res *trace.RunResult, dir string, env []string) Outcome {
	switch {
	case res.TimedOut:
		return Outcome{Verdict: Fail, Detail: fmt.Sprintf("timed out after %s", s.Timeout)}
	case s.Alive > 0 && !res.AliveAt:
		return Outcome{Verdict: Fail, Detail: fmt.Sprintf("%s before %s", exitText(res), s.Alive)}
	case s.Alive > 0 && s.Check == "":
		return Outcome{Verdict: Pass, Detail: fmt.Sprintf("still running after %s", s.Alive)}
	case s.Alive > 0:
		return Outcome{Verdict: OfStatus(res.CheckStatus), Detail: fmt.Sprintf("check exited %d while running", res.CheckStatus),
			CheckOutput: res.CheckOutput, Abortive: Abortive(res.CheckStatus)}
	case s.Check != "":
		status, out := s.runCheck(ctx, dir, env)
		return Outcome{Verdict: OfStatus(status), Detail: fmt.Sprintf("check exited %d", status), CheckOutput: out, Abortive: Abortive(status)}
	}
	return Outcome{Verdict: OfStatus(res.ExitCode), Detail: exitText(res), Abortive: res.Signal != 0 || Abortive(res.ExitCode)}
}

// exitText says how the command ended: "exit status 1", "killed by
// SIGSEGV".
func exitText(res *trace.RunResult) string {
	if res.Signal != 0 {
		return "killed by " + systable.SignalName(res.Signal)
	}
	return fmt.Sprintf("exit status %d", res.ExitCode)
}

// runCheck runs the check after the command, bounded by the timeout.
func (s Spec) runCheck(ctx context.Context, dir string, env []string) (int, string) {
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", s.Check)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := out.String()
	if len(text) > 4096 {
		text = text[:4096]
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, text
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return AbortStatus + int(ws.Signal()), text // as a shell reports it
		}
		return ee.ExitCode(), text
	}
	return 127, strings.TrimSpace(text + "\n" + err.Error())
}
