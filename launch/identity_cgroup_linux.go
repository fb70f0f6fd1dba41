package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Cgroup limits as start items: pids.max, memory.max and cpu.max of the
// cgroups the command is in, read from the unified hierarchy (v2) or, on
// a v1 or hybrid host, from each controller's hierarchy and converted to
// v2's words.

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
