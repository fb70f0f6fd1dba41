package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// Start items of a command started with an exec spec (a container's or a
// process's, trace.Join.Exec): the live side is what the spec gives the
// command, and the ids and groups are items a run can replay (the helper
// takes the recorded ones instead of the spec's). The capability sets
// (bounding, inheritable, ambient) and no_new_privs are compared too. A
// run replays an identity item only when its good value grants nothing
// the environment's own spec does not (startcaps.go, launch.Bound):
// lower capability sets, another unprivileged user, no_new_privs set
// rather than unset. Otherwise the item is returned apart, for the report
// to list as differing here, with what it would grant.

// specCompared reports whether a start item is compared (replayable or
// listed) in a run with an exec spec.
func specCompared(e trace.StartEvent) bool {
	switch e.Kind {
	case trace.StartNoNewPrivs:
		return true
	case trace.StartCaps:
		return e.Name == trace.CapSetBounding || e.Name == trace.CapSetInheritable || e.Name == trace.CapSetAmbient
	}
	return startKinds[e.Kind] || e.Kind == trace.StartCreds
}

// StartItemsIn returns the start items that differ between the recording
// and a command started here now with env through join: items a run can
// replay, and items that differ but no run can give the good value of.
// Without an exec spec it is StartItems, with the ids, groups,
// capability sets and no_new_privs compared with envbisect's own
// (identityPlain): items when envbisect may give the command their good
// value (ItemGrants, ItemReach), unapplied otherwise; the
// identity items no run can change are unapplied either way
// (identity_items.go), and so are the limits a run cannot set in full
// (startlimits.go). Every decision is bounded by the environment's own
// identity (launch.BoundFor): an item whose good value would grant more
// is never replayed, whatever the trace says.
func (r *Recording) StartItemsIn(env []string, join *trace.Join) (items, unapplied []align.StartDiff) {
	bound := launch.BoundFor(join)
	if join == nil || join.Exec == nil {
		items, redacted := r.StartItems(env)
		items, short := limitsInReach(items, bound)
		unapplied = append(redacted, short...)
		for _, d := range r.identityPlain(bound) {
			if d.A != nil && len(ItemGrants(d.Kind, d.Name, d.A.Value, bound)) == 0 && len(ItemReach(d.Kind, d.Name, d.A.Value, bound)) == 0 {
				items = append(items, d)
			} else {
				unapplied = append(unapplied, d)
			}
		}
		return items, append(unapplied, r.identityUnapplied(join)...)
	}
	var rec []trace.StartEvent
	for _, e := range r.Trace.Start {
		if specCompared(e) {
			rec = append(rec, e)
		}
	}
	var live []trace.StartEvent
	for _, e := range r.liveCompared(launch.SpecStart(env, join.Exec)) {
		if specCompared(e) {
			live = append(live, e)
		}
	}
	rec, live, unapplied = r.splitRedacted(rec, live)
	decide := specReplay{bound: bound}
	for _, d := range align.CompareStart(rec, live, align.Options{}) {
		switch {
		case d.Kind == trace.StartEnv && shellVars[d.Name]:
		case decide.replayable(d):
			items = append(items, d)
		default:
			unapplied = append(unapplied, d)
		}
	}
	items, short := limitsInReach(items, bound)
	return items, append(append(unapplied, short...), r.identityUnapplied(join)...)
}

// identityPlain returns the ids, groups, capability sets (bounding,
// inheritable, ambient) and no_new_privs that differ between the
// recording and a command a plain run starts (no_new_privs only when it
// is set here, which no run can unset), which inherits envbisect's own
// (bound.Spec) unless the run gives it the good value
// (launch.Config.Identity): StartItemsIn makes each an item when
// envbisect can give it (ItemGrants: nothing beyond its own identity,
// and nothing it lacks the capability to set), and lists it as
// unapplied otherwise. A recording without credentials items gives
// none.
func (r *Recording) identityPlain(bound launch.Bound) []align.StartDiff {
	plain := func(e trace.StartEvent) bool {
		return e.Kind == trace.StartCreds && (e.Name == trace.CredsUID || e.Name == trace.CredsGID || e.Name == trace.CredsGroups) ||
			(e.Kind == trace.StartCaps || e.Kind == trace.StartNoNewPrivs) && specCompared(e)
	}
	var rec, live []trace.StartEvent
	for _, e := range r.Trace.Start {
		if plain(e) {
			rec = append(rec, e)
		}
	}
	if len(rec) == 0 {
		return nil
	}
	for _, e := range launch.SpecStart(nil, &bound.Spec) {
		if plain(e) {
			live = append(live, e)
		}
	}
	var out []align.StartDiff
	for _, d := range align.CompareStart(rec, live, align.Options{}) {
		if d.Kind == trace.StartCreds && d.A != nil && d.B != nil && sameFirst(d.A.Value, d.B.Value) {
			continue // the same id; only the saved or file-system one differs
		}
		if d.Kind == trace.StartNoNewPrivs && (d.B == nil || d.B.Value != "1") {
			// Set in the good run only: a recorder that is not root sets
			// it for its own filter, so it says nothing of the command's
			// environment, and it never makes a command pass.
			continue
		}
		out = append(out, d)
	}
	return out
}

