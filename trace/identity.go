package trace

// Start events of the process's identity beyond its ids and groups
// (StartCreds): what it may do and what filters it runs under. They are
// recorded like the others, shown by show and diff, and compared by
// locate; a run cannot give the command the good value of all of them
// (a capability outside envbisect's own bounding set, a weaker seccomp
// filter than the container's, no_new_privs unset).
const (
	// StartCaps: Name is inheritable, permitted, effective, bounding or
	// ambient; Value the set as /proc/PID/status shows it (hex).
	StartCaps StartKind = "caps"
	// StartNoNewPrivs: Value "0" or "1".
	StartNoNewPrivs StartKind = "no_new_privs"
	// StartSeccomp: Name "mode" (0 none, 1 strict, 2 filter) or
	// "filters" (how many), Value the number.
	StartSeccomp StartKind = "seccomp"
)

// The names of the StartCaps events: one per capability set.
const (
	CapSetInheritable = "inheritable"
	CapSetPermitted   = "permitted"
	CapSetEffective   = "effective"
	CapSetBounding    = "bounding"
	CapSetAmbient     = "ambient"
)

// IdentityStatusField returns the kind and name of the identity start
// event that the /proc/PID/status field key gives, or false.
func IdentityStatusField(key string) (StartEvent, bool) {
	switch key {
	case "CapInh":
		return StartEvent{Kind: StartCaps, Name: CapSetInheritable}, true
	case "CapPrm":
		return StartEvent{Kind: StartCaps, Name: CapSetPermitted}, true
	case "CapEff":
		return StartEvent{Kind: StartCaps, Name: CapSetEffective}, true
	case "CapBnd":
		return StartEvent{Kind: StartCaps, Name: CapSetBounding}, true
	case "CapAmb":
		return StartEvent{Kind: StartCaps, Name: CapSetAmbient}, true
	case "NoNewPrivs":
		return StartEvent{Kind: StartNoNewPrivs}, true
	case "Seccomp":
		return StartEvent{Kind: StartSeccomp, Name: "mode"}, true
	case "Seccomp_filters":
		return StartEvent{Kind: StartSeccomp, Name: "filters"}, true
	}
	return StartEvent{}, false
}
