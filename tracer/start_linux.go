package tracer

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// helperError turns the helper's report ("127 exec /x: no such file")
// into an ExecError.
func helperError(msg string, status int) error {
	code, text, ok := strings.Cut(msg, " ")
	if n, err := strconv.Atoi(code); ok && err == nil {
		return &ExecError{Code: n, Msg: text}
	}
	return &ExecError{Code: 126, Msg: fmt.Sprintf("the command did not start (helper exited with status %d)", status)}
}

// startHelper starts envbisect's own binary as the helper, stopped on a
// read of its configuration pipe.
func (s *session) startHelper() (pid int, cfgW, errR *os.File, err error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return 0, nil, nil, fmt.Errorf("helper pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return 0, nil, nil, fmt.Errorf("helper pipe: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	std := func(f, def *os.File) uintptr {
		if f != nil {
			return f.Fd()
		}
		return def.Fd()
	}
	attr := &syscall.ProcAttr{
		Dir: s.cfg.Dir,
		Env: append(withoutHelperMarker(s.cfg.Env), helperEnv+"="+helperProtocol),
		Files: []uintptr{
			std(s.cfg.Stdin, os.Stdin), std(s.cfg.Stdout, os.Stdout), std(s.cfg.Stderr, os.Stderr),
			cfgR.Fd(), errW.Fd(),
		},
	}
	pid, err = syscall.ForkExec(self, []string{"envbisect-helper"}, attr)
	cfgR.Close()
	errW.Close()
	if err != nil {
		cfgW.Close()
		errR.Close()
		return 0, nil, nil, fmt.Errorf("start helper %s: %w", self, err)
	}
	return pid, cfgW, errR, nil
}

func (s *session) sendHelperConfig(w *os.File, allow []string) error {
	hc := helperConfig{Path: s.cfg.Path, Argv: s.cfg.Argv, Env: withoutHelperMarker(s.cfg.Env), ASLR: s.cfg.ASLR, NoPrivs: os.Geteuid() != 0, CPU: s.cfg.CPU,
		Umask: -1, Limits: s.cfg.Limits}
	if s.cfg.Umask != nil {
		hc.Umask = int(*s.cfg.Umask)
	}
	if s.seccomp {
		hc.Seccomp, hc.Allow = true, allow
	}
	b, err := json.Marshal(hc)
	if err == nil {
		_, err = w.Write(b)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("configure helper: %w", err)
	}
	return nil
}

// withoutHelperMarker copies env without the helper's variable, so that a
// command that is itself envbisect (or inherited the variable) is never
// mistaken for the helper.
func withoutHelperMarker(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, helperEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}
