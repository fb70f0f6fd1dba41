package bisect

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// One object among many: /tmp's mode. It is named with what differs,
// the first call that met it, and its fix, validated by the confirming
// run; the search takes about 2·log2 of the candidates.
func TestObjectsSingleCause(t *testing.T) {
	w := &objWorld{}
	w.noise(15)
	tmp := w.add(modeDiffers("/tmp", 0o1777, 0o755))
	f := &fakeObjects{passes: allOf(tmp)}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.Located {
		t.Fatalf("status %s (%s), want located", rep.Status, rep.Message)
	}
	if got := causeNames(rep); !slices.Equal(got, []string{"/tmp"}) {
		t.Fatalf("causes %q, want /tmp", got)
	}
	c := rep.Causes[0]
	if want := "/tmp is drwxr-xr-x here, drwxrwxrwt in the good run"; c.Says != want {
		t.Errorf("says %q, want %q", c.Says, want)
	}
	if c.Kind != "object" || c.FirstSeq != w.objs[tmp].FirstSeq || len(c.Objects) != 1 {
		t.Errorf("cause %+v", c)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"chmod 1777 /tmp"}) {
		t.Errorf("fix %q", got)
	}
	if !rep.Fix.Validated || rep.Fix.ValidatedBy == 0 {
		t.Errorf("fix not validated: %+v", rep.Fix)
	}
	validating := rep.Steps[slices.IndexFunc(rep.Steps, func(s ObjectStep) bool { return s.Step == rep.Fix.ValidatedBy })]
	if validating.InPlace != "/tmp" || validating.Verdict != "pass" || validating.Role != "confirm" {
		t.Errorf("the validating step %+v", validating)
	}
	if rep.Candidates != 2 || rep.Objects != 16 { // directory /opt and /tmp
		t.Errorf("candidates %d, objects %d", rep.Candidates, rep.Objects)
	}
	if limit := 2 + 2*bits.Len(16) + 2; rep.Runs > limit {
		t.Errorf("%d runs, want at most %d", rep.Runs, limit)
	}
	noRepeatedRequests(t, f, rep)
	t.Logf("single cause among 16: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)
}

// A package missing here whose 41 files are needed together is named as
// the package, with the package manager's command as its fix, in about
// log2 runs, not 41.
func TestObjectsWholePackage(t *testing.T) {
	yaml := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-yaml", Version: "6.0-3", Arch: "amd64"}
	w := &objWorld{}
	w.noise(6)
	var files []int
	for i := range 38 {
		files = append(files, w.add(missingFile(fmt.Sprintf("/usr/lib/python3/dist-packages/yaml/m%02d.py", i), yaml)))
	}
	for _, n := range []string{"METADATA", "RECORD", "top_level.txt"} {
		files = append(files, w.add(missingFile("/usr/lib/python3/dist-packages/PyYAML-6.0.dist-info/"+n, yaml)))
	}
	w.noise(2)
	f := &fakeObjects{passes: allOf(files...)}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.Located {
		t.Fatalf("status %s (%s)", rep.Status, rep.Message)
	}
	if got := causeNames(rep); !slices.Equal(got, []string{"package python3-yaml 6.0-3 (dpkg)"}) {
		t.Fatalf("causes %q", got)
	}
	c := rep.Causes[0]
	if want := "python3-yaml 6.0-3 is not installed here (41 files)"; c.Says != want {
		t.Errorf("says %q, want %q", c.Says, want)
	}
	if len(c.Objects) != 41 || c.Package == nil || c.FirstSeq != w.objs[files[0]].FirstSeq {
		t.Errorf("cause: %d objects, package %v, first seq %d", len(c.Objects), c.Package, c.FirstSeq)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"apt-get install python3-yaml=6.0-3"}) {
		t.Errorf("fix %q", got)
	}
	if !strings.Contains(rep.Fix.Note, "41 differing paths of python3-yaml") {
		t.Errorf("fix note %q", rep.Fix.Note)
	}
	if rep.Candidates != 9 {
		t.Errorf("%d candidates, want 9 (the package, and the 8 others under /opt)", rep.Candidates)
	}
	if rep.Runs > 12 {
		t.Errorf("%d runs: want about log2 of the candidates, not one per file", rep.Runs)
	}
	noRepeatedRequests(t, f, rep)
	t.Logf("whole package of 41 files among 49 objects: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)
}

