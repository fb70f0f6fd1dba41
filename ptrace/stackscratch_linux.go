package ptrace

// stackScratch hands out space below a stopped thread's stack (under the
// ABI's red zone) for data the tracer gives a call in place of the
// program's own: a rewritten path, a stand-in's name, a redirected
// address, a new argv. Every piece goes below the one before, so pieces
// written for one call never overlap; the space is the program's unused
// stack, so it is valid only until the thread runs on. One is made per
// call, at its entry stop.
type stackScratch struct {
	pid  int
	next uint64 // the lowest address handed out so far
}

// newStackScratch starts handing out space below r's stack pointer.
func newStackScratch(tid int, r *regs) stackScratch {
	return stackScratch{pid: tid, next: stackPointer(r) - redZone}
}

// put writes b below what was handed out before, 16-byte aligned, and
// returns its address in the thread.
func (s *stackScratch) put(b []byte) (uint64, error) {
	addr := (s.next - uint64(len(b))) &^ 15
	if err := (memReader{pid: s.pid}).write(addr, b); err != nil {
		return 0, err
	}
	s.next = addr
	return addr, nil
}

// putString writes str with its terminating NUL and returns its address.
func (s *stackScratch) putString(str string) (uint64, error) {
	return s.put(append([]byte(str), 0))
}
