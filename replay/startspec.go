package replay

import (
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
// (bounding, inheritable, ambient) and no_new_privs are compared too; a
// run replays them when it can give the command the good value
// (startcaps.go: the good run's capabilities within envbisect's own
// bounding set, no_new_privs to be set rather than unset), and otherwise
// they are returned apart, for the report to list as differing here.

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
// Without an exec spec it is StartItems; the identity items no run can
// change are unapplied either way (identity_items.go), and so are the
// limits a run cannot set in full (startlimits.go).
func (r *Recording) StartItemsIn(env []string, join *trace.Join) (items, unapplied []align.StartDiff) {
	if join == nil || join.Exec == nil {
		items, redacted := r.StartItems(env)
		items, short := limitsInReach(items)
		return items, append(append(redacted, short...), r.identityUnapplied(join)...)
	}
	var rec []trace.StartEvent
	for _, e := range r.Trace.Start {
		if specCompared(e) {
			rec = append(rec, e)
		}
	}
	var live []trace.StartEvent
	for _, e := range launch.SpecStart(env, join.Exec) {
		if specCompared(e) {
			live = append(live, e)
		}
	}
	rec, live, unapplied = r.splitRedacted(rec, live)
	own, err := launch.OwnBounding()
	decide := specReplay{capsWithin: err == nil && capsWithin(r.Trace.Start, own)}
	for _, d := range align.CompareStart(rec, live, align.Options{}) {
		switch {
		case d.Kind == trace.StartEnv && shellVars[d.Name]:
		case decide.replayable(d):
			items = append(items, d)
		default:
			unapplied = append(unapplied, d)
		}
	}
	items, short := limitsInReach(items)
	return items, append(append(unapplied, short...), r.identityUnapplied(join)...)
}

// credsStart is what replaying creds start items sets: nil fields are
// left as the exec spec has them.
type credsStart struct {
	uid, gid *uint32
	groups   []uint32
	setGroup bool
}

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
