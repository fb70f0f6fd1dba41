package launch

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/envbisect/envbisect/internal/mountinfo"
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
	m, err := mountinfo.ParseLine(line)
	if err != nil {
		return "", "", false
	}
	opts := m.Options
	if len(m.Super) > 0 {
		opts = append(append([]string{}, opts...), m.Super...)
	}
	return m.Point, strings.Join(opts, ","), true
}
