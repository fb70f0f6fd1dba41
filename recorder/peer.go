package recorder

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// peer is a client that is not root, as SO_PEERCRED names it when it
// connects, with the capabilities it holds then. It may have the
// recorder follow only what it could ptrace itself: its own child, with
// its ids and no capability it lacks; and a process of its tree stops
// being passed on when an exec gives it more (a set-user-ID or
// file-capability program: the probe's Exec.Secure, the kernel's
// bprm->secureexec), as ptrace would have dropped those privileges or
// refused. Root (uid 0 in the recorder's user namespace) is not a
// peer: it may follow anything.
type peer struct {
	pid      int
	uid, gid uint32
	capPrm   uint64
}

// procCreds is what /proc/PID/status says of a process's credentials.
type procCreds struct {
	ppid   int
	uids   [4]uint32 // real, effective, saved, filesystem
	gids   [4]uint32
	capPrm uint64
}

// readCreds reads /proc/PID/status.
func readCreds(pid int) (procCreds, error) {
	var c procCreds
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return c, err
	}
	seen := 0
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		switch key {
		case "PPid":
			if len(f) == 1 {
				c.ppid, err = strconv.Atoi(f[0])
				seen++
			}
		case "Uid", "Gid":
			ids := &c.uids
			if key == "Gid" {
				ids = &c.gids
			}
			if len(f) != 4 {
				return c, fmt.Errorf("/proc/%d/status: %s line %q", pid, key, val)
			}
			for i, s := range f {
				n, perr := strconv.ParseUint(s, 10, 32)
				if perr != nil {
					return c, fmt.Errorf("/proc/%d/status: %s line %q", pid, key, val)
				}
				ids[i] = uint32(n)
			}
			seen++
		case "CapPrm":
			if len(f) == 1 {
				c.capPrm, err = strconv.ParseUint(f[0], 16, 64)
				seen++
			}
		}
		if err != nil {
			return c, fmt.Errorf("/proc/%d/status: %s line %q: %w", pid, key, val, err)
		}
	}
	if seen != 4 {
		return c, fmt.Errorf("/proc/%d/status: no PPid, Uid, Gid or CapPrm line", pid)
	}
	return c, nil
}

// newPeer describes the client process pid with ids uid and gid; nil for
// root.
func newPeer(pid int, uid, gid uint32) (*peer, error) {
	if uid == 0 {
		return nil, nil
	}
	c, err := readCreds(pid)
	if err != nil {
		return nil, fmt.Errorf("read the client's credentials: %w", err)
	}
	return &peer{pid: pid, uid: uid, gid: gid, capPrm: c.capPrm}, nil
}

// errNotAllowed: a client asked to follow a process it could not trace.
var errNotAllowed = errors.New("not allowed")

// mayStart says whether the peer may have the recorder follow pid: its
// child, with no privilege the peer lacks. A nil peer (root) may follow
// any process.
func (p *peer) mayStart(pid int) error {
	if p == nil {
		return nil
	}
	c, err := readCreds(pid)
	if err != nil {
		return fmt.Errorf("process %d: %w", pid, err)
	}
	if c.ppid != p.pid {
		return fmt.Errorf("%w: process %d is not the client's child (its parent is %d): a client that is not root may "+
			"only have its own children recorded", errNotAllowed, pid, c.ppid)
	}
	if !p.covers(c) {
		return fmt.Errorf("%w: process %d has other ids or capabilities than the client (uid %d gid %d)", errNotAllowed, pid, p.uid, p.gid)
	}
	return nil
}

// covers: every id of c is the peer's, and c's permitted capabilities
// are a subset of the peer's.
func (p *peer) covers(c procCreds) bool {
	for i := range c.uids {
		if c.uids[i] != p.uid || c.gids[i] != p.gid {
			return false
		}
	}
	return c.capPrm&^p.capPrm == 0
}
