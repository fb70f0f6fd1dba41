package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// Requests of multiplexing calls: fcntl's command, ioctl's request and
// prctl's option decide what the call's other arguments mean and what it
// does. A Request row says so as data, for depgraph and align to read
// instead of testing the request's name.

// RequestEffect is a bit set of what a request does beyond the row's
// effects.
type RequestEffect uint8

const (
	// ReqSetsFDFlags: the fd's flags become the argument after the
	// request (fcntl F_SETFD), FD_CLOEXEC among them.
	ReqSetsFDFlags RequestEffect = 1 << iota
	// ReqSetsCloexec: the fd becomes close-on-exec (ioctl FIOCLEX).
	ReqSetsCloexec
	// ReqClearsCloexec: the fd stops being close-on-exec (ioctl
	// FIONCLEX).
	ReqClearsCloexec
	// ReqChangesDescription: the request changes the open file
	// description behind the fd (F_SETFL, F_SETLK, F_SETOWN, F_ADD_SEALS,
	// FIONBIO, ...) rather than the fd or nothing.
	ReqChangesDescription
	// ReqNamesThread: the calling thread names itself with the string
	// the argument after the request points to (prctl PR_SET_NAME).
	ReqNamesThread
)

// Request is what the table knows of one request value of a
// multiplexing call.
type Request struct {
	Name string // "F_SETFL", "FIONBIO", "PR_SET_NAME"; "" when not named
	// Size and Dir say what the argument after the request points to:
	// its size and whether the call reads it (InBuf), writes it (OutBuf)
	// or both; 0 and Int when it is a plain value.
	Size uint32
	Dir  Kind
	// Flags names the bits of the value the request sets or gets, nil
	// when it has none.
	Flags  *FlagSet
	Effect RequestEffect
}

// RequestArg returns the index of the argument that holds the request of
// a multiplexing call (fcntl's cmd, ioctl's request, prctl's option) and
// which kind of request it is; ok is false for other calls.
func (s *Syscall) RequestArg() (i int, from LenFrom, ok bool) {
	for _, a := range s.Args {
		switch a.Len.From {
		case LenFcntl, LenIoctl, LenPrctl:
			return int(a.Len.Arg), a.Len.From, true
		}
	}
	return 0, 0, false
}

// Request returns the request a call of row s made with args carries;
// ok is false when s is not a multiplexing call.
func (t *Table) Request(s *Syscall, args [6]uint64) (r Request, ok bool) {
	i, from, ok := s.RequestArg()
	if !ok || i >= len(s.Args) {
		return Request{}, false
	}
	v := s.Value(i, args)
	switch from {
	case LenFcntl:
		r = Request{Name: FcntlCmds.EnumName(v), Flags: FcntlFlags(v), Effect: fcntlEffect(v)}
		r.Size, r.Dir = FcntlSize(v)
	case LenPrctl:
		r = Request{Name: PrctlOptions.EnumName(v), Effect: prctlEffect(v)}
		r.Size, r.Dir = PrctlSize(v)
	case LenIoctl:
		r = Request{Name: s.Args[i].Flags.EnumName(v), Dir: Int, Effect: ioctlEffect(v)}
		if io, found := t.Ioctl(v); found {
			r.Size, r.Dir = io.Size, io.Dir
		}
	}
	return r, true
}

// fcntlEffect returns what fcntl command cmd does beyond the row's
// effects.
func fcntlEffect(cmd uint64) RequestEffect {
	switch uint32(cmd) {
	case amd64.F_SETFD:
		return ReqSetsFDFlags
	case amd64.F_SETFL, amd64.F_SETLK, amd64.F_SETLKW, amd64.F_SETOWN, amd64.F_SETSIG,
		amd64.F_SETOWN_EX, amd64.F_OFD_SETLK, amd64.F_OFD_SETLKW, amd64.F_SETLEASE,
		amd64.F_NOTIFY, amd64.F_SETPIPE_SZ, amd64.F_ADD_SEALS, amd64.F_SET_RW_HINT,
		amd64.F_SET_FILE_RW_HINT, amd64.F_SETDELEG:
		return ReqChangesDescription
	}
	return 0
}

// ioctlEffect returns what ioctl request req does beyond the row's
// effects.
func ioctlEffect(req uint64) RequestEffect {
	switch uint32(req) {
	case ioFIOCLEX:
		return ReqSetsCloexec
	case ioFIONCLEX:
		return ReqClearsCloexec
	case ioFIONBIO, ioFIOASYNC:
		return ReqChangesDescription
	}
	return 0
}

// prctlEffect returns what prctl option op does beyond the row's effects.
func prctlEffect(op uint64) RequestEffect {
	if uint32(op) == amd64.PR_SET_NAME {
		return ReqNamesThread
	}
	return 0
}

// RequestEffect returns what the request of a call of row s made with
// args does beyond the row's effects; 0 for calls that carry none.
func (s *Syscall) RequestEffect(args [6]uint64) RequestEffect {
	i, from, ok := s.RequestArg()
	if !ok {
		return 0
	}
	v := s.Value(i, args)
	switch from {
	case LenFcntl:
		return fcntlEffect(v)
	case LenIoctl:
		return ioctlEffect(v)
	case LenPrctl:
		return prctlEffect(v)
	}
	return 0
}

// CloexecChange reports whether a call of row s made with args changes
// the close-on-exec flag of its fd (fcntl F_SETFD, ioctl FIOCLEX and
// FIONCLEX) and to what.
func (s *Syscall) CloexecChange(args [6]uint64) (changes, cloexec bool) {
	eff := s.RequestEffect(args)
	i, _, _ := s.RequestArg()
	switch {
	case eff&ReqSetsFDFlags != 0 && i+1 < len(s.Args):
		return true, args[i+1]&amd64.FD_CLOEXEC != 0
	case eff&ReqSetsCloexec != 0:
		return true, true
	case eff&ReqClearsCloexec != 0:
		return true, false
	}
	return false, false
}
