package callersig_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/envbisect/envbisect/internal/callersig"
	"github.com/envbisect/envbisect/internal/testutil"
)

// childEnv marks this test binary re-executed by TestOriginal: it prints
// what Original says and exits.
const childEnv = "CALLERSIG_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		ign, blk, exact := callersig.Original()
		os.Stdout.WriteString(strconv.FormatUint(ign, 16) + " " + strconv.FormatUint(blk, 16) + " " + strconv.FormatBool(exact) + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestOriginal starts this binary from dash with SIGPIPE and SIGTERM
// ignored (trap with an empty action): the Go runtime installs handlers for both, so /proc
// of the child no longer shows them; Original does.
func TestOriginal(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", "-c", `trap '' PIPE TERM; exec "$0"`, self)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	const pipeTerm = 1<<12 | 1<<14 // SIGPIPE (13), SIGTERM (15)
	var ign, blk uint64
	var exact bool
	if _, err := fmt.Sscanf(string(out), "%x %x %t", &ign, &blk, &exact); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	if !exact {
		t.Skip("built without cgo: Original cannot read the dispositions before the Go runtime")
	}
	if ign&pipeTerm != pipeTerm {
		t.Errorf("ignored %#x, want SIGPIPE and SIGTERM (%#x) in it", ign, pipeTerm)
	}
}
