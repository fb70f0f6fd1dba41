package ptrace

import (
	"fmt"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// answering prepares an Answering run: the filter's stop set, checked,
// and the numbers of its calls for the PTRACE_SYSCALL fallback, which
// stops at every call and must let the others go.
func (s *session) answering() error {
	a := s.cfg.Answering
	if a == nil {
		return nil
	}
	if s.cfg.Replayer != nil || s.cfg.Files != nil || a.Answer == nil {
		return fmt.Errorf("ptrace: an Answering run needs an Answerer, and neither replays nor keeps files")
	}
	s.answerNrs = make(map[int]bool, len(a.Stop))
	for _, name := range a.Stop {
		row, ok := s.table.ByName(name)
		if !ok {
			return fmt.Errorf("ptrace: Answering: no call %q in the syscall table", name)
		}
		s.answerNrs[row.Nr] = true
	}
	return nil
}

// answer lets the Answerer change what the program sees of c, which
// stopped in an Answering run, and writes the changed out-memory back
// into the thread's buffers at the call's addresses, never past the
// buffer's capacity. A call that failed keeps its answer.
func (s *session) answer(t *task, row *systable.Syscall, c *trace.Call) error {
	if c.Ret < 0 || !s.cfg.Answering.Answer.Answer(c) {
		return nil
	}
	m := memReader{pid: t.tid}
	for k := range c.Mem {
		mem := &c.Mem[k]
		if mem.Dir != trace.Out || int(mem.Arg) >= len(row.Args) || row.Args[mem.Arg].Kind != systable.OutBuf {
			continue
		}
		dst := c.Args[mem.Arg]
		capN, ok := row.Capacity(int(mem.Arg), c.Args, s.table)
		if dst == 0 || !ok {
			continue
		}
		data := mem.Data
		if uint64(len(data)) > capN {
			data = data[:capN]
		}
		if err := m.write(dst, data); err != nil {
			return fmt.Errorf("write the answer of %s into the program's buffer: %w", row.Name, err)
		}
	}
	return nil
}

// answerSkips reports whether, in an Answering run's PTRACE_SYSCALL
// fallback, call nr goes on without being followed to its exit.
func (s *session) answerSkips(nr int) bool {
	return s.answerNrs != nil && !s.answerNrs[nr]
}
