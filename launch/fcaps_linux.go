package launch

import (
	"encoding/binary"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// explainExecEPERM says why exec of path failed with EPERM when the
// reason is the file's capabilities: the file carries capabilities with
// the effective bit, and the calling thread's bounding set lacks some of
// them, so the kernel refuses to run it (capabilities(7), "safety
// checking for capability-dumb binaries"). "" when that is not the
// reason.
func explainExecEPERM(path string) string {
	b := make([]byte, 24)
	n, err := unix.Getxattr(path, "security.capability", b)
	if err != nil || n < 12 {
		return ""
	}
	magic := binary.LittleEndian.Uint32(b[0:])
	if magic&0x000001 == 0 { // VFS_CAP_FLAGS_EFFECTIVE
		return ""
	}
	permitted := uint64(binary.LittleEndian.Uint32(b[4:]))
	if n >= 20 {
		permitted |= uint64(binary.LittleEndian.Uint32(b[12:])) << 32
	}
	missing := permitted &^ ownBounding()
	if missing == 0 {
		return ""
	}
	return fmt.Sprintf("the file carries %s+ep, and this process's bounding set lacks %s",
		strings.ToLower(strings.Join(trace.CapabilityNames(permitted), ",")),
		strings.ToLower(strings.Join(trace.CapabilityNames(missing), ",")))
}

// ownBounding is the calling thread's capability bounding set (all
// capabilities when it cannot be read: nothing is then said missing).
func ownBounding() uint64 {
	n, err := statusCapBnd("/proc/thread-self/status")
	if err != nil {
		return ^uint64(0)
	}
	return n
}
