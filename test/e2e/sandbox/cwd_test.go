package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// The working directory as a start item: programs whose output embeds
// the directory they ran in, built and run in good/ (or elsewhere) and in
// bad/ from the same files, judged by --check comparing the artifact
// with the good run's. The artifacts go to $W/out, shared with the runs
// (--persist) so that the check, which runs outside the sandbox, reads
// them; --reset removes the last run's.

// cwdItem is a start item of locate's JSON report.
type cwdItem struct {
	Kind   string  `json:"kind"`
	Good   *string `json:"good"`
	Here   *string `json:"here"`
	Text   string  `json:"text"`
	Why    string  `json:"why"`
	Remedy string  `json:"remedy"`
}

// cwdReport is the part of locate's JSON report these tests read.
type cwdReport struct {
	Status     string `json:"status"`
	Message    string `json:"message"`
	Runs       int    `json:"runs"`
	StartItems int    `json:"start_items"`
	Space      *struct {
		Candidates int `json:"candidates"`
	} `json:"space"`
	Culprit *struct {
		Syscall string   `json:"syscall"`
		Path    string   `json:"path"`
		Start   *cwdItem `json:"start"`
	} `json:"culprit"`
	Unapplied []cwdItem `json:"unapplied"`
}

func readCwdReport(t *testing.T, path string) cwdReport {
	t.Helper()
	var r cwdReport
	testutil.ReadJSON(t, path, &r)
	return r
}

// setupGcc compiles prog.c with -g in good/ (its object's hash kept as
// good.sum) and records the compile there: DW_AT_comp_dir embeds the
// directory, so the same compile in bad/ gives another object.
const setupGcc = `mkdir out
for d in good bad; do printf 'int add(int a, int b) { return a + b; }\nint twice(int a) { return add(a, a); }\n' > $d/prog.c; done
(cd good && gcc -g -c prog.c -o ../out/prog.o) && sha256sum < out/prog.o > good.sum && rm out/prog.o
(cd bad && gcc -g -c prog.c -o ../out/prog.o) && sha256sum < out/prog.o > bad.sum && rm out/prog.o
(cd good && "$EB" record -q -o ../t.envb -- gcc -g -c prog.c -o ../out/prog.o) && rm out/prog.o
echo "$W" > "$OUT/w"
check='test "$(sha256sum < '"$W"'/out/prog.o)" = "$(cat '"$W"'/good.sum)"'
`

// TestCwdGccDebugInfo: gcc -g of the same file in another directory
// gives another object; locate names the working directory.
func TestCwdGccDebugInfo(t *testing.T) {
	testutil.Require(t, testutil.Binary("gcc"))
	out := inWorkNS(t, setupGcc+`
if cmp -s good.sum bad.sum; then echo same > "$OUT/same"; fi
tree_hash good > "$OUT/before"
cd bad
code=0; "$EB" locate -q --json --persist "$W/out" --reset "rm -f $W/out/prog.o" --check "$check" ../t.envb -- gcc -g -c prog.c -o ../out/prog.o > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
"$EB" locate -q --persist "$W/out" --reset "rm -f $W/out/prog.o" --check "$check" ../t.envb -- gcc -g -c prog.c -o ../out/prog.o > "$OUT/report.txt" || true
cd ..
tree_hash good > "$OUT/after"
`)
	if _, err := os.Stat(filepath.Join(out, "same")); err == nil {
		t.Fatal("gcc -g gave the same object in good/ and bad/: this gcc does not embed the directory, nothing to locate")
	}
	w := testutil.ReadText(t, out, "w")
	r := readCwdReport(t, filepath.Join(out, "report.json"))
	assertCwdCulprit(t, r, w+"/good", w+"/bad")
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
	want := "The working directory differs: good " + w + "/good, here " + w + "/bad."
	if txt := testutil.ReadText(t, out, "report.txt"); !strings.Contains(strings.Join(strings.Fields(txt), " "), want) {
		t.Errorf("the text report does not say %q:\n%s", want, txt)
	}
	same(t, out, "before", "after", "good/ before and after locate (the recorded cwd, a mount point in each run's sandbox)")
}

