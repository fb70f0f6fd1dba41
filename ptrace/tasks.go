package ptrace

import (
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// proc is a traced process (thread group).
type proc struct {
	pid      int
	id       uint32 // logical process number; 0 for the helper's own threads
	parent   uint32
	children uint32 // processes spawned so far, for lineage indexes
	threads  uint32 // threads spawned so far, for lineage indexes
	live     int    // tasks alive
	// fds maps the process's fds to what they refer to: an absolute
	// path, or the kernel's name for an anonymous object ("pipe:[1234]").
	// Processes made with CLONE_FILES share one table.
	fds *systable.FDTable[string]
	fs  *fsState
	exe string
	// execd is false for the helper until it execs the target: calls
	// made before then are envbisect's own and are not recorded.
	execd bool
}

// fsState is a process's working directory. Processes made with
// CLONE_FS share one.
type fsState struct {
	cwd string
}

// task is a traced thread.
type task struct {
	tid  int
	proc *proc
	id   uint32 // logical thread number; 0 for helper threads
	tseq uint64
	// inSyscall: the thread was resumed inside a call and its next
	// syscall stop is that call's exit.
	inSyscall bool
	// fresh: auto-attached and not yet resumed.
	fresh bool
	skip  bool  // the call in flight is not recorded
	enter int64 // when the call in flight entered, ns since the start
	// exec is what a successful exec passed, read from the new image at
	// the exec event, for the call's exit stop.
	exec *execImage

	// In a semi-replay run: the decision about the call in flight, the
	// call as seen at its entry, and what its exit stop must do.
	dec    Decision
	live   *trace.Call
	replay replayState
	// addrArgs: redirectDest changed the argument registers of the call
	// in flight, which its exit stop puts back (addrs_linux.go).
	addrArgs bool
	// denied is the errno the target's seccomp filter answers the call
	// entering with (denied_linux.go), for replayEnter; 0: not denied.
	denied int
}

// hidden reports whether the task belongs to the helper before its exec:
// nothing it does is recorded.
func (t *task) hidden() bool { return t.id == 0 }
