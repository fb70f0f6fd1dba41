package container

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// rlimitCount is RLIMIT_NLIMITS: the resource limits Linux has.
const rlimitCount = 16

// readLimits reads pid's resource limits from /proc/PID/limits, whose
// lines after the heading are RLIMIT_CPU (0) to RLIMIT_RTTIME (15) in
// order. prlimit(2) would need CAP_SYS_RESOURCE for another user's
// process, and a container's init often is one.
func readLimits(pid int) ([]trace.Limit, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		return nil, procError(pid, "read its resource limits", err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var out []trace.Limit
	for i, line := range lines[1:] {
		if i >= rlimitCount || len(line) < 47 {
			break
		}
		f := strings.Fields(line[26:])
		if len(f) < 2 {
			return nil, fmt.Errorf("pid %d: /proc/%d/limits: bad line %q", pid, pid, line)
		}
		cur, err1 := limitValue(f[0])
		max, err2 := limitValue(f[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("pid %d: /proc/%d/limits: bad line %q", pid, pid, line)
		}
		out = append(out, trace.Limit{Resource: i, Cur: cur, Max: max})
	}
	return out, nil
}

// limitValue parses a limit as /proc/PID/limits shows it.
func limitValue(s string) (uint64, error) {
	if s == "unlimited" {
		return unix.RLIM_INFINITY, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

// procIdentity is what /proc/PID/status says of a process's identity.
type procIdentity struct {
	uid, gid       uint32
	groups         []uint32
	caps           trace.CapSets
	noNewPrivs     bool
	seccompMode    int // 0 none, 1 strict, 2 filter
	seccompFilters int
}

// readIdentity parses /proc/PID/status.
func readIdentity(pid int) (*procIdentity, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, procError(pid, "read its status", err)
	}
	defer f.Close()
	id := &procIdentity{}
	hex := func(v string) uint64 { n, _ := strconv.ParseUint(v, 16, 64); return n }
	num := func(v string) int { n, _ := strconv.Atoi(v); return n }
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 && key != "Groups" {
			continue
		}
		switch key {
		case "Uid":
			id.uid = uint32(num(fields[1])) // effective
		case "Gid":
			id.gid = uint32(num(fields[1]))
		case "Groups":
			for _, g := range fields {
				id.groups = append(id.groups, uint32(num(g)))
			}
		case "CapInh":
			id.caps.Inheritable = hex(fields[0])
		case "CapPrm":
			id.caps.Permitted = hex(fields[0])
		case "CapEff":
			id.caps.Effective = hex(fields[0])
		case "CapBnd":
			id.caps.Bounding = hex(fields[0])
		case "CapAmb":
			id.caps.Ambient = hex(fields[0])
		case "NoNewPrivs":
			id.noNewPrivs = fields[0] == "1"
		case "Seccomp":
			id.seccompMode = num(fields[0])
		case "Seccomp_filters":
			id.seccompFilters = num(fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, procError(pid, "read its status", err)
	}
	return id, nil
}

// execSpecOf returns the exec spec of process pid as runc would give a
// command exec'd next to it: its capability bounding, inheritable and
// ambient sets, its no_new_privs, its resource limits and its LSM label;
// the user is u (nil: pid's own ids and groups). The permitted and
// effective sets before the exec are the bounding set when pid runs as
// root (runc sets Docker's capability list in all of them), else pid's
// own: a command running as root then gets the bounding set, unless
// no_new_privs keeps it to what it had, one running as another user only
// its ambient set and its file's capabilities, like the container's own
// processes (capabilities(7)). Seccomp filters are
// not read here: copying them needs ptrace (ptrace.CopySeccompFilters).
func execSpecOf(pid int, user string, u *execUser) (*trace.ExecSpec, *procIdentity, error) {
	id, err := readIdentity(pid)
	if err != nil {
		return nil, nil, err
	}
	s := &trace.ExecSpec{User: user, UID: id.uid, GID: id.gid, Groups: id.groups, NoNewPrivs: id.noNewPrivs}
	if u != nil {
		s.UID, s.GID, s.Groups = u.UID, u.GID, u.Groups
	}
	if s.Groups == nil {
		s.Groups = []uint32{}
	}
	// Docker gives a container whose user is not root no permitted or
	// effective capabilities at all (only the bounding set), and its init
	// shows the sets it got; root's are its bounding set.
	prm := id.caps.Permitted
	if id.uid == 0 {
		prm = id.caps.Bounding
	}
	prm |= id.caps.Ambient
	s.Caps = trace.CapSets{
		Inheritable: id.caps.Inheritable, Ambient: id.caps.Ambient, Bounding: id.caps.Bounding,
		Permitted: prm, Effective: prm,
	}
	if s.Rlimits, err = readLimits(pid); err != nil {
		return nil, nil, err
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/attr/current", pid)); err == nil {
		s.LSMLabel = strings.TrimRight(string(b), "\x00\n")
	}
	return s, id, nil
}
