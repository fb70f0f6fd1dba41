package testutil

import (
	"os"
	"os/exec"
	"testing"
)

// workPrelude starts every InWorkNS script: a tmpfs work tree on $W in the
// test's own mount namespace (unshare --mount: the host never sees it),
// with the directories good/ and bad/, and tree_hash, which hashes names,
// modes, owners, sizes, link targets and contents under a directory.
const workPrelude = `set -e
mount -t tmpfs work "$W"
cd "$W"
mkdir good bad
tree_hash() {
	( cd "$1" && find . -printf '%p %m %u %g %s %l\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum ) | sha256sum
}
`

// InWorkNS runs script as root with sh in a mount namespace of its own,
// after a prelude that mounts a tmpfs work tree on $W and makes good/ and
// bad/ in it (the environments a test builds, with bind mounts over
// system paths where it needs them: the host never sees them). $EB is
// the envbisect binary, $OUT a directory on the host for results, which
// InWorkNS returns. The script's output is logged; a failing script
// fails the test.
func InWorkNS(t *testing.T, script string) string {
	t.Helper()
	Require(t, Root, Ptrace, Binary("unshare"), Binary("sha256sum"), File("/bin/sh"))
	eb := Envbisect(t)
	out := t.TempDir()
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", workPrelude+script)
	cmd.Env = append(os.Environ(), "EB="+eb, "W="+t.TempDir(), "OUT="+out)
	b, err := cmd.CombinedOutput()
	t.Logf("script output:\n%s", b)
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	return out
}
