package align

import "testing"

func TestVolatilePath(t *testing.T) {
	for p, want := range map[string]bool{
		"/proc/uptime":                             true,
		"/proc/<pid>/status":                       true,
		"/proc/self/maps":                          true,
		"/sys/devices/system/node/node0/meminfo":   true,
		"/sys/devices/system/node/node1/numastat":  true,
		"/sys/devices/system/node/node0/cpulist":   false,
		"/sys/devices/system/node/possible":        false,
		"/etc/hosts":                               false,
		"/proc/sys/kernel/random/boot_id":          true,
		"/proc/<pid>/cmdline":                      false,
		"/sys/devices/system/cpu/cpu0/online":      false,
		"/sys/devices/system/node/node0/meminfo/x": false,
	} {
		if got := volatilePath(p); got != want {
			t.Errorf("volatilePath(%q) = %v, want %v", p, got, want)
		}
	}
}
