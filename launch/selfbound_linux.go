package launch

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// SelfBound is the Bound of a plain run: the identity envbisect runs
// with now, read from its own /proc/self/status (what its command
// inherits), and whether it may raise a hard resource limit
// (mayRaiseLimits: measured, not assumed). When the status cannot be
// read, the Bound grants nothing beyond an unprivileged user's: no
// root id and no capability.
func SelfBound() Bound {
	spec, err := SelfSpec()
	if err != nil {
		return Bound{Spec: trace.ExecSpec{UID: ^uint32(0), GID: ^uint32(0)}, Where: "envbisect's own user (its identity could not be read: " + err.Error() + ")"}
	}
	return Bound{Spec: spec, Where: fmt.Sprintf("envbisect's own user (uid %d)", spec.UID), RaiseLimits: mayRaiseLimits()}
}

// SelfSpec returns envbisect's own identity as an exec spec: its
// effective ids, supplementary groups, capability sets and
// no_new_privs, from /proc/self/status.
func SelfSpec() (trace.ExecSpec, error) {
	return statusSpec("/proc/self/status")
}

// statusSpec reads the identity of a /proc status file.
func statusSpec(path string) (trace.ExecSpec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return trace.ExecSpec{}, fmt.Errorf("read the identity: %w", err)
	}
	var spec trace.ExecSpec
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		var perr error
		switch key {
		case "Uid", "Gid":
			if len(f) < 2 {
				return spec, fmt.Errorf("read the identity: %s %s %q", path, key, val)
			}
			n, e := strconv.ParseUint(f[1], 10, 32) // effective
			if key == "Uid" {
				spec.UID = uint32(n)
			} else {
				spec.GID = uint32(n)
			}
			perr = e
		case "Groups":
			for _, g := range f {
				n, e := strconv.ParseUint(g, 10, 32)
				if e != nil {
					perr = e
				}
				spec.Groups = append(spec.Groups, uint32(n))
			}
		case "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb":
			if len(f) != 1 {
				return spec, fmt.Errorf("read the identity: %s %s %q", path, key, val)
			}
			n, e := strconv.ParseUint(f[0], 16, 64)
			*map[string]*uint64{"CapInh": &spec.Caps.Inheritable, "CapPrm": &spec.Caps.Permitted, "CapEff": &spec.Caps.Effective,
				"CapBnd": &spec.Caps.Bounding, "CapAmb": &spec.Caps.Ambient}[key] = n
			perr = e
		case "NoNewPrivs":
			spec.NoNewPrivs = len(f) == 1 && f[0] == "1"
		default:
			continue
		}
		if perr != nil {
			return spec, fmt.Errorf("read the identity: %s %s %q: %w", path, key, val, perr)
		}
		seen[key] = true
	}
	for _, k := range []string{"Uid", "Gid", "CapBnd"} {
		if !seen[k] {
			return spec, fmt.Errorf("read the identity: %s has no %s", path, k)
		}
	}
	return spec, nil
}
