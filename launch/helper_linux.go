package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
)

// helperEnv marks a re-executed envbisect as the helper that becomes the
// target. Its value is the protocol version, so a stray variable in a
// user's environment is not mistaken for it.
const helperEnv = "ENVBISECT_HELPER"

const helperProtocol = "1"

// HelperMarker is the environment entry that marks the helper: a tracer
// that sees an exec whose environment holds it is seeing the helper's
// own exec of envbisect, not the command's.
const HelperMarker = helperEnv + "=" + helperProtocol

// helperFDEnv carries the number of the helper's first own descriptor:
// the configuration pipe (read: the helperConfig, written by the tracer
// after the seize); the error pipe (write, close-on-exec: why the exec
// failed) is the next. They come after the descriptors the command is
// given (helperFiles): 3 and 4 unless Config.KeepFDs names 3 or more.
const helperFDEnv = "ENVBISECT_HELPER_FD"

// defaultHelperFD is the helper's first own descriptor when no kept
// descriptor is in the way.
const defaultHelperFD = 3

// helperFDs returns the helper's configuration and error descriptors,
// as helperFDEnv names them.
func helperFDs() (cfgFD, errFD int) {
	cfgFD = defaultHelperFD
	if n, err := strconv.Atoi(os.Getenv(helperFDEnv)); err == nil && n >= 3 {
		cfgFD = n
	}
	return cfgFD, cfgFD + 1
}

// addrNoRandomize is personality(2)'s ADDR_NO_RANDOMIZE (not in x/sys).
const addrNoRandomize = 0x0040000

// personalityQuery, passed to personality(2), changes nothing and
// returns the current persona.
const personalityQuery = 0xffffffff

// helperConfig is what the tracer tells the helper.
type helperConfig struct {
	Path    string   `json:"path"`
	Argv    []string `json:"argv"`
	Env     []string `json:"env"`
	Seccomp bool     `json:"seccomp"` // install the filter
	Allow   []string `json:"allow"`   // calls the filter lets through
	// Stop, when not empty, turns the filter round: only these calls
	// stop (SECCOMP_RET_TRACE), every other runs (SECCOMP_RET_ALLOW),
	// and Allow is not used (Command.TraceOnly).
	Stop    []string `json:"stop,omitempty"`
	ASLR    bool     `json:"aslr"`    // leave address randomisation on
	NoPrivs bool     `json:"noprivs"` // set no_new_privs (needed without CAP_SYS_ADMIN)
	CPU     int      `json:"cpu"`     // pin the target to this CPU; -1: leave it
	// KeepFDs are descriptors the command gets besides 0, 1 and 2, at
	// their numbers (Config.KeepFDs); every other one is closed at the
	// exec.
	KeepFDs []int `json:"keepfds,omitempty"`
	// Umask and Limits set the state the command starts with (replay
	// of start items); Umask -1 leaves it.
	Umask  int           `json:"umask"`
	Limits []trace.Limit `json:"limits,omitempty"`
	// Signals are the signals the command starts with ignored and
	// blocked (signals_linux.go): set on the helper just before its
	// filters and exec.
	Signals trace.SignalSets `json:"signals"`
	// Exec, with Join, is the target's exec spec: the helper takes its
	// identity and filters before the exec (becomeTarget).
	Exec *trace.ExecSpec `json:"exec,omitempty"`
	// Sandbox, when set, gives the command a throwaway view of the file
	// system (package sandbox), entered before the exec.
	Sandbox *sandbox.Spec `json:"sandbox,omitempty"`
	// BundleFD, when not 0, is the helper's descriptor of the contents
	// Sandbox.Objects write (Config.Bundle), indexed by BundleIndex.
	BundleFD    int                 `json:"bundlefd,omitempty"`
	BundleIndex sandbox.BundleIndex `json:"bundleindex,omitempty"`
	// ViewFD, when not 0, is the helper's end of a unix socket on which
	// it sends its mount namespace once it has entered the sandbox: an
	// untraced run keeps the view for a check after the command exits
	// (RunUntraced), as the ptrace engine does at the exec stop.
	ViewFD int `json:"viewfd,omitempty"`
	// DieWithParent: the command is killed when the thread that started
	// the helper ends (PR_SET_PDEATHSIG), which RunUntraced keeps for the
	// run: an untraced command has no tracer whose death kills it
	// (PTRACE_O_EXITKILL), and must not outlive a SIGKILLed envbisect.
	// Parent is that thread's process, to see whether it ended before the
	// death signal was set.
	DieWithParent bool `json:"diewithparent,omitempty"`
	Parent        int  `json:"parent,omitempty"`
}

