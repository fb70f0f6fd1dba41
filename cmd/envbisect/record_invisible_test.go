package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// cliIn runs the envbisect binary with environment env and returns its
// exit code, stdout and stderr.
func cliIn(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(testutil.Envbisect(t), args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatalf("envbisect %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

// TestRecordArchivingItsHome records a build that archives its own HOME,
// reprotest's layout: HOME=T/home tar -cf T/out.tar -C T/home ., with the
// default content cache, which is under HOME (XDG_CACHE_HOME unset). The
// command must not see envbisect: record exits 0 (tar did not say "file
// changed as we read it"), and the archive holds nothing of envbisect's.
// The cache is written all the same, after tar exited. A second
// recording reuses it without touching it while tar runs: tar archives
// the entries as they were before (the earlier recording's, now part of
// its HOME), none rewritten, none touched (tar would see their ctime
// change), and record warns that the command reached the cache.
func TestRecordArchivingItsHome(t *testing.T) {
	testutil.Require(t, testutil.Ptrace, testutil.Binary("tar"))
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for name, size := range map[string]int{"src/main.c": 40_000, "src/util.c": 300_000, "README": 2_000} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Repeat([]byte(name+"\n"), size/len(name)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "XDG_CACHE_HOME=") || strings.HasPrefix(kv, "HOME=")
	})
	env = append(env, "HOME="+home)
	cache := filepath.Join(home, ".cache", "envbisect", "content")
	archive := filepath.Join(dir, "out.tar")
	record := func(n int) string {
		t.Helper()
		code, _, stderr := cliIn(t, env, "record", "-o", filepath.Join(dir, "t.envb"), "--", "tar", "-cf", archive, "-C", home, ".")
		if code != 0 || strings.Contains(stderr, "changed as we read it") {
			t.Fatalf("record %d: exit %d; want 0 (tar saw its HOME change?)\nstderr: %s", n, code, stderr)
		}
		return stderr
	}
	listing := func() []string {
		t.Helper()
		out, err := exec.Command("tar", "-tf", archive).Output()
		if err != nil {
			t.Fatalf("tar -tf: %v", err)
		}
		return strings.Fields(string(out))
	}

	record(1)
	for _, name := range listing() {
		if strings.Contains(name, ".cache") || strings.Contains(name, "envbisect") {
			t.Errorf("the archive holds %s: envbisect wrote into HOME while tar ran", name)
		}
	}
	if !slices.Contains(listing(), "./src/util.c") {
		t.Errorf("the archive lacks ./src/util.c: %v", listing())
	}
	first, err := os.ReadDir(cache)
	if err != nil || len(first) < 4 { // tar, its libraries, the three files
		t.Fatalf("after the recording the default cache %s holds %d entries (%v); want what it stored", cache, len(first), err)
	}
	inodes := map[string]uint64{}
	for _, e := range first {
		fi, err := os.Stat(filepath.Join(cache, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		inodes[e.Name()] = fi.Sys().(*syscall.Stat_t).Ino
	}

	stderr := record(2)
	if !strings.Contains(stderr, "in the content cache") {
		t.Errorf("record 2 does not warn that tar reached the cache; stderr: %s", stderr)
	}
	var archived []string
	for _, name := range listing() {
		if rest, ok := strings.CutPrefix(name, "./.cache/envbisect/content/"); ok && rest != "" {
			archived = append(archived, rest)
		}
	}
	slices.Sort(archived)
	var before []string
	for _, e := range first {
		before = append(before, e.Name())
	}
	if !slices.Equal(archived, before) {
		t.Errorf("record 2: tar archived the cache entries %v; want those the first recording left, %v", archived, before)
	}
	for name, ino := range inodes {
		fi, err := os.Stat(filepath.Join(cache, name))
		if err != nil || fi.Sys().(*syscall.Stat_t).Ino != ino {
			t.Errorf("record 2 rewrote cache entry %s (%v): it did not reuse it", name, err)
		}
	}
}
