package secrets_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// traceBytes returns everything the trace at path holds, as a search for
// a secret must see it: every frame decompressed (tracefile.Plain), then
// the captured buffers of every call in order, concatenated (so that a
// value copied a byte per call shows whole).
func traceBytes(t *testing.T, path string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := tracefile.Plain(path, &buf); err != nil {
		t.Fatalf("decompress %s: %v", path, err)
	}
	r, err := tracefile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	perDir := map[trace.Dir]*bytes.Buffer{trace.In: {}, trace.Out: {}}
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		if ev.Call == nil {
			continue
		}
		for _, m := range ev.Call.Mem {
			perDir[m.Dir].Write(m.Data)
		}
	}
	for _, e := range r.Start() {
		buf.WriteString(e.Value)
	}
	buf.Write(perDir[trace.In].Bytes())
	buf.Write(perDir[trace.Out].Bytes())
	return buf.Bytes()
}

// carriesAny returns the first window of n bytes of secret that data
// holds, or nil.
func carriesAny(data, secret []byte, n int) []byte {
	if len(secret) < n {
		n = len(secret)
	}
	for i := 0; i+n <= len(secret); i++ {
		if bytes.Contains(data, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return nil
}
