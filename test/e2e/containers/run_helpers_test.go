package containers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// cmdTimeout bounds one envbisect command.
const cmdTimeout = 2 * time.Minute

// envbisect runs the envbisect binary with args.
func envbisect(t *testing.T, args ...string) scenarios.Result {
	t.Helper()
	r := scenarios.Run(context.Background(), cmdTimeout, nil, append([]string{testutil.Envbisect(t)}, args...)...)
	if r.Err != nil {
		t.Fatalf("envbisect did not run to its end:\n%s", r)
	}
	return r
}

// mustExit runs envbisect with args and fails the test unless it exits
// with code.
func mustExit(t *testing.T, code int, args ...string) scenarios.Result {
	t.Helper()
	r := envbisect(t, args...)
	if r.Code != code {
		t.Fatalf("want exit status %d:\n%s", code, r)
	}
	return r
}

// header reads the header object of `envbisect show --json TRACE`.
func header(t *testing.T, trace string) map[string]any {
	t.Helper()
	r := mustExit(t, 0, "show", "--json", trace)
	first, _, _ := strings.Cut(string(r.Stdout), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(first), &h); err != nil || h["event"] != "header" {
		t.Fatalf("show --json: first line %q is not the header (%v)", first, err)
	}
	return h
}

// readTrace reads a trace's calls.
func readTrace(t *testing.T, trace string) *scenarios.Trace {
	t.Helper()
	tr, err := scenarios.ReadTrace(context.Background(), testutil.Envbisect(t), trace)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// locate runs locate --json and parses its report; it must exit 0
// (located).
func locate(t *testing.T, args ...string) *scenarios.LocateReport {
	t.Helper()
	r := mustExit(t, 0, append([]string{"locate", "--json", "-q"}, args...)...)
	rep, err := scenarios.ParseLocate(r.Stdout)
	if err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	return rep
}

// replayVerdict runs replay --json --prefix prefix and returns its
// verdict and detail.
func replayVerdict(t *testing.T, prefix string, args ...string) (string, string) {
	t.Helper()
	r := envbisect(t, append([]string{"replay", "--json", "-q", "--prefix", prefix}, args...)...)
	rep, err := scenarios.ParseReplay(r.Stdout)
	if err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	return rep.Verdict, rep.Detail
}

// requireTracing gates a test on what envbisect needs to trace and to
// join namespaces.
func requireTracing(t *testing.T) {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
}