// When one file of a package alone makes the run pass, that file is
// named, not the package.
func TestObjectsOneFileOfPackage(t *testing.T) {
	ssl := &trace.Package{Manager: trace.PackageApk, Name: "openssl", Version: "3.1.4-r5"}
	w := &objWorld{}
	var files []int
	for i := range 20 {
		files = append(files, w.add(missingFile(fmt.Sprintf("/etc/ssl/f%02d", i), ssl)))
	}
	w.noise(3)
	f := &fakeObjects{passes: allOf(files[13])}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"/etc/ssl/f13"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"restore /etc/ssl/f13 from the good environment (it is missing here)"}) {
		t.Errorf("fix %q", got)
	}
	if rep.Fix.Steps[0].Path != "/etc/ssl/f13" {
		t.Errorf("the restore step names no path for the diff: %+v", rep.Fix.Steps[0])
	}
	t.Logf("one file of a package of 20, among 23 objects: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)
}

// Two independent causes, both needed: a 1-minimal set of two, each
// confirmed (everything but it fails), their fixes together validated.
func TestObjectsTwoCauses(t *testing.T) {
	w := &objWorld{}
	w.noise(5)
	run := w.add(envobj.Object{Path: "/run/mpd", Good: envobj.State{Exists: true, Type: envobj.TypeDir, Mode: 0o755, Known: stat},
		Differs: envobj.Aspects{envobj.AspectExists}})
	w.noise(3)
	extra := w.add(onlyHere("/srv/app.d/extra.conf"))
	f := &fakeObjects{passes: allOf(run, extra)}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.Located {
		t.Fatalf("status %s (%s)", rep.Status, rep.Message)
	}
	if got := causeNames(rep); !slices.Equal(got, []string{"/run/mpd", "/srv/app.d/extra.conf"}) {
		t.Fatalf("causes %q", got)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"mkdir -p /run/mpd", "rm /srv/app.d/extra.conf"}) {
		t.Errorf("fix %q", got)
	}
	if got := rep.Causes[1].Says; got != "file /srv/app.d/extra.conf exists only here" {
		t.Errorf("says %q", got)
	}
	if !strings.Contains(rep.Message, "without any one of them it fails") {
		t.Errorf("message %q", rep.Message)
	}
	// Confirmation: the two alone, and everything but each.
	var confirm []string
	for _, s := range rep.Steps {
		if s.Role == "confirm" {
			confirm = append(confirm, s.InPlace)
		}
	}
	if len(confirm) == 0 || confirm[0] != "/run/mpd + /srv/app.d/extra.conf" {
		t.Errorf("confirming runs %q", confirm)
	}
	noRepeatedRequests(t, f, rep)
	t.Logf("two causes among 10 objects: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)
}

// Two causes under one directory, among others there: the directory is
// descended into and each is named, not the directory; when every entry
// of the directory is needed, the directory is named.
func TestObjectsInsideDirectory(t *testing.T) {
	w := &objWorld{}
	var entries []int
	for i := range 6 {
		entries = append(entries, w.add(onlyHere(fmt.Sprintf("/etc/app.d/%02d.conf", i))))
	}
	w.add(modeDiffers("/var/cache/app", 0o755, 0o700))
	f := &fakeObjects{passes: allOf(entries[1], entries[4])}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"/etc/app.d/01.conf", "/etc/app.d/04.conf"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	t.Logf("two of 6 entries of a directory: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)

	f = &fakeObjects{passes: allOf(entries...)}
	rep = locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"directory /etc/app.d"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	if want := "6 objects under /etc/app.d differ here (6 only here)"; rep.Causes[0].Says != want {
		t.Errorf("says %q, want %q", rep.Causes[0].Says, want)
	}
	if got := fixLines(rep.Fix); len(got) != 6 || got[0] != "rm /etc/app.d/00.conf" {
		t.Errorf("fix %q", got)
	}
	t.Logf("all 6 entries of a directory: %d candidates, %d runs + %d confirming", rep.Candidates, rep.Runs, rep.ConfirmRuns)
}

// An object whose modification time alone differs is searched last, in
// a group of its own, and is not named beside the cause.
func TestObjectsCauseAndMtime(t *testing.T) {
	w := &objWorld{}
	m := w.add(mtimeOnly("/etc/app.conf"))
	w.add(mtimeOnly("/etc/other.conf"))
	cause := w.add(contentDiffers("/etc/app.yaml"))
	f := &fakeObjects{passes: allOf(cause)}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"/etc/app.yaml"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"restore /etc/app.yaml from the good environment"}) {
		t.Errorf("fix %q", got)
	}
	h := envobj.Build(w.objs)
	last := h.Top[len(h.Top)-1]
	if last.Kind != envobj.GroupMtime || !slices.Contains(last.Objects, m) {
		t.Errorf("the last candidate is %s, want the group of modification times", last.Name())
	}
}

