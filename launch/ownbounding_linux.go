package launch

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// OwnBounding returns envbisect's own capability bounding set
// (/proc/self/status CapBnd): what a helper started by this process can
// keep and give the command, and no more. A run can replay recorded
// capability sets only within it.
func OwnBounding() (uint64, error) { return statusCapBnd("/proc/self/status") }

// statusCapBnd reads the CapBnd field of a /proc status file.
func statusCapBnd(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read the bounding set: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapBnd:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				return 0, fmt.Errorf("read the bounding set: %s CapBnd %q: %w", path, strings.TrimSpace(v), err)
			}
			return n, nil
		}
	}
	return 0, fmt.Errorf("read the bounding set: %s has no CapBnd", path)
}
