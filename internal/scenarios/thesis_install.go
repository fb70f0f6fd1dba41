package scenarios

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Packages are the Debian packages a case needs: its program's and its
// tools' (each tool is in the package of its name).
func (c *Case) Packages() []string {
	return append([]string{c.Package}, c.Tools...)
}

// Missing lists the programs (Program, Tools) not on PATH and the
// HostFiles that do not exist.
func (c *Case) Missing() []string {
	var out []string
	for _, p := range append([]string{c.Program}, c.Tools...) {
		if _, err := exec.LookPath(p); err != nil {
			out = append(out, "the program "+p)
		}
	}
	for _, f := range c.HostFiles {
		if _, err := os.Stat(f); err != nil {
			out = append(out, f)
		}
	}
	return out
}

// policyRC is Debian's hook that invoke-rc.d asks before it starts a
// service; exit status 101 forbids it, so installing a daemon's package
// does not start the daemon.
const policyRC = "/usr/sbin/policy-rc.d"

// installTimeout bounds apt-get.
const installTimeout = 10 * time.Minute

// Install installs the Debian packages of the cases that miss something
// (Missing), as root with apt-get, without starting their services: while
// it runs, a policy-rc.d that forbids starting any service is in place
// (unless the machine has one already, which is then left as it is). It
// runs apt-get update and tries again when the first attempt fails (an
// empty or stale package index). Nothing is done when nothing is missing.
func Install(ctx context.Context, cases ...Case) error {
	var pkgs []string
	for _, c := range cases {
		if len(c.Missing()) > 0 {
			pkgs = append(pkgs, c.Packages()...)
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("install %s: not root", strings.Join(pkgs, " "))
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return fmt.Errorf("install %s: no apt-get (not a Debian system?)", strings.Join(pkgs, " "))
	}
	if _, err := os.Lstat(policyRC); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(policyRC, []byte("#!/bin/sh\n# envbisect: installing packages, start no service\nexit 101\n"), 0o755); err != nil {
			return err
		}
		defer os.Remove(policyRC)
	}
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	install := append([]string{"apt-get", "install", "-y", "-q", "--no-install-recommends"}, pkgs...)
	r := Run(ctx, installTimeout, env, install...)
	if r.Err == nil && r.Code == 0 {
		return nil
	}
	if u := Run(ctx, installTimeout, env, "apt-get", "update", "-q"); u.Err != nil || u.Code != 0 {
		return fmt.Errorf("apt-get update failed:\n%s", u)
	}
	if r = Run(ctx, installTimeout, env, install...); r.Err != nil || r.Code != 0 {
		return fmt.Errorf("apt-get install failed:\n%s", r)
	}
	return nil
}
