package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// forceHelp is the help of --force, which locate and replay share.
const forceHelp = "run even when the command line differs from the recorded one, or the runs start in another directory that they cannot replay " +
	"(without a sandbox)"

// commandCheck is what checkSameCommand compares.
type commandCheck struct {
	path string // the trace's name, for messages
	t    *tracefile.Trace
	rec  *replay.Recording
	argv []string
	site runSite
	// sandboxed: the runs start in a sandbox, which can start the command
	// in the recorded directory (a start item of the search).
	sandboxed bool
}

// checkSameCommand refuses (exit 2) to run a trace of another command: a
// command line other than the recorded one, or a working directory other
// than the recorded one that the runs cannot replay (without a sandbox:
// then relative paths name other files in every run, and the result
// means nothing). A directory a sandbox can replay is no mismatch: it is
// a start item the search tries like the others; nor is a container's
// (--container, --pid), which its exec chooses, not the user: it is
// listed as not applied. The executable's path and content
// (SHA-256) are compared with the recording's too, and a difference is
// said on stderr but not refused: the program is part of the
// environment, and a replayed exec runs the recorded image.
func checkSameCommand(s streams, c commandCheck, force, quiet bool) error {
	err := c.mismatch()
	if err != nil && !force {
		return withCode(exitUsage, fmt.Errorf("%w; give the recorded command where it ran, or --force to run this one anyway", err))
	}
	if err != nil {
		s.warn(fmt.Sprintf("--force: %v", err))
	}
	if !quiet {
		if d := c.executableDiffers(); d != "" {
			fmt.Fprintf(s.err, "envbisect: note: %s\n", d)
		}
	}
	return nil
}

// mismatch names the first way the command here is not the recorded one.
func (c commandCheck) mismatch() error {
	h := &c.t.Header
	if rc := h.Command; len(rc) > 0 {
		if d := argvDiff(rc, c.argv); d != "" {
			return fmt.Errorf("%s records another command line: %s (recorded: %s)", c.path, d, render.ShellLine(rc))
		}
	}
	if c.site.join != nil {
		// A container's command starts where the container's exec puts
		// it, not where the user stands: a different directory there is
		// the environment's, listed as not applied.
		return nil
	}
	_, unapplied := c.rec.WithCwd(nil, nil, replay.CwdOptions{Dir: c.site.dir, Sandboxed: c.sandboxed})
	for _, d := range unapplied {
		if d.Kind == trace.StartCwd && d.A != nil && d.B != nil {
			return fmt.Errorf("%s was recorded in %s and the runs start in %s, which they cannot replay without a sandbox", c.path, d.A.Value, d.B.Value)
		}
	}
	return nil
}

// argvDiff says how argv here differs from the recorded one, "" when
// it does not.
func argvDiff(recorded, here []string) string {
	for i := range min(len(recorded), len(here)) {
		if recorded[i] != here[i] {
			return fmt.Sprintf("argument %d is %q here and %q in the recording", i, here[i], recorded[i])
		}
	}
	switch {
	case len(here) > len(recorded):
		return fmt.Sprintf("%d more arguments here, from %q", len(here)-len(recorded), here[len(recorded)])
	case len(here) < len(recorded):
		return fmt.Sprintf("%d fewer arguments here: %q is missing", len(recorded)-len(here), recorded[len(here)])
	}
	return ""
}

// executableDiffers says how the executable the command runs here
// differs from the recorded one (its first exec's image): its path, or
// its content's SHA-256 when the trace has it; "" when it does not, or
// when it cannot tell (a container's command is looked up inside it).
func (c commandCheck) executableDiffers() string {
	var rows *systable.Table
	if c.rec != nil {
		rows = c.rec.Table
	}
	each := c.t.Each
	if c.rec != nil {
		each = c.rec.EachEvent
	}
	recPath := recordedExecutable(each, rows)
	if recPath == "" || c.site.join != nil {
		return ""
	}
	here, err := launch.LookPath(c.argv[0], nil)
	if err != nil {
		return ""
	}
	if abs, err := filepath.Abs(here); err == nil {
		here = abs
	}
	var diffs []string
	if !samePath(here, recPath) {
		diffs = append(diffs, fmt.Sprintf("it is %s here and was %s", here, recPath))
	}
	if want := recordedHash(c.t, recPath); want != "" {
		if got, err := fileSHA256(here); err == nil && got != want {
			diffs = append(diffs, fmt.Sprintf("its content differs (SHA-256 %.12s here, %.12s recorded)", got, want))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return "the executable differs: " + strings.Join(diffs, ", ") + "; the runs start the command as found here (its own first exec is never replayed), " +
		"so if that is the cause the result is replay-still-fails: run the recorded executable here, or record again"
}

// recordedExecutable is the path the command's first exec named (the
// execve's path argument, the call that follows the exec event: a
// script's own path, not its interpreter's, which the exec's image is),
// or that image when the call is not in the trace.
// The events are passed over by each (a Trace's or a Recording's), up
// to that call.
func recordedExecutable(each func(func(*trace.Event) error) error, rows *systable.Table) string {
	var exec *trace.ProcEvent
	found := ""
	done := errors.New("found")
	each(func(ev *trace.Event) error {
		if exec == nil {
			if p := ev.Proc; p != nil && p.Kind == trace.Exec {
				exec, found = p, p.Exe
			}
			return nil
		}
		c := ev.Call
		if c == nil || c.Proc != exec.Proc {
			return nil
		}
		if rows != nil && rows.ByNr(int(c.Nr)).Effects&systable.ExecsImage != 0 && c.Path != "" {
			found = c.Path
		}
		return done
	})
	return found
}

// samePath reports whether paths a and b name one file here: equal, or
// equal once their symbolic links are followed (/usr/bin/python3 and
// /usr/bin/python3.11).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// recordedHash is the SHA-256 (hex) the trace keeps of the file at path,
// "" when it keeps none.
func recordedHash(t *tracefile.Trace, path string) string {
	var zero trace.Hash
	for _, f := range t.Files {
		if (f.Path == path || f.Resolved == path) && f.SHA256 != zero {
			return hex.EncodeToString(f.SHA256[:])
		}
	}
	return ""
}

// fileSHA256 is the SHA-256 (hex) of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum, err := contentSHA256(f)
	return hex.EncodeToString(sum[:]), err
}
