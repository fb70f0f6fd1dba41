package replay

import (
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
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

func TestSpecReplayable(t *testing.T) {
	ev := func(k trace.StartKind, name, v string) *trace.StartEvent {
		return &trace.StartEvent{Kind: k, Name: name, Value: v}
	}
	diff := func(k trace.StartKind, name string, good, here *trace.StartEvent) align.StartDiff {
		return align.StartDiff{Kind: k, Name: name, A: good, B: here}
	}
	bounding := diff(trace.StartCaps, trace.CapSetBounding,
		ev(trace.StartCaps, trace.CapSetBounding, dockerDefault), ev(trace.StartCaps, trace.CapSetBounding, withoutChown))
	// Docker's default root exec spec, and the same as user 1000.
	dockerRoot := launch.Bound{Spec: trace.ExecSpec{Caps: trace.CapSets{Bounding: 0xa80425fb, Permitted: 0xa80425fb, Effective: 0xa80425fb}},
		Where: "the container", Container: true}
	withoutChownRoot := dockerRoot
	withoutChownRoot.Spec.Caps = trace.CapSets{Bounding: 0xa80425fa, Permitted: 0xa80425fa, Effective: 0xa80425fa}
	user := dockerRoot
	user.Spec.UID, user.Spec.GID = 1000, 1000
	hostRoot := launch.Bound{Spec: trace.ExecSpec{Caps: trace.CapSets{Bounding: hostFull, Permitted: hostFull, Effective: hostFull}}}
	for _, tc := range []struct {
		name  string
		bound launch.Bound
		d     align.StartDiff
		want  bool
	}{
		{"bounding lower than the container's", hostRoot, bounding, true},
		{"bounding with a capability the container dropped", withoutChownRoot, bounding, false},
		{"bounding not recorded", dockerRoot, diff(trace.StartCaps, trace.CapSetBounding, nil, ev(trace.StartCaps, trace.CapSetBounding, withoutChown)), false},
		{"ambient the container's root holds", dockerRoot, diff(trace.StartCaps, trace.CapSetAmbient, ev(trace.StartCaps, trace.CapSetAmbient, "0000000000000400"), ev(trace.StartCaps, trace.CapSetAmbient, "0")), true},
		{"ambient its user does not hold", user, diff(trace.StartCaps, trace.CapSetAmbient, ev(trace.StartCaps, trace.CapSetAmbient, "0000000000000400"), ev(trace.StartCaps, trace.CapSetAmbient, "0")), false},
		{"no_new_privs set in the good run only", withoutChownRoot,
			diff(trace.StartNoNewPrivs, "", ev(trace.StartNoNewPrivs, "", "1"), ev(trace.StartNoNewPrivs, "", "0")), true},
		{"no_new_privs set here only", hostRoot,
			diff(trace.StartNoNewPrivs, "", ev(trace.StartNoNewPrivs, "", "0"), ev(trace.StartNoNewPrivs, "", "1")), false},
		{"uid 1000 where the container runs as root", dockerRoot, diff(trace.StartCreds, "uid", ev(trace.StartCreds, "uid", "1000 1000 1000 1000"), ev(trace.StartCreds, "uid", "0 0 0 0")), true},
		{"uid 0 where the container runs as 1000", user, diff(trace.StartCreds, "uid", ev(trace.StartCreds, "uid", "0 0 0 0"), ev(trace.StartCreds, "uid", "1000 1000 1000 1000")), false},
		{"another unprivileged uid", user, diff(trace.StartCreds, "uid", ev(trace.StartCreds, "uid", "1001 1001 1001 1001"), ev(trace.StartCreds, "uid", "1000 1000 1000 1000")), true},
		{"group 0 where the container has none", user, diff(trace.StartCreds, "groups", ev(trace.StartCreds, "groups", "0 1500"), ev(trace.StartCreds, "groups", "1500")), false},
		{"rlimit", user, diff(trace.StartRlimit, "RLIMIT_NOFILE", ev(trace.StartRlimit, "RLIMIT_NOFILE", "1024 1024"), ev(trace.StartRlimit, "RLIMIT_NOFILE", "12 1024")), true},
		{"seccomp mode", hostRoot, diff(trace.StartSeccomp, "mode", ev(trace.StartSeccomp, "mode", "0"), ev(trace.StartSeccomp, "mode", "2")), false},
	} {
		if got := (specReplay{bound: tc.bound}).replayable(tc.d); got != tc.want {
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
