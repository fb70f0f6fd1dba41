package record

import (
	"bytes"
	"crypto/rand"
	"testing"
)

func TestContentGuardFindsCopiesAtAnyOffset(t *testing.T) {
	key := make([]byte, 1700)
	rand.Read(key)
	small := []byte("-----BEGIN TINY KEY-----\nabc\n")
	g := newContentGuard()
	g.add("/k/key.pem", key)
	g.add("/k/tiny.pem", small)
	pad := bytes.Repeat([]byte("x"), 37)
	for name, tc := range map[string]struct {
		buf  []byte
		want string
	}{
		"whole":            {key, "/k/key.pem"},
		"inside other":     {append(append(append([]byte{}, pad...), key...), pad...), "/k/key.pem"},
		"odd slice":        {key[13 : 13+shortest], "/k/key.pem"},
		"tail":             {key[len(key)-chunkSize:], "/k/key.pem"},
		"too short":        {key[13 : 13+chunkSize], ""},
		"small file":       {append(append([]byte{}, pad...), small...), "/k/tiny.pem"},
		"half a small one": {small[:10], ""},
		"unrelated":        {bytes.Repeat([]byte("y"), 4096), ""},
	} {
		if got := g.carries(tc.buf); got != tc.want {
			t.Errorf("%s: carries = %q, want %q", name, got, tc.want)
		}
	}
}

// BenchmarkContentGuardCarries is the cost of scanning one 64 KiB buffer
// that carries nothing, with one excluded 1.7 KB key known.
func BenchmarkContentGuardCarries(b *testing.B) {
	key := make([]byte, 1700)
	rand.Read(key)
	g := newContentGuard()
	g.add("/k/key.pem", key)
	buf := make([]byte, 64<<10)
	rand.Read(buf)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if g.carries(buf) != "" {
			b.Fatal("a random buffer carries the key")
		}
	}
}
