package serve_test

import (
	"crypto/sha256"
	"encoding/json"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// execReport is the part of locate's JSON report the exec tests check.
type execReport struct {
	Status        string `json:"status"`
	Message       string `json:"message"`
	Runs          int    `json:"runs"`
	RecordedCalls int    `json:"recorded_calls"`
	// ReplayableCalls are the candidates the call-level search ran
	// over, Space's those of the object search (Mechanism
	// "materialized", locate's default): N.
	ReplayableCalls int    `json:"replayable_calls"`
	Mechanism       string `json:"mechanism"`
	Space           *struct {
		Candidates int `json:"candidates"`
	} `json:"space"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Here    struct {
			Errno   string `json:"errno"`
			Missing bool   `json:"missing"`
		} `json:"here"`
		Image *struct {
			Path     string   `json:"path"`
			Resolved string   `json:"resolved"`
			SHA256   [32]byte `json:"sha256"`
		} `json:"image"`
	} `json:"culprit"`
}

// checkExecLocated checks the report in $OUT/report.json: located at the
// execve of path (a suffix of it when suffix), with badErrno ("" when the
// bad run's exec succeeded, "missing" when it never made it), naming the image the recording ran (image,
// as named or resolved: a #! script's interpreter, with the content of
// the file good), in at most ⌈log2 N⌉+3 runs (N: the candidates); and
// that replay --prefix all passed in the bad environment
// ($OUT/replay-code).
func checkExecLocated(t *testing.T, out, path string, suffix bool, badErrno, image, good string) {
	checkLocatedAt(t, out, "execve", path, suffix, badErrno, image, good)
}

// checkLocatedAt is checkExecLocated for a culprit that is syscall: the
// execve, or the stat (newfstatat) of a shell that finds the tool
// missing here, with the image of the tool the recording then ran.
func checkLocatedAt(t *testing.T, out, syscall, path string, suffix bool, badErrno, image, good string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r execReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	c := r.Culprit
	pathOK := c != nil && (c.Path == path || suffix && strings.HasSuffix(c.Path, path))
	// badErrno "missing": the failing run never made the exec (a shell
	// that looks the tool up with stat first and finds nothing).
	badOK := c != nil && (c.Here.Errno == badErrno || badErrno == "missing" && c.Here.Missing)
	if r.Status != "located" || c == nil || c.Syscall != syscall || !pathOK || !badOK {
		t.Errorf("located %s %+v (%s), want the %s of %s with errno %q here\n%s", r.Status, c, r.Message, syscall, path, badErrno, b)
	}
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil && (c.Image == nil || c.Image.Path != image && c.Image.Resolved != image || c.Image.SHA256 != sha256.Sum256(goodBytes)) {
		t.Errorf("the culprit's image %+v, want %s with the content of %s", c.Image, image, good)
	}
	if c != nil {
		t.Logf("located at the %s of %s (errno %q here) in %d runs over %d candidates (%d recorded calls)",
			c.Syscall, c.Path, c.Here.Errno, r.Runs, r.candidates(), r.RecordedCalls)
	}
	if limit := execMaxRuns(r.candidates()); r.Runs < 1 || r.Runs > limit {
		t.Errorf("locate took %d runs for %d candidates, want 1 to ⌈log2 N⌉+3 = %d", r.Runs, r.candidates(), limit)
	}
	code, _ := os.ReadFile(filepath.Join(out, "replay-code"))
	if strings.TrimSpace(string(code)) != "0" {
		replayOut, _ := os.ReadFile(filepath.Join(out, "replay"))
		t.Errorf("replay --prefix all in the bad environment exited %s, want 0 (pass):\n%s", strings.TrimSpace(string(code)), replayOut)
	}
}

// candidates are what the search that located the culprit ran over.
func (r execReport) candidates() int {
	if r.Mechanism == "materialized" && r.Space != nil {
		return r.Space.Candidates
	}
	return r.ReplayableCalls
}

// execMaxRuns is ⌈log2 n⌉ + 3.
func execMaxRuns(n int) int {
	if n <= 1 {
		return 3
	}
	return bits.Len(uint(n-1)) + 3
}

// locateAndReplay is the end of each exec test's script, run in bad/:
// locate's report to $OUT/report.json, then one replay --prefix all,
// its output to $OUT/replay and exit code to $OUT/replay-code.
const locateAndReplay = `
cd bad
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || true
code=0; "$EB" replay --json ../t.envb --prefix all -- ./run.sh > "$OUT/replay" 2>&1 || code=$?
echo $code > "$OUT/replay-code"
echo "$W" > "$OUT/w"
`

// workDir returns the work tree's path ($W) the script saved in $OUT/w.
func workDir(t *testing.T, out string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "w"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
