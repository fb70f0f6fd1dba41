package tracefile

import (
	"errors"
	"fmt"

	"github.com/envbisect/envbisect/trace"
)

// checkEvent checks the invariants of one event with its buffers filled in
// (Data present, whether or not it was stored out of line). prevSeq is the
// Seq of the call before it, 0 at the start. It returns the Seq the next
// event is checked against.
//
// The writer runs it before writing, the reader after reading, so that the
// writer never produces a trace the reader refuses.
func checkEvent(ev *trace.Event, prevSeq uint64) (uint64, error) {
	switch {
	case ev.Call == nil && ev.Proc == nil:
		return prevSeq, fmt.Errorf("event after seq %d is neither a call nor a process event", prevSeq)
	case ev.Call != nil && ev.Proc != nil:
		return prevSeq, fmt.Errorf("event at seq %d is both a call and a process event", ev.Call.Seq)
	case ev.Proc != nil:
		return prevSeq, nil
	}
	c := ev.Call
	if c.Seq <= prevSeq {
		return prevSeq, fmt.Errorf("call seq %d follows seq %d: seq must increase", c.Seq, prevSeq)
	}
	for i := range c.Mem {
		if err := checkMem(&c.Mem[i]); err != nil {
			return prevSeq, fmt.Errorf("event at seq %d, buffer %d: %w", c.Seq, i, err)
		}
	}
	return c.Seq, nil
}

// checkMem checks one captured buffer with its Data filled in.
func checkMem(m *trace.Mem) error {
	if m.Arg > 5 {
		return fmt.Errorf("argument index %d is above 5", m.Arg)
	}
	if m.Dir != trace.In && m.Dir != trace.Out {
		return fmt.Errorf("direction %d is neither in (1) nor out (2)", m.Dir)
	}
	if uint64(len(m.Data)) > m.Len {
		return fmt.Errorf("%d bytes of data are more than its length %d", len(m.Data), m.Len)
	}
	if m.Flag&(trace.Excluded|trace.Fault) != 0 && len(m.Data) > 0 {
		return errors.New("flagged excluded or fault, but holds data")
	}
	return nil
}
