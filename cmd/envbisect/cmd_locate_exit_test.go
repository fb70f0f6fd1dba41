package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/testutil"
)

// TestLocateExitStatuses: runs are judged as with git bisect run. A
// command that crashes here (SIGSEGV) fails, and the file it reads is
// located; with --abort-on-signal the first such run stops the search
// (exit 3, no report). A command that exits 125 here skips: no run
// decides, and the search is inconclusive (exit 3) with every run a skip.
func TestLocateExitStatuses(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	out := testutil.InWorkNS(t, `
cd "$W/good"
printf '#!/bin/sh\nread v < conf\n[ "$v" = good ] && exit 0\n[ "$v" = skip ] && exit 125\nkill -SEGV $$\n' > run.sh
chmod +x run.sh
echo good > conf
"$EB" record -q -o ../t.envb -- ./run.sh
cp run.sh ../bad/
cd "$W/bad"
echo crash > conf
code=0; "$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/crash.json" 2> "$OUT/crash.err" || code=$?; echo $code > "$OUT/crash.code"
code=0; "$EB" locate -q --abort-on-signal ../t.envb -- ./run.sh > "$OUT/abort.out" 2> "$OUT/abort.err" || code=$?; echo $code > "$OUT/abort.code"
echo skip > conf
code=0; "$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/skip.json" 2> "$OUT/skip.err" || code=$?; echo $code > "$OUT/skip.code"
`)
	type reportStep struct {
		Verdict string `json:"verdict"`
		Detail  string `json:"detail"`
	}
	type report struct {
		Status  string `json:"status"`
		Culprit *struct {
			Path string `json:"path"`
		} `json:"culprit"`
		Steps   []reportStep `json:"steps"`
		Objects *struct {
			Steps []reportStep `json:"steps"`
		} `json:"objects"`
	}
	read := func(name string) (report, string) {
		var r report
		reportschema.Check(t, name, []byte(readOut(t, out, name+".json")))
		if err := json.Unmarshal([]byte(readOut(t, out, name+".json")), &r); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, readOut(t, out, name+".err"))
		}
		return r, strings.TrimSpace(readOut(t, out, name+".code"))
	}
	crash, code := read("crash")
	if code != "0" || crash.Status != "located" || crash.Culprit == nil || !strings.HasSuffix(crash.Culprit.Path, "/conf") {
		t.Errorf("a crash here: exit %s, %+v; want 0 and conf located", code, crash)
	}
	if len(crash.Steps) == 0 || crash.Steps[0].Verdict != "fail" || crash.Steps[0].Detail != "killed by SIGSEGV" {
		t.Errorf("a crash here: first run %+v; want fail, killed by SIGSEGV", crash.Steps)
	}
	if code := strings.TrimSpace(readOut(t, out, "abort.code")); code != "3" {
		t.Errorf("--abort-on-signal: exit %s; want 3", code)
	}
	if s := readOut(t, out, "abort.err"); !strings.Contains(s, "aborted by --abort-on-signal: run 1 ") || !strings.Contains(s, "killed by SIGSEGV") {
		t.Errorf("--abort-on-signal: stderr %q; want the run that aborted named", s)
	}
	if s := readOut(t, out, "abort.out"); s != "" {
		t.Errorf("--abort-on-signal printed a report: %q", s)
	}
	skip, code := read("skip")
	steps := skip.Steps
	if skip.Objects != nil && len(steps) == 0 { // the object search's report: its runs are its own
		steps = skip.Objects.Steps
	}
	if code != "3" || skip.Status != "inconclusive" || len(steps) == 0 {
		t.Fatalf("exit 125 here: exit %s, status %s, %d runs; want 3, inconclusive", code, skip.Status, len(steps))
	}
	if s := steps[0]; s.Verdict != "skip" || s.Detail != "exit status 125" {
		t.Errorf("exit 125 here: first run %+v; want skip", s)
	}
}

