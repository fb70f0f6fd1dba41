package causes_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// Signal dispositions a command inherits (issue 28): a program behaves
// otherwise when it starts with a signal ignored. Each test records the
// command with one disposition and locates it with the other, both set
// with coreutils' env (--ignore-signal, --default-signal) or the shell's
// trap around envbisect itself, whatever signals the test binary was
// started with: the command must get what envbisect's caller gave
// envbisect, not what the Go runtime left.

// TestSignalIgnoredUnderNohup: a dash script that hangs itself up (kill
// -HUP $$, as a closed terminal would) survives only when it starts with
// SIGHUP ignored: recorded under nohup, it is killed by SIGHUP here
// without it. The object search names the start item by the signal's
// name, with the shell's fix, validated; the call where it was met is
// the start item too, and show lists it.
func TestSignalIgnoredUnderNohup(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("nohup"), testutil.Binary("env"))
	out := testutil.InWorkNS(t, `
mkdir app
printf 'kill -HUP $$\necho survived\n' > app/run.sh
nohup "$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh" </dev/null
"$EB" show "$W/t.envb" | grep '^# start: signal' > "$OUT/show"
if env --default-signal=HUP dash "$W/app/run.sh"; then echo "the script survives here: nothing to locate"; exit 1; fi
code=0; env --default-signal=HUP "$EB" locate -q --json "$W/t.envb" -- dash "$W/app/run.sh" > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`)
	if s := testutil.ReadText(t, out, "show"); s != "# start: signal SIGHUP ignored" {
		t.Errorf("show's signal start events %q, want the one line \"# start: signal SIGHUP ignored\"", s)
	}
	r := readReport(t, out)
	assertSignalCause(t, r, "SIGHUP", "signal SIGHUP: ignored in the good run, default here", "trap '' HUP")
	if c := r.Culprit; c == nil || c.Start == nil || c.Start.Kind != "signal" || c.Start.Name != "SIGHUP" ||
		c.Start.Good == nil || *c.Start.Good != "ignored" || c.Start.Here != nil {
		t.Errorf("culprit %q (start %+v), want the start item signal SIGHUP, good \"ignored\", here none", c.names(), c.startOrNil())
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}

// TestSignalPipeIgnoredHere: `yes | head -n 1` where yes starts with
// SIGPIPE ignored: yes is not killed by the closed pipe but gets EPIPE
// and says "yes: standard output: Broken pipe"; a script that wants no
// error output fails. Recorded with SIGPIPE at its default action and
// located from a shell that ignores SIGPIPE (trap with an empty
// action): a Go program loses an
// inherited SIG_IGN of SIGPIPE in every process it starts, so without
// envbisect passing its caller's on, no run here would fail. The cause
// is the signal item, with SIGPIPE back at its default action as the
// validated fix (env --default-signal=PIPE).
func TestSignalPipeIgnoredHere(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("yes"), testutil.Binary("head"), testutil.Binary("env"))
	out := testutil.InWorkNS(t, locateScript+`
mkdir app
printf 'err=$( { yes | head -n 1 >/dev/null; } 2>&1 )\n[ -z "$err" ] || { echo "$err" >&2; exit 1; }\n' > app/run.sh
env --default-signal=PIPE "$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh"
trap '' PIPE
if dash "$W/app/run.sh"; then echo "the script passes here with SIGPIPE ignored: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	assertSignalCause(t, r, "SIGPIPE", "signal SIGPIPE: default in the good run, ignored here", "env --default-signal=PIPE")
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}

// assertSignalCause fails t unless r is located by the object search
// with one cause, the start item of signal sig, saying says, with a
// validated fix one of whose steps holds fix.
func assertSignalCause(t *testing.T, r report, sig, says, fix string) {
	t.Helper()
	if r.Status != "located" || r.Mechanism != "materialized" || r.Objects == nil || len(r.Objects.Causes) != 1 {
		t.Fatalf("status %s by %q (%s); want located by the object search, one cause\n%s", r.Status, r.Mechanism, r.Message, indent(r.raw))
	}
	c := r.Objects.Causes[0]
	if c.Name != "signal "+sig || c.Says != says {
		t.Errorf("cause %s %q says %q; want signal %s saying %q", c.Kind, c.Name, c.Says, sig, says)
	}
	var steps []string
	for _, s := range c.Fix {
		steps = append(steps, s.Command+s.Text)
	}
	if !strings.Contains(strings.Join(steps, "\n"), fix) || r.Objects.Fix == nil || !r.Objects.Fix.Validated {
		t.Errorf("fix %q (validated: %v); want a validated fix with %q", steps, r.Objects.Fix != nil && r.Objects.Fix.Validated, fix)
	}
}
