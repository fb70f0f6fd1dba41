package tracer

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// secbitKeepCaps is SECBIT_KEEP_CAPS (linux/securebits.h), which every
// exec clears.
const secbitKeepCaps = 1 << 4

// identityStart reads the identity start items that /proc/PID/status
// does not hold, for a command that runs as process pid or is about to
// (the helper, stopped before or at its exec), started with spec (nil:
// as envbisect): securebits, a hash of each seccomp filter, the cgroup
// limits, the flags of every mount, the user namespace's id maps and the
// CPU affinity it starts from.
//
// Securebits have no /proc file: the command inherits envbisect's own
// (neither the helper nor an exec spec changes them, and the exec clears
// keep_caps). The filters are the spec's (the container's, before the
// helper rewrites them); without a spec, none are hashed. The affinity is
// that of the process the command starts from (spec: the joined process;
// otherwise envbisect's parent), not the one CPU envbisect pins runs to.
func identityStart(pid int, join *Join) []trace.StartEvent {
	var ev []trace.StartEvent
	add := func(k trace.StartKind, name, value string) {
		ev = append(ev, trace.StartEvent{Kind: k, Name: name, Value: value})
	}
	if bits, err := unix.PrctlRetInt(unix.PR_GET_SECUREBITS, 0, 0, 0, 0); err == nil {
		add(trace.StartSecurebits, "", fmt.Sprintf("0x%x", bits&^secbitKeepCaps))
	}
	if join != nil && join.Exec != nil {
		for i, p := range join.Exec.Seccomp {
			add(trace.StartSeccompFilter, strconv.Itoa(i+1), filterBehaviour(p))
		}
	}
	ev = append(ev, cgroupLimits(pid)...)
	ev = append(ev, mountItems(pid)...)
	for _, m := range []string{trace.IDMapUID, trace.IDMapGID} {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, m)); err == nil {
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				lines = append(lines, strings.Join(strings.Fields(l), " "))
			}
			add(trace.StartIDMap, m, strings.Join(lines, "; "))
		}
	}
	from := os.Getppid()
	if join != nil && join.PID > 0 {
		from = join.PID
	}
	if cpus := affinityList(from); cpus != "" {
		add(trace.StartAffinity, "", cpus)
	}
	return ev
}

// LiveIdentity returns the identity start items a command started here
// now through join (nil: as envbisect) would start with, as
// identityStart reads them: from the joined process for what it shares
// with it (mounts, and its cgroup v2 directory when the helper is cloned
// into it), from envbisect itself for the rest.
func LiveIdentity(join *Join) []trace.StartEvent {
	self := os.Getpid()
	ev := identityStart(self, join)
	if join == nil || join.PID <= 0 {
		return ev
	}
	out := ev[:0]
	for _, e := range ev {
		if e.Kind != trace.StartMount && (e.Kind != trace.StartCgroup || join.CgroupDir == "") {
			out = append(out, e)
		}
	}
	out = append(out, mountItems(join.PID)...)
	if join.CgroupDir != "" {
		// The helper is cloned into the target's cgroup v2 directory; its
		// v1 cgroups (a hybrid host) stay envbisect's.
		unified, _ := cgroupPaths(join.PID)
		_, v1 := cgroupPaths(self)
		out = append(out, cgroupLimitsAt("/sys/fs/cgroup", unified, v1)...)
	}
	return out
}

// affinityList returns the CPUs process pid may run on, as a list
// ("0-3,6"), or "".
func affinityList(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "Cpus_allowed_list" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// mountItems returns a StartMount event for each mount process pid sees,
// from /proc/PID/mountinfo: the mount point (relative to pid's root) and
// its flags, per-mount and per-superblock options together. A mount
// point mounted over keeps the last (visible) one.
func mountItems(pid int) []trace.StartEvent {
	f, err := os.Open(fmt.Sprintf("/proc/%d/mountinfo", pid))
	if err != nil {
		return nil
	}
	defer f.Close()
	idx := map[string]int{}
	var ev []trace.StartEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		point, opts, ok := parseMountinfo(sc.Text())
		if !ok {
			continue
		}
		e := trace.StartEvent{Kind: trace.StartMount, Name: point, Value: trace.MountFlags(opts)}
		if i, seen := idx[point]; seen {
			ev[i] = e
			continue
		}
		idx[point] = len(ev)
		ev = append(ev, e)
	}
	return ev
}

// parseMountinfo returns the mount point and the mount and superblock
// options of one /proc/PID/mountinfo line (proc(5)).
func parseMountinfo(line string) (point, options string, ok bool) {
	f := strings.Fields(line)
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || len(f) < sep+4 {
		return "", "", false
	}
	return unescapeMountinfo(f[4]), f[5] + "," + f[sep+3], true
}

// unescapeMountinfo undoes the octal escapes (\040 for a space) of a
// mountinfo path.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupLimits returns the pids, memory and cpu limits of the cgroups
// process pid is in, on cgroup v2 (the unified hierarchy) or v1 (one
// hierarchy per controller, the limits converted to v2's words).
func cgroupLimits(pid int) []trace.StartEvent {
	unified, v1 := cgroupPaths(pid)
	return cgroupLimitsAt("/sys/fs/cgroup", unified, v1)
}

// cgroupPaths returns the cgroups of process pid from /proc/PID/cgroup:
// its unified (v2) one and its v1 ones by controller.
func cgroupPaths(pid int) (unified string, v1 map[string]string) {
	v1 = map[string]string{}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return "", v1
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			unified = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			v1[c] = parts[2]
		}
	}
	return unified, v1
}

// cgroupLimitsAt reads the limits under the cgroup file system root:
// from v1's controllers where they are mounted, else from the unified
// hierarchy.
func cgroupLimitsAt(root, unified string, v1 map[string]string) []trace.StartEvent {
	read := func(p string) (string, bool) {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	var ev []trace.StartEvent
	add := func(name, v string) { ev = append(ev, trace.StartEvent{Kind: trace.StartCgroup, Name: name, Value: v}) }
	v2 := func(name string) bool {
		if unified == "" {
			return false
		}
		if v, ok := read(filepath.Join(root, unified, name)); ok {
			add(name, v)
			return true
		}
		return false
	}
	if p, ok := v1["pids"]; ok {
		if v, ok := read(filepath.Join(root, "pids", p, "pids.max")); ok {
			add(trace.CgroupPidsMax, v)
		}
	} else {
		v2(trace.CgroupPidsMax)
	}
	if p, ok := v1["memory"]; ok {
		if v, ok := read(filepath.Join(root, "memory", p, "memory.limit_in_bytes")); ok {
			if n, err := strconv.ParseUint(v, 10, 64); err == nil && n >= 1<<62 {
				v = "max" // v1's "no limit" is a page-rounded LONG_MAX
			}
			add(trace.CgroupMemoryMax, v)
		}
	} else {
		v2(trace.CgroupMemoryMax)
	}
	if p, ok := v1["cpu"]; ok {
		q, ok1 := read(filepath.Join(root, "cpu", p, "cpu.cfs_quota_us"))
		per, ok2 := read(filepath.Join(root, "cpu", p, "cpu.cfs_period_us"))
		if ok1 && ok2 {
			if q == "-1" {
				q = "max"
			}
			add(trace.CgroupCPUMax, q+" "+per)
		}
	} else {
		v2(trace.CgroupCPUMax)
	}
	return ev
}
