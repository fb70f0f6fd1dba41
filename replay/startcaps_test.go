package replay

import (
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
)

func capsEvents(bnd, inh, amb, prm, eff string) []trace.StartEvent {
	ev := func(name, v string) trace.StartEvent {
		return trace.StartEvent{Kind: trace.StartCaps, Name: name, Value: v}
	}
	return []trace.StartEvent{ev(trace.CapSetInheritable, inh), ev(trace.CapSetPermitted, prm), ev(trace.CapSetEffective, eff),
		ev(trace.CapSetBounding, bnd), ev(trace.CapSetAmbient, amb)}
}

// dockerDefault is Docker's default bounding set; withoutChown drops
// CAP_CHOWN (bit 0) from it.
const (
	dockerDefault = "00000000a80425fb"
	withoutChown  = "00000000a80425fa"
	hostFull      = 0x000001ffffffffff
)

func TestCapsWithin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start []trace.StartEvent
		own   uint64
		want  bool
	}{
		{"docker default within the host's", capsEvents(dockerDefault, "0", "0", dockerDefault, dockerDefault), hostFull, true},
		{"a bounding capability outside ours", capsEvents(dockerDefault, "0", "0", "0", "0"), 0xa80425fa, false},
		{"a permitted capability outside ours", capsEvents("0", "0", "0", "2000", "0"), 0xa80405fb, false},
		{"an ambient capability outside ours", capsEvents("1", "2000", "2000", "2001", "2001"), 0x1, false},
		{"none recorded", nil, hostFull, false},
		{"unreadable", capsEvents("zz", "0", "0", "0", "0"), hostFull, false},
	} {
		if got := capsWithin(tc.start, tc.own); got != tc.want {
			t.Errorf("%s: capsWithin = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSpecReplayable(t *testing.T) {
	ev := func(k trace.StartKind, name, v string) *trace.StartEvent {
		return &trace.StartEvent{Kind: k, Name: name, Value: v}
	}
	diff := func(k trace.StartKind, name string, good, here *trace.StartEvent) align.StartDiff {
		return align.StartDiff{Kind: k, Name: name, A: good, B: here}
	}
	bounding := diff(trace.StartCaps, trace.CapSetBounding,
		ev(trace.StartCaps, trace.CapSetBounding, dockerDefault), ev(trace.StartCaps, trace.CapSetBounding, withoutChown))
	for _, tc := range []struct {
		name   string
		within bool
		d      align.StartDiff
		want   bool
	}{
		{"bounding, good caps within ours", true, bounding, true},
		{"bounding, good caps outside ours", false, bounding, false},
		{"bounding not recorded", true, diff(trace.StartCaps, trace.CapSetBounding, nil, ev(trace.StartCaps, trace.CapSetBounding, withoutChown)), false},
		{"no_new_privs set in the good run only", false,
			diff(trace.StartNoNewPrivs, "", ev(trace.StartNoNewPrivs, "", "1"), ev(trace.StartNoNewPrivs, "", "0")), true},
		{"no_new_privs set here only", true,
			diff(trace.StartNoNewPrivs, "", ev(trace.StartNoNewPrivs, "", "0"), ev(trace.StartNoNewPrivs, "", "1")), false},
		{"uid", false, diff(trace.StartCreds, "uid", ev(trace.StartCreds, "uid", "0 0 0 0"), ev(trace.StartCreds, "uid", "1000 1000 1000 1000")), true},
		{"rlimit", false, diff(trace.StartRlimit, "RLIMIT_NOFILE", ev(trace.StartRlimit, "RLIMIT_NOFILE", "1024 1024"), ev(trace.StartRlimit, "RLIMIT_NOFILE", "12 1024")), true},
		{"seccomp mode", true, diff(trace.StartSeccomp, "mode", ev(trace.StartSeccomp, "mode", "0"), ev(trace.StartSeccomp, "mode", "2")), false},
	} {
		if got := (specReplay{capsWithin: tc.within}).replayable(tc.d); got != tc.want {
			t.Errorf("%s: replayable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCapsStartApply(t *testing.T) {
	spec := trace.ExecSpec{UID: 1000, Caps: trace.CapSets{Bounding: 0xa80425fa, Permitted: 0xa80425fa, Effective: 0xa80425fa}}
	var c capsStart
	for _, it := range []struct {
		kind        trace.StartKind
		name, value string
	}{
		{trace.StartCaps, trace.CapSetBounding, dockerDefault},
		{trace.StartCaps, trace.CapSetAmbient, "0000000000002000"},
		{trace.StartNoNewPrivs, "", "1"},
	} {
		if err := c.add(it.kind, it.name, it.value); err != nil {
			t.Fatal(err)
		}
	}
	got := spec
	c.applyTo(&got)
	want := trace.CapSets{Bounding: 0xa80425fb, Permitted: 0xa80425fa | 0x2000, Effective: 0xa80425fa, Inheritable: 0x2000, Ambient: 0x2000}
	if got.Caps != want || !got.NoNewPrivs || got.UID != 1000 {
		t.Errorf("applied: %+v no_new_privs %v, want %+v and no_new_privs", got.Caps, got.NoNewPrivs, want)
	}
	// An inheritable capability needs the bounding set: without its
	// bounding set replayed, the spec's holds it back.
	var inh capsStart
	if err := inh.add(trace.StartCaps, trace.CapSetInheritable, "0000000000000003"); err != nil {
		t.Fatal(err)
	}
	got = spec
	inh.applyTo(&got)
	if got.Caps.Inheritable != 0x2 || got.Caps.Bounding != spec.Caps.Bounding {
		t.Errorf("inheritable replayed alone: %+v, want inheritable 2 within the spec's bounding set", got.Caps)
	}
	if err := inh.add(trace.StartCaps, trace.CapSetPermitted, "1"); err == nil {
		t.Error("the permitted set was taken as a replayable item")
	}
}
