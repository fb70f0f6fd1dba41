package explain_test

import (
	"os"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// limitReport is the part of locate's JSON report the limit tests read:
// the status, the start-item culprit, the items listed as not applied
// and the cause named among them.
type limitReport struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Start *struct {
			Name string  `json:"name"`
			Good *string `json:"good"`
			Here *string `json:"here"`
		} `json:"start"`
	} `json:"culprit"`
	Unapplied []struct {
		Kind   string  `json:"kind"`
		Name   string  `json:"name"`
		Good   *string `json:"good"`
		Here   *string `json:"here"`
		Why    string  `json:"why"`
		Remedy string  `json:"remedy"`
	} `json:"unapplied"`
	Cause *struct {
		Item struct {
			Name string `json:"name"`
		} `json:"item"`
		Seq  uint64 `json:"seq"`
		Call string `json:"call"`
		Text string `json:"text"`
		Run  string `json:"run"`
	} `json:"cause"`
}

// pastePrelude makes in/1 .. in/50 in good and bad: paste opens every
// input before it reads any, so it needs more than 50 open files.
const pastePrelude = testutil.AppPrelude + `
for d in good bad; do
	mkdir $d/in
	for i in $(seq 1 50); do echo "$i" > $d/in/$i; done
done
files=$(seq -f "in/%g" 1 50)
`

// only012 runs a command with descriptors 0, 1 and 2 only, as envbisect
// (like docker exec) starts it, whatever the test runner left open.
const only012 = `bash -c 'for p in /proc/$$/fd/*; do n=${p##*/}; [ "$n" -gt 2 ] && eval "exec $n<&-"; done; exec "$@"' only012`

// noSysResource runs a command without CAP_SYS_RESOURCE, as root in a
// container started without it is: the bounding set loses it, and so
// does what root's exec gains.
const noSysResource = `setpriv --bounding-set -sys_resource --`

// TestHardLimitNotRaisable: paste opens 50 files; recorded with an
// open-files limit of 1024, located with soft and hard 40 by a root
// without CAP_SYS_RESOURCE, which cannot raise a hard limit. locate must
// not end in the helper's EPERM (it did: "set RLIMIT_NOFILE to 1024
// 1024: operation not permitted", exit 1, no report): it lists the limit
// as differing and not applied, says why, and names it as what explains
// the first EMFILE.
func TestHardLimitNotRaisable(t *testing.T) {
	testutil.Require(t, testutil.Binary("paste"), testutil.Binary("prlimit"), testutil.Binary("setpriv"), testutil.Binary("seq"), testutil.Binary("bash"))
	out := testutil.InWorkNS(t, pastePrelude+`
mount --bind good app
(cd app && prlimit --nofile=1024:1024 -- "$EB" record -q -o ../t.envb -- paste $files > /dev/null)
umount app; mount --bind bad app
(cd app && prlimit --nofile=40:40 -- `+only012+` paste $files > /dev/null 2> "$OUT/native.err") && { echo "paste passes with 40 open files"; exit 1; }
code=0
(cd app && prlimit --nofile=40:40 -- `+noSysResource+` "$EB" locate -q --report "$OUT/report.json" ../t.envb -- paste $files > "$OUT/report.txt") || code=$?
echo $code > "$OUT/code"
`)
	code := testutil.ReadText(t, out, "code")
	if _, err := os.Stat(out + "/report.json"); err != nil {
		t.Fatalf("locate exited %s without a report: %v", code, err)
	}
	var r limitReport
	testutil.ReadJSON(t, out+"/report.json", &r)
	t.Logf("status %s: %s", r.Status, r.Message)
	if code == "1" {
		t.Errorf("locate exited 1 (an error), want a report's exit status")
	}
	found := false
	for _, it := range r.Unapplied {
		if it.Kind != "rlimit" || it.Name != "RLIMIT_NOFILE" {
			continue
		}
		found = true
		if value(it.Good) != `"1024 1024"` || value(it.Here) != `"40 40"` {
			t.Errorf("unapplied RLIMIT_NOFILE good %s here %s; want \"1024 1024\" and \"40 40\"", value(it.Good), value(it.Here))
		}
		if !strings.Contains(it.Why, "CAP_SYS_RESOURCE") || !strings.Contains(it.Why, "no run tries it") {
			t.Errorf("why %q: want CAP_SYS_RESOURCE named and that no run tries it", it.Why)
		}
		if !strings.Contains(it.Remedy, "--nofile=1024:1024") {
			t.Errorf("remedy %q lacks --nofile=1024:1024", it.Remedy)
		}
	}
	if !found {
		t.Errorf("RLIMIT_NOFILE not listed as unapplied: %+v", r.Unapplied)
	}
	if c := r.Culprit; c != nil && c.Start != nil {
		t.Errorf("culprit: start item %s, which no run could apply", c.Start.Name)
	}
	c := r.Cause
	if c == nil {
		t.Fatalf("no cause named; status %s: %s", r.Status, r.Message)
	}
	t.Logf("cause: %s (%s)", c.Text, c.Run)
	// The first file paste cannot open depends on how many descriptors
	// it inherits: envbisect gives it 0, 1 and 2 only, whatever the test
	// runner left open, so the cause names the one paste names when run
	// here without envbisect with 0, 1 and 2 only.
	first := firstTooMany(t, testutil.ReadText(t, out, "native.err"))
	if c.Item.Name != "RLIMIT_NOFILE" || !strings.Contains(c.Call, `"`+first+`"`) || !strings.Contains(c.Call, "EMFILE") {
		t.Errorf("cause %s, evidence %q; want RLIMIT_NOFILE with openat of %s failing with EMFILE, as paste run here without envbisect (with 0, 1 and 2 only) says", c.Item.Name, c.Call, first)
	}
	if !strings.Contains(c.Text, "open-files limit (RLIMIT_NOFILE) is 40 40 here, 1024 1024 in the good run") {
		t.Errorf("cause text %q", c.Text)
	}
	txt := strings.Join(strings.Fields(testutil.ReadText(t, out, "report.txt")), " ")
	for _, want := range []string{"Cause: rlimit RLIMIT_NOFILE", "could not be applied by a run", "CAP_SYS_RESOURCE"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text report lacks %q:\n%s", want, txt)
		}
	}
}

