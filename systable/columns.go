package systable

// Columns of a row beyond its arguments and effects: facts align,
// depgraph and render read instead of testing a call's name. Each is set
// in the per-architecture table with a builder method below.

// Holds says what an argument's memory means beyond its C type.
type Holds uint8

const (
	// HoldsPath: an out-buffer filled with a path (readlink's target,
	// getcwd's directory).
	HoldsPath Holds = iota + 1
	// HoldsWaitStatus: the int a wait call stores, saying how a child
	// ended.
	HoldsWaitStatus
	// HoldsEnviron: an array of "NAME=value" strings (execve's envp).
	HoldsEnviron
	// HoldsFileData: the bytes a call writes to the file behind its fd
	// (write, pwrite64).
	HoldsFileData
)

// Made is the kind of object a call makes whose resource depgraph models
// beyond an fd: a socket, an epoll set, the two ends of a pipe or a
// socketpair.
type Made uint8

const (
	MadeSocket Made = iota + 1
	MadeEpoll
	MadePipe
	MadeSocketPair
)

// Unseen is a limit of tracing that a call reveals: what the program
// does beyond what envbisect sees or can let it do.
type Unseen uint8

const (
	// UnseenRingIO: the call sets up or drives an io_uring, through whose
	// rings the program's file and socket I/O travels without system
	// calls of its own: the tracer sees the ring, not the I/O.
	UnseenRingIO Unseen = iota + 1
	// UnseenNestedTrace: the call traces another process (ptrace). A
	// process envbisect traces cannot be traced by another, and a child
	// it starts is traced by envbisect already, so the request fails
	// with EPERM (NestedTraceFailed): strace and gdb do not work under
	// envbisect.
	UnseenNestedTrace
)

// NestedTraceFailed reports whether a call of a row marked
// UnseenNestedTrace returned ret because envbisect traces the program:
// EPERM (PTRACE_TRACEME, PTRACE_ATTACH and PTRACE_SEIZE of a traced
// process).
func (s *Syscall) NestedTraceFailed(ret int64) bool {
	return s.Unseen == UnseenNestedTrace && ret == -eperm
}

// eperm is EPERM, the same number on every architecture Linux has.
const eperm = 1

// WaitBy says how a wait call names the child it waits for.
type WaitBy uint8

const (
	// WaitByPID: a pid argument, where -1 and 0 or less mean any child or
	// a process group (wait4).
	WaitByPID WaitBy = iota + 1
	// WaitByIDType: an idtype argument, where P_ALL and P_PGID mean any
	// child or a process group (waitid).
	WaitByIDType
)

// SocketOp is what a call does to its socket beyond its effects.
type SocketOp uint8

const (
	// SocketListens: the socket starts taking connections (listen).
	SocketListens SocketOp = iota + 1
	// SocketReportsLocal: the call reports the socket's local address
	// (getsockname), which tells the port a bind to port 0 got.
	SocketReportsLocal
)

// idtypes of waitid that select whichever child ends first.
const (
	pAll  = 0 // P_ALL
	pPGID = 2 // P_PGID
)

// WaitsAnyChild reports whether a wait call made with args waits for
// whichever child ends first (wait4 with pid -1 or a process group,
// waitid with P_ALL or P_PGID): which one that is depends on scheduling,
// not on the environment. It is false for calls that do not wait.
func (s *Syscall) WaitsAnyChild(args [6]uint64) bool {
	if s.Effects&WaitsChild == 0 {
		return false
	}
	if s.Wait == WaitByIDType {
		return args[0] == pAll || args[0] == pPGID
	}
	return int32(uint32(args[0])) <= 0
}

// ArgHolds returns argument i's Holds, 0 when the row has no argument i.
func (s *Syscall) ArgHolds(i int) Holds {
	if i < 0 || i >= len(s.Args) {
		return 0
	}
	return s.Args[i].Holds
}

// ArgVolatile reports whether output argument i is volatile: the row's
// whole output is, or that argument is.
func (s *Syscall) ArgVolatile(i int) bool {
	return s.VolatileOut || i >= 0 && i < len(s.Args) && s.Args[i].Volatile
}

