package replay

import (
	"os"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/verdict"
)

// TestExecuteHostname: a materialized run with the good run's host name
// in place gives the command a UTS namespace of its own with that name
// (hostname(1) and uname(2) answer it), and nothing outside the run sees
// it: envbisect's own host name is unchanged afterwards.
func TestExecuteHostname(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("hostname"), testutil.Binary("uname"))
	before, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	const good = "envbisect-good-host"
	spec := Spec{
		Argv:    []string{"/bin/sh", "-c", `test "$(hostname)" = ` + good + ` && test "$(uname -n)" = ` + good},
		CPU:     -1,
		Sandbox: sandbox.Spec{Hostname: good},
	}
	out, printed, err := execute(t, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Pass {
		t.Errorf("with the host name in place: %s (%s), printed %q; want pass", out.Verdict, out.Detail, printed)
	}
	spec.Sandbox.Hostname = ""
	if out, _, err = execute(t, spec, nil); err != nil || out.Verdict != verdict.Fail {
		t.Errorf("without: %v (%v); want fail", out, err)
	}
	if after, err := os.Hostname(); err != nil || after != before {
		t.Errorf("envbisect's host name after the runs: %q (%v), want %q", after, err, before)
	}
	if err := (sandbox.Spec{Hostname: string(make([]byte, 65))}).Validate(); err == nil {
		t.Error("a 65-byte host name is valid")
	}
}