// Nothing in place makes the command pass: the search says so and names
// nothing; the caller falls back to call-level replay.
func TestObjectsStillFails(t *testing.T) {
	w := &objWorld{}
	w.noise(7)
	w.add(envobj.Object{Path: "/etc/secret", File: 3, Stored: false,
		Good: envobj.State{Exists: true, Type: envobj.TypeFile}, Here: envobj.State{Exists: true, Type: envobj.TypeFile},
		Differs: envobj.Aspects{envobj.AspectContent}, FirstSeq: 5})
	f := &fakeObjects{passes: func(_, _ map[int]bool) bool { return false }}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.StillFails || !rep.Fallback() {
		t.Fatalf("status %s, fallback %v", rep.Status, rep.Fallback())
	}
	if len(rep.Causes) != 0 || rep.Fix != nil {
		t.Errorf("a report that fell back names %v, fix %v", rep.Causes, rep.Fix)
	}
	if f.runs != 2 {
		t.Errorf("%d runs, want the two ends", f.runs)
	}
	if len(rep.Unplaced) != 1 || rep.Unplaced[0].Path != "/etc/secret" || !strings.Contains(rep.Unplaced[0].Why, "does not keep its content") {
		t.Errorf("unplaced %+v", rep.Unplaced)
	}
	// The unplaced file may be the cause: the message must not say the
	// difference is no object.
	if want := "1 that differs here could not be put in place (listed below): what makes the difference may be one of them"; !strings.Contains(rep.Message, want) || strings.Contains(rep.Message, "is not an object") {
		t.Errorf("message %q, want it to say %q", rep.Message, want)
	}
	if rep.Objects != 7 {
		t.Errorf("objects %d, want 7", rep.Objects)
	}
	// Nothing that can be put in place at all: one run, the fail end.
	w = &objWorld{}
	w.add(envobj.Object{Path: "/dev/app", Good: envobj.State{Exists: true, Type: envobj.TypeOther}, Differs: envobj.Aspects{envobj.AspectExists}})
	f = &fakeObjects{passes: func(_, _ map[int]bool) bool { return false }}
	rep = locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.StillFails || f.runs != 1 || len(rep.Unplaced) != 1 {
		t.Errorf("status %s, %d runs, unplaced %v", rep.Status, f.runs, rep.Unplaced)
	}
}

// With nothing in place the command passes: no failure here.
func TestObjectsNoFailure(t *testing.T) {
	w := &objWorld{}
	w.noise(4)
	f := &fakeObjects{passes: func(_, _ map[int]bool) bool { return true }}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if rep.Status != envobj.NoFailure || f.runs != 1 || len(rep.Causes) != 0 {
		t.Errorf("status %s after %d runs, causes %v", rep.Status, f.runs, rep.Causes)
	}
	if f.reqs[0].InPlace != "nothing" || len(f.reqs[0].Objects) != 0 || f.reqs[0].Run != 1 {
		t.Errorf("first request %+v", f.reqs[0])
	}
	f = &fakeObjects{passes: func(_, _ map[int]bool) bool { return false }}
	locateObjects(t, w, f, ObjectOptions{})
	if r := f.reqs[1]; r.InPlace != "everything" || len(r.Objects) != 4 || r.Run != 2 {
		t.Errorf("second request %+v", r)
	}
}

