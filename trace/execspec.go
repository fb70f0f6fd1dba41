package trace

// ExecSpec is how a command is started inside a container or next to a
// process, as `docker exec` (runc) would start it there: who it runs as,
// what it may do, and what bounds it. It is plain data: package container
// reads it from the engine and /proc, package launch applies it in the
// helper before the exec, in runc's order (see launch's doc).
type ExecSpec struct {
	// User is the user as given ("1000:1000", "app", "" for the
	// container's default), for messages only.
	User string `json:"user,omitempty"`
	// UID and GID are the real, effective and saved ids the command
	// gets; Groups its supplementary groups (setgroups, in this order).
	UID    uint32   `json:"uid"`
	GID    uint32   `json:"gid"`
	Groups []uint32 `json:"groups"`
	// Caps are the capability sets the helper sets before the exec; the
	// kernel computes the command's from them and its file (capabilities(7)).
	Caps CapSets `json:"caps"`
	// NoNewPrivs sets no_new_privs (PR_SET_NO_NEW_PRIVS).
	NoNewPrivs bool `json:"no_new_privs"`
	// Seccomp are the seccomp filters the command runs under, oldest
	// first (the order they are installed in).
	Seccomp []BPFProgram `json:"seccomp,omitempty"`
	// Rlimits are the resource limits the command starts with.
	Rlimits []Limit `json:"rlimits,omitempty"`
	// LSMLabel is the AppArmor profile or SELinux context of the
	// process the spec was read from (/proc/PID/attr/current), applied on
	// exec where the host has that security module; "" or "unconfined":
	// none.
	LSMLabel string `json:"lsm_label,omitempty"`
}

// CapSets are a process's capability sets, one bit per capability
// (bit 0: CAP_CHOWN), as /proc/PID/status shows them in hex.
type CapSets struct {
	Inheritable uint64 `json:"inheritable"`
	Permitted   uint64 `json:"permitted"`
	Effective   uint64 `json:"effective"`
	Bounding    uint64 `json:"bounding"`
	Ambient     uint64 `json:"ambient"`
}

// BPFProgram is one classic BPF program, as seccomp(2) installs it.
type BPFProgram []BPFInstruction

// BPFInstruction is one classic BPF instruction (struct sock_filter).
type BPFInstruction struct {
	Code uint16 `json:"code"`
	Jt   uint8  `json:"jt"`
	Jf   uint8  `json:"jf"`
	K    uint32 `json:"k"`
}
