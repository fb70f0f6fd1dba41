package tracefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
)

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		opts             Options
		fromBlobs, blobs int
	}{
		// The 4 KiB page is stored once, as a blob, whatever the threshold.
		{Options{}, 2, 1},
		// So are the stat struct and the 100-byte read, at 64 bytes.
		{Options{Compression: ZstdDefault, BlobThreshold: 64}, 4, 3},
		{Options{Compression: Uncompressed, BlobThreshold: 64}, 4, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.opts.Compression, c.opts.BlobThreshold), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "good.envb")
			w, err := c.opts.Create(path, sampleHeader())
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteStart(sampleStart()); err != nil {
				t.Fatal(err)
			}
			evs := sampleEvents()
			before := sampleEvents()
			if err := w.WriteEvents(evs[:5]); err != nil {
				t.Fatal(err)
			}
			if err := w.WriteEvents(evs[5:]); err != nil {
				t.Fatal(err)
			}
			requireEqual(t, "caller's events after WriteEvents", evs, before)
			if err := w.Close(sampleEnd()); err != nil {
				t.Fatal(err)
			}

			got, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			requireEqual(t, "header", &got.Header, sampleHeader())
			requireEqual(t, "start", got.Start, sampleStart())
			requireEqual(t, "end", got.End, sampleEnd())
			if n := stripBlobs(got.Events); n != c.fromBlobs {
				t.Errorf("%d buffers came from blobs, want %d", n, c.fromBlobs)
			}
			requireEqual(t, "events", got.Events, sampleEvents())

			st := w.Stats()
			if st.Blobs != uint64(c.blobs) || st.BlobsDeduplicated != 1 {
				t.Errorf("stats: %d blobs written, %d deduplicated; want %d and 1", st.Blobs, st.BlobsDeduplicated, c.blobs)
			}
			if st.Events != uint64(len(evs)) {
				t.Errorf("stats: %d events, want %d", st.Events, len(evs))
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if uint64(fi.Size()) != st.Bytes {
				t.Errorf("file has %d bytes, stats say %d", fi.Size(), st.Bytes)
			}
			if fi.Size() >= 2*4096 {
				t.Errorf("file has %d bytes: the 4 KiB page is stored twice", fi.Size())
			}
		})
	}
}

// Each of the buffers' Data filled from one blob shares it; Blob stays set
// and names the content.
func TestReaderBlobAddress(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	tr, err := readBytes(data, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	a, b := tr.Events[2].Call.Mem[0], tr.Events[3].Call.Mem[0]
	if a.Blob == nil || b.Blob == nil || *a.Blob != *b.Blob {
		t.Fatalf("the page's buffers have blob addresses %v and %v, want the same", a.Blob, b.Blob)
	}
	if &a.Data[0] != &b.Data[0] {
		t.Errorf("the page's buffers do not share their data")
	}
}

func TestTimeZoneKept(t *testing.T) {
	h := sampleHeader()
	h.Started = time.Date(2025, 3, 1, 14, 2, 7, 1, time.FixedZone("CET", 3600))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close(nil)
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Header().Started
	if !got.Equal(h.Started) {
		t.Errorf("started %v, want %v", got, h.Started)
	}
	if _, off := got.Zone(); off != 3600 {
		t.Errorf("started %v: UTC offset %d, want 3600", got, off)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next on an empty trace: %v, want io.EOF", err)
	}
	if r.End() == nil || !r.End().Finished.IsZero() {
		t.Errorf("end %+v, want an empty one", r.End())
	}
}

func TestFileMode(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.envb")
	old := filepath.Join(dir, "old.envb") // an earlier trace, made readable to all
	writeTrace(t, old)
	if err := os.Chmod(old, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fresh, old} {
		w, err := Create(path, sampleHeader())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(nil); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", path, fi.Mode().Perm())
		}
		if _, err := ReadFile(path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial")); len(left) > 0 {
		t.Errorf("partial files left behind: %v", left)
	}
}

// writeTrace writes a complete small trace at path.
func writeTrace(t *testing.T, path string) {
	t.Helper()
	w, err := Create(path, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
}

func TestCreateFailsEarly(t *testing.T) {
	_, err := Create(filepath.Join(t.TempDir(), "no", "such", "dir.envb"), sampleHeader())
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Create in a missing directory: %v, want ErrNotExist", err)
	}
	if _, err := Create(filepath.Join(t.TempDir(), "x.envb"), nil); err == nil {
		t.Error("Create without a header succeeded")
	}
}

// Strings are byte strings: any bytes survive, and text strings with
// invalid UTF-8 from another writer are accepted.
func TestStringsAreBytes(t *testing.T) {
	h := sampleHeader()
	h.Command = []string{"ls", "caf\xe9", "\xff\xfe", ""}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close(nil)
	tr, err := readBytes(buf.Bytes(), defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	requireEqual(t, "command", tr.Header.Command, h.Command)
}

// A batch too large for one frame is split over several.
func TestLargeBatch(t *testing.T) {
	evs := make([]trace.Event, maxFrameEvents+100)
	calls := make([]trace.Call, len(evs))
	for i := range evs {
		calls[i] = trace.Call{Seq: uint64(i + 1), Proc: 1, Thread: 1, TSeq: uint64(i + 1), Nr: 39}
		evs[i].Call = &calls[i]
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(evs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.Frames != 4 { // header, 2 events, end
		t.Errorf("%d frames, want 4", st.Frames)
	}
	tr, err := readBytes(buf.Bytes(), defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != len(evs) {
		t.Fatalf("read %d events, want %d", len(tr.Events), len(evs))
	}
}

// A buffer beyond MaxBlobSize is stored up to it and flagged truncated.
func TestHugeBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB blob")
	}
	big := make([]byte, MaxBlobSize+10)
	copy(big, randomBytes(3, 1<<20))
	ev := trace.Event{Call: &trace.Call{Seq: 1, Nr: 0, Ret: int64(len(big)),
		Mem: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: uint64(len(big)), Data: big}}}}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, sampleHeader())
	if err := w.WriteEvents([]trace.Event{ev}); err != nil {
		t.Fatal(err)
	}
	w.Close(nil)
	if ev.Call.Mem[0].Flag != 0 || len(ev.Call.Mem[0].Data) != len(big) {
		t.Error("WriteEvents changed the caller's buffer")
	}
	tr, err := readBytes(buf.Bytes(), defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	m := tr.Events[0].Call.Mem[0]
	if len(m.Data) != MaxBlobSize || m.Flag != trace.Truncated || m.Len != uint64(len(big)) {
		t.Errorf("read %d bytes, flag %d, len %d; want %d, truncated, %d", len(m.Data), m.Flag, m.Len, MaxBlobSize, len(big))
	}
	if !bytes.Equal(m.Data, big[:MaxBlobSize]) {
		t.Error("data differs")
	}
}

// Unknown keys in any map are skipped: that is how version 1 grows. Null
// means the zero value.
func TestUnknownKeysIgnored(t *testing.T) {
	em, err := newEncMode()
	if err != nil {
		t.Fatal(err)
	}
	hdr, _ := em.Marshal(map[uint64]any{1: []byte("tool"), 2: []byte("amd64"), 99: map[uint64]any{1: []any{1, 2}}})
	evs, _ := em.Marshal([]any{
		map[uint64]any{1: map[uint64]any{1: 1, 7: 0, 15: []any{map[uint64]any{1: 1, 3: 2, 5: 3, 7: []byte("abc"), 40: "new"}}, 77: true}},
		map[uint64]any{2: map[uint64]any{1: 5, 2: 1}, 3: "a future event kind"},
		map[uint64]any{1: nil, 2: map[uint64]any{1: nil, 2: 1, 11: nil, 12: nil, 15: nil}},
	})
	b := appendPreamble(nil)
	b = appendRawFrame(b, byte(frameHeader), 0, hdr)
	b = appendRawFrame(b, byte(frameEvents), 0, evs)
	tr, err := readBytes(b, defaultLimits)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("got %v, want ErrTruncated (no end frame)", err)
	}
	if tr.Header.Tool != "tool" || len(tr.Events) != 3 || tr.Events[2].Call != nil || tr.Events[2].Proc.Kind != 0 || string(tr.Events[0].Call.Mem[0].Data) != "abc" || tr.Events[1].Proc.Kind != trace.Exit {
		t.Errorf("read %+v", tr)
	}
}

