//go:build linux && amd64

package bpf

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestLoadUnprivileged: as nobody, with no capabilities, Load fails with
// ErrPermission and a message that says what to do.
func TestLoadUnprivileged(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("setpriv"))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary's own directory is private to root: copy it where
	// nobody may run it.
	dir, err := os.MkdirTemp("", "envbisect-bpf-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bpf.test")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), loadAsChildEnv+"=1")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Load as nobody: %v\n%s", err, out)
	}
	msg := string(out)
	for _, want := range []string{"needs root", "CAP_BPF", "sudo", "ptrace backend"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Load as nobody said %q, want it to mention %q", strings.TrimSpace(msg), want)
		}
	}
}
