package serve_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// helperScript makes a script in good/ and bad/ that runs the tool
// `helper` from $W/tools, first on PATH, and the tool in the good
// environment (/bin/true, a real Debian program), and records it there.
const helperScript = `
mkdir tools
cp /bin/true tools/helper
for d in good bad; do printf '#!/bin/sh\nhelper && echo helper ran\n' > $d/run.sh; chmod 755 $d/run.sh; done
PATH="$W/tools:/usr/bin:/bin"; export PATH
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
`

// TestExecHelperDiffers: the helper a script runs is another program
// here (/bin/false): locate names the execve of the helper, and with
// every call replayed the recorded helper runs and the script passes.
func TestExecHelperDiffers(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/true"), testutil.File("/bin/false"))
	out := testutil.InWorkNS(t, helperScript+`
rm tools/helper; cp /bin/false tools/helper
`+locateAndReplay)
	w := workDir(t, out)
	checkExecLocated(t, out, w+"/tools/helper", false, "", w+"/tools/helper", "/bin/true")
}

// TestExecHelperMissing: the helper is missing here, so the shell's stat
// of it on PATH fails and the script never execs it: locate names that
// stat (ENOENT here: what is wrong, not the exec that then did not
// happen), with the image the recording ran, and replayed it runs the
// recorded helper.
func TestExecHelperMissing(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/true"))
	out := testutil.InWorkNS(t, helperScript+`
rm tools/helper
`+locateAndReplay)
	w := workDir(t, out)
	checkLocatedAt(t, out, "newfstatat", w+"/tools/helper", false, "ENOENT", w+"/tools/helper", "/bin/true")
}

// TestExecImageNotStored: recorded with the helper's content excluded,
// the trace cannot serve it: replayed, its execve runs what is here, the
// run still fails, replay --json says why at the execve, and locate's
// report lists it with the record flag that would keep it.
func TestExecImageNotStored(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/true"))
	out := testutil.InWorkNS(t, `
mkdir tools
cp /bin/true tools/helper
for d in good bad; do printf '#!/bin/sh\nhelper && echo helper ran\n' > $d/run.sh; chmod 755 $d/run.sh; done
PATH="$W/tools:/usr/bin:/bin"; export PATH
(cd good && "$EB" record -q --exclude-content "$W/tools/*" -o ../t.envb -- ./run.sh)
rm tools/helper
cd bad
code=0; "$EB" replay --json ../t.envb --prefix all -- ./run.sh > "$OUT/replay.json" || code=$?
echo $code > "$OUT/replay-code"
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || true
echo "$W" > "$OUT/w"
`)
	b, err := os.ReadFile(filepath.Join(out, "replay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Verdict string `json:"verdict"`
		Calls   []struct {
			Syscall string `json:"syscall"`
			Path    string `json:"path"`
			Action  string `json:"action"`
			Why     string `json:"why"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, b)
	}
	helper := workDir(t, out) + "/tools/helper"
	found := false
	for _, c := range r.Calls {
		if c.Syscall == "execve" && c.Path == helper {
			found = true
			if c.Action != "execute" || !strings.Contains(c.Why, "image not stored") || !strings.Contains(c.Why, "--exclude-content") {
				t.Errorf("the execve of %s: %s (%s), want it to execute because the image is excluded, with the remedy", helper, c.Action, c.Why)
			}
		}
	}
	if !found {
		t.Errorf("replay --json lists no execve of %s:\n%s", helper, b)
	}
	if r.Verdict != "fail" {
		t.Errorf("verdict %q, want fail: the helper cannot be served", r.Verdict)
	}
	b, err = os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Status    string `json:"status"`
		NotServed []struct {
			Path string `json:"path"`
			Why  string `json:"why"`
		} `json:"not_served"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("locate --json: %v\n%s", err, b)
	}
	listed := false
	for _, n := range rep.NotServed {
		listed = listed || n.Path == helper && strings.Contains(n.Why, "--exclude-content")
	}
	if rep.Status == "located" || !listed {
		t.Errorf("locate: status %s, not served %+v; want no culprit, and the helper listed as not served with the remedy",
			rep.Status, rep.NotServed)
	}
}
