//go:build linux && amd64

package bpf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// loadProbe loads a Probe described by the native syscall table.
func loadProbe(t *testing.T, o Options) *Probe {
	t.Helper()
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	o.Syscalls, o.Ioctls, o.Fcntls, o.Prctls = DescribeTable(tab)
	p, err := Load(o)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

// buildVictim compiles testdata/victim.c.
func buildVictim(t *testing.T) string {
	t.Helper()
	// BuildC reads testdata/victims/<src> from the repository root.
	return testutil.BuildC(t, "../../bpf/testdata/victim.c", false)
}

// victim is a started victim, blocked until release.
type victim struct {
	cmd    *exec.Cmd
	gate   io.WriteCloser
	pid    uint32
	stdout bytes.Buffer
}

// startVictim starts bin with args; it waits on its stdin for release.
func startVictim(t *testing.T, bin string, args ...string) *victim {
	t.Helper()
	v := &victim{cmd: exec.Command(bin, args...)}
	v.cmd.Stdout = &v.stdout
	gate, err := v.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	v.gate, v.pid = gate, uint32(v.cmd.Process.Pid)
	t.Cleanup(func() {
		v.gate.Close()
		if v.cmd.ProcessState == nil {
			v.cmd.Process.Kill()
			v.cmd.Wait()
		}
	})
	return v
}

func (v *victim) release(t *testing.T) {
	t.Helper()
	if _, err := v.gate.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	v.gate.Close()
}

// wait waits for the victim and returns its exit code.
func (v *victim) wait(t *testing.T) int {
	t.Helper()
	err := v.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return v.cmd.ProcessState.ExitCode()
}

// collect reads records until the Exit that ends thread group tgid, then
// everything else already in the ring.
func collect(t *testing.T, p *Probe, tgid uint32) []Record {
	t.Helper()
	var out []Record
	p.SetDeadline(time.Now().Add(30 * time.Second))
	for {
		r, err := p.Read()
		if err != nil {
			t.Fatalf("Read, waiting for the exit of %d: %v (got %d records)", tgid, err, len(out))
		}
		out = append(out, r)
		if r.Exit != nil && r.Exit.TGID == tgid && r.Exit.GroupDead {
			break
		}
	}
	return append(out, drain(t, p)...)
}

// drain reads what is in the ring without waiting for more.
func drain(t *testing.T, p *Probe) []Record {
	t.Helper()
	var out []Record
	p.SetDeadline(time.Now())
	defer p.SetDeadline(time.Time{})
	for {
		r, err := p.Read()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return out
		}
		if err != nil {
			t.Fatalf("Read while draining: %v", err)
		}
		out = append(out, r)
	}
}

// call is a Call with its buffers' bytes put together from its chunks.
type call struct {
	*Call
	data   [][]byte
	faults []bool
}

// assemble pairs every call with its chunks, in stream order: a chunk
// belongs to the last Call record of its tid if that has its tseq (the
// chunks of a call captured at exit follow it directly), otherwise to the
// next Call with its tid and tseq (an exec's chunks precede it). Keying by
// (tid, tseq) alone is not enough: after a non-leader thread's exec, the
// leader's tid goes on with the exec'ing thread's sequence.
func assemble(t *testing.T, recs []Record) []*call {
	t.Helper()
	type key struct {
		tid  uint32
		tseq uint64
	}
	var calls []*call
	last := map[uint32]*call{}
	pending := map[key][]*Chunk{}
	add := func(c *call, ch *Chunk) {
		if int(ch.Buf) >= len(c.Bufs) {
			t.Fatalf("chunk of buffer %d for call %d/%d with %d buffers", ch.Buf, c.TID, c.TSeq, len(c.Bufs))
		}
		d := c.data[ch.Buf]
		if int(ch.Off) != len(d) {
			t.Fatalf("call %d/%d buffer %d: chunk at %d after %d bytes", c.TID, c.TSeq, ch.Buf, ch.Off, len(d))
		}
		c.data[ch.Buf] = append(d, ch.Data...)
		c.faults[ch.Buf] = c.faults[ch.Buf] || ch.Fault
	}
	for _, r := range recs {
		switch {
		case r.Call != nil:
			c := &call{Call: r.Call, data: make([][]byte, len(r.Call.Bufs)), faults: make([]bool, len(r.Call.Bufs))}
			k := key{c.TID, c.TSeq}
			for _, ch := range pending[k] {
				add(c, ch)
			}
			delete(pending, k)
			last[c.TID] = c
			calls = append(calls, c)
		case r.Chunk != nil:
			if c := last[r.Chunk.TID]; c != nil && c.TSeq == r.Chunk.TSeq {
				add(c, r.Chunk)
				continue
			}
			k := key{r.Chunk.TID, r.Chunk.TSeq}
			pending[k] = append(pending[k], r.Chunk)
		}
	}
	for k := range pending {
		t.Errorf("chunks of %d/%d without a call", k.tid, k.tseq)
	}
	return calls
}

// buf returns the data of call c's buffer for argument arg and part.
func (c *call) buf(arg uint8, part trace.Part) (*Buf, []byte, bool) {
	for i := range c.Bufs {
		if c.Bufs[i].Arg == arg && c.Bufs[i].Part == uint8(part) {
			return &c.Bufs[i], c.data[i], c.Bufs[i].Fault || c.faults[i]
		}
	}
	return nil, nil, false
}

// find returns the calls of number nr for which match holds.
func find(calls []*call, nr uint32, match func(*call) bool) []*call {
	var out []*call
	for _, c := range calls {
		if c.Nr == nr && (match == nil || match(c)) {
			out = append(out, c)
		}
	}
	return out
}

func hasPath(path string) func(*call) bool {
	return func(c *call) bool {
		_, d, _ := c.buf(1, trace.PartWhole)
		return string(d) == path
	}
}
