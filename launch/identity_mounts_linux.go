package launch

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Mount flags as start items: every mount the command sees, with its
// flags among ro, noexec, nosuid and nodev; diff and locate keep those
// that hold a path the recorded calls name (trace.MountsTouched).

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
