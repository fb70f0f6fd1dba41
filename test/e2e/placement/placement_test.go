package placement_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// report is the part of locate's JSON report these tests read.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
	} `json:"culprit"`
}

// nprocCmd passes where the command may run on 2 CPUs or more: nproc
// asks sched_getaffinity.
const nprocCmd = `sh -c 'test $(nproc) -ge 2'`

// pythonCmd is the same test by another program: Python's
// os.sched_getaffinity (getconf _NPROCESSORS_ONLN would not do: glibc
// reads /sys/devices/system/cpu/online, the machine's, which no pinning
// changes).
const pythonCmd = `python3 -c 'import os, sys; sys.exit(0 if len(os.sched_getaffinity(0)) >= 2 else 1)'`

// needs are what every test here needs besides InWorkNS's own.
func needs(t *testing.T) {
	t.Helper()
	testutil.Require(t, testutil.Seccomp, testutil.CPUs(2), testutil.Binary("nproc"), testutil.Binary("taskset"), testutil.Binary("python3"))
}

// read returns the content of file name under dir, "" when it is missing.
func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// readReport reads a JSON report under dir.
func readReport(t *testing.T, dir, name string) report {
	t.Helper()
	var r report
	testutil.ReadJSON(t, filepath.Join(dir, name), &r)
	return r
}

// notNamed checks a report of a command recorded with --cpu any that
// passes here when it gets the CPUs the recording had: no failure here
// (exit 3), no culprit, sched_getaffinity above all.
func notNamed(t *testing.T, out, name, code string) {
	t.Helper()
	r := readReport(t, out, name)
	if r.Culprit != nil {
		t.Errorf("%s: culprit %s %s: a CPU set of envbisect's own pinning was named", name, r.Culprit.Syscall, r.Culprit.Path)
	}
	if r.Status != "no-failure" || code != "3" {
		t.Errorf("%s: status %q, exit %s (%s), want no-failure, exit 3: the command works here on the CPUs it had in the recording",
			name, r.Status, code, r.Message)
	}
}

// TestRecordedUnpinnedNotNamed is the survey's case: recorded with --cpu
// any (nproc saw 2 CPUs), located with the default --cpu auto. locate
// follows the recording, runs the command unpinned, sees it pass, and
// says there is no failure here, without a warning. With an explicit
// --cpu 0 it warns once that the command sees another set of CPUs, and
// still names nothing: the runs give sched_getaffinity the recorded
// answer. And the default, pinned, recording of the same command fails
// and says it ran pinned, suggesting --cpu any.
func TestRecordedUnpinnedNotNamed(t *testing.T) {
	needs(t)
	out := testutil.InWorkNS(t, `
"$EB" record -q --cpu any -o t.envb -- sh -c 'test $(nproc) -ge 2'
"$EB" show t.envb | grep '^# start: cpus' > "$OUT/cpus" || true
code=0; "$EB" locate -q --json t.envb -- sh -c 'test $(nproc) -ge 2' > "$OUT/auto.json" 2> "$OUT/auto.err" || code=$?
echo $code > "$OUT/auto.code"
code=0; "$EB" locate -q --json --cpu 0 t.envb -- sh -c 'test $(nproc) -ge 2' > "$OUT/pinned.json" 2> "$OUT/pinned.err" || code=$?
echo $code > "$OUT/pinned.code"
code=0; "$EB" record -q -o p.envb -- sh -c 'test $(nproc) -ge 2' 2> "$OUT/record-pinned.err" || code=$?
echo $code > "$OUT/record-pinned.code"
"$EB" show p.envb | grep '^# start: cpus' > "$OUT/cpus-pinned" || true
`)
	if got := read(t, out, "cpus"); !strings.HasPrefix(got, "# start: cpus inherited=") {
		t.Errorf("the --cpu any trace's placement start event: %q, want cpus inherited=...", got)
	}
	if got := read(t, out, "cpus-pinned"); !strings.HasPrefix(got, "# start: cpus pinned=") {
		t.Errorf("the default trace's placement start event: %q, want cpus pinned=N", got)
	}

	notNamed(t, out, "auto.json", read(t, out, "auto.code"))
	if e := read(t, out, "auto.err"); strings.Contains(e, "--cpu") {
		t.Errorf("locate with --cpu auto warned of the placement: %q", e)
	}

	notNamed(t, out, "pinned.json", read(t, out, "pinned.code"))
	e := read(t, out, "pinned.err")
	want := "--cpu 0: CMD runs pinned to CPU 0, but the recording ran it on the CPUs it inherited"
	if n := strings.Count(e, want); n != 1 || !strings.Contains(e, "sees another set of CPUs than in the recording") {
		t.Errorf("locate --cpu 0 warned %d times %q, want once, saying CMD sees another set of CPUs; stderr:\n%s", n, want, e)
	}

	if c := read(t, out, "record-pinned.code"); c != "1" {
		t.Errorf("the pinned recording of %s exited %s, want 1 (nproc says 1)", nprocCmd, c)
	}
	e = read(t, out, "record-pinned.err")
	if !strings.Contains(e, "the recorded run did not pass") || !strings.Contains(e, "CMD ran pinned to CPU") ||
		!strings.Contains(e, "record again with --cpu any") {
		t.Errorf("record of a failing pinned run does not name the pinning and --cpu any; stderr:\n%s", e)
	}
}

