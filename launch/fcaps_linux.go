package launch

import (
	"encoding/binary"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// fileCapsWords begin explainExecEPERM's reason, which the helper adds
// to its report of the refused exec (FileCapsRefused reads it).
const fileCapsWords = "the file carries "

// FileCapsRefused reports whether the kernel refused the command's exec
// with EPERM because of the file's capabilities: it carries some with
// the effective bit that the bounding set of the process lacks
// (explainExecEPERM).
func (e *ExecError) FileCapsRefused() bool {
	return strings.HasPrefix(e.Msg, execRefusedPrefix) && strings.Contains(e.Msg, ": "+fileCapsWords)
}

// FileCaps returns the capabilities the file at path carries in its
// permitted set with the effective bit (setcap CAPS+ep), as bit
// numbers; nil for a file without them.
func FileCaps(path string) []int {
	b := make([]byte, 24)
	n, err := unix.Getxattr(path, "security.capability", b)
	if err != nil || n < 12 || binary.LittleEndian.Uint32(b[0:])&0x000001 == 0 {
		return nil
	}
	permitted := uint64(binary.LittleEndian.Uint32(b[4:]))
	if n >= 20 {
		permitted |= uint64(binary.LittleEndian.Uint32(b[12:])) << 32
	}
	var out []int
	for bit := 0; bit < 64; bit++ {
		if permitted&(1<<bit) != 0 {
			out = append(out, bit)
		}
	}
	return out
}

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
	return fmt.Sprintf(fileCapsWords+"%s+ep, and this process's bounding set lacks %s",
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