// TestCwdGetcwdOutput: a program that writes its os.getcwd() (Python),
// recorded in a directory that does not exist here: each run that
// replays the cwd starts there, in its sandbox only.
func TestCwdGetcwdOutput(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"))
	out := inWorkNS(t, `mkdir out rec rec/build
for d in rec/build bad; do
	printf '#!/bin/sh\nexec /usr/bin/python3 -c "import os, sys; sys.stdout.write(os.getcwd() + chr(10))" > "$W/out/where"\n' > $d/where.sh
	chmod 755 $d/where.sh
done
(cd rec/build && ./where.sh) && mv out/where good.where
(cd rec/build && "$EB" record -q -o ../../t.envb -- ./where.sh) && rm out/where
rm -r rec
echo "$W" > "$OUT/w"
cd bad
check='test "$(cat '"$W"'/out/where)" = "$(cat '"$W"'/good.where)"'
code=0; "$EB" locate -q --json --persist "$W/out" --reset "rm -f $W/out/where" --check "$check" ../t.envb -- ./where.sh > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
if [ -e "$W/rec" ]; then echo made > "$OUT/rec"; fi
`)
	w := testutil.ReadText(t, out, "w")
	r := readCwdReport(t, filepath.Join(out, "report.json"))
	assertCwdCulprit(t, r, w+"/rec/build", w+"/bad")
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
	if _, err := os.Stat(filepath.Join(out, "rec")); err == nil {
		t.Errorf("%s/rec exists after locate: the recorded cwd's mount point reached the real file system", w)
	}
}

// TestCwdSandboxOffUnapplied: without a sandbox no run can start the
// command at the recorded path: the cwd is listed as differing and not
// applied, with why and the remedy, and is never the culprit. Without
// --force locate refuses to run there (TestLocateOtherCommand).
func TestCwdSandboxOffUnapplied(t *testing.T) {
	testutil.Require(t, testutil.Binary("gcc"))
	out := inWorkNS(t, setupGcc+`
cd bad
"$EB" locate -q --json --sandbox=off --force --reset "rm -f $W/out/prog.o" --check "$check" ../t.envb -- gcc -g -c prog.c -o ../out/prog.o > "$OUT/report.json" || true
`)
	w := testutil.ReadText(t, out, "w")
	r := readCwdReport(t, filepath.Join(out, "report.json"))
	if c := r.Culprit; c != nil && c.Start != nil && c.Start.Kind == "cwd" {
		t.Errorf("with --sandbox=off the cwd was named the culprit: no run could apply it")
	}
	var it *cwdItem
	for i := range r.Unapplied {
		if r.Unapplied[i].Kind == "cwd" {
			it = &r.Unapplied[i]
		}
	}
	if it == nil {
		t.Fatalf("status %s (%s): unapplied %+v, want the cwd listed", r.Status, r.Message, r.Unapplied)
	}
	if it.Good == nil || *it.Good != w+"/good" || it.Here == nil || *it.Here != w+"/bad" {
		t.Errorf("unapplied cwd %+v, want good %s/good, here %s/bad", it, w, w)
	}
	if !strings.Contains(it.Why, "--sandbox=off") || !strings.Contains(it.Remedy, "drop --sandbox=off") {
		t.Errorf("unapplied cwd: why %q, remedy %q: want them to name --sandbox=off", it.Why, it.Remedy)
	}
}

// assertCwdCulprit checks that r located the cwd start item, good and
// here as given, within ⌈log2 C⌉ + 3 runs.
func assertCwdCulprit(t *testing.T, r cwdReport, good, here string) {
	t.Helper()
	c := r.Culprit
	if r.Status != "located" || c == nil || c.Start == nil || c.Start.Kind != "cwd" {
		t.Fatalf("status %s (%s), culprit %+v: want the start item cwd", r.Status, r.Message, c)
	}
	it := c.Start
	if it.Good == nil || *it.Good != good || it.Here == nil || *it.Here != here {
		t.Errorf("culprit cwd good %s here %s, want good %s here %s",
			deref(it.Good), deref(it.Here), good, here)
	}
	if want := "the working directory differs: good " + good + ", here " + here; it.Text != want {
		t.Errorf("culprit text %q, want %q", it.Text, want)
	}
	// The search runs over what differs here: the start items and the
	// resources that differ (gcc's temporary assembly, named at random,
	// embeds the directory too).
	units := r.StartItems
	if r.Space != nil {
		units = r.Space.Candidates
	}
	if r.StartItems < 1 || r.Runs > scenarios.RunBound(units) {
		t.Errorf("%d runs over %d units (%d start items), want at most %d", r.Runs, units, r.StartItems, scenarios.RunBound(units))
	}
}