// TestLocateOtherCommand: a trace recorded with other arguments is
// refused (exit 2, naming the argument) unless --force; so is one
// recorded in another directory when the runs cannot start there
// (--sandbox=off). A directory the sandbox replays is no mismatch.
func TestLocateOtherCommand(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	out := testutil.InWorkNS(t, `
cp `+fig79+` good/fig79; cp `+fig79+` bad/fig79
printf 'key=value\n' > good/config.txt
printf 'key value\n' > bad/config.txt
(cd good && "$EB" record -q -o ../t.envb -- ./fig79 config.txt >/dev/null)
cd bad
for c in "args:./fig79 other.txt" "force:--force ./fig79 other.txt" "cwd:--sandbox=off ./fig79 config.txt" "cwdforce:--sandbox=off --force ./fig79 config.txt" "same:./fig79 config.txt"; do
	name=${c%%:*}; rest=${c#*:}
	flags=; cmd=$rest
	case $rest in --*) flags=${rest% ./fig79*}; cmd=./fig79${rest#*./fig79} ;; esac
	code=0; "$EB" locate -q $flags ../t.envb -- $cmd > "$OUT/$name.out" 2> "$OUT/$name.err" || code=$?; echo $code > "$OUT/$name.code"
done
`)
	cases := []struct {
		name, code, stderr string
	}{
		{"args", "2", `records another command line: argument 1 is "other.txt" here and "config.txt" in the recording`},
		{"force", "", "warning: --force: "},
		{"cwd", "2", "/good and the runs start in "},
		{"cwdforce", "", "warning: --force: "},
		{"same", "0", ""},
	}
	for _, c := range cases {
		code, stderr := strings.TrimSpace(readOut(t, out, c.name+".code")), readOut(t, out, c.name+".err")
		if c.code != "" && code != c.code || c.code == "" && code == "2" || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: exit %s, stderr %q; want exit %s and %q", c.name, code, stderr, c.code, c.stderr)
		}
	}
}

// TestLocateExecutableNote: the note that the executable differs compares
// the path the command named (a script's, not its interpreter's, which
// the exec's image is): the same script gives no note; the script
// changed gives one that names its content, not /usr/bin/dash.
func TestLocateExecutableNote(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("sh"))
	out := testutil.InWorkNS(t, `
cd good
printf '#!/bin/sh\necho built\nexit 1\n' > build.sh; chmod 755 build.sh
"$EB" record -q -o ../t.envb -- ./build.sh >/dev/null || true
"$EB" locate ../t.envb -- ./build.sh > /dev/null 2> "$OUT/same.err" || true
printf '#!/bin/sh\necho changed\nexit 1\n' > build.sh
"$EB" locate ../t.envb -- ./build.sh > /dev/null 2> "$OUT/changed.err" || true
`)
	if s := readOut(t, out, "same.err"); strings.Contains(s, "the executable differs") {
		t.Errorf("the same script: stderr %q; want no note", s)
	}
	s := readOut(t, out, "changed.err")
	if !strings.Contains(s, "note: the executable differs: its content differs (SHA-256 ") || strings.Contains(s, "dash") {
		t.Errorf("the script changed: stderr %q; want the note naming its content, not the interpreter", s)
	}
}

