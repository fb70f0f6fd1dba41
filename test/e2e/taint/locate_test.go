package taint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// interpreterScript builds the vacuous pass with env as the
// driver: run.sh passes under dash (its echo turns \n into a newline, so
// wc counts 2 lines) and fails under bash (1 line). It is recorded in
// good/, where sh is dash, twice: with the script's content left out of
// the trace (t-excl.envb) and with everything kept (t-kept.envb). Then
// bash is bound over dash, so the interpreter differs here, and bash
// reads the script through another fd than dash did (255 after a dup,
// where dash used 10): in a run that replays the script's open without
// its content, bash's read matches no recorded call and runs live on an
// empty stand-in, and bash exits 0 having run nothing. locate runs on
// both traces. LANG and friends are unset so that bash loads no locale
// and is matched to dash's recording as far as it can be. Taint is the
// call-level search's (the object search replays nothing): the trace
// without the script's content is located with --materialize=false.
const interpreterScript = `
unset LANG LC_ALL LANGUAGE LC_CTYPE
export PATH=/usr/bin:/bin
printf 'cat run.sh >/dev/null\ntest "$(echo "a\\\\nb" | wc -l)" = 2\n' > good/run.sh
cp good/run.sh bad/run.sh
(cd good && "$EB" record -q --exclude-content "$W/good/run.sh" -o ../t-excl.envb -- env sh run.sh)
(cd good && "$EB" record -q -o ../t-kept.envb -- env sh run.sh)
mount --bind /usr/bin/bash /usr/bin/dash
cd bad
set +e
env sh run.sh; echo $? > "$OUT/native"
"$EB" locate --materialize=false --json ../t-excl.envb -- env sh run.sh > "$OUT/excl.json" 2> "$OUT/excl.err"
"$EB" locate --json ../t-kept.envb -- env sh run.sh > "$OUT/kept.json" 2> "$OUT/kept.err"
echo "$W" > "$OUT/w"
`

type locateJSON struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
	} `json:"culprit"`
	Steps []struct {
		Step    int    `json:"step"`
		Verdict string `json:"verdict"`
		Taint   string `json:"taint"`
		Note    string `json:"note"`
	} `json:"steps"`
}

func readLocate(t *testing.T, out, name string) locateJSON {
	t.Helper()
	var r locateJSON
	testutil.ReadJSON(t, filepath.Join(out, name+".json"), &r)
	return r
}

// TestInterpreterLocated: (a) with the script's content left out, the
// runs that replay its open are vacuous passes or see bytes the trace
// does not hold; they are tainted, the JSON steps say why (naming the
// script), and locate names no call on the script (here it cannot tell:
// the all-replayed end is tainted, so no culprit). (c) with the content
// kept, the script is served and the interpreter's exec is a candidate:
// locate names execve("/usr/bin/sh"), the program that differs here.
func TestInterpreterLocated(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/dash"), testutil.File("/usr/bin/bash"), testutil.File("/usr/bin/env"),
		testutil.Binary("wc"), testutil.Binary("cat"))
	out := testutil.InWorkNS(t, interpreterScript)
	wb, err := os.ReadFile(filepath.Join(out, "w"))
	if err != nil {
		t.Fatal(err)
	}
	script := strings.TrimSpace(string(wb)) + "/good/run.sh"
	if nb, _ := os.ReadFile(filepath.Join(out, "native")); strings.TrimSpace(string(nb)) != "1" {
		t.Fatalf("run.sh under bash exits %q, want 1 (the premise: it fails where sh is bash)", nb)
	}

	excl := readLocate(t, out, "excl")
	if c := excl.Culprit; c != nil && (strings.HasSuffix(c.Path, "/run.sh") || c.Syscall != "execve") {
		t.Errorf("script excluded: located %s %s (%s); want no call on the script, only the interpreter's exec if anything", c.Syscall, c.Path, excl.Message)
	}
	tainted := false
	for _, s := range excl.Steps {
		if s.Taint != "" && strings.Contains(s.Taint, script) {
			tainted = true
			if s.Verdict != "skip" || !strings.Contains(s.Note, "tainted: ") {
				t.Errorf("step %d is tainted (%s) but its verdict is %s, note %q; want skip, 'tainted: ...'", s.Step, s.Taint, s.Verdict, s.Note)
			}
		}
	}
	if !tainted {
		t.Errorf("script excluded: no step is tainted by the script (status %s: %s); steps %+v", excl.Status, excl.Message, excl.Steps)
	}

	kept := readLocate(t, out, "kept")
	if kept.Status != "located" || kept.Culprit == nil || kept.Culprit.Syscall != "execve" || kept.Culprit.Path != "/usr/bin/sh" {
		t.Errorf("script kept: status %s (%s), culprit %+v; want execve /usr/bin/sh", kept.Status, kept.Message, kept.Culprit)
	}
}
