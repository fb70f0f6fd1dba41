package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
)

// ExecError reports that the helper could not exec the command.
type ExecError struct {
	Code int // 127: not found, 126: found but not executable
	Msg  string
}

func (e *ExecError) Error() string { return e.Msg }

// helperError turns the helper's report ("127 exec /x: no such file")
// into an ExecError.
func helperError(msg string, status int) error {
	code, text, ok := strings.Cut(msg, " ")
	if n, err := strconv.Atoi(code); ok && err == nil {
		return &ExecError{Code: n, Msg: text}
	}
	return &ExecError{Code: 126, Msg: fmt.Sprintf("the command did not start (helper exited with status %d)", status)}
}

// helperProc is a started helper, blocked on a read of its
// configuration pipe until release.
type helperProc struct {
	pid  int
	exe  string   // the helper's own executable, as its execve named it
	cfgW *os.File // the tracer writes the helperConfig here
	errR *os.File // EOF after a successful exec, else "<code> <message>"
	// bundleFD and viewFD are the helper's numbers of Config.Bundle and
	// of its end of the view socket; 0: none.
	bundleFD, viewFD int
	// view is our end of the view socket, nil without one.
	view *os.File
}

// spawnOptions are what a caller of spawnHelper inside this package
// asks for besides cfg.
type spawnOptions struct {
	// viewSocket: the helper sends its sandbox's mount namespace on a
	// socket (helperConfig.ViewFD).
	viewSocket bool
}

// spawnHelper starts envbisect's own binary as the helper, stopped on a
// read of its configuration pipe.
func spawnHelper(cfg *Config, opts spawnOptions) (*helperProc, error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("helper pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return nil, fmt.Errorf("helper pipe: %w", err)
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
	// The command's descriptors at their numbers, then the helper's own
	// (fds_linux.go).
	files := helperFiles([3]uintptr{std(cfg.Stdin, os.Stdin), std(cfg.Stdout, os.Stdout), std(cfg.Stderr, os.Stderr)}, cfg.KeepFDs)
	attr := &syscall.ProcAttr{
		Dir:   cfg.Dir,
		Env:   append(withoutHelperMarker(cfg.Env), helperEnv+"="+helperProtocol, helperFDEnv+"="+strconv.Itoa(len(files))),
		Files: append(files, cfgR.Fd(), errW.Fd()),
	}
	// The helper's other descriptors follow its pipes: the objects'
	// contents, our view socket's other end.
	h := &helperProc{exe: self, cfgW: cfgW, errR: errR}
	var viewTheirs *os.File
	closeOurs := func() {
		for _, f := range []*os.File{cfgR, cfgW, errR, errW, h.view, viewTheirs} {
			if f != nil {
				f.Close()
			}
		}
	}
	if cfg.Bundle != nil {
		h.bundleFD = len(attr.Files)
		attr.Files = append(attr.Files, cfg.Bundle.File().Fd())
	}
	if opts.viewSocket {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			closeOurs()
			return nil, fmt.Errorf("helper view socket: %w", err)
		}
		h.view, viewTheirs = os.NewFile(uintptr(fds[0]), "view"), os.NewFile(uintptr(fds[1]), "view-helper")
		h.viewFD = len(attr.Files)
		attr.Files = append(attr.Files, viewTheirs.Fd())
	}
	var jf *joinFiles
	if cfg.Join != nil {
		// Into a container (joinspawn_linux.go): the helper is born in its pid
		// namespace and cgroup, and enters the rest itself.
		if jf, err = openJoin(cfg); err == nil {
			defer jf.close()
			err = jf.prepare(attr)
		}
		if err != nil {
			closeOurs()
			return nil, err
		}
	}
	var pid int
	if jf != nil {
		pid, err = jf.forkExec(self, []string{"envbisect-helper"}, attr)
	} else {
		pid, err = syscall.ForkExec(self, []string{"envbisect-helper"}, attr)
	}
	cfgR.Close()
	errW.Close()
	if viewTheirs != nil {
		viewTheirs.Close()
	}
	if err != nil {
		cfgW.Close()
		errR.Close()
		h.closeView()
		return nil, fmt.Errorf("start helper %s: %w", self, err)
	}
	h.pid = pid
	if jf != nil {
		if err := h.awaitJoined(cfg.Join); err != nil {
			cfgW.Close()
			errR.Close()
			h.closeView()
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
			return nil, err
		}
	}
	return h, nil
}

// closeView closes our end of the view socket, if any.
func (h *helperProc) closeView() {
	if h.view != nil {
		h.view.Close()
		h.view = nil
	}
}