func init() {
	// The helper must make its seccomp and exec calls from the thread the
	// tracer seized: the main thread, which init runs on.
	if os.Getenv(helperEnv) == helperProtocol {
		runtime.LockOSThread()
	}
}

// MaybeRunHelper turns this process into the traced target when it was
// started as envbisect's helper, and never returns in that case. Call it
// first thing in main (and in TestMain of packages that trace).
func MaybeRunHelper() {
	if os.Getenv(helperEnv) != helperProtocol {
		return
	}
	cfgFD, errFD := helperFDs()
	unix.CloseOnExec(errFD) // a successful exec closes it: the tracer reads EOF
	errw := os.NewFile(uintptr(errFD), "helper-errors")
	fail := func(code int, err error) {
		fmt.Fprintf(errw, "%d %v", code, err)
		os.Exit(code)
	}
	if spec := os.Getenv(helperJoinEnv); spec != "" {
		// Enter the target first, before the tracer is told we are ready:
		// from then on /proc shows the target's root and cwd for us.
		if err := enterTarget(spec); err != nil {
			fail(126, err)
		}
		errw.WriteString(helperJoined)
	}
	cfgFile := os.NewFile(uintptr(cfgFD), "helper-config")
	raw, err := io.ReadAll(cfgFile)
	if err != nil || len(raw) == 0 {
		// The tracer went away before seizing us.
		os.Exit(126)
	}
	cfgFile.Close()
	var cfg helperConfig
	if err := decodeHelperConfig(raw, &cfg); err != nil {
		fail(126, fmt.Errorf("helper: bad configuration: %w", err))
	}
	if cfg.Path == "" && len(cfg.Argv) > 0 {
		// A joined command is looked up inside the target (Config.Join).
		p, err := lookPath(cfg.Argv[0], cfg.Env)
		if err != nil {
			fail(errExecCode(err, 127), err)
		}
		cfg.Path = p
	}
	if cfg.Sandbox != nil {
		// On the main thread, which init locked and which execs: the
		// namespace becomes the command's.
		if err := enterSandbox(&cfg); err != nil {
			fail(126, err)
		}
	} else if cfg.BundleFD > 0 {
		unix.Close(cfg.BundleFD)
	}
	if cfg.CPU >= 0 {
		var set unix.CPUSet
		set.Set(cfg.CPU)
		unix.SchedSetaffinity(0, &set)
	}
	if cfg.Umask >= 0 {
		unix.Umask(cfg.Umask)
	}
	for _, l := range cfg.Limits {
		rl := unix.Rlimit{Cur: l.Cur, Max: l.Max}
		if err := unix.Setrlimit(l.Resource, &rl); err != nil {
			fail(126, fmt.Errorf("set %s to %d %d: %w", trace.RlimitName(l.Resource), l.Cur, l.Max, err))
		}
	}
	if !cfg.ASLR {
		// personality(2) sets the whole persona: the one the helper
		// inherited (setarch's UNAME26, READ_IMPLIES_EXEC ...) is kept,
		// as the start events say (Command.StartEvents), with address
		// randomisation turned off on top.
		cur, _, e := unix.RawSyscall(unix.SYS_PERSONALITY, personalityQuery, 0, 0)
		if e != 0 {
			fail(126, fmt.Errorf("personality(0xffffffff): %w", e))
		}
		if _, _, e := unix.RawSyscall(unix.SYS_PERSONALITY, cur|addrNoRandomize, 0, 0); e != 0 {
			fail(126, fmt.Errorf("personality(ADDR_NO_RANDOMIZE): %w", e))
		}
	}
	// The signal dispositions last before the filters (which would send
	// the calls to the tracer) and the exec, once the helper has nothing
	// left for the Go runtime's signal handling to do.
	if err := setSignals(cfg.Signals); err != nil {
		fail(126, err)
	}
	// Only 0, 1, 2 and the kept descriptors reach the command, like docker
	// exec; before the filters, which would send close_range to the tracer.
	if err := closeOthersOnExec(cfg.KeepFDs); err != nil {
		fail(126, err)
	}
	if cfg.DieWithParent {
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
			fail(126, fmt.Errorf("prctl(PR_SET_PDEATHSIG): %w", err))
		}
		if os.Getppid() != cfg.Parent {
			os.Exit(126) // envbisect ended before the signal was set
		}
	}
	if err := becomeTarget(&cfg); err != nil {
		fail(126, err)
	}
	err = unix.Exec(cfg.Path, cfg.Argv, cfg.Env)
	code := 126
	if err == unix.ENOENT {
		code = 127
	}
	if why := explainExecEPERM(cfg.Path); err == unix.EPERM && why != "" {
		fail(code, fmt.Errorf("exec %s: %w: %s", cfg.Path, err, why))
	}
	fail(code, fmt.Errorf("exec %s: %w", cfg.Path, err))
}

