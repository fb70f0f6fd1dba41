package align

import "strings"

// What differs between any two runs, even in the same environment, and
// is therefore left out of comparisons unless Options.AllFields is set.
// Calls whose return value or output memory is volatile (times,
// randomness, scheduling) are columns of the syscall table
// (Syscall.VolatileRet, VolatileOut, Arg.Volatile); struct fields that
// are volatile (inode numbers, times, addresses) are marked in
// systable's struct layouts.

// volatileProcFiles are files under /proc/<pid>/ (also self and
// thread-self, and under task/<tid>/) whose contents are addresses,
// counters and times of the process itself.
var volatileProcFiles = map[string]bool{
	"stat": true, "statm": true, "status": true, "sched": true, "schedstat": true,
	"io": true, "maps": true, "smaps": true, "smaps_rollup": true, "numa_maps": true,
	"auxv": true, "timers": true, "syscall": true, "wchan": true, "stack": true,
	"pagemap": true, "mem": true, "fdinfo": true,
}

// volatileSystemFiles are system-wide files of counters and times, and
// sources of randomness.
var volatileSystemFiles = map[string]bool{
	"/proc/uptime": true, "/proc/loadavg": true, "/proc/stat": true, "/proc/meminfo": true,
	"/proc/interrupts": true, "/proc/softirqs": true, "/proc/vmstat": true, "/proc/diskstats": true,
	"/proc/schedstat": true, "/proc/pressure/cpu": true, "/proc/pressure/io": true, "/proc/pressure/memory": true,
	"/dev/urandom": true, "/dev/random": true,
	"/proc/sys/kernel/random/uuid": true, "/proc/sys/kernel/random/boot_id": true, "/proc/sys/kernel/random/entropy_avail": true,
}

// volatileNodeFiles are the files of counters under each NUMA node's
// directory in /sys/devices/system/node/.
var volatileNodeFiles = map[string]bool{"meminfo": true, "numastat": true, "vmstat": true}

// volatilePath reports whether the data read from path p (as Keyer.Path
// normalised it) differs from run to run by nature.
func volatilePath(p string) bool {
	if volatileSystemFiles[p] {
		return true
	}
	if node, ok := strings.CutPrefix(p, "/sys/devices/system/node/"); ok {
		// A NUMA node's counters: node0/meminfo, numastat, vmstat.
		_, file, _ := strings.Cut(node, "/")
		return volatileNodeFiles[file]
	}
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "/")
	switch parts[0] {
	case "<pid>", "self", "thread-self":
	default:
		return false
	}
	if len(parts) >= 3 && parts[1] == "task" {
		parts = parts[2:]
	}
	return len(parts) >= 2 && volatileProcFiles[parts[1]]
}