// A start item is a candidate like an object: TZ differs, and its fix is
// the export.
func TestObjectsStartItemCause(t *testing.T) {
	utc, paris := "UTC", "Europe/Paris"
	w := &objWorld{items: []StartItem{{Kind: "env", Name: "LANG", Here: &utc}, {Kind: "env", Name: "TZ", Good: &utc, Here: &paris}}}
	w.noise(6)
	f := &fakeObjects{passes: func(_, start map[int]bool) bool { return start[1] }}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"env TZ"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	c := rep.Causes[0]
	if c.Kind != "start" || c.Start == nil || c.Says != `env TZ is "Europe/Paris" here, "UTC" in the good run` {
		t.Errorf("cause %+v", c)
	}
	if got := fixLines(rep.Fix); !slices.Equal(got, []string{"export TZ=UTC"}) {
		t.Errorf("fix %q", got)
	}
	if rep.StartItems != 2 || rep.Candidates != 8 {
		t.Errorf("start items %d, candidates %d", rep.StartItems, rep.Candidates)
	}
}

// A flaky runner, which gives one wrong verdict at any one run of the
// search, never gets a wrong cause named: the flip is re-run where it
// contradicts what the search knew, and the confirming runs catch the
// rest (the search then ends unconfirmed or inconclusive).
func TestObjectsFlakyNeverWrong(t *testing.T) {
	w := &objWorld{}
	w.noise(9)
	cause := w.add(contentDiffers("/etc/app.conf"))
	w.noise(4)
	truth := allOf(cause)
	honest := &fakeObjects{passes: truth}
	locateObjects(t, w, honest, ObjectOptions{})
	for flip := 1; flip <= honest.runs+6; flip++ {
		f := &fakeObjects{verdict: func(run int, objs, start map[int]bool) Verdict {
			v := Fail
			if truth(objs, start) {
				v = Pass
			}
			if run == flip {
				v = map[Verdict]Verdict{Pass: Fail, Fail: Pass}[v]
			}
			return v
		}}
		rep, err := LocateObjects(context.Background(), w.objs, nil, f, ObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rep.Status == envobj.Located && !slices.Equal(causeNames(rep), []string{"/etc/app.conf"}):
			t.Errorf("flip at run %d: wrong cause %q", flip, causeNames(rep))
		case rep.Status == envobj.Located, rep.Status == envobj.Unconfirmed, rep.Status == envobj.Inconclusive:
		case rep.Status == envobj.NoFailure && flip == 1, rep.Status == envobj.StillFails && flip == 2:
			// an end itself flipped: nothing named
		default:
			t.Errorf("flip at run %d: status %s (%s)", flip, rep.Status, rep.Message)
		}
	}
	// A runner that alternates its verdict for every request names
	// nothing.
	f := &fakeObjects{verdict: func(run int, objs, start map[int]bool) Verdict {
		if run == 1 {
			return Fail
		}
		return []Verdict{Pass, Fail}[run%2]
	}}
	rep, err := LocateObjects(context.Background(), w.objs, nil, f, ObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status == envobj.Located {
		t.Errorf("an alternating runner got %q named", causeNames(rep))
	}
	var notes []string
	for _, s := range rep.Steps {
		if s.Note != "" {
			notes = append(notes, s.Note)
		}
	}
	if !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "contradicts step") }) {
		t.Errorf("no step noted a contradiction: %q (status %s)", notes, rep.Status)
	}
}