// firstTooMany returns the file named by paste's first "Too many open
// files" message in stderr.
func firstTooMany(t *testing.T, stderr string) string {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		name, ok := strings.CutSuffix(strings.TrimPrefix(line, "paste: "), ": Too many open files")
		if ok {
			return name
		}
	}
	t.Fatalf("paste's stderr names no file it could not open:\n%s", stderr)
	return ""
}

// TestHardLimitRaisedInPart: recorded with 2048 open files, located with
// soft 40 under a hard 1024 by a root without CAP_SYS_RESOURCE. Runs
// raise the soft limit to the hard one, 1024, which is enough for paste:
// the start item is located, exit 0, and it is also listed as not
// applied in full, saying what the runs set.
func TestHardLimitRaisedInPart(t *testing.T) {
	testutil.Require(t, testutil.Binary("paste"), testutil.Binary("prlimit"), testutil.Binary("setpriv"), testutil.Binary("seq"))
	out := testutil.InWorkNS(t, pastePrelude+`
mount --bind good app
(cd app && prlimit --nofile=2048:2048 -- "$EB" record -q -o ../t.envb -- paste $files > /dev/null)
umount app; mount --bind bad app
code=0
(cd app && prlimit --nofile=40:1024 -- `+noSysResource+` "$EB" locate -q --report "$OUT/report.json" ../t.envb -- paste $files > "$OUT/report.txt") || code=$?
echo $code > "$OUT/code"
`)
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
	var r limitReport
	testutil.ReadJSON(t, out+"/report.json", &r)
	if r.Status != "located" || r.Culprit == nil || r.Culprit.Start == nil || r.Culprit.Start.Name != "RLIMIT_NOFILE" {
		t.Fatalf("status %s (%s), culprit %+v; want the start item RLIMIT_NOFILE located", r.Status, r.Message, r.Culprit)
	}
	if s := r.Culprit.Start; value(s.Good) != `"2048 2048"` || value(s.Here) != `"40 1024"` {
		t.Errorf("culprit good %s here %s; want \"2048 2048\" and \"40 1024\"", value(s.Good), value(s.Here))
	}
	found := false
	for _, it := range r.Unapplied {
		if it.Kind == "rlimit" && it.Name == "RLIMIT_NOFILE" {
			found = true
			if !strings.Contains(it.Why, `start the command with "1024 1024"`) {
				t.Errorf("why %q: want what the runs set, \"1024 1024\"", it.Why)
			}
		}
	}
	if !found {
		t.Errorf("RLIMIT_NOFILE not listed as applied in part: %+v", r.Unapplied)
	}
}
