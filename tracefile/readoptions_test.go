package tracefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// A lean read (ReadOptions.KeepData) gives the events of a full read,
// except that the out-of-line buffers it does not keep have no Data (their
// Blob and Len stay), and holds only the kept blobs' bytes.
func TestReadOptionsKeepData(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	path := filepath.Join(t.TempDir(), "t.envb")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	full, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the bytes the program read (Out), not those it wrote (In):
	// the sample's 4 KiB page is both, stored once.
	keepOut := func(_ *trace.Call, m *trace.Mem) bool { return m.Dir == trace.Out }
	lean, err := ReadOptions{KeepData: keepOut}.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(lean.Events) != len(full.Events) {
		t.Fatalf("%d events, want %d", len(lean.Events), len(full.Events))
	}
	dropped, kept := 0, 0
	for i, ev := range lean.Events {
		fe := full.Events[i]
		if ev.Call == nil {
			requireEqual(t, "event", ev, fe)
			continue
		}
		for k := range ev.Call.Mem {
			m, fm := &ev.Call.Mem[k], &fe.Call.Mem[k]
			switch {
			case m.Blob == nil:
			case keepOut(ev.Call, m):
				kept++
				if !bytes.Equal(m.Data, fm.Data) {
					t.Errorf("seq %d buffer %d kept: %d bytes, want %d", ev.Call.Seq, k, len(m.Data), len(fm.Data))
				}
			default:
				dropped++
				if m.Data != nil || *m.Blob != *fm.Blob || m.Len != fm.Len {
					t.Errorf("seq %d buffer %d left out: data %d bytes, blob %x, len %d", ev.Call.Seq, k, len(m.Data), m.Blob[:4], m.Len)
				}
				m.Data = fm.Data // compare the rest
			}
		}
		requireEqual(t, "call", ev.Call, fe.Call)
	}
	if kept == 0 || dropped == 0 {
		t.Fatalf("%d buffers kept and %d left out: the sample tests nothing", kept, dropped)
	}

	// A trace whose only out-of-line buffer is left out holds no blob
	// bytes.
	path = filepath.Join(t.TempDir(), "one.envb")
	if err := os.WriteFile(path, writeOneBuffer(t, bytes.Repeat([]byte("x"), 4096)), 0o600); err != nil {
		t.Fatal(err)
	}
	none := func(*trace.Call, *trace.Mem) bool { return false }
	one, err := ReadOptions{KeepData: none}.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(one.content.blobs); n != 0 || len(one.content.blobRefs) != 1 {
		t.Errorf("lean read holds %d blobs and knows %d by offset, want 0 and 1", n, len(one.content.blobRefs))
	}
	if m := one.Events[0].Call.Mem[0]; m.Data != nil || m.Blob == nil || m.Len != 4096 {
		t.Errorf("buffer left out: %d bytes, blob %v, len %d", len(m.Data), m.Blob != nil, m.Len)
	}
}

// A blob frame changed after a lean read found it is corrupt when a kept
// buffer's bytes are read from it.
func TestReadOptionsBlobChanged(t *testing.T) {
	data := writeOneBuffer(t, bytes.Repeat([]byte("y"), 4096))
	path := filepath.Join(t.TempDir(), "one.envb")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := ReadOptions{KeepData: func(*trace.Call, *trace.Mem) bool { return true }}.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Read the blob frame (it precedes the events frame), then damage it.
	offs := frameOffsets(data)
	var blobOff int
	for _, off := range offs {
		if data[off] == byte(frameBlob) {
			blobOff = off
		}
	}
	if blobOff == 0 {
		t.Fatal("no blob frame")
	}
	for r.content.blobRefs == nil && r.step() == nil {
	}
	damaged := bytes.Clone(data)
	damaged[blobOff+frameHeaderSize+hashSize+1] ^= 1
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || kindOf(err) != ErrCorrupt.Error() {
		t.Fatalf("reading a kept buffer from a damaged blob frame: %v, want ErrCorrupt", err)
	}
}

// A read with ReadOptions.Keep hands Keep every event in order, as a full
// read holds them, and the Trace holds only those it kept (as Keep left
// them), with the header, start, end and file objects of a full read.
func TestReadOptionsKeep(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	path := filepath.Join(t.TempDir(), "t.envb")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	full, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var seen []trace.Event
	var want []trace.Event
	keep := func(ev *trace.Event) bool {
		seen = append(seen, *ev)
		if ev.Call == nil || ev.Call.Seq%2 == 0 {
			return false
		}
		ev.Call.Mem = nil
		want = append(want, *ev)
		return true
	}
	lean, err := ReadOptions{Keep: keep}.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(full.Events) {
		t.Fatalf("Keep was given %d events, want %d", len(seen), len(full.Events))
	}
	for i := range seen {
		if c := seen[i].Call; c == nil || c.Seq%2 != 0 {
			continue // those Keep changed
		}
		requireEqual(t, "event", seen[i], full.Events[i])
	}
	if len(want) == 0 || len(want) == len(full.Events) {
		t.Fatalf("Keep kept %d of %d events: the sample tests nothing", len(want), len(full.Events))
	}
	requireEqual(t, "events kept", lean.Events, want)
	requireEqual(t, "header", lean.Header, full.Header)
	requireEqual(t, "start", lean.Start, full.Start)
	requireEqual(t, "end", lean.End, full.End)
	requireEqual(t, "files", lean.Files, full.Files)
}
