package render

import (
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// SayInDockerWords sets each item's Docker field: the difference said
// the way a docker run flag sets it in the container here, where the
// mapping is unambiguous. all holds every differing item (the uid and
// gid items are said together, "--user 1000:1000").
func SayInDockerWords(items, all []StartItem) {
	for i := range items {
		items[i].Docker = DockerWords(items[i], all)
	}
}

// DockerWords says the difference it the way a docker run flag sets it
// here: "--cap-drop NET_RAW", "--security-opt no-new-privileges",
// "--ulimit nofile=64:64", "--read-only"; "" when no flag maps to it
// unambiguously.
func DockerWords(it StartItem, all []StartItem) string {
	good, here := "", ""
	if it.Good != nil {
		good = *it.Good
	}
	if it.Here != nil {
		here = *it.Here
	}
	switch trace.StartKind(it.Kind) {
	case trace.StartCaps:
		if it.Name == trace.CapSetBounding {
			return capWords(good, here)
		}
	case trace.StartNoNewPrivs:
		if here == "1" && good == "0" {
			return "--security-opt no-new-privileges"
		}
	case trace.StartCreds:
		return credsWords(it.Name, good, here, all)
	case trace.StartRlimit:
		return ulimitWords(it.Name, here)
	case trace.StartMount:
		return mountWords(it.Name, good, here)
	case trace.StartSeccompFilter, trace.StartSeccomp:
		if len(it.Denies) > 0 {
			return "--security-opt seccomp=... (denies " + strings.Join(it.Denies, ", ") + ")"
		}
		return "--security-opt seccomp=..."
	case trace.StartCgroup:
		return cgroupWords(it.Name, here)
	case trace.StartAffinity:
		if here != "" {
			return "--cpuset-cpus " + here
		}
	case trace.StartCwd:
		if here != "" {
			return "--workdir " + here
		}
	}
	return ""
}

// capWords: the capabilities the bounding set lost or gained here.
func capWords(good, here string) string {
	g, err1 := strconv.ParseUint(good, 16, 64)
	h, err2 := strconv.ParseUint(here, 16, 64)
	if err1 != nil || err2 != nil {
		return ""
	}
	var out []string
	for _, n := range trace.CapabilityNames(g &^ h) {
		out = append(out, "--cap-drop "+strings.TrimPrefix(n, "CAP_"))
	}
	for _, n := range trace.CapabilityNames(h &^ g) {
		out = append(out, "--cap-add "+strings.TrimPrefix(n, "CAP_"))
	}
	return strings.Join(out, " ")
}

// credsWords: --user for the ids, --group-add for groups here only.
func credsWords(name, good, here string, all []StartItem) string {
	first := func(v string) string {
		f := strings.Fields(v)
		if len(f) == 0 {
			return ""
		}
		return f[0]
	}
	hereOf := func(n string) string {
		for _, o := range all {
			if o.Kind == string(trace.StartCreds) && o.Name == n && o.Here != nil {
				return first(*o.Here)
			}
		}
		return ""
	}
	switch name {
	case trace.CredsUID:
		if u := first(here); u != "" {
			if g := hereOf(trace.CredsGID); g != "" {
				return "--user " + u + ":" + g
			}
			return "--user " + u
		}
	case trace.CredsGID:
		if hereOf(trace.CredsUID) == "" {
			if g := first(here); g != "" {
				return "--user :" + g
			}
		}
	case trace.CredsGroups:
		in := map[string]bool{}
		for _, g := range strings.Fields(good) {
			in[g] = true
		}
		var out []string
		for _, g := range strings.Fields(here) {
			if !in[g] {
				out = append(out, "--group-add "+g)
			}
		}
		return strings.Join(out, " ")
	}
	return ""
}

// ulimitWords: --ulimit nofile=64:64 ("unlimited" is -1 to docker).
func ulimitWords(name, here string) string {
	f := strings.Fields(here)
	if !strings.HasPrefix(name, "RLIMIT_") || len(f) != 2 {
		return ""
	}
	for i := range f {
		if f[i] == "unlimited" {
			f[i] = "-1"
		}
	}
	return "--ulimit " + strings.ToLower(strings.TrimPrefix(name, "RLIMIT_")) + "=" + f[0] + ":" + f[1]
}

// mountWords: --read-only for the root file system, --tmpfs for a
// noexec mount elsewhere, a read-only volume for another ro mount.
func mountWords(point, good, here string) string {
	ro := trace.HasMountFlag(here, trace.MountReadOnly) && !trace.HasMountFlag(good, trace.MountReadOnly)
	noexec := trace.HasMountFlag(here, trace.MountNoExec) && !trace.HasMountFlag(good, trace.MountNoExec)
	switch {
	case point == "/" && ro:
		return "--read-only"
	case point != "/" && noexec && !ro:
		return "--tmpfs " + point + " (noexec)"
	case point != "/" && ro:
		return "-v ...:" + point + ":ro"
	}
	return ""
}

// cgroupWords: --pids-limit, --memory, --cpus.
func cgroupWords(name, here string) string {
	switch name {
	case trace.CgroupPidsMax:
		if here != "max" {
			return "--pids-limit " + here
		}
	case trace.CgroupMemoryMax:
		if here != "max" {
			return "--memory " + here
		}
	case trace.CgroupCPUMax:
		f := strings.Fields(here)
		if len(f) == 2 && f[0] != "max" {
			q, err1 := strconv.ParseFloat(f[0], 64)
			p, err2 := strconv.ParseFloat(f[1], 64)
			if err1 == nil && err2 == nil && p > 0 {
				return "--cpus " + strconv.FormatFloat(q/p, 'g', 4, 64)
			}
		}
	}
	return ""
}
