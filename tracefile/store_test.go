package tracefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// writeManyFrames writes a trace of frames events frames of perFrame
// calls each (a process event between some), with a blob every seventh
// call, to a file, and returns its path and bytes.
func writeManyFrames(t *testing.T, frames, perFrame int) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.envb")
	w, err := Options{}.Create(path, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStart(sampleStart()); err != nil {
		t.Fatal(err)
	}
	seq := uint64(0)
	for f := range frames {
		var evs []trace.Event
		if f == 0 {
			evs = append(evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, PID: 10, TID: 10, Index: 1}})
		}
		for k := range perFrame {
			seq++
			c := &trace.Call{Seq: seq, Proc: 1, Thread: 1, TSeq: seq, PID: 10, TID: 10, Nr: 0, Ret: 8, Path: "/etc/hosts",
				Mem: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 8, Data: []byte{byte(seq), 1, 2, 3, 4, 5, 6, 7}}}}
			if seq%7 == 0 {
				c.Mem[0].Data, c.Mem[0].Len, c.Ret = randomBytes(seq%3, 5000), 5000, 5000
			}
			evs = append(evs, trace.Event{Call: c})
			if k == perFrame/2 {
				evs = append(evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exec, Seq: seq, Proc: 1, Thread: 1, PID: 10, TID: 10, Exe: "/bin/x"}})
			}
		}
		if err := w.WriteEvents(evs); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(sampleEnd()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// A Store answers every call by seq, in any order and past its cache,
// and its pass yields the events ReadFile reads, blobs' bytes included.
func TestStoreAnswersAsReadFile(t *testing.T) {
	path, _ := writeManyFrames(t, 40, 1000)
	whole, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.Trace.Events) != 0 || s.NumCalls() != 40000 || s.NumEvents() != len(whole.Events) {
		t.Fatalf("store holds %d events, counts %d calls and %d events; want 0, 40000, %d",
			len(s.Trace.Events), s.NumCalls(), s.NumEvents(), len(whole.Events))
	}
	requireEqual(t, "header", s.Trace.Header, whole.Header)
	requireEqual(t, "end", s.Trace.End, whole.End)
	byseq := make(map[uint64]*trace.Call)
	for _, ev := range whole.Events {
		if ev.Call != nil {
			byseq[ev.Call.Seq] = ev.Call
		}
	}
	// Forward, backward and striding across frames, so that frames leave
	// the cache and are decoded again.
	var order []uint64
	for seq := uint64(1); seq <= 40000; seq += 997 {
		order = append(order, seq)
	}
	for seq := uint64(40000); seq >= 1013; seq -= 1013 {
		order = append(order, seq)
	}
	for seq := uint64(1); seq <= 40000; seq++ {
		order = append(order, seq)
	}
	for _, seq := range order {
		c, err := s.Call(seq)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			t.Fatalf("call %d: none", seq)
		}
		requireEqual(t, "call", *c, *byseq[seq])
	}
	for _, seq := range []uint64{0, 40001, 1 << 40} {
		if c, err := s.Call(seq); c != nil || err != nil {
			t.Fatalf("call %d, which the trace lacks: %v, %v", seq, c, err)
		}
	}
	i := 0
	err = s.Each(func(ev *trace.Event) error {
		requireEqual(t, "event", *ev, whole.Events[i])
		i++
		return nil
	})
	if err != nil || i != len(whole.Events) {
		t.Fatalf("pass: %d events, %v; want %d", i, err, len(whole.Events))
	}
	stop := errors.New("stop")
	if err := s.Each(func(*trace.Event) error { return stop }); err != stop {
		t.Fatalf("pass stopped by its function: %v", err)
	}
}

// A trace cut short makes a Store of its complete frames, with the error
// ReadFile gives; one cut inside its header, none.
func TestStoreOfTraceCutShort(t *testing.T) {
	path, data := writeManyFrames(t, 5, 300)
	offs := frameOffsets(data)
	for _, cut := range []int{offs[1] - 3, offs[3] + 20, offs[len(offs)-2] + 40, len(data) - 1} {
		p := filepath.Join(t.TempDir(), "cut.envb")
		if err := os.WriteFile(p, data[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		whole, werr := ReadFile(p)
		s, err := OpenStore(p)
		if !errors.Is(err, ErrTruncated) || !errors.Is(werr, ErrTruncated) {
			t.Fatalf("cut at %d: %v (ReadFile: %v), want ErrTruncated", cut, err, werr)
		}
		if whole == nil {
			if s != nil {
				t.Fatalf("cut at %d, inside the header: a store", cut)
			}
			continue
		}
		if err.Error() != werr.Error() {
			t.Fatalf("cut at %d: %q, ReadFile says %q", cut, err, werr)
		}
		var got []trace.Event
		if err := s.Each(func(ev *trace.Event) error { got = append(got, *ev); return nil }); err != nil {
			t.Fatal(err)
		}
		requireEqual(t, "events", len(got), len(whole.Events))
		for i := range got {
			requireEqual(t, "event", got[i], whole.Events[i])
		}
		s.Close()
	}
	_ = path
}

// A file changed under a Store after it was read is an error naming the
// file and what was found, not a wrong call.
func TestStoreOfFileChanged(t *testing.T) {
	path, data := writeManyFrames(t, 20, 500)
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Damage the payload of the last events frame in place.
	offs := frameOffsets(data)
	last := offs[len(offs)-2]
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff, 0xee, 0xdd}, int64(last+frameHeaderSize+10)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c, err := s.Call(10000)
	if c != nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("call of a damaged frame: %v, %v", c, err)
	}
	if c, err := s.Call(1); c == nil || err != nil {
		t.Fatalf("call of an undamaged frame: %v, %v", c, err)
	}
	s.Close()
	if _, err := s.Call(5000); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("call of a closed store: %v", err)
	}
}