// receiveView returns the mount namespace the helper sent on the view
// socket once it entered its sandbox, or nil when it sent none (it never
// got that far); either way it closes the socket. The namespace waits in
// the socket, held by the kernel, also after the helper and the command
// are gone.
func (h *helperProc) receiveView() *os.File {
	if h.view == nil {
		return nil
	}
	defer h.closeView()
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(int(h.view.Fd()), buf, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) == 0 {
		return nil
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) == 0 {
		return nil
	}
	for _, fd := range fds[1:] {
		unix.Close(fd)
	}
	return os.NewFile(uintptr(fds[0]), "mnt-namespace")
}

// helperConfigFor is what the helper is told for cfg; seccompAllow, when
// not nil, installs the filter that lets those calls through.
func helperConfigFor(cfg *Config, h *helperProc, seccompAllow []string) helperConfig {
	hc := helperConfig{Path: cfg.Path, Argv: cfg.Argv, Env: withoutHelperMarker(cfg.Env), ASLR: cfg.ASLR, NoPrivs: os.Geteuid() != 0, CPU: cfg.CPU,
		Umask: -1, Limits: cfg.Limits, Sandbox: cfg.Sandbox, KeepFDs: cfg.KeepFDs, BundleFD: h.bundleFD, ViewFD: h.viewFD}
	if cfg.Bundle != nil {
		hc.BundleIndex = cfg.Bundle.Index()
	}
	if cfg.Umask != nil {
		hc.Umask = int(*cfg.Umask)
	}
	hc.Signals = CallerSignals()
	if cfg.Signals != nil {
		hc.Signals = *cfg.Signals
	}
	if cfg.Join != nil && cfg.Join.Exec != nil {
		hc.Exec, hc.Limits = cfg.Join.Exec, withSpecLimits(cfg.Join.Exec, cfg.Limits)
	} else if cfg.Identity != nil {
		hc.Exec = plainExec(*cfg.Identity, hc.NoPrivs && seccompAllow != nil)
	}
	if seccompAllow != nil {
		hc.Seccomp, hc.Allow = true, seccompAllow
	}
	return hc
}

// release sends the helper its configuration: it then execs the command.
//
// The configuration holds the command's arguments and environment, which
// may be megabytes, and a pipe holds 64 KiB: the helper reads it under
// the tracer, at stops the tracer must answer, so a tracer blocked in the
// write would wait for itself. The pipe is grown to fit where the kernel
// allows (fs.pipe-max-size), and what still does not fit is written by a
// goroutine while the tracer goes on; a failed write shows as the helper's
// "bad configuration" exit.
func (h *helperProc) release(hc helperConfig) error {
	b, err := encodeHelperConfig(hc)
	if err != nil {
		h.cfgW.Close()
		return fmt.Errorf("configure helper: %w", err)
	}
	if n, err := unix.FcntlInt(h.cfgW.Fd(), unix.F_GETPIPE_SZ, 0); err == nil && n < len(b) {
		unix.FcntlInt(h.cfgW.Fd(), unix.F_SETPIPE_SZ, len(b)) // best effort
	}
	if n, err := unix.FcntlInt(h.cfgW.Fd(), unix.F_GETPIPE_SZ, 0); err == nil && n >= len(b) {
		_, err := h.cfgW.Write(b)
		if cerr := h.cfgW.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("configure helper: %w", err)
		}
		return nil
	}
	go func(w *os.File) {
		w.Write(b)
		w.Close()
	}(h.cfgW)
	return nil
}

// execError reads the helper's report once it has exec'd or exited: nil
// when the exec succeeded.
func (h *helperProc) execError(status int) error {
	msg, _ := io.ReadAll(h.errR)
	if len(msg) == 0 {
		return nil
	}
	return helperError(string(msg), status)
}

// NotStarted is the error of a command whose helper exited with status
// (as a shell reports it) before the exec, without saying why.
func NotStarted(status int) error { return helperError("", status) }

// Command is a command started through the helper: the helper waits,
// blocked on its configuration pipe before the exec, until Release. The
// caller is its parent and reaps it; a tracer seizes PID before Release.
type Command struct {
	PID int // the helper's pid; the command keeps it across the exec
	h   *helperProc
	hc  helperConfig
}

// Start starts cfg's command through the helper, stopped before its exec
// (cfg.Table, Observer and the recording options are not used). With
// cfg.Path empty the helper looks Argv[0] up in the PATH of cfg.Env
// (inside the target with Join).
func Start(cfg *Config) (*Command, error) {
	return start(cfg, spawnOptions{})
}

