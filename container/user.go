package container

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// execUser is a user as runc resolves docker's --user inside a root:
// the ids, the supplementary groups and the home directory.
type execUser struct {
	UID, GID uint32
	Groups   []uint32
	Home     string
}

// passwdEntry and groupEntry are lines of /etc/passwd and /etc/group.
type passwdEntry struct {
	name     string
	uid, gid uint32
	home     string
}

type groupEntry struct {
	name    string
	gid     uint32
	members []string
}

// resolveUser resolves spec ("", "name", "uid", "name:group", "uid:gid",
// as docker run and docker exec take --user) against the /etc/passwd and
// /etc/group under root, as runc does (libcontainer/user.GetExecUser):
// "" is root; a name must exist; a number need not (then gid 0 and home
// /). The supplementary groups are, as docker exec gives them, the
// primary group, then (when no group was given) those /etc/group lists
// the user's name in, then extra (docker's --group-add: names or
// numbers).
func resolveUser(root, spec string, extra []string) (*execUser, error) {
	users := readPasswd(root + "/etc/passwd")
	groups := readGroup(root + "/etc/group")
	userPart, groupPart, hasGroup := strings.Cut(spec, ":")
	u := &execUser{Home: "/"}
	var name string
	switch {
	case userPart == "":
		name = "root"
		if p := findUser(users, "root", 0, true); p != nil {
			u.GID, u.Home = p.gid, p.home
		}
	default:
		n, numErr := strconv.ParseUint(userPart, 10, 32)
		p := findUser(users, userPart, uint32(n), numErr == nil)
		switch {
		case p != nil:
			name, u.UID, u.GID, u.Home = p.name, p.uid, p.gid, p.home
		case numErr == nil:
			u.UID = uint32(n)
		default:
			return nil, fmt.Errorf("user %q: no such user in the container's /etc/passwd", userPart)
		}
	}
	if hasGroup {
		n, numErr := strconv.ParseUint(groupPart, 10, 32)
		g := findGroup(groups, groupPart, uint32(n), numErr == nil)
		switch {
		case g != nil:
			u.GID = g.gid
		case numErr == nil:
			u.GID = uint32(n)
		default:
			return nil, fmt.Errorf("group %q: no such group in the container's /etc/group", groupPart)
		}
	}
	u.Groups = []uint32{u.GID}
	if name != "" && !hasGroup {
		for _, g := range groups {
			for _, m := range g.members {
				if m == name && !containsID(u.Groups, g.gid) {
					u.Groups = append(u.Groups, g.gid)
				}
			}
		}
	}
	for _, e := range extra {
		n, numErr := strconv.ParseUint(e, 10, 32)
		g := findGroup(groups, e, uint32(n), numErr == nil)
		switch {
		case g != nil:
			n = uint64(g.gid)
		case numErr != nil:
			return nil, fmt.Errorf("--group-add %q: no such group in the container's /etc/group", e)
		}
		if !containsID(u.Groups, uint32(n)) {
			u.Groups = append(u.Groups, uint32(n))
		}
	}
	if u.Home == "" {
		u.Home = "/"
	}
	return u, nil
}

func findUser(users []passwdEntry, name string, id uint32, numeric bool) *passwdEntry {
	for i := range users {
		if users[i].name == name || numeric && users[i].uid == id {
			return &users[i]
		}
	}
	return nil
}

func findGroup(groups []groupEntry, name string, id uint32, numeric bool) *groupEntry {
	for i := range groups {
		if groups[i].name == name || numeric && groups[i].gid == id {
			return &groups[i]
		}
	}
	return nil
}

func containsID(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// readPasswd reads the entries of a passwd file; a missing or bad file
// has none.
func readPasswd(path string) []passwdEntry {
	var out []passwdEntry
	for _, f := range colonLines(path, 7) {
		uid, err1 := strconv.ParseUint(f[2], 10, 32)
		gid, err2 := strconv.ParseUint(f[3], 10, 32)
		if err1 == nil && err2 == nil {
			out = append(out, passwdEntry{name: f[0], uid: uint32(uid), gid: uint32(gid), home: f[5]})
		}
	}
	return out
}

// readGroup reads the entries of a group file.
func readGroup(path string) []groupEntry {
	var out []groupEntry
	for _, f := range colonLines(path, 4) {
		gid, err := strconv.ParseUint(f[2], 10, 32)
		if err != nil {
			continue
		}
		g := groupEntry{name: f[0], gid: uint32(gid)}
		for _, m := range strings.Split(f[3], ",") {
			if m = strings.TrimSpace(m); m != "" {
				g.members = append(g.members, m)
			}
		}
		out = append(out, g)
	}
	return out
}

// colonLines returns the lines of a colon-separated file that have at
// least n fields; comments and blank lines are skipped.
func colonLines(path string, n int) [][]string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if f := strings.Split(line, ":"); len(f) >= n {
			out = append(out, f)
		}
	}
	return out
}

// rootHome returns root's home directory in the root of pid, from its
// /etc/passwd; "/" when it has none.
func rootHome(pid int) string {
	u, err := resolveUser(fmt.Sprintf("/proc/%d/root", pid), "", nil)
	if err != nil {
		return "/"
	}
	return u.Home
}
