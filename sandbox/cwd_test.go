package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCwdAtRecordedPath: with Spec.Cwd, the command starts at that path
// (made in the sandbox only), sees the working directory's files there,
// and what it writes there stays in the sandbox.
func TestCwdAtRecordedPath(t *testing.T) {
	inWorkNS(t, func(work string) error {
		here := filepath.Join(work, "here")
		if err := os.Mkdir(here, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(here, "f"), []byte("this environment's\n"), 0o644); err != nil {
			return err
		}
		before, err := treeHash(work)
		if err != nil {
			return err
		}
		at := filepath.Join(work, "recorded", "build")
		r, err := runSandboxed(Spec{Cwd: at}, here, `set -e
pwd -P; cat f; echo new > new; cat ./new`)
		if err != nil {
			return err
		}
		want := at + "\nthis environment's\nnew\n"
		if r.code != 0 || r.stdout != want {
			return fmt.Errorf("script at %s: exit %d, stdout %q (want %q), stderr %q", at, r.code, r.stdout, want, r.stderr)
		}
		after, err := treeHash(work)
		if err != nil {
			return err
		}
		if before != after {
			return errors.New("the work tree changed: the mount point or the write reached the real file system")
		}
		// A path that is a file here cannot be the working directory.
		r, err = runSandboxed(Spec{Cwd: filepath.Join(here, "f")}, here, `true`)
		if err == nil || !strings.Contains(err.Error(), "not a directory") {
			return fmt.Errorf("cwd on a file: exit %d, err %v, want a refusal saying it is not a directory", r.code, err)
		}
		return nil
	})
}

// TestCwdRecordedAbove: recorded in a directory above the one the runs
// start in, the command starts there and still sees the directory it was
// run from, under its own path: nothing is bound over it.
func TestCwdRecordedAbove(t *testing.T) {
	inWorkNS(t, func(work string) error {
		here := filepath.Join(work, "here")
		if err := os.Mkdir(here, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(here, "f"), []byte("under here\n"), 0o644); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{Cwd: work}, here, `set -e
pwd -P; cat here/f; cat `+filepath.Join(here, "f"))
		if err != nil {
			return err
		}
		want := work + "\nunder here\nunder here\n"
		if r.code != 0 || r.stdout != want {
			return fmt.Errorf("script at %s: exit %d, stdout %q (want %q), stderr %q", work, r.code, r.stdout, want, r.stderr)
		}
		return nil
	})
}

// TestCwdRecordedBelow: recorded in a directory below the one the runs
// start in, the command starts there and sees its own files, not the
// outer directory's bound over it.
func TestCwdRecordedBelow(t *testing.T) {
	inWorkNS(t, func(work string) error {
		below := filepath.Join(work, "proj")
		if err := os.Mkdir(below, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(below, "f"), []byte("in proj\n"), 0o644); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{Cwd: below}, work, `set -e
pwd -P; cat f; cat `+filepath.Join(below, "f"))
		if err != nil {
			return err
		}
		want := below + "\nin proj\nin proj\n"
		if r.code != 0 || r.stdout != want {
			return fmt.Errorf("script at %s: exit %d, stdout %q (want %q), stderr %q", below, r.code, r.stdout, want, r.stderr)
		}
		return nil
	})
}
