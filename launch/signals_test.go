package launch

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/callersig"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// sigBit is signal n's bit in a trace.SignalSets set.
func sigBit(n int) uint64 { return 1 << (n - 1) }

// commandSignals runs grep through RunUntraced with cfg and returns the
// SigIgn and SigBlk lines of its /proc status: what the command started
// with (dash's exec keeps both), without signals 32 and 33, glibc's own,
// which envbisect never touches: they are the caller's (a Go program
// started with SIGHUP ignored, as go test under nohup, ignores 32 too).
func commandSignals(t *testing.T, cfg Config) string {
	t.Helper()
	res, out, err := runShell(t, cfg, `exec grep -E '^Sig(Ign|Blk):' /proc/self/status`)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("grep exited %d: %s", res.ExitCode, out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		name, hex, ok := strings.Cut(l, ":\t")
		v, err := strconv.ParseUint(hex, 16, 64)
		if !ok || err != nil {
			t.Fatalf("grep printed %q", out)
		}
		lines = append(lines, fmt.Sprintf("%s:\t%016x\n", name, v&^(sigBit(32)|sigBit(33))))
	}
	return strings.Join(lines, "")
}

// TestSignalsSet: a run that sets the signal dispositions starts the
// command with exactly them: SIGHUP and SIGPIPE ignored, SIGUSR1 and
// SIGTERM blocked (SIGTERM is one the Go runtime unblocks on each of its
// threads, the helper's exec thread included), and nothing the test
// binary or its helper ignores or blocks besides.
func TestSignalsSet(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/sh"), testutil.Binary("grep"))
	want := trace.SignalSets{Ignored: sigBit(1) | sigBit(13), Blocked: sigBit(10) | sigBit(15)}
	got := commandSignals(t, Config{Signals: &want})
	if w := fmt.Sprintf("SigBlk:\t%016x\nSigIgn:\t%016x\n", want.Blocked, want.Ignored); got != w {
		t.Errorf("the command started with\n%s\nwant\n%s", got, w)
	}
}

// inheritedChildEnv marks this test binary started by
// TestSignalsFromCaller under dash's trap: it runs
// TestSignalsInheritedChild.
const inheritedChildEnv = "ENVBISECT_LAUNCH_TEST_SIGNALS_CHILD"

// TestSignalsFromCaller: started with SIGPIPE and SIGTERM ignored
// (trap with an empty action, which the Go runtime of the test binary and of
// its helper would lose), the command gets them ignored, and its start
// events say so.
func TestSignalsFromCaller(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.File("/bin/sh"), testutil.Binary("grep"))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", "-c", `trap '' PIPE TERM; exec "$0" -test.run='^TestSignalsInheritedChild$' -test.v`, self)
	cmd.Env = append(os.Environ(), inheritedChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSignalsInheritedChild") {
		t.Errorf("the child test: %v\n%s", err, out)
	}
}

// TestSignalsInheritedChild is TestSignalsFromCaller's child.
func TestSignalsInheritedChild(t *testing.T) {
	if os.Getenv(inheritedChildEnv) == "" {
		t.Skip("run by TestSignalsFromCaller")
	}
	if _, _, exact := callersig.Original(); !exact {
		t.Skip("built without cgo: the caller's signal dispositions are not known")
	}
	pipeTerm := sigBit(13) | sigBit(15)
	if s := CallerSignals(); s.Ignored&pipeTerm != pipeTerm {
		t.Fatalf("CallerSignals ignores %#x, want SIGPIPE and SIGTERM in it", s.Ignored)
	}
	got := commandSignals(t, Config{})
	if want := CallerSignals().Ignored &^ (sigBit(32) | sigBit(33)); !strings.Contains(got, fmt.Sprintf("SigIgn:\t%016x\n", want)) {
		t.Errorf("the command started with\n%s\nwant SigIgn %016x", got, want)
	}
	var names []string
	for _, e := range InheritedStart(nil) {
		if e.Kind == trace.StartSignal {
			names = append(names, e.Name+" "+e.Value)
		}
	}
	if s := strings.Join(names, ", "); !strings.Contains(s, "SIGPIPE ignored") || !strings.Contains(s, "SIGTERM ignored") {
		t.Errorf("InheritedStart's signals %q, want SIGPIPE ignored and SIGTERM ignored", s)
	}
}
