package record

import (
	"strconv"
	"strings"
	"sync"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// maxParentDirs bounds the directories one recording stats: far more
// than the distinct directories of a compile (gcc's are under 200).
const maxParentDirs = 1 << 16

// parentStats is the launch.Observer in front of the batcher: for a call
// with a path argument (systable's HasPath: its path resolution can fail
// with EACCES), it stats the parent directories of its paths that no
// earlier call named, as the calling process sees them (in the root of
// /proc/PID/root), and adds them to the call (Call.Dirs). Each directory
// is stat'ed once per recording, up to maxParentDirs.
type parentStats struct {
	next  launch.Observer
	table *systable.Table

	mu   sync.Mutex
	seen map[string]bool
}

func newParentStats(next launch.Observer, table *systable.Table) *parentStats {
	return &parentStats{next: next, table: table, seen: map[string]bool{}}
}

// Start implements launch.Observer.
func (p *parentStats) Start(ev []trace.StartEvent) { p.next.Start(ev) }

// Event implements launch.Observer.
func (p *parentStats) Event(ev trace.Event) {
	if c := ev.Call; c != nil && c.PID > 0 {
		if row := p.table.ByNr(int(c.Nr)); row != nil && row.HasPath() {
			p.mu.Lock()
			for _, q := range []string{c.Path, c.Path2} {
				c.Dirs = p.add(c.Dirs, int(c.PID), q)
			}
			p.mu.Unlock()
		}
	}
	p.next.Event(ev)
}

// add appends to dirs the parents of path, outermost first, that were
// not seen yet, as process pid sees them. A directory that cannot be
// stat'ed (missing, or the process gone) is left to a later call.
func (p *parentStats) add(dirs []trace.DirStat, pid int, path string) []trace.DirStat {
	if !strings.HasPrefix(path, "/") {
		return dirs
	}
	var chain []string
	for d := parentDir(path); d != "/"; d = parentDir(d) {
		if p.seen[d] {
			break // its parents were seen with it
		}
		chain = append(chain, d)
	}
	for i := len(chain) - 1; i >= 0 && len(p.seen) < maxParentDirs; i-- {
		st, err := launch.StatInRoot("/proc/"+strconv.Itoa(pid)+"/root", chain[i])
		if err != nil {
			break
		}
		p.seen[chain[i]] = true
		dirs = append(dirs, trace.DirStat{Path: chain[i], Mode: st.Mode, UID: st.Uid, GID: st.Gid})
	}
	return dirs
}

// parentDir is path's directory; "/" for "/x" and for "/".
func parentDir(path string) string {
	i := strings.LastIndexByte(strings.TrimRight(path, "/"), '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}
