package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/testutil"
)

// readOut reads the file name of a work namespace's $OUT.
func readOut(t *testing.T, out, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// progressLine is one line of locate's progress off a terminal.
var progressLine = regexp.MustCompile(`(?m)^envbisect: run (\d+), step \d+ of about \d+.*: replayed .*: (pass|fail|skip) \(.*\)$`)

// TestLocateOutput: in text mode locate's stdout holds the report alone:
// the command's marker (fig79 prints "fig79: key = ..." in a run that
// passes) goes to stderr; stderr, a file and no terminal, has one
// progress line per run, numbered in order; --report writes the JSON
// report beside it, with as many steps as progress lines. With --logs
// DIR, each run's output is a file of its own, named by its number and
// role, and the marker is in the passing runs' files and not on stderr.
// (The call-level search's output, --materialize=false;
// TestLocateOutputObjects is the object search's.)
func TestLocateOutput(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	out := testutil.InWorkNS(t, `
cp `+fig79+` fig79
printf 'key=value\n' > config.txt
"$EB" record -q -o good.envb -- ./fig79 config.txt >/dev/null
printf 'key value\n' > config.txt
code=0
"$EB" locate --materialize=false --report "$OUT/report.json" good.envb -- ./fig79 config.txt > "$OUT/stdout" 2> "$OUT/stderr" || code=$?
echo $code > "$OUT/code"
code=0
"$EB" locate --materialize=false -q --logs "$OUT/logs" --json good.envb -- ./fig79 config.txt > "$OUT/logs.json" 2> "$OUT/logs.stderr" || code=$?
echo $code > "$OUT/logs.code"
`)
	stdout, stderr := readOut(t, out, "stdout"), readOut(t, out, "stderr")
	if code := strings.TrimSpace(readOut(t, out, "code")); code != "0" {
		t.Fatalf("locate: exit %s; want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "located: call ") || strings.Contains(stdout, "fig79: key") || strings.Contains(stdout, "envbisect: run ") {
		t.Errorf("stdout is not the report alone:\n%s", stdout)
	}
	if !strings.Contains(stderr, "fig79: key = value") {
		t.Errorf("the command's output is not on stderr:\n%s", stderr)
	}
	var rep struct {
		Status string            `json:"status"`
		Steps  []json.RawMessage `json:"steps"`
	}
	reportschema.Check(t, "--report", []byte(readOut(t, out, "report.json")))
	reportschema.Check(t, "--json with --logs", []byte(readOut(t, out, "logs.json")))
	if err := json.Unmarshal([]byte(readOut(t, out, "report.json")), &rep); err != nil || rep.Status != "located" {
		t.Fatalf("--report: status %q, %v", rep.Status, err)
	}
	lines := progressLine.FindAllStringSubmatch(stderr, -1)
	if len(lines) != len(rep.Steps) || len(lines) < 3 {
		t.Errorf("%d progress lines for %d runs; want one per run:\n%s", len(lines), len(rep.Steps), stderr)
	}
	for i, l := range lines {
		if l[1] != strconv.Itoa(i+1) {
			t.Errorf("progress line %d is of run %s: %s", i+1, l[1], l[0])
		}
	}

	if code := strings.TrimSpace(readOut(t, out, "logs.code")); code != "0" {
		t.Fatalf("locate --logs: exit %s; want 0\n%s", code, readOut(t, out, "logs.stderr"))
	}
	if s := readOut(t, out, "logs.stderr"); strings.Contains(s, "fig79") {
		t.Errorf("with --logs the command's output still reached stderr:\n%s", s)
	}
	var lrep struct {
		Steps []struct {
			Verdict string `json:"verdict"`
			Role    string `json:"role"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(readOut(t, out, "logs.json")), &lrep); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "*.log"))
	if len(logs) != len(lrep.Steps) {
		t.Errorf("%d logs for %d runs: %v", len(logs), len(lrep.Steps), logs)
	}
	for i, st := range lrep.Steps {
		role := st.Role
		if role == "" {
			role = "search"
		}
		name := filepath.Join(out, "logs", fmt.Sprintf("run-%03d-%s.log", i+1, role))
		b, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("run %d (%s): %v", i+1, st.Verdict, err)
			continue
		}
		if passed := strings.Contains(string(b), "fig79: key = value"); passed != (st.Verdict == "pass") {
			t.Errorf("run %d, verdict %s: its log %s holds %q", i+1, st.Verdict, filepath.Base(name), b)
		}
	}
}

// objectProgressLine is one line of the object search's progress.
var objectProgressLine = regexp.MustCompile(`(?m)^envbisect: object run (\d+): .*: (pass|fail|skip) \(.*\)$`)

// TestLocateOutputObjects: the object search, locate's default, keeps
// TestLocateOutput's rules. stdout holds the report alone, which names
// the configuration and the call that met it; the command's output goes
// to stderr, with one progress line per run (the traced observation run
// last), numbered in order, as many as the report's steps. With --logs
// DIR each run's output is a file named by its number and role (object,
// object-confirm, observe), and the marker of a passing run is in the
// files of the runs that passed.
func TestLocateOutputObjects(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	out := testutil.InWorkNS(t, `
cp `+fig79+` fig79
printf 'key=value\n' > config.txt
"$EB" record -q -o good.envb -- ./fig79 config.txt >/dev/null
printf 'key value\n' > config.txt
code=0
"$EB" locate --report "$OUT/report.json" good.envb -- ./fig79 config.txt > "$OUT/stdout" 2> "$OUT/stderr" || code=$?
echo $code > "$OUT/code"
code=0
"$EB" locate -q --logs "$OUT/logs" --json good.envb -- ./fig79 config.txt > "$OUT/logs.json" 2> "$OUT/logs.stderr" || code=$?
echo $code > "$OUT/logs.code"
`)
	stdout, stderr := readOut(t, out, "stdout"), readOut(t, out, "stderr")
	if code := strings.TrimSpace(readOut(t, out, "code")); code != "0" {
		t.Fatalf("locate: exit %s; want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "located: ") || !strings.Contains(stdout, "/config.txt") || strings.Contains(stdout, "fig79: key") ||
		strings.Contains(stdout, "envbisect: object run ") {
		t.Errorf("stdout is not the report alone:\n%s", stdout)
	}
	if !strings.Contains(stdout, "openat(") || !strings.Contains(stdout, "\nwhy ") {
		t.Errorf("the report does not show the call that met the cause and why:\n%s", stdout)
	}
	if !strings.Contains(stderr, "fig79: key = value") {
		t.Errorf("the command's output is not on stderr:\n%s", stderr)
	}
	var rep struct {
		Status    string `json:"status"`
		Mechanism string `json:"mechanism"`
		Steps     []struct {
			Role string `json:"role"`
		} `json:"steps"`
	}
	reportschema.Check(t, "--report", []byte(readOut(t, out, "report.json")))
	if err := json.Unmarshal([]byte(readOut(t, out, "report.json")), &rep); err != nil || rep.Status != "located" || rep.Mechanism != "materialized" {
		t.Fatalf("--report: status %q by %q, %v", rep.Status, rep.Mechanism, err)
	}
	lines := objectProgressLine.FindAllStringSubmatch(stderr, -1)
	if len(lines) != len(rep.Steps) || len(lines) < 4 || rep.Steps[len(rep.Steps)-1].Role != "observe" {
		t.Errorf("%d progress lines for %d runs (%+v); want one per run, the observation last:\n%s", len(lines), len(rep.Steps), rep.Steps, stderr)
	}
	for i, l := range lines {
		if l[1] != strconv.Itoa(i+1) {
			t.Errorf("progress line %d is of run %s: %s", i+1, l[1], l[0])
		}
	}
	if code := strings.TrimSpace(readOut(t, out, "logs.code")); code != "0" {
		t.Fatalf("locate --logs: exit %s; want 0\n%s", code, readOut(t, out, "logs.stderr"))
	}
	if s := readOut(t, out, "logs.stderr"); strings.Contains(s, "fig79") {
		t.Errorf("with --logs the command's output still reached stderr:\n%s", s)
	}
	var lrep struct {
		Steps []struct {
			Verdict string `json:"verdict"`
			Role    string `json:"role"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(readOut(t, out, "logs.json")), &lrep); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "*.log"))
	if len(logs) != len(lrep.Steps) {
		t.Errorf("%d logs for %d runs: %v", len(logs), len(lrep.Steps), logs)
	}
	for i, st := range lrep.Steps {
		role := "object"
		switch st.Role {
		case "confirm":
			role = "object-confirm"
		case "observe":
			role = "observe"
		}
		name := filepath.Join(out, "logs", fmt.Sprintf("run-%03d-%s.log", i+1, role))
		b, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("run %d (%s): %v", i+1, st.Verdict, err)
			continue
		}
		if passed := strings.Contains(string(b), "fig79: key = value"); st.Role != "observe" && passed != (st.Verdict == "pass") {
			t.Errorf("run %d, verdict %s: its log %s holds %q", i+1, st.Verdict, filepath.Base(name), b)
		}
	}
}