// TestLocateCauseLimit: a script needs nine configuration files, each of
// which differs here. The call-level search (this test is about it:
// --materialize=false) finds causes one by one up to its limit of 8;
// with them replayed the script still fails, so it stops: exit 3,
// status unconfirmed, the limit and the causes found so far in the JSON
// report, and a text report that says the limit was reached and how to
// narrow it, never that the command may be flaky nor --repeat.
func TestLocateCauseLimit(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	out := testutil.InWorkNS(t, `
cd "$W/good"
printf '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9; do read v < conf$i; [ "$v" = good ] || exit 1; done\n' > run.sh
chmod +x run.sh
for i in 1 2 3 4 5 6 7 8 9; do echo good > conf$i; done
"$EB" record -q -o ../t.envb -- ./run.sh
cp run.sh ../bad/
cd "$W/bad"
for i in 1 2 3 4 5 6 7 8 9; do echo bad > conf$i; done
code=0; "$EB" locate -q --materialize=false --report "$OUT/limit.json" ../t.envb -- ./run.sh > "$OUT/limit.out" 2> "$OUT/limit.err" || code=$?; echo $code > "$OUT/limit.code"
`)
	code, text := strings.TrimSpace(readOut(t, out, "limit.code")), readOut(t, out, "limit.out")
	reportschema.Check(t, "cause limit", []byte(readOut(t, out, "limit.json")))
	var rep struct {
		Status     string `json:"status"`
		CauseLimit *struct {
			Limit int `json:"limit"`
			Found []struct {
				Path string `json:"path"`
			} `json:"found"`
		} `json:"cause_limit"`
	}
	if err := json.Unmarshal([]byte(readOut(t, out, "limit.json")), &rep); err != nil {
		t.Fatal(err)
	}
	if code != "3" || rep.Status != "unconfirmed" || rep.CauseLimit == nil || rep.CauseLimit.Limit != 8 || len(rep.CauseLimit.Found) != 8 {
		t.Fatalf("nine causes: exit %s, %+v; want 3, unconfirmed at the limit of 8 with 8 found\n%s\n%s", code, rep, text, readOut(t, out, "limit.err"))
	}
	for _, c := range rep.CauseLimit.Found {
		if !strings.Contains(c.Path, "/conf") {
			t.Errorf("a cause found: %q; want a conf file", c.Path)
		}
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, bad := range []string{"flaky", "--repeat"} {
		if strings.Contains(flat, bad) {
			t.Errorf("the report at the cause limit says %q:\n%s", bad, text)
		}
	}
	for _, want := range []string{"the search stopped at its limit of 8 causes", "Causes found so far (8 causes",
		"/good/conf", "This is not flakiness", "Make the difference smaller", "locate without --materialize=false"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the report at the cause limit lacks %q:\n%s", want, text)
		}
	}
}

// TestLocateStillFails: the command passes in its recording, and here a
// --check looks at a file nothing the command does can give back (it is
// not there). The object search cannot make it pass, nor can the calls:
// exit 3, status replay-still-fails, a report that says no call can be
// named and what else the cause may be, and no culprit.
func TestLocateStillFails(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	out := testutil.InWorkNS(t, `
cd "$W/good"
printf '#!/bin/sh\nread v < conf\n[ "$v" = good ]\n' > run.sh
chmod +x run.sh
echo good > conf
"$EB" record -q -o ../t.envb -- ./run.sh
cp run.sh conf ../bad/
cd "$W/bad"
code=0; "$EB" locate -q --check "test -e $W/ready" --report "$OUT/still.json" ../t.envb -- ./run.sh > "$OUT/still.out" 2> "$OUT/still.err" || code=$?; echo $code > "$OUT/still.code"
`)
	code, text := strings.TrimSpace(readOut(t, out, "still.code")), readOut(t, out, "still.out")
	reportschema.Check(t, "still fails", []byte(readOut(t, out, "still.json")))
	var rep struct {
		Status    string          `json:"status"`
		Mechanism string          `json:"mechanism"`
		Culprit   json.RawMessage `json:"culprit"`
	}
	if err := json.Unmarshal([]byte(readOut(t, out, "still.json")), &rep); err != nil {
		t.Fatal(err)
	}
	if code != "3" || rep.Status != "replay-still-fails" || rep.Culprit != nil || rep.Mechanism != "call-level" {
		t.Fatalf("exit %s, %+v; want 3, replay-still-fails after the object search, no culprit\n%s\n%s", code, rep, text, readOut(t, out, "still.err"))
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{"replay still fails (", "No call can be named", "Objects first: the object search"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(flat, "environment variables") {
		t.Errorf("the report blames environment variables, which the runs give back:\n%s", text)
	}
}
