package main

import (
	"strconv"
)

// args returns the flags as given, for commands that envbisect suggests:
// --container or --pid, and --user.
func (c *containerFlags) args() []string {
	var out []string
	switch {
	case c.container != "":
		out = append(out, "--container", c.container)
	case c.pid != 0:
		out = append(out, "--pid", strconv.Itoa(c.pid))
	}
	if c.user != "" {
		out = append(out, "--user", c.user)
	}
	return out
}

// args returns the verdict flags as given, for commands that envbisect
// suggests.
func (v *verdictFlags) args() []string {
	var out []string
	if v.spec.Check != "" {
		out = append(out, "--check", v.spec.Check)
	}
	if v.spec.Alive != 0 {
		out = append(out, "--alive", v.spec.Alive.String())
	}
	if v.spec.Timeout != 0 {
		out = append(out, "--timeout", v.spec.Timeout.String())
	}
	return out
}

// args returns the sandbox flags that every suggested command (replay,
// record, locate) takes alike: --sandbox=off when the runs were not
// isolated on purpose. --persist and --reset are locate's and replay's
// only, and a suggested record would refuse them.
func (b *sandboxFlags) args() []string {
	if b.mode == "off" {
		return []string{"--sandbox=off"}
	}
	return nil
}
