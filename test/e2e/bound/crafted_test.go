package bound_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// asNobody is setpriv's prefix that runs a command as nobody.
var asNobody = []string{"setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"}

// probe prints the lines of /proc/self/status that make the shell's
// identity, between markers.
const probe = `echo ==begin; grep -E '^(Uid|Gid|CapInh|CapPrm|CapEff|CapAmb):' /proc/self/status; echo ==end`

// capSysAdmin is CAP_SYS_ADMIN's bit, as a start item's hex set.
const capSysAdmin = "0000000000200000"

// TestCraftedTraceGrantsNothing: a trace recorded as root, then crafted
// to ask for CAP_SYS_ADMIN in the inheritable and ambient sets, replayed
// by nobody in a plain run: the command runs as nobody with no
// capability (what nobody's envbisect holds), and replay lists the ids
// and sets it did not apply, saying what each would grant.
func TestCraftedTraceGrantsNothing(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("setpriv"))
	dir := testutil.OpenDir(t)
	eb := filepath.Join(dir, "envbisect")
	testutil.CopyExecutable(t, testutil.Envbisect(t), eb)
	recorded, crafted := filepath.Join(dir, "root.envb"), filepath.Join(dir, "crafted.envb")
	cmd := []string{"sh", "-c", probe}
	if code, out, errs := run(t, exec.Command(eb, append([]string{"record", "-q", "-o", recorded, "--"}, cmd...)...)); code != 0 || !strings.Contains(out, "Uid:\t0") {
		t.Fatalf("record as root: exit %d\n%s\n%s", code, out, errs)
	}
	craft(t, recorded, crafted, map[string]string{trace.CapSetInheritable: capSysAdmin, trace.CapSetAmbient: capSysAdmin})

	args := append(append(append([]string{}, asNobody[1:]...), eb, "replay", "--sandbox=off", "--prefix", "1", crafted, "--"), cmd...)
	code, out, stderr := run(t, exec.Command(asNobody[0], args...))
	if code != 0 {
		t.Fatalf("replay as nobody: exit %d\n%s\n%s", code, out, stderr)
	}
	status := between(out)
	for _, want := range []string{"Uid:\t65534\t65534\t65534\t65534", "CapInh:\t0000000000000000", "CapPrm:\t0000000000000000",
		"CapEff:\t0000000000000000", "CapAmb:\t0000000000000000"} {
		if !strings.Contains(status, want+"\n") {
			t.Errorf("the command's status lacks %q: it holds more than nobody:\n%s", want, status)
		}
	}
	for _, want := range []string{"differs here and could not be applied", "in the good run's ambient set", "in the good run's inheritable set",
		"it would grant CAP_SYS_ADMIN", "uid 0 (root)", "envbisect's own user (uid 65534)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("replay's note lacks %q:\n%s", want, stderr)
		}
	}
}

// craft rewrites the trace src as dst (readable by all), with the caps
// start items named in caps set to the values given. File objects are
// left out, and calls no longer name them.
func craft(t *testing.T, src, dst string, caps map[string]string) {
	t.Helper()
	tr, err := tracefile.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	start := append([]trace.StartEvent(nil), tr.Start...)
	for i, e := range start {
		if v, ok := caps[e.Name]; ok && e.Kind == trace.StartCaps {
			start[i].Value = v
		}
	}
	for i := range tr.Events {
		if c := tr.Events[i].Call; c != nil {
			c.Obj = 0
		}
	}
	w, err := tracefile.Create(dst, &tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStart(start); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(tr.Events); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(tr.End); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dst, 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs cmd and returns its exit status, stdout and stderr.
func run(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return 0, out.String(), errb.String()
}

// between returns the lines of out between ==begin and ==end.
func between(out string) string {
	_, rest, _ := strings.Cut(out, "==begin\n")
	text, _, _ := strings.Cut(rest, "==end\n")
	return text
}
