package envobj

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Kernel tunables (issue 27, "kernel names and tunables"): a file under
// /proc/sys or /sys whose value the recorded command read, and which
// reads otherwise here (net.core.somaxconn, net.ipv4.ping_group_range,
// a cgroup's memory.max). Its state is the bytes a read gives, not a
// stored file: the good value comes from the recording's read calls,
// this one from reading the file here. It is an Object of type file
// whose one difference is AspectValue, with both values in State.Value.
// A run puts the good value in place as it puts a file's content
// (OpWrite: package sandbox binds a file with the good bytes over it,
// in the run's mount namespace only); the fix sets the tunable here
// (sysctl -w, or a write to /sys).

// AspectValue is the value a kernel tunable gives when read: its bytes,
// compared as they are (State.Value), not by hash.
const AspectValue Aspect = "value"

// TunablePath reports whether p is in a kernel tree of tunables and
// values: /proc/sys, /sys. Not /proc/PID, whose files are a process's.
func TunablePath(p string) bool {
	return strings.HasPrefix(p, "/proc/sys/") || strings.HasPrefix(p, "/sys/")
}

// Tunable reports whether o is a kernel tunable whose value differs.
func (o *Object) Tunable() bool { return o.Differs.Has(AspectValue) }

// TunableName is how a user names the tunable at p: sysctl's name for a
// file under /proc/sys, dots for slashes ("net.core.somaxconn"), or
// slashes kept when a part holds a dot (an interface "eth0.100":
// "net/ipv4/conf/eth0.100/rp_filter", which sysctl takes too); the path
// for a file under /sys.
func TunableName(p string) string {
	rest, ok := strings.CutPrefix(p, "/proc/sys/")
	if !ok {
		return p
	}
	if strings.Contains(rest, ".") {
		return rest
	}
	return strings.ReplaceAll(rest, "/", ".")
}

// ValueWords is a tunable's value for a sentence or a command: its bytes
// without the final newline, tabs (ip_local_port_range's separator) and
// newlines as spaces.
func ValueWords(v string) string {
	v = strings.TrimSuffix(v, "\n")
	return strings.NewReplacer("\t", " ", "\n", " ").Replace(v)
}

// TunableState is the state of a tunable's file with the value v read:
// a file (of the kernel's mode and owner, as a stat shows it, known in
// st) whose value and content are v.
func TunableState(st State, v string) State {
	st.Exists, st.Type, st.Value = true, TypeFile, v
	st.MtimeNS = 0 // a kernel file's time is when it was first looked at
	st.Size = int64(len(v))
	st.SHA256 = trace.Hash(sha256.Sum256([]byte(v)))
	st.Known = append(Aspects{AspectExists, AspectType, AspectContent}, AspectValue)
	return st
}

// tunableDescribe is Describe of a tunable: "tunable net.core.somaxconn
// (value differs)".
func (o *Object) tunableDescribe() string {
	return fmt.Sprintf("tunable %s (value differs)", TunableName(o.Path))
}

// tunableSays is Says of a tunable, both values: `net.core.somaxconn is
// "128" here, "4096" in the good run (/proc/sys/net/core/somaxconn)`.
func (o *Object) tunableSays() string {
	name := TunableName(o.Path)
	s := fmt.Sprintf("kernel tunable %s is %q here, %q in the good run", name, ValueWords(o.Here.Value), ValueWords(o.Good.Value))
	if name != o.Path {
		s += " (" + o.Path + ")"
	}
	return s
}

// tunableMaterializable: a run needs the good value, which the
// recording's reads give.
func (o *Object) tunableMaterializable() (bool, string) {
	if !o.Good.Known.Has(AspectValue) || !o.Here.Exists {
		return false, "the good value of the tunable is not known"
	}
	return true, ""
}

// tunableOps puts the good value in place: the file's content, with its
// mode and owner here (the kernel's).
func (o *Object) tunableOps() []Op {
	h := o.Here
	return []Op{{Kind: OpWrite, Path: o.Path, Mode: h.Mode, UID: h.UID, GID: h.GID, Content: o.Good.SHA256}}
}

// tunableFix sets the tunable here to its good value: "sysctl -w
// net.core.somaxconn=4096" for /proc/sys, "echo 1 > /sys/..." for /sys.
func (o *Object) tunableFix() []FixStep {
	v := ValueWords(o.Good.Value)
	if strings.HasPrefix(o.Path, "/proc/sys/") {
		return []FixStep{{Command: "sysctl -w " + shellQuote(TunableName(o.Path)+"="+v)}}
	}
	return []FixStep{{Command: fmt.Sprintf("echo %s > %s", shellQuote(v), shellQuote(o.Path))}}
}

// TunableValues are the good values of the tunables among objs, by
// their SHA-256: the contents a run's OpWrite of a tunable names, which
// no file of the trace holds.
func TunableValues(objs []Object) map[trace.Hash][]byte {
	out := map[trace.Hash][]byte{}
	for i := range objs {
		if o := &objs[i]; o.Tunable() && o.Good.Known.Has(AspectValue) {
			out[o.Good.SHA256] = []byte(o.Good.Value)
		}
	}
	return out
}
