package launch

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
	"golang.org/x/sys/unix"
)

// How far a run can give the command a recorded resource limit. The
// helper sets the limits before its exec, as envbisect's child, with
// envbisect's capabilities (a joined container's namespaces include no
// user namespace, and the exec spec's capabilities are applied after the
// limits). setrlimit(2) refuses with EPERM to raise a hard limit above the
// current one without CAP_SYS_RESOURCE, and to raise RLIMIT_NOFILE's
// above fs.nr_open at all; a soft limit can go up to the hard one. Root
// in a container started without CAP_SYS_RESOURCE (Docker's default set
// has it, many CI runners' do not) therefore cannot give the command a
// hard limit above the one locate was started with. What a run can set
// is decided here, before any run, from those rules, so that a limit is
// never attempted and refused in a run's helper (which would end the run,
// and locate, without a report): the report lists the difference as not
// applied, with the reason, and runs set as much of it as they can.
//
// In a container the helper could raise any limit (it is root on the
// host), but a run grants no more than the container (bound.go): the
// hard limits of the container's exec spec bound a run's unless the
// container's own command holds CAP_SYS_RESOURCE.

// capSysResource is CAP_SYS_RESOURCE's bit.
const capSysResource = 24

// nrOpenFile is the ceiling of every process's RLIMIT_NOFILE.
const nrOpenFile = "/proc/sys/fs/nr_open"

// LimitInReach is what a run can set a limit to here.
type LimitInReach struct {
	// Limit is the value a run sets: the good one when Full, otherwise
	// the nearest to it that setrlimit allows here.
	Limit trace.Limit
	// Full: the good value can be set as it is.
	Full bool
	// Why says, when not Full, what stops it: "raising the hard limit
	// above 40 needs CAP_SYS_RESOURCE, which envbisect does not have
	// here".
	Why string
	// Remedy says what would let a run set it.
	Remedy string
}

// LimitReach returns what a run bounded by b can set limit good to
// when the command would start with here (the same resource): the soft
// limit can rise to the hard one, the hard limit above here's only where
// b.RaiseLimits (the environment's command holds CAP_SYS_RESOURCE: in a
// plain run, envbisect, measured when the Bound was read), and the
// open-files hard limit never above fs.nr_open.
func LimitReach(good, here trace.Limit, b Bound) LimitInReach {
	out := LimitInReach{Limit: good, Full: true}
	name := trace.RlimitName(good.Resource)
	flag := strings.ToLower(strings.TrimPrefix(name, "RLIMIT_"))
	if good.Resource == unix.RLIMIT_NOFILE {
		if nrOpen, err := readUint(nrOpenFile); err == nil && good.Max > nrOpen {
			out.Limit.Max, out.Full = nrOpen, false
			out.Why = fmt.Sprintf("the kernel sets no open-files hard limit above fs.nr_open (%d) here", nrOpen)
			out.Remedy = fmt.Sprintf("raise fs.nr_open to %s (sysctl fs.nr_open=%s)", trace.LimitValue(good.Max), trace.LimitValue(good.Max))
		}
	}
	if out.Limit.Max > here.Max && !b.RaiseLimits {
		out.Limit.Max, out.Full = here.Max, false
		goodValue := trace.LimitValue(good.Cur) + ":" + trace.LimitValue(good.Max)
		if b.Container {
			out.Why = fmt.Sprintf("%s starts its commands with a hard limit of %s and without CAP_SYS_RESOURCE, "+
				"and a run grants no more than its container", b.Where, trace.LimitValue(here.Max))
			out.Remedy = fmt.Sprintf("start the container with the good run's limit (docker run --ulimit %s=%s)", flag, goodValue)
		} else {
			out.Why = fmt.Sprintf("raising the hard limit above %s needs CAP_SYS_RESOURCE, which envbisect does not have here "+
				"(%s)", trace.LimitValue(here.Max), capSysResourceWhere())
			out.Remedy = fmt.Sprintf("start locate with a hard %s limit of at least %s (prlimit --%s=%s from a process "+
				"that has CAP_SYS_RESOURCE; where envbisect itself runs in a container: docker run --ulimit %s=%s)",
				name, trace.LimitValue(good.Max), flag, goodValue, flag, goodValue)
		}
	}
	out.Limit.Cur = min(out.Limit.Cur, out.Limit.Max)
	return out
}

// mayRaiseLimits reports whether the helper, root re-executing
// envbisect, will hold CAP_SYS_RESOURCE: envbisect's effective set has
// it, or envbisect runs as root and its bounding set has it (root's exec
// gains what the bounding set allows).
func mayRaiseLimits() bool {
	eff, err1 := statusCaps("/proc/self/status", "CapEff:")
	bnd, err2 := statusCaps("/proc/self/status", "CapBnd:")
	if err1 != nil || err2 != nil {
		return true // not known: let the helper try, as before
	}
	return eff&(1<<capSysResource) != 0 || os.Geteuid() == 0 && bnd&(1<<capSysResource) != 0
}

// capSysResourceWhere says which of envbisect's capability sets lacks
// CAP_SYS_RESOURCE.
func capSysResourceWhere() string {
	if bnd, err := statusCaps("/proc/self/status", "CapBnd:"); err == nil && bnd&(1<<capSysResource) == 0 {
		return "its bounding set lacks it: a container or a session started without it"
	}
	return "its effective set lacks it"
}

// statusCaps reads a capability set ("CapEff:") of a /proc status file.
func statusCaps(path, field string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			return strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		}
	}
	return 0, fmt.Errorf("%s has no %s", path, field)
}

// readUint reads a number from a /proc/sys file.
func readUint(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
}
