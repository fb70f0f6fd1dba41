package replay

import (
	"errors"
	"fmt"
	"os"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// Spec is one materialized run as data: where it runs, the command, the
// start items and the objects of the good environment it puts in place,
// and how it is judged. Execute carries it out; it encodes as JSON (the
// unit a parallel or remote executor will run), with the content of the
// objects' writes named by their SHA-256 and given apart (Contents).
// JSON carries text: an argument or variable that is not UTF-8 does not
// survive it.
type Spec struct {
	// Join is the environment the run belongs to: nil for this machine,
	// as envbisect sees it; else the container or process whose
	// namespaces, root and exec spec the command joins (as --container and
	// --pid resolve it). It is also the run's Bound: no start item takes
	// the command beyond it (launch.BoundFor).
	Join *trace.Join `json:"join,omitempty"`
	// Argv is the command, argv[0] included; looked up in PATH (inside
	// the target with Join).
	Argv []string `json:"argv"`
	// Env is the command's environment before the start items; nil:
	// envbisect's own (with Join: give the target's).
	Env []string `json:"env"`
	// Dir is its working directory; "": envbisect's own (with Join: the
	// target's, "/" when not told).
	Dir string `json:"dir,omitempty"`
	// Start are the start items put in place, each with its good value
	// (A; nil A: an environment variable the good run did not have):
	// environment variables, umask, resource limits (as far as the Bound
	// lets a run set them), the working directory (in the sandbox), and,
	// with Join's exec spec, ids, groups, capability sets and
	// no_new_privs. As replay's Options.Start; an identity item in a run
	// without an exec spec is refused (a plain run keeps envbisect's
	// identity).
	Start []align.StartDiff `json:"start,omitempty"`
	// Sandbox is the run's throwaway view of the file system, with the
	// objects to put in place (Sandbox.Objects) and the paths it shares
	// on purpose (Persist). Every materialized run has one.
	Sandbox sandbox.Spec `json:"sandbox"`
	// Judge says how the run is judged.
	Judge verdict.Spec `json:"judge"`
	// CPU pins the command to this CPU, -1: it runs where envbisect may
	// (launch.Config.CPU).
	CPU int `json:"cpu"`
	// ASLR leaves address randomisation on; off, as in record and replay,
	// by default.
	ASLR bool `json:"aslr,omitempty"`
	// KeepFDs are descriptors of the executor's own that the command gets
	// too, at the same numbers (--keep-fds).
	KeepFDs []int `json:"keep_fds,omitempty"`
	// Uname are fields of uname's answer put in place, by name as
	// trace.StartUname's items name them ("release", "version"): the
	// kernel's answer, which no namespace gives. With any, the command
	// runs under the ptrace engine stopped only at the calls that answer
	// with them (kernelnames.go); without, it runs untraced.
	Uname map[string]string `json:"uname,omitempty"`
}

// Validate reports a Spec that cannot run.
func (s *Spec) Validate() error {
	if len(s.Argv) == 0 {
		return errors.New("materialized run: no command given")
	}
	if err := s.Judge.Validate(); err != nil {
		return fmt.Errorf("materialized run: %w", err)
	}
	if err := s.Sandbox.Validate(); err != nil {
		return fmt.Errorf("materialized run: %w", err)
	}
	return validUname(s.Uname)
}

// Attach is what ties a run to the process that executes it and is not
// data: the descriptors the command gets, the signals envbisect receives,
// and where warnings go. The zero Attach gives the command envbisect's
// own 0, 1 and 2.
type Attach struct {
	Stdin, Stdout, Stderr *os.File
	// Interrupt delivers the signals envbisect received: the first is
	// passed on to the command, a second ends the run
	// (launch.ForwardInterrupts).
	Interrupt <-chan os.Signal
	Warn      func(string)
}

// Outcome is what one materialized run did and how it was judged. There
// is no taint: the command met only real objects.
type Outcome struct {
	Verdict     verdict.Verdict `json:"verdict"`
	Detail      string          `json:"detail"`
	CheckOutput string          `json:"check_output,omitempty"`
	// Abortive: the deciding status was 128 or more or a signal
	// (verdict.Outcome.Abortive).
	Abortive bool `json:"abortive,omitempty"`
	ExitCode int  `json:"exit_code"`
	Signal   int  `json:"signal,omitempty"`
	TimedOut bool `json:"timed_out,omitempty"`
	// LeftRunning are the executables of the processes the command left
	// running when it exited, which the run ended.
	LeftRunning []string `json:"left_running,omitempty"`
	Seconds     float64  `json:"seconds"`
	// Stops are, for a run that put a kernel answer in place
	// (Spec.Uname), the calls that stopped the command, by name, and
	// Stopped how many did; nil for an untraced run.
	Stops   []string `json:"stops,omitempty"`
	Stopped int      `json:"stopped,omitempty"`
}
