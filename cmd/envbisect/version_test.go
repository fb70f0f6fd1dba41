package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/envbisect/envbisect", Version: "v0.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-25T09:56:33Z"}, {Key: "vcs.modified", Value: "true"},
		},
	}
	want := "envbisect v0.2.0\n" +
		"revision 0123456789abcdef0123456789abcdef01234567 (2026-11-25T09:56:33Z), with uncommitted changes\n" +
		"built with go1.26.8 for linux/amd64\n"
	if got := versionText(bi, true, revision{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	bi.Settings = bi.Settings[:2]
	bi.Main.Version = "(devel)"
	want = "envbisect (devel)\nrevision unknown (built without VCS information: build with make build in a git checkout)\n" +
		"built with go1.26.8 for linux/amd64\n"
	if got := versionText(bi, true, revision{}); got != want {
		t.Errorf("without VCS information: got\n%s\nwant\n%s", got, want)
	}
	// The Makefile's stamp, without the toolchain's (-buildvcs=false).
	want = "envbisect (devel)\nrevision 89abcdef0123456789abcdef0123456789abcdef (2026-11-28T10:02:00Z)\nbuilt with go1.26.8 for linux/amd64\n"
	if got := versionText(bi, true, revision{id: "89abcdef0123456789abcdef0123456789abcdef", time: "2026-11-28T10:02:00Z"}); got != want {
		t.Errorf("stamped by the Makefile: got\n%s\nwant\n%s", got, want)
	}
}

// TestVersionOfCheckout builds envbisect in this repository's checkout
// with VCS stamping on, as a user's 'make build' in a clone does, and
// checks that --version names the commit checked out. A git worktree's
// .git is a file, which the toolchain does not read: there the test
// skips (CI's fresh clone has the directory).
func TestVersionOfCheckout(t *testing.T) {
	root := testutil.RepoRoot(t)
	testutil.Require(t, testutil.Binary("git"), testutil.File(filepath.Join(root, ".git", "HEAD")))
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	head := strings.TrimSpace(string(out))
	bin := filepath.Join(t.TempDir(), "envbisect")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/envbisect")
	build.Dir = root
	build.Env = append(os.Environ(), "GOFLAGS=") // a machine's GOFLAGS=-buildvcs=false would hide the revision
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("envbisect --version: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "envbisect ") ||
		!strings.HasPrefix(lines[1], "revision "+head+" (") || !strings.HasPrefix(lines[2], "built with go") {
		t.Errorf("envbisect --version of a checkout at %s:\n%s", head, out)
	}
}

// TestVersionOfMakeBuild: README's build command, make build, run as root
// in a fresh clone that another user owns (git calls that "dubious
// ownership") and with GOFLAGS=-buildvcs=false, names the revision the
// clone has checked out, with its time and no uncommitted changes. The
// clone is made from this checkout, so the test works in a git worktree
// too.
func TestVersionOfMakeBuild(t *testing.T) {
	root := testutil.RepoRoot(t)
	testutil.Require(t, testutil.Root, testutil.Binary("git"), testutil.Binary("make"), testutil.Binary("chown"))
	dir := t.TempDir()
	clone := filepath.Join(dir, "src")
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	out, err := exec.Command("git", "-C", clone, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	head := strings.TrimSpace(string(out))
	if out, err := exec.Command("chown", "-R", "nobody", clone).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "envbisect")
	build := exec.Command("make", "build", "BIN="+bin)
	build.Dir = clone
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GO="+goBin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make build as root in a clone nobody owns, GOFLAGS=-buildvcs=false: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("envbisect --version: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "revision "+head+" (20") || strings.Contains(lines[1], "uncommitted") {
		t.Errorf("envbisect --version of make build in a fresh clone at %s:\n%s", head, out)
	}
}