// seccompFilter returns the filter that lets the allowed calls through
// and sends every other call to the tracer. It applies to the calling
// thread only (no TSYNC): the helper's other Go threads must not stop.
func seccompFilter(allow []string, noPrivs bool) seccomp.Filter {
	if len(allow) == 0 {
		// The library wants one group; restart_syscall carries no content.
		allow = []string{"restart_syscall"}
	}
	return seccomp.Filter{
		NoNewPrivs: noPrivs,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionTrace,
			Syscalls:      []seccomp.SyscallGroup{{Names: allow, Action: seccomp.ActionAllow}},
		},
	}
}

// stopOnlyFilter returns the filter that sends the calls named in stop
// to the tracer and lets every other call run, at native speed: the
// filter of a run that changes the answers of a few calls and records
// nothing (Command.TraceOnly).
func stopOnlyFilter(stop []string) seccomp.Filter {
	return seccomp.Filter{
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls:      []seccomp.SyscallGroup{{Names: stop, Action: seccomp.ActionTrace}},
		},
	}
}

// CheckSeccompFilter assembles the filter TraceAllBut installs, in the
// tracer, so that a name the filter library does not know is reported
// before anything runs.
func CheckSeccompFilter(allow []string) error {
	f := seccompFilter(allow, false)
	if _, err := f.Policy.Assemble(); err != nil {
		return fmt.Errorf("seccomp filter for %s: %w", strings.Join(allow, ","), err)
	}
	return nil
}

// CheckStopOnlyFilter assembles the filter TraceOnly installs, in the
// tracer, as CheckSeccompFilter does TraceAllBut's.
func CheckStopOnlyFilter(stop []string) error {
	if len(stop) == 0 {
		return errors.New("seccomp filter: no call to stop")
	}
	f := stopOnlyFilter(stop)
	if _, err := f.Policy.Assemble(); err != nil {
		return fmt.Errorf("seccomp filter stopping %s: %w", strings.Join(stop, ","), err)
	}
	return nil
}

// enterSandbox enters the helper's sandbox with its objects in place,
// their contents read from the bundle, which it then closes: the command
// never gets it. With a view socket it sends the sandbox's mount
// namespace on it; a view that cannot be sent is none (the check then
// runs outside, with a warning), not a failed run.
func enterSandbox(cfg *helperConfig) error {
	var contents sandbox.Contents
	if cfg.BundleFD > 0 {
		c, closer := sandbox.BundleAt(cfg.BundleFD, cfg.BundleIndex)
		defer closer.Close()
		contents = c
	}
	if _, err := sandbox.Enter(*cfg.Sandbox, contents); err != nil {
		return err
	}
	if cfg.ViewFD > 0 {
		if ns, err := unix.Open("/proc/thread-self/ns/mnt", unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
			unix.Sendmsg(cfg.ViewFD, []byte{1}, unix.UnixRights(ns), nil, 0)
			unix.Close(ns)
		}
		unix.Close(cfg.ViewFD)
	}
	return nil
}