// deref is *s, "(none)" for nil.
func deref(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

// nestedReport is the part of locate's JSON report TestCwdRecordedAbove
// reads: the object search's causes, and the call-level culprit.
type nestedReport struct {
	Status    string `json:"status"`
	Message   string `json:"message"`
	Mechanism string `json:"mechanism"`
	Objects   *struct {
		Causes []struct {
			Kind string `json:"kind"`
			Path string `json:"path"`
		} `json:"causes"`
	} `json:"objects"`
	Culprit *struct {
		Path  string   `json:"path"`
		Start *cwdItem `json:"start"`
		Here  struct {
			Errno *string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
}

// TestCwdRecordedAbove: recorded from a directory above the one locate
// runs from (the recording in $W, locate in $W/proj), the command (awk,
// reading its settings by absolute path) fails for its settings file
// alone. A run starting at the recorded directory must still see
// $W/proj, and the call-level search must key $W/proj/app.ini as it is:
// both searches name the file, never the working directory.
func TestCwdRecordedAbove(t *testing.T) {
	testutil.Require(t, testutil.Binary("awk"))
	out := inWorkNS(t, `mkdir proj
printf 'name=demo\nlevel=high\n' > proj/app.ini
prog='BEGIN { FS = "=" } $1 == "level" { found = $2 } END { exit found != "high" }'
"$EB" record -q -o t.envb -- awk "$prog" "$W/proj/app.ini"
printf 'name=demo\nlevel=low\n' > proj/app.ini
echo "$W" > "$OUT/w"
cd proj
for m in true false; do
	code=0; "$EB" locate -q --json --materialize=$m ../t.envb -- awk "$prog" "$W/proj/app.ini" > "$OUT/report-$m.json" || code=$?
	echo $code > "$OUT/code-$m"
done
`)
	assertBothNameFile(t, out, testutil.ReadText(t, out, "w")+"/proj/app.ini")
}

// TestCwdRecordedBelow: the reverse of TestCwdRecordedAbove, recorded in
// $W/proj and located from $W (cmp comparing its settings, named by
// absolute path, with the expected ones). A run replaying the working
// directory bound $W over $W/proj, which hid the settings file: the
// object search's run with everything in place failed, and the
// call-level search said the file was missing here (ENOENT) when it is
// there with other content. Both searches must name the file, as it is.
// (Found with grep.)
func TestCwdRecordedBelow(t *testing.T) {
	testutil.Require(t, testutil.Binary("cmp"))
	out := inWorkNS(t, `mkdir proj
printf 'level=high\n' > proj/app.ini; printf 'level=high\n' > want.ini
(cd proj && "$EB" record -q -o ../t.envb -- cmp -s "$W/proj/app.ini" "$W/want.ini")
printf 'level=low!\n' > proj/app.ini
echo "$W" > "$OUT/w"
for m in true false; do
	code=0; "$EB" locate -q --json --force --materialize=$m t.envb -- cmp -s "$W/proj/app.ini" "$W/want.ini" > "$OUT/report-$m.json" || code=$?
	echo $code > "$OUT/code-$m"
done
`)
	assertBothNameFile(t, out, testutil.ReadText(t, out, "w")+"/proj/app.ini")
}

// assertBothNameFile checks the reports report-true.json and
// report-false.json (locate --materialize=true and =false, exit codes in
// code-true and code-false) in out: each located exactly the file want,
// never a start item, and the call-level culprit's call succeeded here
// (the file is there, with other content).
func assertBothNameFile(t *testing.T, out, want string) {
	t.Helper()
	for _, m := range []string{"true", "false"} {
		var r nestedReport
		testutil.ReadJSON(t, filepath.Join(out, "report-"+m+".json"), &r)
		if code := testutil.ReadText(t, out, "code-"+m); code != "0" {
			t.Errorf("--materialize=%s: locate exited %s (%s: %s), want 0 (located)", m, code, r.Status, r.Message)
		}
		if c := r.Culprit; c != nil && c.Start != nil {
			t.Errorf("--materialize=%s: culprit is the start item %s (%s), want the file %s", m, c.Start.Kind, c.Start.Text, want)
		}
		var got []string
		if m == "true" {
			if r.Mechanism != "materialized" || r.Objects == nil {
				t.Errorf("--materialize=true: mechanism %q (%s), want the object search to locate it", r.Mechanism, r.Message)
				continue
			}
			for _, c := range r.Objects.Causes {
				got = append(got, c.Path)
			}
		} else if c := r.Culprit; c != nil {
			got = append(got, c.Path)
			if c.Here.Errno != nil {
				t.Errorf("--materialize=false: the file's call gave %s here; want it to succeed (the file is there, with other content)", *c.Here.Errno)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("--materialize=%s: status %s (%s), causes %q, want exactly %s", m, r.Status, r.Message, got, want)
		}
	}
}

// TestCwdMovedCheckoutNamesFileHere: a checkout recorded in good/ and
// located from a copy in bad/, where sed's script file, named relative to
// the working directory, was edited (good/ is still there, unchanged).
// The calls are compared as if made in the recorded directory, so the
// culprit's path is good/edit.sed; the report must also name
// bad/edit.sed, the file that differs here and that the user must fix,
// or it sends them to a file that is fine. (Found with grep reading
// app.conf.)
func TestCwdMovedCheckoutNamesFileHere(t *testing.T) {
	testutil.Require(t, testutil.Binary("sed"))
	out := inWorkNS(t, `
for d in good bad; do printf 'port 80\n' > $d/in.txt; done
printf 's/80/8080/\n' > good/edit.sed; printf 's/80/8443/\n' > bad/edit.sed
check='test "$(sed -f edit.sed in.txt)" = "port 8080"'
(cd good && "$EB" record -q -o ../t.envb -- sh -c "$check")
echo "$W" > "$OUT/w"
cd bad
code=0; "$EB" locate -q --json ../t.envb -- sh -c "$check" > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
"$EB" locate -q ../t.envb -- sh -c "$check" > "$OUT/report.txt" || true
`)
	w := testutil.ReadText(t, out, "w")
	var r struct {
		Status  string `json:"status"`
		Culprit *struct {
			Path     string `json:"path"`
			HerePath string `json:"here_path"`
		} `json:"culprit"`
	}
	testutil.ReadJSON(t, filepath.Join(out, "report.json"), &r)
	if code := testutil.ReadText(t, out, "code"); code != "0" || r.Culprit == nil {
		t.Fatalf("locate exited %s, status %s, culprit %+v; want 0, located", code, r.Status, r.Culprit)
	}
	if r.Culprit.Path != w+"/good/edit.sed" || r.Culprit.HerePath != w+"/bad/edit.sed" {
		t.Errorf("culprit path %q, here %q; want %s/good/edit.sed as recorded and %s/bad/edit.sed here", r.Culprit.Path, r.Culprit.HerePath, w, w)
	}
	if txt := testutil.ReadText(t, out, "report.txt"); !strings.Contains(txt, "path here "+w+"/bad/edit.sed (the same name under the working directory here") {
		t.Errorf("the text report does not name %s/bad/edit.sed as the file here:\n%s", w, txt)
	}
}

// TestCwdRecordedThroughSymlink: a release recorded from the symbolic
// link current -> v1 (the shell's $PWD is .../current, which record's
// header keeps) and located from .../v1 itself, where awk's config, named
// relative to the working directory, was edited. The recorded calls'
// paths are the kernel's (.../v1/app.conf); the replay keyed its live
// calls with the header's logical path, so no call under the working
// directory matched, each ran live as an extra and the call-level search
// ended "replay still fails". It must locate the file. (Found with perl
// -Ilib.)
func TestCwdRecordedThroughSymlink(t *testing.T) {
	testutil.Require(t, testutil.Binary("awk"))
	out := inWorkNS(t, `
mkdir good/v1 && ln -s v1 good/current
echo mode=fast > good/v1/app.conf
check='awk -F= '"'"'$1 == "mode" && $2 == "fast" { ok = 1 } END { exit !ok }'"'"' app.conf'
(cd good/current && PWD="$W/good/current" "$EB" record -q -o ../../t.envb -- sh -c "$check")
"$EB" show --json t.envb | head -1 > "$OUT/header.json"
echo mode=slow > good/v1/app.conf
echo "$W" > "$OUT/w"
cd good/v1
code=0; PWD="$W/good/v1" "$EB" locate -q --materialize=false --json ../../t.envb -- sh -c "$check" > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`)
	w := testutil.ReadText(t, out, "w")
	var h struct {
		Cwd string `json:"cwd"`
	}
	testutil.ReadJSON(t, filepath.Join(out, "header.json"), &h)
	if h.Cwd != w+"/good/current" {
		t.Fatalf("the trace's header has cwd %q; want the logical %s/good/current this test is about", h.Cwd, w)
	}
	var r struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Culprit *struct {
			Path     string `json:"path"`
			HerePath string `json:"here_path"`
		} `json:"culprit"`
	}
	testutil.ReadJSON(t, filepath.Join(out, "report.json"), &r)
	if code := testutil.ReadText(t, out, "code"); code != "0" || r.Culprit == nil {
		t.Fatalf("locate exited %s, status %s (%s); want 0, located", code, r.Status, r.Message)
	}
	if want := w + "/good/v1/app.conf"; r.Culprit.Path != want || r.Culprit.HerePath != "" {
		t.Errorf("culprit path %q (here %q); want %s, the same here", r.Culprit.Path, r.Culprit.HerePath, want)
	}
}
