package launch

import (
	"os"

	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Config says what to run, how it starts, how the run is watched, and
// what a recorder of either backend (package ptrace, package ebpfrec)
// does with what it sees.
type Config struct {
	Path string   // the executable, already looked up in PATH; "" with Join: looked up inside
	Argv []string // argv[0] included
	Env  []string // the target's environment
	Dir  string   // working directory; "" for envbisect's own (with Join: inside, "" is /)

	// Join, when set, runs the command inside another process's
	// namespaces and root (a container), like docker exec.
	Join *trace.Join

	Table *systable.Table
	ASLR  bool // leave address randomisation on

	MaxCapture uint64   // bytes kept per buffer; 0 = all
	Exclude    []string // globs of paths whose contents stay out of the trace

	// CPU pins the tracer thread and the command (and so everything it
	// starts) to one CPU; -1 leaves both free. See DefaultCPU.
	CPU int

	Stdin, Stdout, Stderr *os.File // nil: envbisect's own
	// KeepFDs are descriptors of envbisect's own that the command gets
	// too, at the same numbers (--keep-fds). Every other descriptor but
	// 0, 1 and 2 stays out of the command, like docker exec, whatever
	// envbisect inherited (fds_linux.go).
	KeepFDs []int

	// Sandbox, when set, runs the command in a throwaway view of the file
	// system (package sandbox): the helper enters it before the exec, so
	// nothing the command writes outside Sandbox.Persist survives it.
	Sandbox *sandbox.Spec
	// Bundle, with Sandbox.Objects, holds the contents their writes name
	// (sandbox.NewBundle): the helper gets it as a descriptor, reads
	// what it writes into the view, and closes it before the exec. The
	// caller closes it after the run.
	Bundle *sandbox.Bundle
	// View, with Sandbox, is handed the run's mount namespace (the
	// command's /proc/PID/ns/mnt, opened at its exec): while the receiver
	// keeps it open, the run's view of the file system outlives the
	// command, so that a check made after the command exits can read
	// what the command wrote (InView). The receiver closes it.
	View func(ns *os.File)

	// Umask and Limits, when set, replace the umask and resource limits
	// the command would inherit from envbisect.
	Umask  *uint32
	Limits []trace.Limit
	// Signals, when set, are the signals the command starts with ignored
	// and blocked, instead of those envbisect's caller gave envbisect
	// (CallerSignals).
	Signals *trace.SignalSets

	// Identity, in a plain run (no Join.Exec), is the identity the
	// command starts with instead of envbisect's own: its ids, groups,
	// capability sets and no_new_privs (plainidentity.go). nil: it
	// inherits envbisect's. Start refuses one beyond Bound or beyond what
	// envbisect itself can set (PlainReach).
	Identity *trace.ExecSpec

	// Bound, when set, is the most the command may hold (bound.go): the
	// identity of the environment the run belongs to. Start refuses a
	// Join.Exec or Limits beyond it, whatever asked for them. A run that
	// replays a recorded identity sets it to its environment's own
	// (BoundFor of the Join before the recorded items were applied).
	Bound *Bound

	// Observer receives the start events and every event, in order, on the
	// recorder's thread: it must not block for long.
	Observer Observer
	// Watch says when the run ends and what is checked while it runs.
	Watch trace.Watch

	// Interrupt delivers signals envbisect received: the first is passed
	// on to the command, a second kills every traced process.
	Interrupt <-chan os.Signal
	// Warn reports a condition worth telling the user once.
	Warn func(msg string)
}

// Observer receives what a recorder sees.
type Observer interface {
	Start(ev []trace.StartEvent)
	Event(ev trace.Event)
}
