//go:build amd64

package bpf

import (
	"testing"

	"github.com/envbisect/envbisect/systable"
)

// TestProgramDescs: every row of the table fits the program (numbers,
// buffers per call), and kinds and length sources translate one to one.
func TestProgramDescs(t *testing.T) {
	tab := nativeTable(t)
	syscalls, ioctls, fcntls, prctls := DescribeTable(tab)
	for nr, d := range syscalls {
		pd, err := programDesc(nr, d)
		if err != nil {
			t.Errorf("%s: %v", tab.ByNr(int(nr)).Name, err)
			continue
		}
		for i, a := range d.Args {
			if (a.Kind == 0) != (pd.Args[i].Kind == 0) || a.LenArg != pd.Args[i].LenArg || a.Size != pd.Args[i].Size {
				t.Errorf("%s argument %d: %+v became %+v", tab.ByNr(int(nr)).Name, i, a, pd.Args[i])
			}
		}
	}
	keys, err := requestKeys(&Options{Ioctls: ioctls, Fcntls: fcntls, Prctls: prctls})
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(ioctls)+len(fcntls)+len(prctls) {
		t.Errorf("%d request keys for %d+%d+%d requests: two families collide", len(keys), len(ioctls), len(fcntls), len(prctls))
	}

	seen := map[recordArgKind]systable.Kind{}
	for k := systable.Int; k <= systable.OutMsghdr; k++ {
		pk, ok := programKind(k)
		if ok != captured(k) {
			t.Errorf("kind %d: programKind %v, captured %v", k, ok, captured(k))
		}
		if !ok {
			continue
		}
		if other, dup := seen[pk]; dup {
			t.Errorf("kinds %d and %d both become %d", k, other, pk)
		}
		seen[pk] = k
	}
	seenLen := map[recordLenFrom]bool{}
	for l := systable.LenFixed; l <= systable.LenPrctl; l++ {
		pl, ok := programLen(l)
		if !ok || seenLen[pl] {
			t.Errorf("length source %d: %d, %v", l, pl, ok)
		}
		seenLen[pl] = true
	}
}

func TestProgramDescRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		nr   uint32
		d    SyscallDesc
	}{
		{"number", nrMax, SyscallDesc{}},
		{"kind", 1, SyscallDesc{Args: [6]ArgDesc{{Kind: uint8(systable.FD)}}}},
		{"length argument", 1, SyscallDesc{Args: [6]ArgDesc{{Kind: uint8(systable.InBuf), LenFrom: uint8(systable.LenArg), LenArg: 6}}}},
		{"too many buffers", 1, SyscallDesc{Args: [6]ArgDesc{
			{Kind: uint8(systable.InMsghdr)}, {Kind: uint8(systable.OutMsghdr)}, {Kind: uint8(systable.InMsghdr)},
		}}},
	} {
		if _, err := programDesc(tc.nr, tc.d); err == nil {
			t.Errorf("%s: accepted %+v", tc.name, tc.d)
		}
	}
}

// TestDefaultRingSize: 4 MiB per CPU, a power of two, from 8 to 64 MiB.
func TestDefaultRingSize(t *testing.T) {
	for _, tc := range []struct{ cpus, want int }{
		{1, 8 << 20}, {2, 8 << 20}, {3, 16 << 20}, {4, 16 << 20}, {5, 32 << 20}, {16, 64 << 20}, {256, 64 << 20},
	} {
		if got := DefaultRingSize(tc.cpus); got != tc.want {
			t.Errorf("DefaultRingSize(%d) = %d MiB, want %d MiB", tc.cpus, got>>20, tc.want>>20)
		}
	}
}
