package trace

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"path"
	"strings"
)

// More start events of the process's identity: what bounds it beyond its
// capabilities (identity.go). Most of them no run can change (a cgroup
// limit, a read-only mount, a seccomp filter, the user namespace's maps):
// locate lists them when they differ, and names one as the cause when it
// explains the failing call's error.
const (
	// StartSecurebits: Value the securebits (prctl PR_GET_SECUREBITS),
	// hex.
	StartSecurebits StartKind = "securebits"
	// StartSeccompFilter: Name the filter's place, "1" for the oldest;
	// Value "sha256:" and the first 16 hex digits of the hash of its
	// program (FilterHash).
	StartSeccompFilter StartKind = "seccomp_filter"
	// StartCgroup: Name a limit (CgroupPidsMax, CgroupMemoryMax,
	// CgroupCPUMax), Value as cgroup v2 writes it ("max", "100000
	// 100000"); on cgroup v1 the same limits, converted.
	StartCgroup StartKind = "cgroup"
	// StartMount: Name the mount point, Value its flags among ro, noexec,
	// nosuid and nodev, comma-separated ("rw" when none of them). All
	// mounts are recorded; MountsTouched keeps those the calls reached.
	StartMount StartKind = "mount"
	// StartIDMap: Name IDMapUID or IDMapGID, Value the map's lines
	// ("0 0 4294967295"), joined by "; ".
	StartIDMap StartKind = "idmap"
	// StartAffinity: Value the CPUs the command may run on ("0-3"), as
	// the process it starts from has them, before envbisect pins it.
	StartAffinity StartKind = "affinity"
)

// Names of the StartCgroup events.
const (
	CgroupPidsMax   = "pids.max"
	CgroupMemoryMax = "memory.max"
	CgroupCPUMax    = "cpu.max"
)

// Names of the StartIDMap events.
const (
	IDMapUID = "uid_map"
	IDMapGID = "gid_map"
)

// Names of StartCreds events.
const (
	CredsUID    = "uid"
	CredsGID    = "gid"
	CredsGroups = "groups"
)

// Mount flags a StartMount event's Value lists.
const (
	MountReadOnly = "ro"
	MountNoExec   = "noexec"
	MountNoSuid   = "nosuid"
	MountNoDev    = "nodev"
	MountNone     = "rw"
)

// FilterHash names a seccomp filter program by its content: "sha256:"
// and the first 16 hex digits of the SHA-256 of its instructions as the
// kernel holds them (struct sock_filter, little-endian).
func FilterHash(p BPFProgram) string {
	h := sha256.New()
	var b [8]byte
	for _, in := range p {
		binary.LittleEndian.PutUint16(b[0:], in.Code)
		b[2], b[3] = in.Jt, in.Jf
		binary.LittleEndian.PutUint32(b[4:], in.K)
		h.Write(b[:])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// MountFlags returns a StartMount value from a mount's options as
// /proc/PID/mountinfo lists them ("rw,nosuid,nodev,noexec,relatime").
func MountFlags(options string) string {
	var out []string
	for _, want := range []string{MountReadOnly, MountNoExec, MountNoSuid, MountNoDev} {
		for _, o := range strings.Split(options, ",") {
			if o == want {
				out = append(out, want)
				break
			}
		}
	}
	if len(out) == 0 {
		return MountNone
	}
	return strings.Join(out, ",")
}

// HasMountFlag reports whether a StartMount value lists flag.
func HasMountFlag(value, flag string) bool {
	for _, f := range strings.Split(value, ",") {
		if f == flag {
			return true
		}
	}
	return false
}

// MountOf returns the mount point among points that holds the absolute
// path p (the longest that is p or one of its parents), or "".
func MountOf(p string, points []string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	p = path.Clean(p)
	best := ""
	for _, m := range points {
		if m == "/" || p == m || strings.HasPrefix(p, m+"/") {
			if len(m) > len(best) {
				best = m
			}
		}
	}
	return best
}

// MountsTouched returns the mount points among the StartMount events of
// start that hold one of paths (the paths the recorded calls name).
func MountsTouched(start []StartEvent, paths []string) map[string]bool {
	var points []string
	for _, e := range start {
		if e.Kind == StartMount {
			points = append(points, e.Name)
		}
	}
	out := map[string]bool{}
	for _, p := range paths {
		if m := MountOf(p, points); m != "" {
			out[m] = true
		}
	}
	return out
}

// CallPaths returns the paths the calls among each of events name, each
// once, in the order they are first named.
func CallPaths(events ...[]Event) []string {
	var out []string
	seen := map[string]bool{}
	for _, evs := range events {
		for _, ev := range evs {
			if c := ev.Call; c != nil {
				for _, p := range [2]string{c.Path, c.Path2} {
					if p != "" && !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// TouchedMountsOnly returns start without the StartMount events of
// mounts that hold none of paths: what diff compares, where every other
// mount of two machines would differ for nothing.
func TouchedMountsOnly(start []StartEvent, paths []string) []StartEvent {
	touched := MountsTouched(start, paths)
	out := make([]StartEvent, 0, len(start))
	for _, e := range start {
		if e.Kind != StartMount || touched[e.Name] {
			out = append(out, e)
		}
	}
	return out
}
