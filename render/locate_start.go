package render

import (
	"fmt"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// StartItem is a piece of the state the command starts with (an
// environment variable, the umask, a resource limit) that differs
// between the recording and here. Locate tries them as candidates before
// every call: the runner replays the first bisect.Request.Start of them (the
// command starts with the recorded value) along with the calls.
type StartItem struct {
	// Kind is the start event kind: "env", "umask", "rlimit", "cwd".
	Kind string `json:"kind"`
	// Name is the variable or limit: "LANG", "RLIMIT_NOFILE"; "" for the
	// umask.
	Name string `json:"name,omitempty"`
	// Good and Here are the values in the recording and here; nil when
	// the variable is not set there.
	Good *string `json:"good"`
	Here *string `json:"here"`
	// Docker says the difference the way a docker run flag sets it,
	// where the mapping is unambiguous ("--cap-drop CHOWN"); set by
	// SayInDockerWords for a run in a container.
	Docker string `json:"docker,omitempty"`
	// Denies are, for a seccomp filter, the system calls the command made
	// that the filter here denies.
	Denies []string `json:"denies,omitempty"`
	// Text says the difference plainly where the kind has a sentence of
	// its own (Plain): "the working directory differs: good /src/build-a,
	// here /tmp/w/bad".
	Text string `json:"text,omitempty"`
	// Why and Remedy are, for an item listed as unapplied, why no run
	// could give the command its good value, and what would let one.
	Why    string `json:"why,omitempty"`
	Remedy string `json:"remedy,omitempty"`
	// Addresses are, for an item of kind envobj.KindAddress (the object
	// search's), the addresses the command binds that a process holds
	// here, with their holders.
	Addresses []envobj.Address `json:"addresses,omitempty"`
	// GroupNames are, for a groups item, its groups' names by id
	// (envobj.StartValue.GroupNames).
	GroupNames map[string]string `json:"group_names,omitempty"`
	// Peer is, for an item of kind envobj.KindPeer (the object search's),
	// the peer the command talked to, without its conversation.
	Peer *envobj.Peer `json:"peer,omitempty"`
}

// Plain says the item's difference as a sentence, for the kinds that
// have one (the working directory, a signal's disposition: "signal
// SIGHUP: ignored in the good run, default here", a capability set: its
// capabilities by name, caps_words.go; a kernel name, as uname answered it:
// envobj.KindKernel); "" for the others, which the
// report prints as their label and values.
func (it StartItem) Plain() string {
	switch trace.StartKind(it.Kind) {
	case trace.StartCwd:
		return fmt.Sprintf("the working directory differs: good %s, here %s", valueOr(it.Good, "(not recorded)"), valueOr(it.Here, "(unknown)"))
	case trace.StartCaps:
		return capsPlain(it)
	case trace.StartCreds:
		if it.Name == trace.CredsGroups {
			if _, _, ok := envobj.GroupsDiff(it.Good, it.Here); ok {
				return envobj.StartValue{Kind: it.Kind, Name: it.Name, Good: it.Good, Here: it.Here, GroupNames: it.GroupNames}.Says()
			}
		}
	}
	if it.Kind == string(trace.StartSignal) {
		return envobj.SignalSays(it.Name, it.Good, it.Here)
	}
	if it.Kind == envobj.KindKernel {
		// What uname answered: "kernel release (uname -r) is ... here, ... in the good run".
		return envobj.StartValue{Kind: it.Kind, Name: it.Name, Good: it.Good, Here: it.Here}.Says()
	}
	return ""
}

// Label names the item as the report prints it: "env LANG", "umask".
func (it StartItem) Label() string {
	if it.Name == "" {
		return it.Kind
	}
	return it.Kind + " " + it.Name
}

// StartValue prints a start item's value, or that it is not set.
func StartValue(v *string) string {
	if v == nil {
		return "(not set)"
	}
	return fmt.Sprintf("%q", *v)
}

// ValueWords prints one of the item's values as the report shows it:
// StartValue, but a signal's disposition in words ("ignored",
// "default" where no event is).
func (it StartItem) ValueWords(v *string) string {
	if it.Kind == string(trace.StartSignal) {
		return trace.SignalWords(v)
	}
	return StartValue(v)
}
