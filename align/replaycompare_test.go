package align

import (
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// TestReplayComparer: what locate counts as "differs here" between a
// recorded call and its live result in a replay run.
func TestReplayComparer(t *testing.T) {
	tab := tracetest.Amd64(t)
	rec, live := newRun(t, 1000), newRun(t, 5000)
	capHeader := func(pid uint32) string {
		b := make([]byte, 8)
		le.PutUint32(b, 0x20080522)
		le.PutUint32(b[4:], pid)
		return string(b)
	}
	cases := []struct {
		name    string
		a, b    *trace.Call
		ordered bool // differs with ListingOrder
		plain   bool // differs without it
	}{
		{"listing in another order",
			tracetest.Out(rec.call(1, "getdents64", 48, "/src", 3), 1, dirents64(900, "a", "b")),
			tracetest.Out(live.call(1, "getdents64", 48, "/src", 3), 1, dirents64(100, "b", "a")), true, false},
		{"listing in the same order, other inodes",
			tracetest.Out(rec.call(1, "getdents64", 48, "/src", 3), 1, dirents64(900, "a", "b")),
			tracetest.Out(live.call(1, "getdents64", 48, "/src", 3), 1, dirents64(100, "a", "b")), false, false},
		{"a directory on another file system",
			tracetest.Out(rec.call(1, "stat", 0, "/"), 1, statBuf(0o040755, 4096, 2, 1)),
			tracetest.Out(live.call(1, "stat", 0, "/"), 1, statBuf(0o040755, 40, 2, 1)), false, false},
		{"a file of another size",
			tracetest.Out(rec.call(1, "stat", 0, "/etc/x"), 1, statBuf(0o100644, 4096, 2, 1)),
			tracetest.Out(live.call(1, "stat", 0, "/etc/x"), 1, statBuf(0o100644, 40, 2, 1)), true, true},
		{"capget's header names the process",
			tracetest.Out(rec.call(1, "capget", 0, ""), 0, capHeader(1001)),
			tracetest.Out(live.call(1, "capget", 0, ""), 0, capHeader(5001)), false, false},
		{"capget's header says another version",
			tracetest.Out(rec.call(1, "capget", 0, ""), 0, capHeader(1001)),
			tracetest.Out(live.call(1, "capget", 0, ""), 0, "\x26\x10\x07\x19"+capHeader(5001)[4:]), true, true},
	}
	for _, tt := range cases {
		for _, ordered := range []bool{true, false} {
			c := NewReplayComparer(tab, "amd64", NewKeyer(tab, "", ""), Options{ListingOrder: ordered})
			want := tt.plain
			if ordered {
				want = tt.ordered
			}
			if d := c.Compare(tt.a, tt.b); (d != nil) != want {
				t.Errorf("%s (ListingOrder %v): diff %+v, want differs %v", tt.name, ordered, d, want)
			}
		}
	}
}
