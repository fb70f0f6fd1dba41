package callersig

import (
	"os"
	"strconv"
	"strings"
)

// fromProc reads SigIgn and SigBlk of this process (its main thread)
// from /proc/self/status; 0 where it cannot.
func fromProc() (ignored, blocked uint64) {
	ignored, blocked, _ = ProcStatus("/proc/self/status")
	return ignored, blocked
}

// ProcStatus reads the SigIgn and SigBlk sets of the /proc status file
// at path (/proc/PID/status: the process's main thread).
func ProcStatus(path string) (ignored, blocked uint64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
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
	return ignored, blocked, nil
}
