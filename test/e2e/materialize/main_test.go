package materialize

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMain fails the run when a test leaves a process or fd behind.
func TestMain(m *testing.M) { testutil.Main(m) }

// prelude starts every script of this package, after testutil's: $W/app
// (a test binds good/ or bad/ over it, or leaves it empty), and the
// shell functions of $W/fns.sh, which a script run in another namespace
// sources too:
//
//   - record_good ARGS...: records ARGS in app as ../t.envb; record's
//     stderr (with the command's: its TracerPid under the recorder) is
//     kept in $OUT/record.err and shown;
//   - locate_bad ARGS...: one locate --materialize --json of ../t.envb
//     in app, with the runs' logs in $OUT/logs; the report in
//     $OUT/report.json, the exit status in $OUT/code;
//   - in_netns FILE: runs the script FILE (with set -e and these
//     functions) in a network namespace of its own, lo up.
const prelude = `
mkdir app
echo "$W" > "$OUT/w"
cat > "$W/fns.sh" <<'FNS'
record_good() {
	rc=0
	(cd app && "$EB" record -o ../t.envb -- "$@") 2> "$OUT/record.err" || rc=$?
	cat "$OUT/record.err"
	return $rc
}
locate_bad() {
	code=0
	(cd app && "$EB" locate --materialize --json --logs "$OUT/logs" ../t.envb -- "$@" > "$OUT/report.json") || code=$?
	echo $code > "$OUT/code"
}
in_netns() {
	unshare --net sh -ec '. "$W/fns.sh"; busybox ip link set lo up; . "$1"' sh "$1"
}
FNS
. "$W/fns.sh"
`

// report is the part of locate's JSON report these tests read.
type report struct {
	Status      string     `json:"status"`
	Message     string     `json:"message"`
	Mechanism   string     `json:"mechanism"`
	Runs        int        `json:"runs"`
	ConfirmRuns int        `json:"confirm_runs"`
	Objects     *objReport `json:"objects"`
}

// objReport is the object search's part of it ("objects").
type objReport struct {
	Status   string  `json:"status"`
	Message  string  `json:"message"`
	Causes   []cause `json:"causes"`
	Suspects []cause `json:"suspects"`
	Fix      *struct {
		Steps       []fixStep `json:"steps"`
		Validated   bool      `json:"validated"`
		ValidatedBy int       `json:"validated_by"`
		Note        string    `json:"note"`
	} `json:"fix"`
	Candidates  int `json:"candidates"`
	Objects     int `json:"objects"`
	Runs        int `json:"runs"`
	ConfirmRuns int `json:"confirm_runs"`
	Steps       []struct {
		Step    int    `json:"step"`
		Role    string `json:"role"`
		InPlace string `json:"in_place"`
		Verdict string `json:"verdict"`
		Detail  string `json:"detail"`
		// Stops are the calls that stopped a run that put a kernel
		// answer in place; none for an untraced run.
		Stops []string `json:"stops"`
	} `json:"steps"`
	Unplaced []struct {
		Path string `json:"path"`
		What string `json:"what"`
		Why  string `json:"why"`
	} `json:"unplaced"`
}

