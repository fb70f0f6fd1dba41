package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The test binary is also the child that enters a sandbox and execs a
// shell script, as envbisect's helper enters one and execs the command.
const (
	childSpecEnv   = "ENVBISECT_SANDBOX_TEST_SPEC"
	childScriptEnv = "ENVBISECT_SANDBOX_TEST_SCRIPT"
	// childBundleEnv is the index of the bundle the child holds as fd 3
	// (JSON), for the objects' contents.
	childBundleEnv = "ENVBISECT_SANDBOX_TEST_BUNDLE"
)

func init() {
	if os.Getenv(childSpecEnv) != "" {
		runtime.LockOSThread() // Enter runs on the main thread, which execs
	}
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(childSpecEnv); spec != "" {
		runChild(spec, os.Getenv(childScriptEnv))
	}
	testutil.Main(m)
}

// childContents are the contents of the bundle the parent passed as fd
// 3, or nil.
func childContents() Contents {
	idx := os.Getenv(childBundleEnv)
	if idx == "" {
		return nil
	}
	var bi BundleIndex
	if err := json.Unmarshal([]byte(idx), &bi); err != nil {
		fmt.Fprintln(os.Stderr, "bad bundle index:", err)
		os.Exit(125)
	}
	c, _ := BundleAt(3, bi)
	return c
}

// runChild enters the sandbox spec describes and execs sh -c script;
// exit 125 when the sandbox could not be made.
func runChild(specJSON, script string) {
	var s Spec
	if err := json.Unmarshal([]byte(specJSON), &s); err != nil {
		fmt.Fprintln(os.Stderr, "bad spec:", err)
		os.Exit(125)
	}
	rep, err := Enter(s, childContents())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	if len(rep.NotIsolated) > 0 {
		fmt.Fprintln(os.Stderr, "sandbox:", rep.Summary())
	}
	if os.Getenv(childBundleEnv) != "" {
		unix.Close(3) // the bundle
	}
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if len(kv) < len(childSpecEnv) || kv[:len(childSpecEnv)] != childSpecEnv {
			env = append(env, kv)
		}
	}
	err = unix.Exec("/bin/sh", []string{"sh", "-c", script}, env)
	fmt.Fprintln(os.Stderr, "exec /bin/sh:", err)
	os.Exit(126)
}
