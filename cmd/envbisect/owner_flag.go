package main

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// ownerFlag is record's --chown USER[:GROUP]: whom the trace file is
// given to once written. A trace recorded with sudo is otherwise root's,
// with mode 0600, and the user's next step (a CI job's artifact upload)
// cannot read it.
type ownerFlag struct {
	spec string
}

func (o *ownerFlag) add(f *pflag.FlagSet) {
	f.StringVar(&o.spec, "chown", "", "give the trace file to `USER[:GROUP]` once written (names or numbers; GROUP defaults to USER's login group), "+
		"so that a trace recorded with sudo is the user's")
}

// owner is a resolved --chown: the ids to give the trace; set is false
// when no --chown was given.
type owner struct {
	uid, gid int
	set      bool
}

// resolve looks up the user and group of --chown, before anything runs,
// so that a misspelt name is a usage error.
func (o ownerFlag) resolve() (owner, error) {
	if o.spec == "" {
		return owner{}, nil
	}
	name, group, hasGroup := strings.Cut(o.spec, ":")
	if name == "" {
		return owner{}, usageError("--chown %q: give USER or USER:GROUP", o.spec)
	}
	u, err := lookupUser(name)
	if err != nil {
		return owner{}, usageError("--chown %q: %v", o.spec, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if hasGroup && group != "" {
		g, err := lookupGroup(group)
		if err != nil {
			return owner{}, usageError("--chown %q: %v", o.spec, err)
		}
		gid, _ = strconv.Atoi(g.Gid)
	}
	return owner{uid: uid, gid: gid, set: true}, nil
}

// lookupUser finds a user by name, or by number (which need not have a
// name: its login group is then the number too).
func lookupUser(s string) (*user.User, error) {
	u, err := user.Lookup(s)
	if err == nil {
		return u, nil
	}
	if _, nerr := strconv.ParseUint(s, 10, 31); nerr != nil {
		return nil, err
	}
	if u, err := user.LookupId(s); err == nil {
		return u, nil
	}
	return &user.User{Uid: s, Gid: s}, nil
}

// lookupGroup finds a group by name, or by number.
func lookupGroup(s string) (*user.Group, error) {
	g, err := user.LookupGroup(s)
	if err == nil {
		return g, nil
	}
	if _, nerr := strconv.ParseUint(s, 10, 31); nerr != nil {
		return nil, err
	}
	return &user.Group{Gid: s}, nil
}

// apply gives the trace at path to the owner (nothing without --chown).
func (o owner) apply(path string) error {
	if !o.set {
		return nil
	}
	if err := os.Chown(path, o.uid, o.gid); err != nil {
		return fmt.Errorf("--chown: give trace %s to %d:%d: %w", path, o.uid, o.gid, err)
	}
	return nil
}
