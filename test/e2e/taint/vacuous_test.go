package taint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// vacuousScript records `env sh run.sh` in good/ (sh is dash), the
// script's content excluded from the trace so that it cannot be served,
// then binds bash over dash (the interpreter differs here) and replays,
// in bad/, the prefix up to the interpreter's last read of the script
// (its end of file): the script's open is replayed to an empty stand-in,
// and the interpreter's next read, which the recording does not have,
// runs live on it, gets nothing, and the shell exits 0 without running
// the script's cat: a vacuous pass. Prefix 0 (nothing replayed) is the
// control: bash runs the script for real.
const vacuousScript = `
printf 'cat run.sh >/dev/null\necho ran\n' > good/run.sh
cp good/run.sh bad/run.sh
(cd good && "$EB" record -q --exclude-content "$W/good/run.sh" -o ../t.envb -- env sh run.sh)
"$EB" show --seq t.envb > "$OUT/show.txt"
k=$(grep '\[1\] read(.*<excluded 0 bytes>' "$OUT/show.txt" | tail -1 | sed 's/^#\([0-9]*\) .*/\1/')
echo "$k" > "$OUT/k"
mount --bind /usr/bin/bash /usr/bin/dash
cd bad
"$EB" replay --json ../t.envb --prefix "$k" -- env sh run.sh > "$OUT/tainted.json" 2> "$OUT/tainted.err"
"$EB" replay --json ../t.envb --prefix 0 -- env sh run.sh > "$OUT/control.json" 2> "$OUT/control.err"
echo "$W" > "$OUT/w"
`

type replayJSON struct {
	Verdict string `json:"verdict"`
	Taints  []struct {
		Seq  uint64 `json:"seq"`
		Kind string `json:"kind"`
		Why  string `json:"why"`
	} `json:"taints"`
}

func readReplay(t *testing.T, out, name string) (replayJSON, string) {
	t.Helper()
	var r replayJSON
	testutil.ReadJSON(t, filepath.Join(out, name+".json"), &r)
	return r, testutil.ReadText(t, out, name+".err")
}

// TestVacuousPassTainted: the vacuous pass is reported as tainted, with
// the live read of the empty stand-in for the script and the cat that
// never started; the control run is not tainted.
func TestVacuousPassTainted(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/dash"), testutil.File("/usr/bin/bash"), testutil.File("/usr/bin/env"))
	out := testutil.InWorkNS(t, vacuousScript)
	wb, err := os.ReadFile(filepath.Join(out, "w"))
	if err != nil {
		t.Fatal(err)
	}
	script := strings.TrimSpace(string(wb)) + "/good/run.sh"
	kb, _ := os.ReadFile(filepath.Join(out, "k"))
	if strings.TrimSpace(string(kb)) == "" {
		show, _ := os.ReadFile(filepath.Join(out, "show.txt"))
		t.Fatalf("the trace has no excluded end-of-file read of the script by [1]:\n%s", show)
	}

	r, stderr := readReplay(t, out, "tainted")
	if r.Verdict != "pass" || strings.Contains(stderr, "ran") {
		t.Fatalf("prefix %s: verdict %s, output %q; want the vacuous pass (exit 0, the script not run)", kb, r.Verdict, stderr)
	}
	var empty, process bool
	for _, tt := range r.Taints {
		switch tt.Kind {
		case "stand-in-empty":
			empty = empty || strings.Contains(tt.Why, "an empty stand-in for "+script) && tt.Seq > 0
		case "skipped-process":
			process = process || strings.Contains(tt.Why, "1 recorded processes never started (of [2] /usr/bin/cat)")
		}
	}
	if !empty || !process {
		t.Errorf("taints %+v; want the live read of the empty stand-in for %s and the cat that never started", r.Taints, script)
	}

	c, stderr := readReplay(t, out, "control")
	if c.Verdict != "pass" || len(c.Taints) != 0 || !strings.Contains(stderr, "ran") {
		t.Errorf("control: verdict %s, taints %+v, output %q; want an untainted pass that ran the script", c.Verdict, c.Taints, stderr)
	}
}
