package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// record --max-content names the file it could not keep and marks it;
// show --files lists every file with its state and hash, as text and
// as JSON; --exclude-content marks the excluded one.
func TestRecordContentAndShowFiles(t *testing.T) {
	testutil.Require(t, testutil.Ptrace, testutil.Binary("cat"))
	dir := t.TempDir()
	big := filepath.Join(dir, "big.db")
	key := filepath.Join(dir, "id.key")
	bigData := bytes.Repeat([]byte("envbisect "), 6<<20/10) // 6 MiB
	os.WriteFile(big, bigData, 0o644)
	os.WriteFile(key, []byte("secret\n"), 0o600)
	out := filepath.Join(dir, "t.envb")
	code, _, stderr := cli(t, "record", "-q", "--max-content", "4M", "--exclude-content", dir+"/*.key", "-o", out, "--", "cat", key, big)
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	want := "record: 1 file over --max-content 4.0 MiB kept only its hash: " + big + " (6.0 MiB); raise --max-content to keep them"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want it to say %q", stderr, want)
	}

	code, stdout, stderr := cli(t, "show", "--files", out)
	if code != 0 {
		t.Fatalf("show --files: exit %d: %s", code, stderr)
	}
	sum := sha256.Sum256(bigData)
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		f := strings.Fields(l)
		lines[f[len(f)-1]] = l
	}
	if l := lines[big]; !strings.Contains(l, "over-budget") || !strings.Contains(l, "sha256:"+hex.EncodeToString(sum[:6])) || !strings.Contains(l, "6.0 MiB") {
		t.Errorf("line of %s: %q", big, l)
	}
	if l := lines[key]; !strings.Contains(l, "excluded") {
		t.Errorf("line of %s: %q", key, l)
	}
	if !strings.Contains(stdout, "stored") {
		t.Errorf("no stored file (cat, libc): %s", stdout)
	}

	code, stdout, _ = cli(t, "show", "--files", "--json", out)
	if code != 0 {
		t.Fatalf("show --files --json: exit %d", code)
	}
	found := false
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var f fileLine
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if f.Path == big {
			found = f.Content == "over-budget" && f.SHA256 == hex.EncodeToString(sum[:]) && f.Size == int64(len(bigData)) && f.Chunks == 0
		}
	}
	if !found {
		t.Errorf("the JSON does not list %s as over-budget with its hash: %s", big, stdout)
	}
	if code, _, stderr := cli(t, "show", "--files", "--summary", out); code != 2 {
		t.Errorf("--files --summary: exit %d (%s), want 2", code, stderr)
	}
}
