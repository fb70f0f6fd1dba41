package testutil

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// modulePath is the line of go.mod that marks the repository root.
const modulePath = "module github.com/envbisect/envbisect"

// RepoRoot returns the repository root: the nearest directory above the
// test's working directory (its package directory) whose go.mod is this
// module's.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte(modulePath+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testutil: no go.mod of github.com/envbisect/envbisect above the working directory")
		}
		dir = parent
	}
}

// staticLibc: gcc can link a program statically (glibc's libc.a, from
// Debian's libc6-dev).
var staticLibc = Need{"a static libc, libc.a (apt-get install libc6-dev)", func() bool {
	// gcc prints the full path when it finds the file, the bare name otherwise.
	out, err := exec.Command("gcc", "-print-file-name=libc.a").Output()
	p := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(p) {
		p = "/usr/lib/x86_64-linux-gnu/libc.a"
	}
	_, err = os.Stat(p)
	return err == nil
}}

// BuildC compiles testdata/victims/<src> (a single C file) with gcc -O2,
// statically linked when static is set, with -pthread when the source
// includes <pthread.h>, into t.TempDir(), and returns the binary's path.
// It skips (or fails, under ENVBISECT_TEST_NO_SKIP) when gcc or, for a
// static build, libc.a is missing.
func BuildC(t testing.TB, src string, static bool) string {
	t.Helper()
	Require(t, Binary("gcc"))
	if static {
		Require(t, staticLibc)
	}
	path := filepath.Join(RepoRoot(t), "testdata", "victims", src)
	code, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("victim %s: %v", src, err)
	}
	name := strings.TrimSuffix(filepath.Base(src), ".c")
	args := []string{"-O2", "-Wall"}
	if static {
		args = append(args, "-static")
		name += "-static"
	}
	if bytes.Contains(code, []byte("<pthread.h>")) {
		args = append(args, "-pthread")
	}
	out := filepath.Join(t.TempDir(), name)
	args = append(args, "-o", out, path)
	cmd := exec.Command("gcc", args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out
}

// BuildGo builds the Go main package pkg and returns the binary's path in
// t.TempDir(). pkg is a package path relative to the repository root
// ("./testdata/victims/gothreads") or the name of a directory under
// testdata/victims ("gothreads").
func BuildGo(t testing.TB, pkg string) string {
	t.Helper()
	if !strings.HasPrefix(pkg, "./") && !strings.HasPrefix(pkg, "/") {
		pkg = "./testdata/victims/" + pkg
	}
	out := filepath.Join(t.TempDir(), filepath.Base(pkg))
	if err := goBuild(RepoRoot(t), out, pkg); err != nil {
		t.Fatal(err)
	}
	return out
}

// goBuild runs go build -o out pkg in dir. cmd/go puts its own bin
// directory first on the test binary's PATH, so "go" is the toolchain the
// tests were built with.
func goBuild(dir, out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return errors.New("go build " + pkg + ": " + err.Error() + "\n" + string(b))
	}
	return nil
}

// The envbisect binary is built once per test binary; Main removes it.
var envbisectBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Envbisect builds ./cmd/envbisect (once per test binary, into a temporary
// directory that Main removes at the end) and returns the binary's path.
func Envbisect(t testing.TB) string {
	t.Helper()
	root := RepoRoot(t)
	b := &envbisectBuild
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "envbisect-test-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "envbisect")
		b.err = goBuild(root, b.path, "./cmd/envbisect")
	})
	if b.err != nil {
		t.Fatalf("build envbisect: %v", b.err)
	}
	return b.path
}

// removeEnvbisect deletes the binary Envbisect built, if any.
func removeEnvbisect() {
	if d := envbisectBuild.dir; d != "" {
		os.RemoveAll(d)
	}
}
