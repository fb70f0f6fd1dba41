package launch

import (
	"bufio"
	"fmt"
	"os"
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
func identityStart(pid int, join *trace.Join) []trace.StartEvent {
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
func LiveIdentity(join *trace.Join) []trace.StartEvent {
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