// A confirming run that contradicts the search is re-run; when the
// re-run agrees with the contradiction the cause is not named.
func TestObjectsConfirmationDisagrees(t *testing.T) {
	w := &objWorld{}
	w.noise(3)
	cause := w.add(contentDiffers("/etc/app.conf"))
	confirming := 0
	f := &fakeObjects{}
	f.verdict = func(run int, objs, _ map[int]bool) Verdict {
		r := f.reqs[len(f.reqs)-1]
		if r.Role == "confirm" && len(r.Objects) == 1 {
			confirming++
			return Fail // the cause alone fails when confirmed
		}
		if objs[cause] {
			return Pass
		}
		return Fail
	}
	rep, err := LocateObjects(context.Background(), w.objs, nil, f, ObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != envobj.Unconfirmed || len(rep.Suspects) != 1 || rep.Suspects[0].Name != "/etc/app.conf" || len(rep.Disagreeing) != 1 {
		t.Fatalf("status %s, suspects %v, disagreeing %v", rep.Status, rep.Suspects, rep.Disagreeing)
	}
	if rep.Fix != nil || len(rep.Causes) != 0 {
		t.Errorf("an unconfirmed report gives a fix")
	}
	if confirming < 2 {
		t.Errorf("the contradicting confirmation ran %d times, want a re-run", confirming)
	}
}

// Repeat runs each step several times and takes the majority.
func TestObjectsRepeat(t *testing.T) {
	w := &objWorld{}
	w.noise(3)
	cause := w.add(modeDiffers("/srv/data", 0o700, 0o755))
	f := &fakeObjects{passes: allOf(cause)}
	rep := locateObjects(t, w, f, ObjectOptions{Repeat: 3})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"/srv/data"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	for _, s := range rep.Steps {
		if s.Taken != "" && s.Note != "3 of 3 runs" {
			t.Errorf("step %d note %q", s.Step, s.Note)
		}
	}
	if f.runs%3 != 0 {
		t.Errorf("%d runs, not 3 per step", f.runs)
	}
}

// CheckRepeatable: a second fail end that passes ends the search.
func TestObjectsNotRepeatable(t *testing.T) {
	w := &objWorld{}
	w.noise(2)
	f := &fakeObjects{verdict: func(run int, _, _ map[int]bool) Verdict { return []Verdict{Fail, Fail, Pass}[min(run, 2)] }}
	rep, err := LocateObjects(context.Background(), w.objs, nil, f, ObjectOptions{CheckRepeatable: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != envobj.NotRepeatable {
		t.Errorf("status %s (%s)", rep.Status, rep.Message)
	}
}

// A runner's error ends the search with the error, wrapped with what the
// run put in place; so does a cancelled context.
func TestObjectsErrors(t *testing.T) {
	w := &objWorld{}
	w.noise(2)
	boom := errors.New("sandbox: overlay failed")
	_, err := LocateObjects(context.Background(), w.objs, nil, ObjectRunnerFunc(func(context.Context, ObjectRequest) (ObjectOutcome, error) {
		return ObjectOutcome{}, boom
	}), ObjectOptions{})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "run with nothing in place") {
		t.Errorf("error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = LocateObjects(ctx, w.objs, nil, &fakeObjects{passes: allOf()}, ObjectOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// ObjectRequest.Ops gives the sandbox operations of the request's
// objects.
func TestObjectRequestOps(t *testing.T) {
	w := &objWorld{}
	w.add(modeDiffers("/tmp", 0o1777, 0o755))
	w.add(onlyHere("/etc/app.d/x.conf"))
	ops, err := ObjectRequest{Objects: []int{0, 1}}.Ops(w.objs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, op := range ops {
		got = append(got, op.String())
	}
	if want := []string{"chmod /tmp 1777", "remove /etc/app.d/x.conf"}; !slices.Equal(got, want) {
		t.Errorf("ops %q, want %q", got, want)
	}
	if _, err := (ObjectRequest{Objects: []int{5}}).Ops(w.objs); err == nil {
		t.Errorf("no error for an index out of range")
	}
}

// MaterializedReport and AfterObjects put the object search's result in
// locate's report.
func TestObjectsInLocateReport(t *testing.T) {
	w := &objWorld{}
	w.noise(3)
	cause := w.add(modeDiffers("/tmp", 0o1777, 0o755))
	res := locateObjects(t, w, &fakeObjects{passes: allOf(cause)}, ObjectOptions{})
	r := MaterializedReport(res, []string{"./app"})
	if r.Status != Located || r.Mechanism != "materialized" || r.Objects != res || r.Runs != res.Runs || r.Steps == nil {
		t.Errorf("report %+v", r)
	}
	r = &Report{Status: Located}
	AfterObjects(r, res)
	if r.Mechanism != "call-level" || r.Objects != res {
		t.Errorf("report %+v", r)
	}
}
