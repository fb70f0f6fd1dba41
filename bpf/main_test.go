package bpf

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
)

// The test binary is also the ptrace tracer's re-exec helper (for
// TestSameBytesAsPtrace), and serves TestLoadUnprivileged, which runs it
// again as nobody to try Load there (maybeLoadAsChild).
func TestMain(m *testing.M) {
	launch.MaybeRunHelper()
	maybeLoadAsChild()
	testutil.Main(m)
}

// loadAsChildEnv makes the test binary try Load and report instead of
// running tests.
const loadAsChildEnv = "ENVBISECT_BPF_TEST_LOAD_AS_CHILD"

// maybeLoadAsChild: in the binary TestLoadUnprivileged started, try Load,
// print its error, and exit 0 when it matches ErrPermission.
func maybeLoadAsChild() {
	if os.Getenv(loadAsChildEnv) != "1" {
		return
	}
	p, err := Load(Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 16})
	if err == nil {
		p.Close()
		fmt.Println("Load succeeded")
		os.Exit(1)
	}
	fmt.Println(err)
	if !errors.Is(err, ErrPermission) {
		os.Exit(1)
	}
	os.Exit(0)
}