// sameFirst reports whether two credentials values ("1000 1000 1000
// 1000") start with the same id.
func sameFirst(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	return len(fa) > 0 && len(fb) > 0 && fa[0] == fb[0]
}

// ItemGrants returns what giving the command the good value of one
// identity start item (creds, caps, no_new_privs) would grant beyond b,
// as launch.Bound.Grants says it; nil when it grants nothing more, or
// for another kind of item.
func ItemGrants(kind trace.StartKind, name, good string, b launch.Bound) []string {
	want, errs := itemWant(kind, name, good, b)
	if want == nil {
		return errs
	}
	return b.Grants(*want)
}

// ItemReach returns, in a plain run (b is envbisect's own identity),
// what envbisect would need to give the command the good value of one
// identity item and does not hold (launch.PlainReach: setgroups needs
// CAP_SETGID); nil when it can, in a container's run (its helper sets
// what the container's spec allows), or for another kind of item.
func ItemReach(kind trace.StartKind, name, good string, b launch.Bound) []string {
	if b.Container {
		return nil
	}
	want, errs := itemWant(kind, name, good, b)
	if want == nil {
		return errs
	}
	return launch.PlainReach(b.Spec, *want)
}

// itemWant is b's identity with the good value of one identity item;
// nil and why for an unreadable value, nil and nil for another kind.
func itemWant(kind trace.StartKind, name, good string, b launch.Bound) (*trace.ExecSpec, []string) {
	var sc startConfig
	switch kind {
	case trace.StartCreds:
		if err := sc.creds.add(name, good); err != nil {
			return nil, []string{fmt.Sprintf("an unreadable %s %q", name, good)}
		}
	case trace.StartCaps, trace.StartNoNewPrivs:
		if err := sc.caps.add(kind, name, good); err != nil {
			return nil, []string{err.Error()}
		}
	default:
		return nil, nil
	}
	spec := b.Spec
	return sc.specJoin(&trace.Join{Exec: &spec}).Exec, nil
}

// plainIdentity returns the identity a plain run (no exec spec) starts
// the command with when it replays ids, groups, capability sets or
// no_new_privs: envbisect's own (b.Spec) with the replayed items'
// values; nil when it replays none, and the command inherits
// envbisect's.
func (sc *startConfig) plainIdentity(join *trace.Join, b launch.Bound) *trace.ExecSpec {
	if join != nil && join.Exec != nil || !sc.creds.any() && !sc.caps.any() {
		return nil
	}
	spec := b.Spec
	return sc.specJoin(&trace.Join{Exec: &spec}).Exec
}

// credsStart is what replaying creds start items sets: nil fields are
// left as the exec spec has them.
type credsStart struct {
	uid, gid *uint32
	groups   []uint32
	setGroup bool
}

// any reports whether some id or the groups are set.
func (c *credsStart) any() bool { return c.uid != nil || c.gid != nil || c.setGroup }

// add takes the recorded value of a creds item ("uid" "1000 1000 1000
// 1000", "groups" "1000 1600").
func (c *credsStart) add(name, value string) error {
	f := strings.Fields(value)
	var ids []uint32
	for _, s := range f {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return err
		}
		ids = append(ids, uint32(n))
	}
	switch {
	case name == "groups":
		c.groups, c.setGroup = ids, true
	case len(ids) == 0:
	case name == "uid":
		c.uid = &ids[0]
	case name == "gid":
		c.gid = &ids[0]
	}
	return nil
}

// specJoin returns join with the replayed ids, groups, capability sets
// and no_new_privs in its exec spec (a copy; join itself is shared by
// every run).
func (sc *startConfig) specJoin(join *trace.Join) *trace.Join {
	c := &sc.creds
	if join == nil || join.Exec == nil || c.uid == nil && c.gid == nil && !c.setGroup && !sc.caps.any() {
		return join
	}
	j, spec := *join, *join.Exec
	sc.caps.applyTo(&spec)
	if c.uid != nil {
		spec.UID = *c.uid
	}
	if c.gid != nil {
		spec.GID = *c.gid
	}
	if c.setGroup {
		spec.Groups = c.groups
	}
	j.Exec = &spec
	return &j
}
