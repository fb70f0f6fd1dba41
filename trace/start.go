package trace

// StartKind names what a start event describes: state a process inherits
// that no system call in the trace shows.
type StartKind string

const (
	StartArgv        StartKind = "argv"        // Name: index, Value: argument
	StartEnv         StartKind = "env"         // Name: variable, Value: its value
	StartAuxv        StartKind = "auxv"        // Name: AT_* name, Value: number (hex)
	StartCwd         StartKind = "cwd"         // Value: path
	StartUmask       StartKind = "umask"       // Value: octal
	StartCreds       StartKind = "creds"       // Name: uid, gid, euid, egid, groups
	StartRlimit      StartKind = "rlimit"      // Name: RLIMIT_*, Value: "soft hard"
	StartUname       StartKind = "uname"       // Name: sysname, release, version, machine
	StartHostname    StartKind = "hostname"    // Value: host name
	StartPersonality StartKind = "personality" // Value: hex
	StartSignal      StartKind = "signal"      // Name: SIGHUP, Value: "ignored", "blocked" or both (signal.go)
)

// StartEvent is one piece of inherited state, recorded before the first
// call so that a difference in it ("LANG differs", "RLIMIT_NOFILE is 256
// here") can be located like a call.
type StartEvent struct {
	Kind  StartKind `cbor:"1,keyasint" json:"kind"`
	Name  string    `cbor:"2,keyasint,omitempty" json:"name,omitempty"`
	Value string    `cbor:"3,keyasint" json:"value"`
	// Redacted, when set, is a salted slow hash of the value
	// (SecretHash, with Header.Salt) and Value is empty: the value looked
	// like a secret (record's --exclude-env and its default names) and
	// never reached the trace. Locate compares the value here by its
	// hash and cannot replay it.
	Redacted string `cbor:"10,keyasint,omitempty" json:"redacted,omitempty"`
}
