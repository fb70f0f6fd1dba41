package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// objectsReports are the object search's reports of the golden tests, by
// the name of their files in testdata (locate_NAME.txt and .md).
func objectsReports() map[string]*LocateReport {
	yaml := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-yaml", Version: "6.0-3"}
	stat := envobj.Aspects{envobj.AspectType, envobj.AspectMode, envobj.AspectOwner}
	var pkgObjs []envobj.Object
	for i := range 7 {
		pkgObjs = append(pkgObjs, envobj.Object{Path: fmt.Sprintf("/usr/lib/python3/dist-packages/yaml/m%d.py", i), Package: yaml, Stored: true,
			Good: envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Known: stat}, Differs: envobj.Aspects{envobj.AspectExists}, FirstSeq: uint64(120 + i)})
	}
	conf := envobj.Object{Path: "/etc/app|x.conf", Stored: true, FirstSeq: 40,
		Good:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Size: 20, Known: stat},
		Here:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Size: 19, Known: stat},
		Differs: envobj.Aspects{envobj.AspectContent}}
	utc, paris := "UTC", "Europe/Paris"
	tz := envobj.StartValue{Kind: "env", Name: "TZ", Good: &utc, Here: &paris}
	causes := []envobj.ResultCause{
		{Kind: "package", Name: "package " + yaml.String(), Says: "python3-yaml 6.0-3 is not installed here (7 files)", Package: yaml,
			Objects: pkgObjs, FirstSeq: 120, FirstCall: `openat(AT_FDCWD, "/usr/lib/python3/dist-packages/yaml/__init__.py", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
			Fix: []envobj.FixStep{{Command: "apt-get install python3-yaml=6.0-3"}}},
		{Kind: "object", Name: conf.Path, Says: conf.Says(), Path: conf.Path, Objects: []envobj.Object{conf}, FirstSeq: 40,
			Fix: []envobj.FixStep{{Text: "restore /etc/app|x.conf from the good environment", Path: conf.Path,
				Diff: []string{"--- good", "+++ here", "@@ -1 +1 @@", "-mode=fast", "+mode=slow"}}}},
		{Kind: "start", Name: "env TZ", Says: tz.Says(), Start: &tz, Fix: tz.Fix()},
	}
	var fixSteps []envobj.FixStep
	for _, c := range causes {
		fixSteps = append(fixSteps, c.Fix...)
	}
	exit1, exit0 := 1, 0
	steps := []envobj.ResultStep{
		{Step: 1, InPlace: "nothing", Verdict: "fail", Detail: "exit status 1", Exit: &exit1, Seconds: 0.21, Taken: "fail"},
		{Step: 2, InPlace: "everything", Objects: 12, Start: 1, Verdict: "pass", Detail: "exit status 0", Exit: &exit0, Seconds: 0.25, Taken: "pass"},
		{Step: 3, InPlace: "package python3-yaml 6.0-3 (dpkg) + /etc/app|x.conf", Objects: 8, Verdict: "pass", Detail: "exit status 0", Exit: &exit0, Seconds: 0.22},
		{Step: 3, InPlace: "package python3-yaml 6.0-3 (dpkg) + /etc/app|x.conf", Objects: 8, Verdict: "fail", Detail: "exit status 1", Exit: &exit1, Seconds: 0.22, Taken: "skip", Note: "contradicts step 1, and a re-run gave fail"},
		{Step: 4, Role: "confirm", InPlace: "package python3-yaml 6.0-3 (dpkg) + /etc/app|x.conf + env TZ", Objects: 8, Start: 1, Verdict: "pass", Detail: "exit status 0", Exit: &exit0, Seconds: 0.23, Taken: "pass"},
	}
	unplaced := []envobj.Unplaced{{Index: 9, Path: "/etc/secret", What: "file /etc/secret (content differs)", Why: "the trace does not keep its content", FirstSeq: 7}}
	located := &envobj.Result{Status: envobj.Located, Message: "with these 3 causes put in place as in the good run the command passes here, and without any one of them it fails",
		Causes: causes, Fix: &envobj.Fix{Steps: fixSteps, Validated: true, ValidatedBy: 4,
			Note: "the run put the 7 differing paths of python3-yaml 6.0-3 (dpkg) in place; its package manager also runs the package's scripts and installs what it depends on"},
		Candidates: 6, Objects: 12, StartItems: 1, Unplaced: unplaced, Runs: 4, ConfirmRuns: 1, Steps: steps, Seconds: 1.13}
	unconfirmed := &envobj.Result{Status: envobj.Unconfirmed, Message: "the search ended at /etc/app|x.conf, but with /etc/app|x.conf alone in place the command did not pass (fail)",
		Suspects: causes[1:2], Disagreeing: []int{4}, Candidates: 6, Objects: 12, Runs: 3, ConfirmRuns: 1, Steps: steps[:4], Seconds: 0.9}
	stillFails := &envobj.Result{Status: envobj.StillFails, Message: "with every object that differs here put in place the command still failed",
		Candidates: 6, Objects: 12, Unplaced: unplaced, Runs: 2, Steps: steps[:2], Seconds: 0.5}
	materialized := func(res *envobj.Result, status LocateStatus) *LocateReport {
		return &LocateReport{SchemaVersion: LocateSchemaVersion, Status: status, Message: res.Message, Command: []string{"./app", "--check"},
			Mechanism: envobj.Materialized, Objects: res, Runs: res.Runs, ConfirmRuns: res.ConfirmRuns, StartItems: res.StartItems,
			Steps: []LocateStep{}, Seconds: res.Seconds, TracePath: "good.envb"}
	}
	fallback := &LocateReport{SchemaVersion: LocateSchemaVersion, Status: Located, Command: []string{"./app"}, RecordedCalls: 300, ReplayableCalls: 80,
		Runs: 3, Seconds: 1.2, Mechanism: envobj.CallLevel, Objects: stillFails,
		Culprit: &Culprit{Start: &StartItem{Kind: "umask", Good: ptr("0022"), Here: ptr("0077")}},
		Steps:   []LocateStep{{Step: 1, Verdict: verdict.Fail, Detail: "exit status 1", Seconds: 0.3}}}
	return map[string]*LocateReport{
		"objects_located":     materialized(located, Located),
		"objects_unconfirmed": materialized(unconfirmed, Unconfirmed),
		"objects_fallback":    fallback,
	}
}

// TestObjectsGolden: each report of the object search prints as its
// golden text and Markdown (go test ./render -run ObjectsGolden -update
// rewrites them).
func TestObjectsGolden(t *testing.T) {
	for name, r := range objectsReports() {
		t.Run(name, func(t *testing.T) {
			var txt, md bytes.Buffer
			if err := r.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "locate_"+name+".txt", txt.Bytes())
			if err := r.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "locate_"+name+".md", md.Bytes())
			checkMarkdown(t, md.String())
		})
	}
}

// The located report says what differs, where the program met it, and
// the fix, validated; the call-level report made after the object search
// fell back says so.
func TestObjectsText(t *testing.T) {
	rs := objectsReports()
	var b strings.Builder
	if err := rs["objects_located"].WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"located: 3 causes (materialized; 4 runs, 1 confirming, 1.1 s)",
		"cause 1   package python3-yaml 6.0-3 (dpkg)\ndiffers   python3-yaml 6.0-3 is not installed here (7 files)\n",
		"          ... and 2 more\nmet       call 120: openat(",
		"fix       restore /etc/app|x.conf from the good environment\n            --- good\n",
		"differs   env TZ is \"Europe/Paris\" here, \"UTC\" in the good run\nfix       export TZ=UTC\n",
		"Fix, validated: a run with exactly this change, and nothing else, passed (step 4):\n  apt-get install python3-yaml=6.0-3\n  restore /etc/app|x.conf from the good environment\n  export TZ=UTC\n",
		"  file /etc/secret (content differs): the trace does not keep its content\n",
		"fail        0.22  exit status 1 [contradicts step 1, and a re-run gave fail] -> skip\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := rs["objects_fallback"].WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"located: start item umask",
		"Objects first: the object search (2 runs, 6 candidates) could not make the\ncommand pass: with every object",
		"still failed. What is above was found by replaying recorded calls.",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the fallback text lacks %q:\n%s", want, b.String())
		}
	}
}

// A call-level report without the object search prints as before: no
// member of the object search in its JSON, none of its words in its text.
func TestObjectsAbsentUnchanged(t *testing.T) {
	r := markdownReports()["located_start"]
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"mechanism"`)) || bytes.Contains(b, []byte(`"objects"`)) {
		t.Errorf("a call-level report's JSON has the object search's members: %s", b)
	}
	var txt strings.Builder
	if err := r.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(txt.String(), "object search") || strings.Contains(txt.String(), "materialized") {
		t.Errorf("a call-level report's text speaks of the object search:\n%s", txt.String())
	}
}

