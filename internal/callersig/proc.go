package callersig

import (
	"os"
	"strconv"
	"strings"
)

// fromProc reads SigIgn and SigBlk of this process (its main thread)
// from /proc/self/status; 0 where it cannot.
func fromProc() (ignored, blocked uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(val), 16, 64)
		if err != nil {
			continue
		}
		switch key {
		case "SigIgn":
			ignored = n
		case "SigBlk":
			blocked = n
		}
	}
	return ignored, blocked
}