// TestPythonAffinityNotNamed: another program that counts its CPUs,
// Python's os.sched_getaffinity, recorded with --cpu any: the default
// locate finds no failure here, and a replay pinned to CPU 0 with
// nothing replayed passes, because envbisect's pinning gives the
// command the recorded CPUs (and warns).
func TestPythonAffinityNotNamed(t *testing.T) {
	needs(t)
	out := testutil.InWorkNS(t, `
"$EB" record -q --cpu any -o t.envb -- `+pythonCmd+`
code=0; "$EB" locate -q --json t.envb -- `+pythonCmd+` > "$OUT/auto.json" 2> "$OUT/auto.err" || code=$?
echo $code > "$OUT/auto.code"
code=0; "$EB" replay -q --prefix 0 --cpu 0 t.envb -- `+pythonCmd+` > "$OUT/replay.out" 2> "$OUT/replay.err" || code=$?
echo $code > "$OUT/replay.code"
`)
	notNamed(t, out, "auto.json", read(t, out, "auto.code"))
	if c, o := read(t, out, "replay.code"), read(t, out, "replay.out"); c != "0" || !strings.HasPrefix(o, "pass") {
		t.Errorf("replay --prefix 0 --cpu 0: exit %s, %q; want a pass: the pinning is envbisect's, and the command sees the recorded CPUs", c, o)
	}
	if e := read(t, out, "replay.err"); !strings.Contains(e, "sees another set of CPUs than in the recording") {
		t.Errorf("replay --cpu 0 of a --cpu any recording did not warn; stderr:\n%s", e)
	}
}

// TestFewerCPUsHereLocated: the legitimate case. Recorded unpinned on
// every CPU; here the environment gives the command one (locate runs
// under taskset -c 0) and locate does not pin it either (--cpu any):
// that difference is the environment's, and locate names it,
// sched_getaffinity.
func TestFewerCPUsHereLocated(t *testing.T) {
	needs(t)
	out := testutil.InWorkNS(t, `
"$EB" record -q --cpu any -o t.envb -- sh -c 'test $(nproc) -ge 2'
code=0; taskset -c 0 "$EB" locate -q --json --cpu any t.envb -- sh -c 'test $(nproc) -ge 2' > "$OUT/here.json" 2> "$OUT/here.err" || code=$?
echo $code > "$OUT/here.code"
`)
	r := readReport(t, out, "here.json")
	if code := read(t, out, "here.code"); r.Status != "located" || code != "0" {
		t.Fatalf("status %q, exit %s (%s): want located, exit 0", r.Status, code, r.Message)
	}
	if r.Culprit == nil || r.Culprit.Syscall != "sched_getaffinity" {
		t.Errorf("culprit %+v, want sched_getaffinity: here the command may run on one CPU, in the recording on two", r.Culprit)
	}
	if e := read(t, out, "here.err"); strings.Contains(e, "another set of CPUs") {
		t.Errorf("locate --cpu any of a --cpu any recording warned of the placement: %q", e)
	}
}
