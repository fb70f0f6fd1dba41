package serve_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// notServedScript is mapFileScript's different data file, recorded with
// $RECORD_FLAGS that keep its content out of the trace.
const notServedScript = `
mkdir app
for i in $(seq 2000); do echo "good record $i"; done > good/data
sed 's/^good/evil/' good/data > bad/data
mount --bind good app
set -f # the flags' globs are envbisect's
"$EB" record $RECORD_FLAGS -o t.envb -- "$MAPDATA" "$W/app/data" > /dev/null
umount app
set +f
mount --bind bad app
"$EB" replay --json t.envb --prefix all -- "$MAPDATA" "$W/app/data" > $OUT/replay.json 2> /dev/null || true
"$EB" locate --json t.envb -- "$MAPDATA" "$W/app/data" > $OUT/report.json 2> $OUT/locate.err || true
`

// TestUnservedFileIsReported: a data file whose content the recording
// left out (excluded, or over --max-content) cannot be served: its open
// runs for real, replay's call list says why, and locate's report lists
// it with the record flag that would keep it, instead of replaying it as
// an empty file.
func TestUnservedFileIsReported(t *testing.T) {
	bin := testutil.BuildC(t, "mapdata.c", false)
	for _, tc := range []struct{ name, flags, remedy string }{
		{"excluded", `--exclude-content $W/app/*`, "--exclude-content"},
		{"over budget", "--max-content 0", "--max-content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, "RECORD_FLAGS=\""+tc.flags+"\"\nMAPDATA="+bin+"\n"+notServedScript)
			r := readReport(t, out, "report.json")
			found := false
			for _, n := range r.NotServed {
				if strings.HasSuffix(n.Path, "/app/data") {
					found = true
					if !strings.Contains(n.Why, tc.remedy) {
						t.Errorf("not served %s: %q, want the remedy %s", n.Path, n.Why, tc.remedy)
					}
				}
			}
			if !found {
				t.Errorf("locate's report (status %s) does not list the data file as not served: %+v", r.Status, r.NotServed)
			}
			if r.Status == "located" {
				t.Errorf("located %s %s: with the good file unavailable, the all-replayed end cannot pass", r.Culprit.Syscall, r.Culprit.Path)
			}
			var rep struct {
				Verdict string `json:"verdict"`
				Calls   []struct {
					Syscall, Path, Action, Why string
				} `json:"calls"`
			}
			b, err := os.ReadFile(filepath.Join(out, "replay.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatalf("replay --json: %v\n%s", err, b)
			}
			why := ""
			for _, c := range rep.Calls {
				if c.Syscall == "openat" && strings.HasSuffix(c.Path, "/app/data") {
					why = c.Why
				}
			}
			if !strings.Contains(why, "content not kept") || !strings.Contains(why, tc.remedy) {
				t.Errorf("replay's why for the data file's open is %q, want 'content not kept' and %s", why, tc.remedy)
			}
			if rep.Verdict != "fail" {
				t.Errorf("replay --prefix all: %s, want fail: this environment's file is what the program read", rep.Verdict)
			}
		})
	}
}
