package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestContainerFlagErrors: a --pid or --container that names nothing to
// join is bad usage (exit 2), reported before anything runs; so is giving
// both.
func TestContainerFlagErrors(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.envb")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"record, no such pid", []string{"record", "--pid", "2147483647", "-o", trace, "--", "true"}, "no such process: pid 2147483647"},
		{"locate, no such pid", []string{"locate", "--pid", "2147483647", trace, "--", "true"}, "no such process: pid 2147483647"},
		{"replay, no such pid", []string{"replay", "--prefix", "all", "--pid", "2147483647", trace, "--", "true"}, "no such process"},
		{"negative pid", []string{"record", "--pid", "-4", "-o", trace, "--", "true"}, "--pid -4"},
		{"both", []string{"record", "--pid", "1", "--container", "web", "-o", trace, "--", "true"}, "--container and --pid both given"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
	if _, err := os.Stat(trace); err == nil {
		t.Error("a trace was written although the target did not exist")
	}
}
