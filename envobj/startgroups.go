package envobj

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Group items (trace.StartCreds "groups"): the command starts with other
// supplementary groups than in the good run. The report names each
// group that differs by id and name ("group 44 (video): in the good
// run's supplementary groups, not here"), never the list of numbers, and
// the fix says how a person gives a command a group: for a login, the
// account's membership (usermod -aG, effective at the next login, or
// newgrp in the current one); for one command, sg, or setpriv as root.

// GroupsDiff returns the groups of a "groups" creds value good
// ("1000 44") that here lacks (lost), and those here holds that good
// does not (gained), each once, in good's and here's order; ok false
// when a side is not a list of ids.
func GroupsDiff(good, here *string) (lost, gained []uint32, ok bool) {
	if good == nil || here == nil {
		return nil, nil, false
	}
	g, err1 := parseIDs(*good)
	h, err2 := parseIDs(*here)
	if err1 != nil || err2 != nil {
		return nil, nil, false
	}
	for _, id := range g {
		if !slices.Contains(h, id) && !slices.Contains(lost, id) {
			lost = append(lost, id)
		}
	}
	for _, id := range h {
		if !slices.Contains(g, id) && !slices.Contains(gained, id) {
			gained = append(gained, id)
		}
	}
	return lost, gained, true
}

// GroupWords names a group: "group 44 (video)", or "group 44" when names
// has no name for it.
func GroupWords(id uint32, names map[string]string) string {
	if n := names[strconv.FormatUint(uint64(id), 10)]; n != "" {
		return fmt.Sprintf("group %d (%s)", id, n)
	}
	return fmt.Sprintf("group %d", id)
}

// groupsSays says a groups item by the groups that differ; "" when the
// item is not one or its values cannot be read.
func (s StartValue) groupsSays() string {
	if trace.StartKind(s.Kind) != trace.StartCreds || s.Name != trace.CredsGroups {
		return ""
	}
	lost, gained, ok := GroupsDiff(s.Good, s.Here)
	if !ok || len(lost)+len(gained) == 0 {
		return ""
	}
	var parts []string
	if len(lost) > 0 {
		parts = append(parts, andWords(s.groupList(lost))+": in the good run's supplementary groups, not here")
	}
	if len(gained) > 0 {
		parts = append(parts, andWords(s.groupList(gained))+": in the supplementary groups here, not in the good run's")
	}
	return strings.Join(parts, "; ")
}

// groupList names each of ids.
func (s StartValue) groupList(ids []uint32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = GroupWords(id, s.GroupNames)
	}
	return out
}

// groupsFix returns the steps that give the command the good run's
// supplementary groups; nil when the item is not a groups item.
func (s StartValue) groupsFix() []FixStep {
	if trace.StartKind(s.Kind) != trace.StartCreds || s.Name != trace.CredsGroups || s.Good == nil {
		return nil
	}
	lost, _, ok := GroupsDiff(s.Good, s.Here)
	if !ok {
		return nil
	}
	good, _ := parseIDs(*s.Good)
	list := make([]string, len(good))
	for i, id := range good {
		list[i] = strconv.FormatUint(uint64(id), 10)
	}
	setpriv := fmt.Sprintf("for one command, as root: setpriv --groups %s COMMAND (the good run's groups; keep its user with --reuid and --regid)",
		strings.Join(list, ","))
	if len(good) == 0 {
		setpriv = "for one command, as root: setpriv --clear-groups COMMAND (the good run had no supplementary groups)"
	}
	var out []FixStep
	for _, id := range lost {
		name := s.GroupNames[strconv.FormatUint(uint64(id), 10)]
		if name == "" {
			out = append(out, FixStep{Text: fmt.Sprintf("give the command's user group %d (it has no name here: add one with groupadd -g %d NAME), then log in again", id, id)})
			continue
		}
		out = append(out, FixStep{Command: fmt.Sprintf("usermod -aG %s \"$USER\"", shellQuote(name))},
			FixStep{Text: fmt.Sprintf("then log in again, or run newgrp %s: a session started before the change has its old groups; "+
				"for one command: sg %s -c COMMAND", shellQuote(name), shellQuote(name))})
	}
	return append(out, FixStep{Text: setpriv})
}

// parseIDs reads a list of ids ("1000 44").
func parseIDs(v string) ([]uint32, error) {
	var out []uint32
	for _, f := range strings.Fields(v) {
		n, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			return nil, err
		}
		out = append(out, uint32(n))
	}
	return out, nil
}
