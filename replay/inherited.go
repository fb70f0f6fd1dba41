package replay

import (
	"fmt"
	"os"
	"strconv"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Calls on the fds the command inherits (stdin, stdout, stderr) are keyed
// by fd number, not by what the fd refers to: the recording may have
// written to a terminal and the live run to a pipe or a CI log file.

// inheritedToken is the key path of a call on inherited fd n.
func inheritedToken(n int32) string { return "<inherited fd " + strconv.Itoa(int(n)) + ">" }

// firstFDArg returns the value of a row's first fd argument.
func firstFDArg(row *systable.Syscall, c *trace.Call) (int32, bool) {
	for i, a := range row.Args {
		if a.Kind == systable.FD {
			return int32(uint32(c.Args[i])), true
		}
	}
	return 0, false
}

// recordedKey is the key of a recorded call.
func recordedKey(k *align.Keyer, g *depgraph.Graph, tab *systable.Table, c *trace.Call) align.Key {
	for _, id := range g.ResourcesOf(c.Seq) {
		r := g.Resource(id)
		if r == nil || r.Kind != depgraph.Inherited || r.Path != c.Path {
			continue
		}
		if fd, ok := firstFDArg(tab.ByNr(int(c.Nr)), c); ok {
			cp := *c
			cp.Path = inheritedToken(fd)
			return k.Key(&cp)
		}
	}
	return k.Key(c)
}

// stdioTargets returns what the live command's fds 0, 1 and 2 refer to:
// the files given, or envbisect's own.
func stdioTargets(files [3]*os.File) [3]string {
	var out [3]string
	for i, f := range files {
		fd := i
		if f != nil {
			fd = int(f.Fd())
		}
		out[i], _ = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	}
	return out
}

// liveKey is the key of a live call, whose inherited fds 0, 1 and 2
// refer to stdio.
func liveKey(k *align.Keyer, row *systable.Syscall, stdio *[3]string, c *trace.Call) align.Key {
	if fd, ok := firstFDArg(row, c); ok && fd >= 0 && fd < 3 && c.Path != "" && c.Path == stdio[fd] {
		cp := *c
		cp.Path = inheritedToken(fd)
		return k.Key(&cp)
	}
	return k.Key(c)
}
