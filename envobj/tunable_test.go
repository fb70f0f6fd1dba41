package envobj

import (
	"crypto/sha256"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// tunable is the object of a tunable at p read as good here and as here.
func tunable(p, good, here string) Object {
	kernel := State{Mode: 0o644, Known: Aspects{AspectMode, AspectOwner}}
	return Object{Path: p, Good: TunableState(kernel, good), Here: TunableState(kernel, here), Differs: Aspects{AspectValue}}
}

// A tunable is named as sysctl names it, says both values, is fixed by
// sysctl -w (a /sys value by a write to it), and is put in place as a
// file's content: the good value, with the kernel's mode.
func TestTunable(t *testing.T) {
	for _, c := range []struct {
		o        Object
		name     string
		says     string
		fix      string
		describe string
	}{
		{tunable("/proc/sys/net/core/somaxconn", "4096\n", "128\n"), "net.core.somaxconn",
			`kernel tunable net.core.somaxconn is "128" here, "4096" in the good run (/proc/sys/net/core/somaxconn)`,
			"sysctl -w net.core.somaxconn=4096", "tunable net.core.somaxconn (value differs)"},
		{tunable("/proc/sys/net/ipv4/ping_group_range", "0\t2147483647\n", "1\t0\n"), "net.ipv4.ping_group_range",
			`kernel tunable net.ipv4.ping_group_range is "1 0" here, "0 2147483647" in the good run (/proc/sys/net/ipv4/ping_group_range)`,
			"sysctl -w 'net.ipv4.ping_group_range=0 2147483647'", "tunable net.ipv4.ping_group_range (value differs)"},
		{tunable("/proc/sys/net/ipv4/conf/eth0.100/rp_filter", "0\n", "1\n"), "net/ipv4/conf/eth0.100/rp_filter",
			`kernel tunable net/ipv4/conf/eth0.100/rp_filter is "1" here, "0" in the good run (/proc/sys/net/ipv4/conf/eth0.100/rp_filter)`,
			"sysctl -w net/ipv4/conf/eth0.100/rp_filter=0", "tunable net/ipv4/conf/eth0.100/rp_filter (value differs)"},
		{tunable("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n", "[always] madvise never\n"),
			"/sys/kernel/mm/transparent_hugepage/enabled",
			`kernel tunable /sys/kernel/mm/transparent_hugepage/enabled is "[always] madvise never" here, "always [madvise] never" in the good run`,
			"echo 'always [madvise] never' > /sys/kernel/mm/transparent_hugepage/enabled",
			"tunable /sys/kernel/mm/transparent_hugepage/enabled (value differs)"},
	} {
		o := c.o
		if got := TunableName(o.Path); got != c.name {
			t.Errorf("TunableName(%s) = %q, want %q", o.Path, got, c.name)
		}
		if got := o.Says(); got != c.says {
			t.Errorf("%s: says %q, want %q", o.Path, got, c.says)
		}
		if got := o.Describe(); got != c.describe {
			t.Errorf("%s: describe %q, want %q", o.Path, got, c.describe)
		}
		if got := o.Fix(); len(got) != 1 || got[0].Command != c.fix {
			t.Errorf("%s: fix %v, want %q", o.Path, got, c.fix)
		}
		if ok, why := o.Materializable(); !ok {
			t.Errorf("%s: not materializable: %s", o.Path, why)
		}
		ops, err := o.Ops()
		want := Op{Kind: OpWrite, Path: o.Path, Mode: 0o644, Content: sha256.Sum256([]byte(o.Good.Value))}
		if err != nil || !slices.Equal(ops, []Op{want}) {
			t.Errorf("%s: ops %v, %v; want %v", o.Path, ops, err, want)
		}
	}
}

// A tunable is a candidate of its own, and the values runs put in
// place are the good ones, by hash.
func TestTunableCandidateAndValues(t *testing.T) {
	objs := []Object{tunable("/proc/sys/net/core/somaxconn", "4096\n", "128\n")}
	h := Build(objs)
	if len(h.Top) != 1 || h.Top[0].Kind != GroupObject || len(h.Unplaced) != 0 {
		t.Fatalf("hierarchy %+v, unplaced %+v; want the tunable as one candidate", h.Top, h.Unplaced)
	}
	if got := h.Top[0].Says(objs); got != objs[0].Says() {
		t.Errorf("group says %q", got)
	}
	vals := TunableValues(objs)
	if len(vals) != 1 || string(vals[trace.Hash(sha256.Sum256([]byte("4096\n")))]) != "4096\n" {
		t.Errorf("values %q; want the good one", vals)
	}
	// Without the good value (the recording did not keep it), no run
	// can put it in place.
	o := objs[0]
	o.Good.Known = Aspects{AspectExists}
	if ok, _ := o.Materializable(); ok {
		t.Errorf("a tunable without its good value is materializable")
	}
}
