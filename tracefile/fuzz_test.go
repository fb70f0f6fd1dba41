package tracefile

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// fuzzLimits keeps the fuzzer's allocations small.
var fuzzLimits = limits{maxStored: 1 << 20, maxDecoded: 4 << 20}

// FuzzReader feeds arbitrary bytes to the reader, as they are and with
// every frame checksum made right (so that mutations reach the zstd and
// CBOR decoders and the invariant checks). The reader must not panic, and
// every error must be one of the four kinds. The file objects' content is
// read too (chunk and file frames, version 2).
func FuzzReader(f *testing.F) {
	f.Add(appendPreamble(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data)
		if fixed := fixCRCs(data); !bytes.Equal(fixed, data) {
			fuzzRead(t, fixed)
		}
	})
}

func fuzzRead(t *testing.T, data []byte) {
	r, err := newReader(bytes.NewReader(data), "", fuzzLimits)
	if err != nil {
		if kindOf(err) == "" {
			t.Fatalf("NewReader: error of no kind: %v", err)
		}
		return
	}
	defer r.Close()
	var n uint64
	for {
		ev, err := r.Next()
		if err == io.EOF {
			if r.End() == nil {
				t.Fatal("io.EOF without an end frame")
			}
			break
		}
		if err != nil {
			if kindOf(err) == "" {
				t.Fatalf("Next: error of no kind: %v", err)
			}
			if err2 := func() error { _, err := r.Next(); return err }(); !errors.Is(err2, err) {
				t.Fatalf("Next after an error: %v, want %v again", err2, err)
			}
			break
		}
		if _, err := checkEvent(&ev, 0); err != nil {
			t.Fatalf("Next returned an invalid event: %v", err)
		}
		n++
	}
	if n != r.n {
		t.Fatalf("returned %d events, counted %d", n, r.n)
	}
	// The content of every file object read: served whole and checked,
	// or refused with an error of a kind.
	for _, f := range r.Files() {
		rc, err := r.OpenContent(&f)
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil && kindOf(err) == "" && !errors.Is(err, ErrNoContent) {
			t.Fatalf("OpenContent(%d): error of no kind: %v", f.ID, err)
		}
	}
}
