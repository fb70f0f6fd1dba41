package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/trace"
)

// identityItems turns the start items a run can replay (start) and those
// that differ but no run can give the good value of (unapplied) into the
// report's items; denied are the calls the command made that the seccomp
// filters here deny (replay's DeniedHere), given to the first differing
// filter. With docker set each item is also said in docker run's words
// where the mapping is unambiguous (render.DockerWords).
func identityItems(start, unapplied []align.StartDiff, denied []string, docker bool) (items, notApplied []render.StartItem) {
	items, notApplied = startItems(start), startItems(unapplied)
	sayWhyRedacted(notApplied, unapplied)
	for i := range notApplied {
		if notApplied[i].Kind == string(trace.StartSeccompFilter) {
			notApplied[i].Denies = denied
			break
		}
	}
	if docker {
		all := append(append([]render.StartItem(nil), items...), notApplied...)
		render.SayInDockerWords(items, all)
		render.SayInDockerWords(notApplied, all)
	}
	return items, notApplied
}

// noteUnapplied tells the user, before the search starts, which start
// items of the process's identity differ between the recording and here
// but cannot be given their good value by a run: locate never drops them
// silently (the report lists them too).
func noteUnapplied(s streams, items []render.StartItem) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(s.err, "envbisect: differs here and could not be applied by a run:\n")
	for _, l := range render.UnappliedLines(items) {
		fmt.Fprintf(s.err, "  %s\n", l)
	}
}

// sayWhyCwd says, for a working directory listed as unapplied, why no
// run could start the command at the recorded path and what would let
// one: the runs had no sandbox (sandboxOff: --sandbox=off; otherwise it
// could not be made here), or they run in a container, where the command
// starts where the container's exec puts it.
func sayWhyCwd(items []render.StartItem, sandboxOff, inContainer bool) {
	for i := range items {
		it := &items[i]
		if it.Kind != string(trace.StartCwd) || it.Good == nil {
			continue
		}
		switch {
		case inContainer:
			it.Why = "a run in a container starts where the container's exec puts the command, and envbisect does not move it"
			it.Remedy = fmt.Sprintf("make the container's working directory %s (docker exec -w), or record the good run in %s",
				*it.Good, render.StartValue(it.Here))
		case sandboxOff:
			it.Why = "without a sandbox (--sandbox=off) a run cannot put this directory at the recorded path without changing the real file system"
			it.Remedy = fmt.Sprintf("drop --sandbox=off, or run locate from a directory at %s", *it.Good)
		default:
			it.Why = "the sandbox could not be made here (see the warning above), and only a run's sandbox can put this directory at the recorded path"
			it.Remedy = fmt.Sprintf("let envbisect make its sandbox (root, overlayfs), or run locate from a directory at %s", *it.Good)
		}
	}
}

// sayWhyLimit says, for a resource limit listed as unapplied, why no run
// could give the command its good value (replay.LimitReach: a hard limit
// above the one here needs CAP_SYS_RESOURCE), what the runs set instead
// when they get part of the way, and what would let them.
func sayWhyLimit(items []render.StartItem, b launch.Bound) {
	for i := range items {
		it := &items[i]
		if it.Kind != string(trace.StartRlimit) || it.Good == nil || it.Here == nil {
			continue
		}
		reach, ok := replay.LimitReach(it.Name, *it.Good, *it.Here, b)
		if !ok || reach.Full {
			continue
		}
		it.Why, it.Remedy = reach.Why, reach.Remedy
		set := trace.LimitValue(reach.Limit.Cur) + " " + trace.LimitValue(reach.Limit.Max)
		if set != *it.Here {
			it.Why += fmt.Sprintf("; the runs that replay it start the command with %q, as near as they can get", set)
		} else {
			it.Why += "; so no run tries it: every run starts the command with the limit it has here"
		}
	}
}

