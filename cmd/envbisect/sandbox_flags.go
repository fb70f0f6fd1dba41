package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/envbisect/envbisect/sandbox"
)

// sandboxFlags are --sandbox, --persist and --reset: whether each run of
// CMD gets a throwaway copy of the file system (package sandbox), what it
// shares on purpose, and a command that resets other state before every
// run.
type sandboxFlags struct {
	mode    string // on or off
	persist []string
	reset   string
}

// sandboxHelp is the part of locate's and replay's long help about
// isolation.
const sandboxHelp = `Each run of CMD sees the file system as it was when envbisect started,
and nothing it writes survives the run: it runs in a mount namespace of its
own, with an overlay (its writes on a tmpfs that goes with the run) over
every writable mount. Read-only mounts, permissions, owners, mount flags,
/proc, /sys, /dev and listening unix sockets behave as without envbisect.
State outside the file system (a running database, the network, another
host) is not isolated: --reset CMD restores it before every run, and
--persist PATH shares a path's real contents with every run. Where the
sandbox cannot be made (no overlayfs, no privilege for a mount namespace)
envbisect says so once and runs on the real file system; --sandbox=off
does that on purpose.`

// add registers the flags; on is --sandbox's default. With withReset
// false, --reset is not offered (record makes one run).
func (b *sandboxFlags) add(f *pflag.FlagSet, on, withReset bool) {
	def := "off"
	if on {
		def = "on"
	}
	f.StringVar(&b.mode, "sandbox", def, "run CMD in a throwaway copy of the file system: on or off (--sandbox alone: on)")
	f.Lookup("sandbox").NoOptDefVal = "on"
	f.StringArrayVar(&b.persist, "persist", nil, "share the real `PATH` with the sandboxed runs: what they write there stays (repeatable)")
	if withReset {
		f.StringVar(&b.reset, "reset", "", "run `CMD` (with sh -c, on the host) before every run, to reset state the sandbox does not reach")
	}
}

// spec returns the sandbox to run CMD in, nil for none, and the line the
// report says about isolation. It probes the sandbox once (when CMD runs
// here, not in a container) and, where it cannot be made, warns and
// returns nil: the runs then use the real file system. With strict (record
// --sandbox, asked for on purpose) that is an error instead.
func (b *sandboxFlags) spec(s streams, site runSite, strict bool) (*sandbox.Spec, string, error) {
	switch b.mode {
	case "off":
		if len(b.persist) > 0 {
			return nil, "", usageError("--persist needs the sandbox: drop --sandbox=off")
		}
		return nil, "not isolated (--sandbox=off): they share the real file system, and their writes, creations and removals, replayed ones included, change the real files", nil
	case "on":
	default:
		return nil, "", usageError("--sandbox %q: give on or off", b.mode)
	}
	spec := &sandbox.Spec{}
	for _, p := range b.persist {
		if !filepath.IsAbs(p) {
			if site.join != nil {
				return nil, "", usageError("--persist %s: give an absolute path inside the container", p)
			}
			dir := site.dir
			if dir == "" {
				dir, _ = os.Getwd()
			}
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if _, err := os.Stat(p); err != nil && site.join == nil {
			return nil, "", usageError("--persist %s: %v", p, err)
		}
		spec.Persist = append(spec.Persist, p)
	}
	if site.join != nil {
		// The sandbox is made inside the container's mount namespace, by
		// each run's helper; a failure there fails the run, with why.
		return spec, "each run in a throwaway copy of the container's file system", nil
	}
	rep, err := sandbox.Probe(*spec)
	if err != nil && strict {
		return nil, "", withCode(exitError, fmt.Errorf("--sandbox: %w (drop --sandbox to run on the real file system)", err))
	}
	if err != nil {
		s.warn(fmt.Sprintf("runs are NOT isolated: %v; they run on the real file system, "+
			"and what a run writes stays for the next (--sandbox=off to run so on purpose)", err))
		return nil, "NOT isolated (the sandbox could not be made: " + err.Error() + ")", nil
	}
	if len(rep.NotIsolated) > 0 {
		s.warn("the sandbox cannot isolate every mount: " + rep.Summary())
	}
	return spec, rep.Summary(), nil
}

// runReset runs --reset's command, its output on stderr.
func (b *sandboxFlags) runReset(ctx context.Context, s streams) error {
	if b.reset == "" {
		return nil
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", b.reset)
	cmd.Stdout, cmd.Stderr = s.err, s.err
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("--reset %q: %w", b.reset, err)
	}
	return nil
}
