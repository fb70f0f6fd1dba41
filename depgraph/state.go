package depgraph

import "github.com/envbisect/envbisect/systable"

// The builder's model of the kernel state of the traced processes, as far
// as the trace shows it. Each piece remembers the call that last defined
// it; a call that uses it gets an edge to that call.

// desc is an open file description, or what an fd refers to when it is
// not a file: a pipe end, a socket, an epoll instance. dup and fork share
// one desc.
type desc struct {
	res     *Resource // the File, Pipe, SocketPair, Socket, Epoll, AnonFD or Inherited resource
	created uint64
	state   uint64 // last call that changed the description's state
	pos     uint64 // last call that moved its offset or consumed its stream
	path    string // File: the absolute path it was opened with
	sock    *sockState
	watched []*desc // Epoll: the descriptions added to it
}

// slot is what one entry of an fd table refers to; its close-on-exec
// flag is the table's.
type slot struct {
	d   *desc
	def uint64 // the call that put d on this number (open, dup2, ...); 0 if inherited
}

// fdTable is a process's fd table, changed by the kernel's rules that
// systable.FDTable applies; processes made with CLONE_FILES share one.
type fdTable = systable.FDTable[slot]

func newFDTable() *fdTable { return systable.NewFDTable[slot]() }

// fsState is a working directory; processes made with CLONE_FS share one.
type fsState struct {
	res *Resource
	def uint64 // last chdir or fchdir
}

// attrState holds the calls that last changed a process's attributes.
type attrState struct {
	res                             *Resource
	creds, limits, umask, view, etc uint64
}

// mapping is one memory mapping of a file.
type mapping struct {
	start, end uint64
	res        *Resource
	d          *desc
	def        uint64 // the mmap
}

// addrSpace is a process's file mappings; shared with CLONE_VM.
type addrSpace struct {
	maps []mapping
}

func (a *addrSpace) clone() *addrSpace { return &addrSpace{maps: append([]mapping(nil), a.maps...)} }

// overlapping returns the mappings that overlap [start, end).
func (a *addrSpace) overlapping(start, end uint64) []mapping {
	var out []mapping
	for _, m := range a.maps {
		if m.start < end && start < m.end {
			out = append(out, m)
		}
	}
	return out
}

// unmap forgets the mappings that [start, end) covers whole. Mappings it
// covers in part are kept whole: later calls on what remains of them
// still find the mmap.
func (a *addrSpace) unmap(start, end uint64) {
	kept := a.maps[:0]
	for _, m := range a.maps {
		if !(start <= m.start && m.end <= end) {
			kept = append(kept, m)
		}
	}
	a.maps = kept
}

// proc is one traced process.
type proc struct {
	id          uint32
	res         *Resource
	fds         *fdTable
	fs          *fsState
	attrs       *attrState
	mem         *addrSpace
	exe         string
	pendingExec bool // an Exec event came; its execve call has not (yet)
}

// thread is one traced thread.
type thread struct {
	id   uint32
	proc *proc
	res  *Resource // Thread resource; the process's for its first thread
	def  uint64    // the clone that made it, or the last exec it did
}
