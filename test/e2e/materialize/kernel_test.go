package materialize

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeKernelRelease: kmod's modprobe looks a module up under
// /lib/modules/$(uname -r), the kernel release uname(2) answers (here
// under a base directory of the test's, -d). The good run was recorded
// under setarch --uname-2.6 (personality UNAME26, inherited by envbisect
// and by the command), where the release is 2.6.N and the module index
// for 2.6.N exists; locate runs without it, where modprobe looks under
// this kernel's release and fails. No file differs: the cause is the
// kernel release, which no namespace gives, put in place by runs that
// stop the command at uname and only there (a seccomp filter lets every
// other call run: the shell's loop of opens, reads and closes before
// modprobe, some 15,000 calls, never stopped it), located by the object search, with the
// fix that names setarch --uname-2.6. The runs without the release in
// place were not traced at all.
func TestMaterializeKernelRelease(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("setarch"), testutil.Binary("modprobe"), testutil.Binary("depmod"))
	b, err := exec.Command("setarch", "x86_64", "--uname-2.6", "uname", "-r").Output()
	if err != nil || !strings.HasPrefix(string(b), "2.6.") {
		t.Skipf("setarch --uname-2.6 does not give a 2.6 release here (%q, %v)", b, err)
	}
	good := strings.TrimSpace(string(b))
	out := testutil.InWorkNS(t, prelude+`
R=$(setarch x86_64 --uname-2.6 uname -r)
m="$W/mods/lib/modules/$R"
mkdir -p "$m"
echo kernel/drivers/misc/envb_dummy.ko > "$m/modules.builtin"
: > "$m/modules.order"
: > "$m/modules.builtin.modinfo"
depmod -b "$W/mods" "$R"
export prog='grep TracerPid /proc/$$/status >&2
i=0; while [ $i -lt 3000 ]; do read -r x < "$W/mods/lib/modules/'"$R"'/modules.builtin"; i=$((i+1)); done
modprobe -d "$W/mods" -n envb_dummy'
(cd app && setarch x86_64 --uname-2.6 "$EB" record -o ../t.envb -- sh -c "$prog") 2> "$OUT/record.err"
cat "$OUT/record.err"
locate_bad sh -c "$prog"
`)
	r, c := locatedOnly(t, out)
	if c.Kind != "start" || c.Name != "kernel release" || !strings.Contains(c.Says, `in the good run`) || !strings.Contains(c.Says, `"`+good+`"`) {
		t.Errorf("cause %s %q (%s); want the kernel release, %q in the good run", c.Kind, c.Name, c.Says, good)
	}
	if !strings.Contains(c.Says, "UNAME26") || len(c.Fix) != 1 || !strings.Contains(c.Fix[0].Text, `setarch "$(uname -m)" --uname-2.6 COMMAND`) {
		t.Errorf("says %q, fix %v; want setarch --uname-2.6 named", c.Says, c.Fix)
	}
	if r.Objects.Fix == nil || !strings.Contains(r.Objects.Fix.Note, "stopped the command at uname(2)") {
		t.Errorf("fix note %+v; want what the validating run did", r.Objects.Fix)
	}
	tracedAtUnameOnly(t, out, r)
}

// tracedAtUnameOnly checks the runs of a search over the kernel release:
// a run that put it in place says it stopped at uname and nothing else,
// and its command saw a tracer (TracerPid not 0); every other run says
// no stop and its command saw none. The object runs' logs
// (run-NNN-object*.log) are in the order of the report's steps.
func tracedAtUnameOnly(t *testing.T, out string, r report) {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(out, "logs", "run-*-object*.log"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(logs)
	steps := r.Objects.Steps
	if len(logs) != len(steps) || len(steps) == 0 {
		t.Fatalf("%d object run logs for %d steps", len(logs), len(steps))
	}
	withRelease := 0
	for i, s := range steps {
		inPlace := s.InPlace == "everything" || strings.Contains(s.InPlace, "kernel release") && !strings.HasPrefix(s.InPlace, "all but")
		b, err := os.ReadFile(logs[i])
		if err != nil {
			t.Fatal(err)
		}
		m := tracerLine.FindStringSubmatch(string(b))
		if m == nil {
			t.Errorf("%s: no TracerPid line:\n%s", filepath.Base(logs[i]), b)
			continue
		}
		switch {
		case inPlace:
			withRelease++
			if !slices.Equal(s.Stops, []string{"uname"}) || m[1] == "0" {
				t.Errorf("step %d (%s in place): stops %v, TracerPid %s; want traced at uname only", s.Step, s.InPlace, s.Stops, m[1])
			}
		case len(s.Stops) > 0 || m[1] != "0":
			t.Errorf("step %d (%s in place): stops %v, TracerPid %s; want an untraced run", s.Step, s.InPlace, s.Stops, m[1])
		}
	}
	if withRelease == 0 {
		t.Error("no run put the kernel release in place")
	}
}