// Row builders.

// volatileRet marks the return value volatile.
func (s Syscall) volatileRet() Syscall { s.VolatileRet = true; return s }

// volatileOut marks all output memory volatile.
func (s Syscall) volatileOut() Syscall { s.VolatileOut = true; return s }

// volatileArgs marks output arguments volatile.
func (s Syscall) volatileArgs(idx ...int) Syscall {
	s.Args = append([]Arg(nil), s.Args...)
	for _, i := range idx {
		s.Args[i].Volatile = true
	}
	return s
}

// holds says what argument i's memory means.
func (s Syscall) holds(i int, h Holds) Syscall {
	s.Args = append([]Arg(nil), s.Args...)
	s.Args[i].Holds = h
	return s
}

// writesFD marks fd argument i as the one whose file the call writes.
func (s Syscall) writesFD(i int) Syscall {
	s.Args = append([]Arg(nil), s.Args...)
	s.Args[i].WrittenFD = true
	return s
}

// contentOnly marks fd argument i as one of which the call needs only
// the content (Arg.ContentOnly).
func (s Syscall) contentOnly(i int) Syscall {
	s.Args = append([]Arg(nil), s.Args...)
	s.Args[i].ContentOnly = true
	return s
}

// routine marks a call every thread makes alike.
func (s Syscall) routine() Syscall { s.Routine = true; return s }

// triesAgain marks a call that answers EAGAIN on a non-blocking fd until
// something arrives (Syscall.TriesAgain).
func (s Syscall) triesAgain() Syscall { s.TriesAgain = true; return s }

// placement marks a call whose answer is the CPUs the process may run
// on.
func (s Syscall) placement() Syscall { s.Placement = true; return s }

// made names the kind of object the call makes.
func (s Syscall) made(m Made) Syscall { s.Made = m; return s }

// waitBy says how the call names the child it waits for.
func (s Syscall) waitBy(w WaitBy) Syscall { s.Wait = w; return s }

// socketOp says what the call does to its socket.
func (s Syscall) socketOp(op SocketOp) Syscall { s.Socket = op; return s }

// unmaps marks a call that removes mappings in its address range.
func (s Syscall) unmaps() Syscall { s.Unmaps = true; return s }

// FileCopy names the arguments of a call that copies file data between
// two fds (Syscall.Copies): the fds, their offset pointers (NULL: the
// fd's own offset, moved) and the length. A replay run that made the
// destination in its scratch area, on another file system than the
// source, carries out such a copy with sendfile(2) instead, which copies
// across file systems.
type FileCopy struct {
	In, InOff, Out, OutOff, Len uint8
}

// copies marks a call that copies file data within one file system.
func (s Syscall) copies(in, inOff, out, outOff, n uint8) Syscall {
	s.Copies = &FileCopy{In: in, InOff: inOff, Out: out, OutOff: outOff, Len: n}
	return s
}

// servesImage marks a call whose recorded image can be run in its place.
func (s Syscall) servesImage() Syscall { s.ServesImage = true; return s }

// kernelNames marks a call that answers with the kernel's names.
func (s Syscall) kernelNames() Syscall { s.KernelNames = true; return s }

// ImageArgs returns the indexes of an exec call's argv and envp
// arguments (its string arrays: the one that holds the environment is
// envp), or -1 for what the row lacks.
func (s *Syscall) ImageArgs() (argv, envp int) {
	argv, envp = -1, -1
	for i, a := range s.Args {
		switch {
		case a.Kind != StrArray:
		case a.Holds == HoldsEnviron:
			envp = i
		case argv < 0:
			argv = i
		}
	}
	return argv, envp
}

// ServedImage reports whether a call of this row with recorded image obj
// (trace.Call.Obj; 0: none) that returned ret can be replayed by running
// that image, given whether the trace stores it.
func (s *Syscall) ServedImage(obj uint32, ret int64, stored bool) bool {
	return s.ServesImage && obj != 0 && ret == 0 && stored
}