// sayWhyGrants says, for ids, groups, a capability set or no_new_privs
// listed as unapplied, why no run gave the command the good value: it
// would grant more than the environment does (replay.ItemGrants; a run
// never holds more than its environment, whatever the trace says), or,
// in a plain run, the run keeps envbisect's own identity; and what would
// let a run have it.
func sayWhyGrants(items []render.StartItem, b launch.Bound) {
	for i := range items {
		it := &items[i]
		kind := trace.StartKind(it.Kind)
		if kind != trace.StartCreds && kind != trace.StartCaps && kind != trace.StartNoNewPrivs || it.Good == nil || it.Why != "" {
			continue
		}
		if g := replay.ItemGrants(kind, it.Name, *it.Good, b); len(g) > 0 {
			it.Why = fmt.Sprintf("it would grant %s, more than %s gives, and a run never holds more than its environment",
				strings.Join(g, "; "), b.Where)
			if b.Container {
				it.Remedy = "if the good run's identity is what the command needs, give it to the container (docker run/exec flags)"
				if words := grantWords(*it, g); words != "" {
					it.Remedy = "if the command needs it, start the container with " + words
				}
			} else if lost := boundingLost(*it); lost != "" {
				it.Remedy = fmt.Sprintf("start the command (and envbisect) from a process whose bounding set holds %s, as the good run's did: "+
					"whatever started it here dropped it (setpriv --bounding-set, capsh --drop, systemd's CapabilityBoundingSet=), "+
					"and no process can add a capability back to its bounding set", lost)
			} else {
				it.Remedy = "run locate as a user that holds it, as the good run did"
			}
			continue
		}
		if r := replay.ItemReach(kind, it.Name, *it.Good, b); len(r) > 0 {
			it.Why = "a plain run gives the command only what envbisect itself may set: " + strings.Join(r, "; ")
			it.Remedy = "run locate as root, or give envbisect the capability it lacks as an ambient one (setpriv --inh-caps +CAP --ambient-caps +CAP envbisect locate ...)"
			if kind == trace.StartCreds && it.Name == trace.CredsUID {
				if f := strings.Fields(*it.Good); len(f) > 0 {
					it.Remedy = fmt.Sprintf("run locate as the good run's user (sudo -u '#%s' envbisect locate ...)", f[0])
				}
			}
		}
	}
}

// grantWords is the docker run flag that would give a container the
// good value of it, where one maps: --cap-add for a bounding set, --user
// for ids.
func grantWords(it render.StartItem, grants []string) string {
	switch trace.StartKind(it.Kind) {
	case trace.StartCaps:
		if it.Name != trace.CapSetBounding || it.Here == nil {
			return ""
		}
		g, err1 := strconv.ParseUint(*it.Good, 16, 64)
		h, err2 := strconv.ParseUint(*it.Here, 16, 64)
		if err1 != nil || err2 != nil {
			return ""
		}
		var flags []string
		for _, n := range trace.CapabilityNames(g &^ h) {
			flags = append(flags, "--cap-add "+strings.TrimPrefix(n, "CAP_"))
		}
		return strings.Join(flags, " ")
	case trace.StartCreds:
		if f := strings.Fields(*it.Good); it.Name == trace.CredsUID && len(f) > 0 {
			return "--user " + f[0]
		}
	}
	return ""
}

// runStartItems returns the start items the runs at site apply (start),
// the same as the search's candidates (items), and those that differ
// here but no run can give the good value of, each said why
// (notApplied): what replay and locate both print before their runs.
func runStartItems(rec *replay.Recording, site runSite, sandboxed, sandboxOff, docker bool) (start []align.StartDiff,
	items, notApplied []render.StartItem) {
	start, unapplied := rec.StartItemsIn(site.env, site.join)
	start, unapplied = rec.WithCwd(start, unapplied, replay.CwdOptions{Dir: site.dir, Join: site.join, Sandboxed: sandboxed})
	items, notApplied = identityItems(start, unapplied, rec.DeniedHere(site.join), docker)
	nameGroups(items, site.join.Root())
	nameGroups(notApplied, site.join.Root())
	sayWhyCwd(notApplied, sandboxOff, site.join != nil)
	bound := launch.BoundFor(site.join)
	sayWhyLimit(notApplied, bound)
	sayWhyGrants(notApplied, bound)
	return start, items, notApplied
}

// boundingLost names the capabilities of a bounding-set item that the
// good run had and here lacks ("CAP_NET_RAW"); "" for another item.
func boundingLost(it render.StartItem) string {
	if trace.StartKind(it.Kind) != trace.StartCaps || it.Name != trace.CapSetBounding || it.Good == nil || it.Here == nil {
		return ""
	}
	g, err1 := strconv.ParseUint(*it.Good, 16, 64)
	h, err2 := strconv.ParseUint(*it.Here, 16, 64)
	if err1 != nil || err2 != nil || g&^h == 0 {
		return ""
	}
	return strings.Join(trace.CapabilityNames(g&^h), ", ")
}
