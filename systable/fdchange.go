package systable

// FDOp is what a completed call did to its process's fd table.
type FDOp uint8

const (
	FDKept        FDOp = iota // nothing: the call failed or makes, copies and closes no fd
	FDMade                    // FD is new (open, socket, accept, eventfd ...)
	FDCopied                  // FD is a copy of From (dup, dup2, dup3, fcntl F_DUPFD)
	FDMadePair                // Pair are new (pipe, pipe2, socketpair)
	FDClosed                  // FD is closed (close)
	FDClosedRange             // close_range(First, Last, RangeFlags)
	FDFlagged                 // FD's close-on-exec flag is now Cloexec (fcntl F_SETFD, ioctl FIOCLEX, FIONCLEX)
)

// FDChange is what a completed call did to its process's fd table, read
// from its row's effects, its arguments and result: the one place that
// says which fds a call makes, copies and closes. FDTable.Apply applies
// it; each tracker says only what a new fd refers to.
type FDChange struct {
	Op       FDOp
	FD, From int32    // the fd made, copied onto or closed; the fd copied
	Pair     [2]int32 // the two fds of FDMadePair
	// Cloexec: the call asked for the new fds to be close-on-exec.
	Cloexec     bool
	First, Last uint32 // FDClosedRange's range
	RangeFlags  uint64 // FDClosedRange's flags (CLOSE_RANGE_CLOEXEC, CLOSE_RANGE_UNSHARE)
}

// FDChangeOf returns what a call made with args did to the fd table,
// given its result ret (negative: it failed, or did not return) and the
// memory it passed or got back where that says more: pair, the int[2]
// pipe and socketpair wrote (nil when not captured), and openHow,
// openat2's struct open_how (nil when not captured or another call).
func (s *Syscall) FDChangeOf(args [6]uint64, ret int64, pair, openHow []byte) FDChange {
	if ret < 0 || s.Unknown {
		return FDChange{}
	}
	eff := s.EffectsFor(args)
	switch {
	case eff&DupsFD != 0:
		if old := s.FirstFD(args); old >= 0 {
			return FDChange{Op: FDCopied, FD: int32(ret), From: old, Cloexec: s.makesCloexec(args, openHow)}
		}
	case eff&CreatesFD != 0:
		return FDChange{Op: FDMade, FD: int32(ret), From: -1, Cloexec: s.makesCloexec(args, openHow)}
	}
	switch {
	case eff&CreatesFDPair != 0:
		st := StructOf("int[2]")
		if len(pair) < st.Size {
			return FDChange{}
		}
		return FDChange{Op: FDMadePair, From: -1, Pair: [2]int32{int32(st.Fields[0].Int(pair)), int32(st.Fields[1].Int(pair))},
			Cloexec: s.makesCloexec(args, openHow)}
	case eff&ClosesFD != 0:
		if fd := s.FirstFD(args); fd >= 0 {
			return FDChange{Op: FDClosed, FD: fd, From: -1}
		}
	case eff&ClosesFDRange != 0:
		return FDChange{Op: FDClosedRange, From: -1, First: uint32(args[0]), Last: uint32(args[1]), RangeFlags: args[2]}
	case eff&ChangesFDFlags != 0:
		if changes, cloexec := s.CloexecChange(args); changes {
			if fd := s.FirstFD(args); fd >= 0 {
				return FDChange{Op: FDFlagged, FD: fd, From: -1, Cloexec: cloexec}
			}
		}
	}
	return FDChange{}
}

// makesCloexec reports whether a call asks for the fds it makes to be
// close-on-exec: in its registers (AsksCloexec) or in openat2's open_how.
func (s *Syscall) makesCloexec(args [6]uint64, openHow []byte) bool {
	return s.AsksCloexec(args) || (openHow != nil && OpenHowCloexec(openHow))
}

// StructArg returns the index of the row's first argument of struct kind
// is, or -1.
func (s *Syscall) StructArg(is StructKind) int {
	for i, a := range s.Args {
		if a.Struct != "" && StructOf(a.Struct).Is == is {
			return i
		}
	}
	return -1
}
