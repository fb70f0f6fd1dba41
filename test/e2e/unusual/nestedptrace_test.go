package unusual_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestNestedPtraceReported: strace under record cannot trace its child
// (envbisect traces it already: PTRACE_TRACEME or PTRACE_SEIZE fails
// with EPERM). record says so once, naming strace, besides the generic
// "did not pass".
func TestNestedPtraceReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("strace"))
	eb := testutil.Envbisect(t)
	out := t.TempDir() + "/strace.envb"
	code, _, stderr := run(t, eb, "record", "-o", out, "--", "strace", "-o", "/dev/null", "true")
	if code == 0 {
		t.Errorf("record exit 0: strace cannot have worked under envbisect")
	}
	notice := regexp.MustCompile(`warning: pid \d+ \(/usr/bin/strace\) uses ptrace itself \(call #\d+ failed with EPERM\): ` +
		`a process envbisect traces cannot trace others`)
	if n := len(notice.FindAllString(stderr, -1)); n != 1 {
		t.Errorf("%d nested-ptrace notices, want one matching %q", n, notice)
	}
	if !strings.Contains(stderr, "did not pass") {
		t.Errorf("the failing run is no longer said to have failed")
	}
}