// The JSON of a materialized report carries the mechanism and the fix.
func TestObjectsJSON(t *testing.T) {
	r := objectsReports()["objects_located"]
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"mechanism":"materialized"`,
		`"fix":{"steps":[{"command":"apt-get install python3-yaml=6.0-3"},{"text":"restore /etc/app|x.conf from the good environment","path":"/etc/app|x.conf","diff":[`,
		`"validated":true,"validated_by":4`,
		`"first_seq":120,"first_call":"openat(`,
		`"unplaced":[{"index":9,"path":"/etc/secret"`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the JSON lacks %s:\n%s", want, b)
		}
	}
	var back LocateReport
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Objects == nil || back.Objects.Fix == nil || len(back.Objects.Causes) != 3 || back.Mechanism != envobj.Materialized {
		t.Errorf("read back: %+v", back)
	}
}

// TestObjectsEndingsAdvice: each ending's advice says what happened. An
// object search whose end was skipped twice says so and what to check;
// a fallback after an unconfirmed object search says it could not
// confirm (not that it could not make the command pass); a
// not-repeatable object search speaks of runs of the command as it is
// here, not of replayed calls.
func TestObjectsEndingsAdvice(t *testing.T) {
	flat := func(r *LocateReport) string {
		t.Helper()
		var b strings.Builder
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		var md strings.Builder
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(b.String()), " ") + "\n" + strings.Join(strings.Fields(md.String()), " ")
	}
	report := func(res *envobj.Result, status LocateStatus) *LocateReport {
		return &LocateReport{SchemaVersion: LocateSchemaVersion, Status: status, Message: res.Message, Command: []string{"./app"},
			Mechanism: envobj.Materialized, Objects: res, Runs: res.Runs, Steps: []LocateStep{}, TracePath: "good.envb"}
	}
	inc := flat(report(&envobj.Result{Status: envobj.Inconclusive, Message: "the run with nothing put in place could not be judged (skipped twice)", Runs: 2},
		Inconclusive))
	for _, want := range []string{"inconclusive (2 runs", "its run exited 125 (skip, as for git bisect run) twice", "Check that the command can run here"} {
		if strings.Count(inc, want) < 1 {
			t.Errorf("an inconclusive object search lacks %q:\n%s", want, inc)
		}
	}
	nr := flat(report(&envobj.Result{Status: envobj.NotRepeatable, Message: "with nothing put in place the command failed once and then passed", Runs: 2},
		NotRepeatable))
	if !strings.Contains(nr, "Two runs of the command as it is here (nothing replayed, nothing put in place)") || strings.Contains(nr, "no call can be blamed") {
		t.Errorf("a not-repeatable object search:\n%s", nr)
	}
	rs := objectsReports()
	fb := rs["objects_fallback"]
	fb.Objects = rs["objects_unconfirmed"].Objects
	if s := flat(fb); !strings.Contains(s, "Objects first: the object search (4 runs, 6 candidates) could not confirm what it ended at: the search ended at") ||
		strings.Contains(s, "could not make the command pass") {
		t.Errorf("the fallback after an unconfirmed object search:\n%s", s)
	}
}