func TestWriterMisuse(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		evs  []trace.Event
		msg  string
	}{
		{"empty event", []trace.Event{{}}, "neither a call nor a process event"},
		{"both", []trace.Event{{Call: &trace.Call{Seq: 1}, Proc: &trace.ProcEvent{}}}, "both"},
		{"seq 0", []trace.Event{{Call: &trace.Call{}}}, "seq must increase"},
		{"seq backwards", []trace.Event{{Call: &trace.Call{Seq: 2}}, {Call: &trace.Call{Seq: 1}}}, "call seq 1 follows seq 2"},
		{"data longer than len", []trace.Event{{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{Dir: trace.Out, Len: 1, Data: []byte("ab")}}}}}, "more than its length"},
		{"arg 6", []trace.Event{{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{Arg: 6, Dir: trace.Out}}}}}, "above 5"},
		{"no dir", []trace.Event{{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{}}}}}, "direction 0"},
		{"excluded with data", []trace.Event{{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{Dir: trace.In, Len: 2, Flag: trace.Excluded, Data: []byte("ab")}}}}}, "excluded or fault"},
		{"bare blob", []trace.Event{{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{Dir: trace.In, Len: 2, Blob: &trace.Hash{1}}}}}}, "blob address but no data"},
	}
	for _, c := range bad {
		err := w.WriteEvents(c.evs)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.msg)
		}
	}
	if err := w.WriteEvents(sampleEvents()); err != nil {
		t.Fatalf("the writer is unusable after refused events: %v", err)
	}
	if err := w.WriteStart(sampleStart()); err == nil {
		t.Error("WriteStart after events succeeded")
	}
	if err := w.WriteEvents([]trace.Event{{Call: &trace.Call{Seq: 9}}}); err == nil {
		t.Error("a seq repeated across batches was accepted")
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err == nil {
		t.Error("a second Close succeeded")
	}
	if err := w.WriteEvents(sampleEvents()); err == nil {
		t.Error("WriteEvents after Close succeeded")
	}
	if _, err := readBytes(buf.Bytes(), defaultLimits); err != nil {
		t.Errorf("the trace is unreadable: %v", err)
	}
}

// A trace the reader returned can be written again as it is (Data filled,
// Blob set) and reads back the same.
func TestRewrite(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	tr, err := readBytes(data, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := Options{BlobThreshold: 1000}.NewWriter(&buf, &tr.Header)
	w.WriteStart(tr.Start)
	if err := w.WriteEvents(tr.Events); err != nil {
		t.Fatal(err)
	}
	w.Close(tr.End)
	tr2, err := readBytes(buf.Bytes(), defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	stripBlobs(tr.Events)
	stripBlobs(tr2.Events)
	tr.content, tr2.content = nil, nil
	if !reflect.DeepEqual(tr, tr2) {
		t.Errorf("rewritten trace differs")
	}
}
