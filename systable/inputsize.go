package systable

// SameInputSize reports whether two calls of this row, with arguments a
// and b, hand the kernel in-buffers of the same lengths, where an
// argument gives the length (write's count, sendto's len). A recorded
// result answers the request that was recorded: a write of 5 bytes
// recorded as returning 5 says nothing of a live write of 6 (a program
// writing its own pid, whose digits differ from run to run), and replayed
// it would tell the program its write came up short.
func (s *Syscall) SameInputSize(a, b [6]uint64) bool {
	for _, arg := range s.Args {
		if arg.Kind != InBuf || arg.Len.From != LenArg {
			continue
		}
		i := arg.Len.Arg
		if int(i) >= len(a) {
			continue
		}
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
