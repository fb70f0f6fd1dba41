package replay

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Calls on the fds the command inherits (stdin, stdout, stderr, and the
// descriptors kept with --keep-fds) are keyed by fd number, not by what
// the fd refers to: the recording may have written to a terminal and the
// live run to a pipe or a CI log file.

// inheritedToken is the key path of a call on the inherited fd named
// name ("stderr", "fd 5"), or on a copy of it (bash's fcntl(2, F_DUPFD,
// 10) and the calls on fd 11 after it). stdout and stderr are one
// channel: a run with 2>&1 cannot tell a copy of one from a copy of the
// other by what it refers to.
func inheritedToken(name string) string {
	if name == "stdout" || name == "stderr" {
		name = "stdout/stderr"
	}
	return "<inherited " + name + ">"
}

// firstFDArg returns the value of a row's first fd argument, or of its
// directory fd when that is not AT_FDCWD (fstatat(2, "", AT_EMPTY_PATH)
// acts on fd 2).
func firstFDArg(row *systable.Syscall, c *trace.Call) (int32, bool) {
	for i, a := range row.Args {
		fd := int32(uint32(c.Args[i]))
		if a.Kind == systable.FD || a.Kind == systable.DirFD && fd != atFDCWD {
			return fd, true
		}
	}
	return 0, false
}

// atFDCWD is the dirfd that means "the current directory".
const atFDCWD = unix.AT_FDCWD

// recordedKey is the key of a recorded call, made of what a live call
// shows at its entry: the recorder names the object a call made when the
// call names none (pipe2, socket, eventfd), which live is not known yet.
func recordedKey(k *align.Keyer, g *depgraph.Graph, tab *systable.Table, c *trace.Call) align.Key {
	row := tab.ByNr(int(c.Nr))
	if c.Path != "" && !namesResource(row, c) {
		cp := *c
		cp.Path, cp.Path2 = "", ""
		return k.Key(&cp)
	}
	for _, id := range g.ResourcesOf(c.Seq) {
		r := g.Resource(id)
		if r == nil || r.Kind != depgraph.Inherited || r.Path != c.Path {
			continue
		}
		if _, ok := firstFDArg(tab.ByNr(int(c.Nr)), c); ok {
			cp := *c
			cp.Path = inheritedToken(depgraph.InheritedName(r.FD))
			return k.Key(&cp)
		}
	}
	return k.Key(c)
}

// namesResource reports whether a call's arguments name what it acts on:
// a path, an fd, or a directory fd other than AT_FDCWD (signalfd4(-1, ...)
// names none: it makes a new one).
func namesResource(row *systable.Syscall, c *trace.Call) bool {
	for i, a := range row.Args {
		fd := int32(uint32(c.Args[i]))
		switch {
		case a.Kind == systable.Path,
			a.Kind == systable.FD && fd >= 0,
			a.Kind == systable.DirFD && fd != atFDCWD:
			return true
		}
	}
	return false
}

// inheritedFD is a descriptor the live command starts with and what it
// refers to.
type inheritedFD struct {
	fd     int32
	target string
}

// inheritedTargets returns what the live command's descriptors refer to
// when it starts: 0, 1 and 2, the files given or envbisect's own, and the
// kept ones (launch.Config.KeepFDs), envbisect's own at the same numbers.
func inheritedTargets(files [3]*os.File, keep []int) []inheritedFD {
	var out []inheritedFD
	for _, fd := range launch.CommandFDs(keep) {
		own := fd
		if fd < len(files) && files[fd] != nil {
			own = int(files[fd].Fd())
		}
		target, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", own))
		out = append(out, inheritedFD{fd: int32(fd), target: target})
	}
	return out
}

// liveKey is the key of a live call, whose inherited descriptors refer
// to what inh says. A call on an inherited fd that still refers to what
// it did at the start is on that inherited fd; so is a call on a higher
// fd that refers to one of them (a copy), unless that is /dev/null,
// which a program also opens by name.
func liveKey(k *align.Keyer, row *systable.Syscall, inh []inheritedFD, c *trace.Call) align.Key {
	fd, ok := firstFDArg(row, c)
	if !ok || fd < 0 || c.Path == "" {
		return k.Key(c)
	}
	which := -1
	for i, in := range inh {
		if in.fd == fd && c.Path == in.target {
			which = i
			break
		}
	}
	if which < 0 && fd >= 3 && c.Path != os.DevNull {
		for i, in := range inh {
			if c.Path == in.target {
				which = i
				break
			}
		}
	}
	if which < 0 {
		return k.Key(c)
	}
	cp := *c
	cp.Path = inheritedToken(depgraph.InheritedName(inh[which].fd))
	return k.Key(&cp)
}
