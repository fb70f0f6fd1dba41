package tracefile

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// FuzzLeanRead feeds arbitrary bytes to the lean read (ReadOptions with
// KeepData, which leaves the bytes of the buffers it refuses in the file,
// then Trace.FillData of every call), as they are and with every frame
// checksum made right. Neither may panic, and every error must be one of
// the four kinds. A trace the full read takes, the lean read takes too,
// and FillData then restores the very bytes the full read gave.
func FuzzLeanRead(f *testing.F) {
	f.Add(appendPreamble(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLean(t, data)
		if fixed := fixCRCs(data); !bytes.Equal(fixed, data) {
			fuzzLean(t, fixed)
		}
	})
}

// leanKeep keeps the bytes of the buffers of odd calls and of every
// first buffer, so that a trace's blobs are read both ways: when its
// event is read, and by FillData.
func leanKeep(c *trace.Call, m *trace.Mem) bool {
	return c.Seq%2 == 1 && len(c.Mem) > 0 && m == &c.Mem[0]
}

func fuzzLean(t *testing.T, data []byte) {
	full, ferr := readBytes(data, fuzzLimits)
	if ferr != nil && kindOf(ferr) == "" {
		t.Fatalf("full read: error of no kind: %v", ferr)
	}
	r, err := newReader(bytes.NewReader(data), "", fuzzLimits)
	if err != nil {
		if kindOf(err) == "" {
			t.Fatalf("lean NewReader: error of no kind: %v", err)
		}
		if ferr == nil {
			t.Fatalf("the lean read refuses what the full read takes: %v", err)
		}
		return
	}
	r.keepData = leanKeep
	lean, lerr := readAll(r)
	r.Close()
	if lerr != nil && kindOf(lerr) == "" {
		t.Fatalf("lean read: error of no kind: %v", lerr)
	}
	if ferr == nil && lerr != nil {
		t.Fatalf("the lean read refuses what the full read takes: %v", lerr)
	}
	if lean == nil {
		return
	}
	// FillData of every call: the bytes, or an error of a kind (a blob
	// the lean read left in the file and the full read refused).
	var fillErr error
	for _, ev := range lean.Events {
		if ev.Call == nil {
			continue
		}
		if err := lean.FillData(ev.Call); err != nil {
			if kindOf(err) == "" {
				t.Fatalf("FillData(%d): error of no kind: %v", ev.Call.Seq, err)
			}
			fillErr = err
		}
	}
	// Compare when both read the whole trace, or both up to the same cut.
	bothCut := errors.Is(ferr, ErrTruncated) && errors.Is(lerr, ErrTruncated)
	if full == nil || !(ferr == nil && lerr == nil || bothCut) {
		return
	}
	if fillErr != nil {
		t.Fatalf("FillData refuses a trace the full read takes: %v", fillErr)
	}
	if len(lean.Events) != len(full.Events) {
		t.Fatalf("lean read: %d events, full read %d", len(lean.Events), len(full.Events))
	}
	for i := range full.Events {
		sameEvent(t, i, full.Events[i], lean.Events[i])
	}
}

// sameEvent fails unless the lean read's event b, filled in, is the full
// read's a: the same bytes in every buffer (nil and empty alike), the
// same everything else.
func sameEvent(t *testing.T, i int, a, b trace.Event) {
	t.Helper()
	if a.Call == nil || b.Call == nil {
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("event %d: lean %+v, full %+v", i, b, a)
		}
		return
	}
	if len(a.Call.Mem) != len(b.Call.Mem) {
		t.Fatalf("event %d: lean %d buffers, full %d", i, len(b.Call.Mem), len(a.Call.Mem))
	}
	ca, cb := *a.Call, *b.Call
	ca.Mem, cb.Mem = append([]trace.Mem(nil), ca.Mem...), append([]trace.Mem(nil), cb.Mem...)
	for j := range ca.Mem {
		if !bytes.Equal(ca.Mem[j].Data, cb.Mem[j].Data) {
			t.Fatalf("event %d (seq %d), buffer %d: lean bytes %q, full %q", i, ca.Seq, j, cb.Mem[j].Data, ca.Mem[j].Data)
		}
		ca.Mem[j].Data, cb.Mem[j].Data = nil, nil
	}
	if !reflect.DeepEqual(ca, cb) {
		t.Fatalf("event %d: lean %+v, full %+v", i, cb, ca)
	}
}