// cause is one cause the object search named.
type cause struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Says    string `json:"says"`
	Path    string `json:"path"`
	Package *struct {
		Manager string `json:"manager"`
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"package"`
	Objects []struct {
		Path    string   `json:"path"`
		Differs []string `json:"differs"`
		Good    struct {
			Exists bool   `json:"exists"`
			Type   string `json:"type"`
			Mode   uint32 `json:"mode"`
		} `json:"good"`
		Here struct {
			Exists bool   `json:"exists"`
			Type   string `json:"type"`
			Mode   uint32 `json:"mode"`
		} `json:"here"`
	} `json:"objects"`
	FirstCall string    `json:"first_call"`
	Fix       []fixStep `json:"fix"`
	// Observed is what the traced run here showed of the cause.
	Observed *struct {
		Explanation string `json:"explanation"`
	} `json:"observed"`
}

// fixStep is one step of a fix: a command, or a text with a diff.
type fixStep struct {
	Command string   `json:"command"`
	Text    string   `json:"text"`
	Path    string   `json:"path"`
	Diff    []string `json:"diff"`
}

func (s fixStep) String() string {
	if s.Command != "" {
		return s.Command
	}
	return s.Text
}

// located reads the report a script left in out and checks what every
// test of this package wants of it: locate exited 0, the report is
// located by the materialized search, which named exactly one cause, with
// a validated fix. It logs the runs, and checks that the object runs were
// not traced (untraced). It returns the cause.
func located(t *testing.T, out string) (report, cause) {
	t.Helper()
	r, c := locatedOnly(t, out)
	untraced(t, out)
	return r, c
}

// locatedOnly is located without the check that no object run was
// traced, for a search whose runs may put a kernel answer in place.
func locatedOnly(t *testing.T, out string) (report, cause) {
	t.Helper()
	var r report
	testutil.ReadJSON(t, filepath.Join(out, "report.json"), &r)
	o := r.Objects
	if o == nil {
		t.Fatalf("status %q (%s), mechanism %q: no object search in the report", r.Status, r.Message, r.Mechanism)
	}
	t.Logf("locate: %s, mechanism %s, %d candidates (%d objects), %d runs + %d confirming: %s",
		r.Status, r.Mechanism, o.Candidates, o.Objects, o.Runs, o.ConfirmRuns, r.Message)
	for _, s := range o.Steps {
		t.Logf("  step %d %s: %s in place: %s (%s) stops %v", s.Step, s.Role, s.InPlace, s.Verdict, s.Detail, s.Stops)
	}
	for _, u := range o.Unplaced {
		t.Logf("  not placed: %s: %s (%s)", u.Path, u.What, u.Why)
	}
	for _, c := range o.Causes {
		t.Logf("  cause %s %q: %s; first call %s; fix %v", c.Kind, c.Name, c.Says, c.FirstCall, c.Fix)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
	if r.Status != "located" || r.Mechanism != "materialized" || o.Status != "located" {
		t.Fatalf("status %q, mechanism %q, object search %q (%s); want located by the materialized search", r.Status, r.Mechanism, o.Status, o.Message)
	}
	if len(o.Causes) != 1 {
		var names []string
		for _, c := range o.Causes {
			names = append(names, c.Kind+" "+c.Name)
		}
		t.Fatalf("causes %q; want exactly one", names)
	}
	c := o.Causes[0]
	if o.Fix == nil || !o.Fix.Validated || o.Fix.ValidatedBy == 0 {
		t.Errorf("fix %+v; want one validated by a run", o.Fix)
	} else if !slices.EqualFunc(o.Fix.Steps, c.Fix, func(a, b fixStep) bool { return a.String() == b.String() }) {
		t.Errorf("fix steps %v; want the cause's, %v", o.Fix.Steps, c.Fix)
	}
	return r, c
}

// tracerLine is the TracerPid line of /proc/PID/status.
var tracerLine = regexp.MustCompile(`(?m)^TracerPid:\s*(\d+)$`)

// untraced checks that the command ran untraced in every object run of
// the search: each log of an object run (run-NNN-object*.log) holds the
// TracerPid lines the command wrote, and each says 0. The recording's
// stderr must say otherwise (the command under the recorder), so that the
// check is known to see a tracer when there is one.
func untraced(t *testing.T, out string) {
	t.Helper()
	rec, err := os.ReadFile(filepath.Join(out, "record.err"))
	if err != nil {
		t.Fatal(err)
	}
	if m := tracerLine.FindStringSubmatch(string(rec)); m == nil || m[1] == "0" {
		t.Errorf("the recording's stderr has TracerPid %v; want the recorder's pid (the probe must see a tracer)", m)
	}
	logs, err := filepath.Glob(filepath.Join(out, "logs", "run-*-object*.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) == 0 {
		t.Fatalf("no logs of object runs in %s/logs", out)
	}
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		ms := tracerLine.FindAllStringSubmatch(string(b), -1)
		if len(ms) == 0 {
			t.Errorf("%s: no TracerPid line: the command did not run, or its stderr is not in the log:\n%s", filepath.Base(l), b)
		}
		for _, m := range ms {
			if m[1] != "0" {
				t.Errorf("%s: TracerPid %s: an object run was traced", filepath.Base(l), m[1])
			}
		}
	}
	t.Logf("%d object runs, each untraced (TracerPid 0)", len(logs))
}

// wantFix checks that the cause's fix is exactly these steps (commands,
// or texts).
func wantFix(t *testing.T, c cause, want ...string) {
	t.Helper()
	var got []string
	for _, s := range c.Fix {
		got = append(got, s.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("fix %q; want %q", got, want)
	}
}

// wantDiff checks that the fix step that restores path carries a diff
// with these lines (each "-good" or "+here").
func wantDiff(t *testing.T, c cause, path string, lines ...string) {
	t.Helper()
	for _, s := range c.Fix {
		if s.Path != path {
			continue
		}
		for _, l := range lines {
			if !slices.Contains(s.Diff, l) {
				t.Errorf("the diff of %s lacks %q:\n%s", path, l, strings.Join(s.Diff, "\n"))
			}
		}
		return
	}
	t.Errorf("no fix step restores %s: %v", path, c.Fix)
}