// start is Start with this package's options.
func start(cfg *Config, opts spawnOptions) (*Command, error) {
	if len(cfg.Argv) == 0 {
		return nil, errors.New("launch: Start needs Argv")
	}
	if err := cfg.withinBound(); err != nil {
		return nil, err
	}
	if err := CheckKeepFDs(cfg.KeepFDs); err != nil {
		return nil, fmt.Errorf("keep descriptors for the command: %w", err)
	}
	if err := cfg.checkObjects(); err != nil {
		return nil, err
	}
	h, err := spawnHelper(cfg, opts)
	if err != nil {
		return nil, err
	}
	return &Command{PID: h.pid, h: h, hc: helperConfigFor(cfg, h, nil)}, nil
}

// checkObjects refuses a run whose objects write content the bundle
// does not hold, before anything starts.
func (cfg *Config) checkObjects() error {
	if cfg.Sandbox == nil {
		if cfg.Bundle != nil {
			return errors.New("launch: a bundle of objects' contents without a sandbox to put them in")
		}
		return nil
	}
	hashes := sandbox.ContentHashes(cfg.Sandbox.Objects)
	if len(hashes) > 0 && (cfg.Bundle == nil || !cfg.Bundle.Has(hashes)) {
		return errors.New("launch: the run's objects write contents its bundle does not hold (sandbox.NewBundle)")
	}
	return nil
}

// TraceAllBut makes the helper install, on the thread that execs, a
// seccomp filter that lets the calls named in allow run and sends every
// other call to the tracer (SECCOMP_RET_TRACE). Call it before Release.
func (u *Command) TraceAllBut(allow []string) { u.hc.Seccomp, u.hc.Allow = true, allow }

// TraceOnly makes the helper install, on the thread that execs, a
// seccomp filter that sends the calls named in stop to the tracer and
// lets every other call run untouched (SECCOMP_RET_ALLOW): the command
// runs at native speed but for those calls. Call it before Release; stop
// must not be empty (CheckStopOnlyFilter).
func (u *Command) TraceOnly(stop []string) { u.hc.Seccomp, u.hc.Allow, u.hc.Stop = true, nil, stop }

// StartEvents returns the state the command will start with, read from
// the helper before Release and completed with what the helper sets
// before its exec (umask, limits, personality, signal dispositions). The open-files limit is
// the one the exec restores (commandNofile), not the helper's own, which
// its Go runtime raised. The auxiliary vector is left out: it exists only
// once the command's image is in. Call it before Release (commandNofile
// waits for a child of its own).
func (u *Command) StartEvents(cfg *Config) []trace.StartEvent {
	var out []trace.StartEvent
	for _, e := range ReadStartEvents(cfg, u.PID) {
		switch {
		case e.Kind == trace.StartAuxv || e.Kind == trace.StartSignal:
			continue // the signals: what the helper sets, below
		case e.Kind == trace.StartUmask && u.hc.Umask >= 0:
			e.Value = fmt.Sprintf("%04o", u.hc.Umask)
		case e.Kind == trace.StartPersonality && !u.hc.ASLR:
			if v, err := strconv.ParseUint(strings.TrimPrefix(e.Value, "0x"), 16, 64); err == nil {
				e.Value = "0x" + strconv.FormatUint(v|addrNoRandomize, 16)
			}
		case e.Kind == trace.StartRlimit:
			if e.Name == trace.RlimitName(unix.RLIMIT_NOFILE) {
				// The helper, a Go program, raised its own soft limit;
				// its exec restores what envbisect's children inherit.
				if rl, err := commandNofile(); err == nil {
					e.Value = trace.LimitValue(rl.Cur) + " " + trace.LimitValue(rl.Max)
				}
			}
			for _, l := range u.hc.Limits {
				if trace.RlimitName(l.Resource) == e.Name {
					e.Value = trace.LimitValue(l.Cur) + " " + trace.LimitValue(l.Max)
				}
			}
		}
		out = append(out, e)
	}
	return append(out, u.hc.Signals.Events()...)
}

// HelperExe is the path the helper was exec'd by: an observer that
// starts watching while that exec may still be under way sees it, and
// must not take it for the command's.
func (u *Command) HelperExe() string { return u.h.exe }

// Release lets the helper exec the command.
func (u *Command) Release() error { return u.h.release(u.hc) }

// Abort makes a helper that was not released exit without running
// anything; the caller still reaps it.
func (u *Command) Abort() {
	u.h.cfgW.Close()
	u.h.closeView()
}

// ExecError returns why the command could not be exec'd, once the helper
// has exited with status (as a shell reports it), or nil if it was. It
// closes the helper's error pipe.
func (u *Command) ExecError(status int) error {
	defer u.h.errR.Close()
	return u.h.execError(status)
}

// Close closes the helper's error pipe, for a caller that does not ask
// ExecError (the command exec'd).
func (u *Command) Close() { u.h.errR.Close() }

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
