package causes_test

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/testutil"
)

// rootsReport is what TestReadOnlyMountOneRoot reads of the report: the
// causes and the roots they share.
type rootsReport struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Causes  []struct {
		Seq  uint64 `json:"seq"`
		Path string `json:"path"`
	} `json:"causes"`
	Roots []struct {
		Kind string `json:"kind"`
		Says string `json:"says"`
		Item struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"item"`
		Causes []int `json:"causes"`
		First  struct {
			Seq     uint64 `json:"seq"`
			Who     string `json:"who"`
			Program string `json:"program"`
			Call    string `json:"call"`
		} `json:"first"`
		Calls    int      `json:"calls"`
		Programs []string `json:"programs"`
		Run      string   `json:"run"`
	} `json:"roots"`
}

// TestReadOnlyMountOneRoot: a script writes its output directory with
// three programs (tee, dd, truncate). Here the directory is a read-only
// bind mount: each writer's create fails with EROFS, and the search
// names each create as a cause, all needed. They are one root: the
// report names the read-only mount once, met first by tee, with the
// calls that met it counted and the three programs listed, not one
// cause per program.
func TestReadOnlyMountOneRoot(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("tee"), testutil.Binary("dd"), testutil.Binary("truncate"),
		testutil.Binary("mount"))
	out := testutil.InWorkNS(t, locateScript+`
mkdir out
printf 'cd "$1" || exit 2\nrc=0\necho log | tee log.txt >/dev/null || rc=1\ndd if=/etc/hostname of=copy status=none || rc=1\ntruncate -s 4096 sized || rc=1\nexit $rc\n' > run.sh
"$EB" record -q -o "$W/t.envb" -- dash "$W/run.sh" "$W/out"
rm -rf out && mkdir out
mount --bind out out && mount -o remount,bind,ro out
if dash "$W/run.sh" "$W/out" 2>/dev/null; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/run.sh" "$W/out"
"$EB" locate -q "$W/t.envb" -- dash "$W/run.sh" "$W/out" > "$OUT/report.txt" 2>/dev/null || true
`)
	var r rootsReport
	raw := reportschema.ReadReport(t, filepath.Join(out, "report.json"), &r)
	if r.Status != "located" || len(r.Causes) < 2 {
		t.Fatalf("status %s (%s), %d causes; want located with a cause per writer\n%s", r.Status, r.Message, len(r.Causes), indent(raw))
	}
	if len(r.Roots) != 1 {
		t.Fatalf("%d roots, want one (the read-only mount)\n%s", len(r.Roots), indent(raw))
	}
	rt := r.Roots[0]
	if rt.Kind != "mount" || rt.Item.Kind != "mount" || !strings.HasSuffix(rt.Item.Name, "/out") || !strings.Contains(rt.Says, "read-only") {
		t.Errorf("root %s %q (item %s %s), want the mount .../out, read-only here", rt.Kind, rt.Says, rt.Item.Kind, rt.Item.Name)
	}
	if len(rt.Causes) != len(r.Causes) {
		t.Errorf("the root explains causes %v of %d, want all", rt.Causes, len(r.Causes))
	}
	var progs []string
	for _, p := range rt.Programs {
		progs = append(progs, path.Base(p))
	}
	for _, want := range []string{"tee", "dd", "truncate"} {
		if !slices.Contains(progs, want) {
			t.Errorf("root met by programs %q, want %s among them", progs, want)
		}
	}
	if rt.Calls < 3 || rt.Run != "with nothing replayed" {
		t.Errorf("root met by %d calls in the run %q, want at least 3, counted in the run with nothing replayed", rt.Calls, rt.Run)
	}
	if path.Base(rt.First.Program) != "tee" || !strings.Contains(rt.First.Call, "EROFS") || rt.First.Seq != r.Causes[0].Seq {
		t.Errorf("root met first by %s %s at call %d %q, want tee's EROFS, the first cause (call %d)", rt.First.Who, rt.First.Program,
			rt.First.Seq, rt.First.Call, r.Causes[0].Seq)
	}
	if !strings.HasPrefix(r.Message, "one root: the mount at ") {
		t.Errorf("message %q, want it to name the one root first", r.Message)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.Contains(text, "root      the mount at ") || !strings.Contains(text, "met first by ") ||
		!strings.Contains(text, "programs: tee, dd, truncate") {
		t.Errorf("text report does not name the root, who met it first and the programs:\n%s", text)
	}
}
