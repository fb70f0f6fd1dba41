package container

import (
	"fmt"
)

// SetUser makes the command run as user (docker's --user syntax:
// "name", "uid", "name:group", "uid:gid"), as `docker exec --user` does:
// resolved in the target's /etc/passwd and /etc/group, with a
// container's --group-add groups added. "" is the target's own: for a
// container its configured user (Config.User, root when unset), for a
// process its own ids and groups. It reads the target's identity again
// (execspec.go); the seccomp filters are the caller's (ptrace.CopySeccompFilters).
func (t *Target) SetUser(user string) error {
	var u *execUser
	if user != "" || t.ID != "" {
		var err error
		if u, err = resolveUser(fmt.Sprintf("/proc/%d/root", t.PID), user, t.GroupAdd); err != nil {
			return err
		}
	}
	spec, id, err := execSpecOf(t.PID, user, u)
	if err != nil {
		return err
	}
	if t.Exec != nil {
		spec.Seccomp = t.Exec.Seccomp // copied already: they do not depend on the user
	}
	t.Exec, t.SeccompFilters = spec, id.seccompFilters
	if t.ID != "" {
		home := "/"
		if u != nil {
			home = u.Home
		}
		t.Env = execEnv(t.configEnv, t.hostname, home)
	}
	return nil
}
