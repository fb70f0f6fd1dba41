package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/tracefile"
)

// TestHugeCommandLine records, replays and locates a command with 100,000
// arguments, then one with a 1 MB environment (ten 100 kB variables: the
// kernel caps one string at 128 KiB, and arguments and environment
// together, with their pointers, at a quarter of the stack limit). Past
// 64 KiB of arguments and environment all three deadlocked. What it costs
// is measured by the argv10k, argv100k and env1m workloads of tools/bench,
// not here; the deadline below only turns a hang into a failure.
func TestHugeCommandLine(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	eb := testutil.Envbisect(t) // built before the clock starts
	manyArgs := []string{"/bin/sh", "-c", `test "$#" -eq 100000`, "sh"}
	for i := range 100_000 {
		manyArgs = append(manyArgs, strconv.Itoa(i))
	}
	bigEnv := []string{"PATH=/usr/bin:/bin"}
	for i := range 10 {
		bigEnv = append(bigEnv, fmt.Sprintf("BIG%d=%s", i, strings.Repeat("x", 100_000)))
	}
	for _, c := range []struct {
		name string
		argv []string
		env  []string
	}{
		{"100,000 arguments", manyArgs, []string{"PATH=/usr/bin:/bin"}},
		{"a 1 MB environment", []string{"/bin/sh", "-c", `test "${#BIG9}" -eq 100000`}, bigEnv},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			tr := filepath.Join(dir, "big.envb")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			run := func(args ...string) (int, string) {
				cmd := exec.CommandContext(ctx, eb, append(args, c.argv...)...)
				cmd.Env, cmd.Dir = c.env, dir
				out, err := cmd.CombinedOutput()
				if ctx.Err() != nil {
					t.Fatalf("envbisect %s hung (killed after 5 minutes): %.2000s", args[0], out)
				}
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return code, string(out)
			}
			if code, out := run("record", "-q", "-o", tr, "--"); code != 0 {
				t.Fatalf("record: exit %d: %.2000s", code, out)
			}
			got, err := tracefile.ReadFile(tr)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(got.Header.Command); n != len(c.argv) {
				t.Errorf("the trace's command has %d words, want %d", n, len(c.argv))
			}
			if code, out := run("replay", "-q", tr, "--prefix", "all", "--"); code != 0 {
				t.Errorf("replay: exit %d: %.2000s", code, out)
			}
			// The command passes here too: locate says so (exit 3).
			if code, out := run("locate", "-q", tr, "--"); code != 3 || !strings.Contains(out, "no failure") {
				t.Errorf("locate: exit %d, want 3 and 'no failure': %.2000s", code, out)
			}
		})
	}
}
