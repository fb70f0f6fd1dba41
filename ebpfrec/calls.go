package ebpfrec

import (
	"slices"
	"strings"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// maxEarly bounds the calls whose entry chunks a thread keeps while
// waiting for their call record.
const maxEarly = 4

// pendingCall is a call record waiting for the chunks of its buffers.
// Each thread has one, reused from call to call; only the buffers' bytes,
// which the trace keeps, are allocated anew (one block per call).
type pendingCall struct {
	c       *trace.Call
	row     *systable.Syscall
	bpfSeq  uint64
	bufs    []bpf.Buf
	data    [][]byte
	got     []uint32
	fault   []bool // a chunk said the memory could not be read
	missing uint64 // bytes still expected
}

// reset prepares pc for a call with bufs, copying them (the probe reuses
// its records).
func (pc *pendingCall) reset(c *trace.Call, row *systable.Syscall, seq uint64, bufs []bpf.Buf) {
	pc.c, pc.row, pc.bpfSeq, pc.missing = c, row, seq, 0
	pc.bufs = append(pc.bufs[:0], bufs...)
	n := len(bufs)
	pc.data = slices.Grow(pc.data[:0], n)[:n]
	pc.got = slices.Grow(pc.got[:0], n)[:n]
	pc.fault = slices.Grow(pc.fault[:0], n)[:n]
	var total uint64
	for i, b := range bufs {
		pc.data[i], pc.got[i], pc.fault[i] = nil, 0, false
		if b.Want > 0 && !b.Fault {
			total += uint64(b.Want)
		}
	}
	if total == 0 {
		return
	}
	block := make([]byte, total)
	for i, b := range bufs {
		if b.Want > 0 && !b.Fault {
			pc.data[i], block = block[:b.Want:b.Want], block[b.Want:]
		}
	}
	pc.missing = total
}

// call handles a call record. r and its Bufs are the probe's, reused for
// the next record: what is kept is copied.
func (a *assembler) call(r *bpf.Call) {
	if r.Compat {
		a.compatCall(r)
		return
	}
	t := a.threadFor(r.TID, r.TGID)
	if t == nil {
		return
	}
	if int32(r.TID) != t.tid {
		delete(a.execAlias, int32(r.TID)) // the execve of a non-leader thread: the last record with its old tid
	}
	a.complete(t) // whatever it still waited for is not coming
	gap := uint64(0)
	if r.TSeq > t.lastBPF+1 {
		gap = r.TSeq - t.lastBPF - 1
	}
	t.lastBPF = max(t.lastBPF, r.TSeq)
	var early []*bpf.Chunk
	if len(t.early) > 0 {
		early = t.early[r.TSeq]
		for k := range t.early {
			if k <= r.TSeq {
				delete(t.early, k)
			}
		}
	}
	if !t.proc.execd || t.id == 0 {
		return // the helper's own calls, before the command's image
	}
	c := &trace.Call{
		Proc: t.proc.id, Thread: t.id, PID: t.proc.pid, TID: t.tid,
		Nr: r.Nr, Args: r.Args, Ret: r.Ret, NoReturn: r.NoReturn,
		Enter: a.since(r.Enter), Gap: gap,
	}
	if !r.NoReturn {
		c.Exit = a.since(r.Exit)
	}
	pc := &t.slot
	pc.reset(c, a.tab.ByNr(int(r.Nr)), r.TSeq, r.Bufs)
	t.pending = pc
	for _, ch := range early {
		a.chunkInto(pc, ch)
	}
	if pc.missing == 0 {
		a.complete(t)
	}
}

// chunk handles a chunk record. ch and its Data are the probe's, reused
// for the next record: a chunk that must wait for its call is copied.
func (a *assembler) chunk(ch *bpf.Chunk) {
	t := a.thread(ch.TID)
	if t == nil {
		return
	}
	if pc := t.pending; pc != nil && pc.bpfSeq == ch.TSeq {
		a.chunkInto(pc, ch)
		if pc.missing == 0 {
			a.complete(t)
		}
		return
	}
	if ch.TSeq <= t.lastBPF {
		return // its call is complete, or was lost
	}
	if t.early == nil {
		t.early = make(map[uint64][]*bpf.Chunk)
	}
	if _, ok := t.early[ch.TSeq]; !ok && len(t.early) >= maxEarly {
		return
	}
	kept := *ch
	kept.Data = slices.Clone(ch.Data)
	t.early[ch.TSeq] = append(t.early[ch.TSeq], &kept)
}

// chunkInto copies a chunk into its buffer.
func (a *assembler) chunkInto(pc *pendingCall, ch *bpf.Chunk) {
	i := int(ch.Buf)
	if i >= len(pc.data) || pc.data[i] == nil {
		return
	}
	if ch.Fault {
		// The rest of a flat buffer is not coming; an iovec array's next
		// elements may.
		pc.fault[i] = true
	}
	d := pc.data[i]
	if int(ch.Off) >= len(d) {
		return
	}
	n := copy(d[ch.Off:], ch.Data)
	pc.got[i] += uint32(n)
	pc.missing -= min(pc.missing, uint64(n))
}

// complete finishes t's pending call with the chunks that came: a buffer
// short of bytes is flagged Lost.
func (a *assembler) complete(t *thread) {
	pc := t.pending
	if pc == nil {
		return
	}
	t.pending = nil
	c := pc.c
	incomplete := false
	if len(pc.bufs) > 0 {
		c.Mem = make([]trace.Mem, 0, len(pc.bufs))
	}
	for i, b := range pc.bufs {
		m := trace.Mem{Arg: b.Arg, Part: trace.Part(b.Part), Dir: trace.Dir(b.Dir), Addr: b.Addr, Len: b.Len}
		switch {
		case b.Fault || pc.fault[i]:
			// Unreadable, as ptrace's Fault: eBPF reads only memory
			// that is resident, and a buffer the kernel never touched
			// (a write to /dev/null) may not be.
			m.Flag |= trace.Fault
		default:
			m.Data = pc.data[i]
			if pc.got[i] < b.Want {
				m.Flag |= trace.Lost
				incomplete = true
			}
			if b.Truncated || b.Len > uint64(b.Want) {
				m.Flag |= trace.Truncated
				a.lost.Truncated++
			}
		}
		c.Mem = append(c.Mem, m)
	}
	if incomplete {
		a.lost.Incomplete++
	}
	if !pc.row.Unknown {
		a.account(t, pc.row, c)
		a.filter.Apply(pc.row, c)
	}
	if t.exec != nil && pc.row.Effects&systable.ExecsImage != 0 && c.Ret == 0 {
		t.exec.Argv = execArgv(pc.row, c)
		a.flushExec(t)
	}
	a.emitCall(t, c)
}

// flushExec emits t's exec event, with or without the argv its execve
// call brought.
func (a *assembler) flushExec(t *thread) {
	if t.exec != nil {
		a.emitProc(t.exec)
		t.exec = nil
	}
}

// execArgv returns the argv an execve call passed: its first string
// array.
func execArgv(row *systable.Syscall, c *trace.Call) []string {
	for _, m := range c.Mem {
		if m.Part == trace.PartStrings && int(m.Arg) < len(row.Args) && row.Args[m.Arg].Kind == systable.StrArray {
			s := strings.TrimSuffix(string(m.Data), "\x00")
			if s == "" {
				return nil
			}
			return strings.Split(s, "\x00")
		}
	}
	return nil
}

// emitCall numbers a finished call and hands it on.
func (a *assembler) emitCall(t *thread, c *trace.Call) {
	a.seq++
	c.Seq = a.seq
	t.tseq++
	c.TSeq = t.tseq
	a.obs.Event(trace.Event{Call: c})
}

func (a *assembler) emitProc(ev *trace.ProcEvent) {
	ev.Seq = a.seq
	ev.Time = a.since(a.lastTime)
	a.obs.Event(trace.Event{Proc: ev})
}

// since converts a CLOCK_MONOTONIC time to ns since the recording began.
func (a *assembler) since(d time.Duration) int64 {
	if d > a.lastTime {
		a.lastTime = d
	}
	return int64(d - a.monoStart)
}
