package firstdiff_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestConfigReadThenStatAgain: restat reads its configuration and later
// stats the file again to see whether it changed since. Here the file
// says mode=broken-here, another size: replaying the read alone leaves
// the later stat showing this environment's size (the program exits 4),
// so the verdict flips only with the stat replayed too. The culprit is
// the read of the configuration (or the open it reads through), with
// the content diff, never the stat; the flip is kept as evidence. (A
// test of the call-level search: --materialize=false.)
func TestConfigReadThenStatAgain(t *testing.T) {
	bin := testutil.BuildC(t, "restat.c", false)
	out := testutil.InWorkNS(t, testutil.AppPrelude+"LOCATE_FLAGS=--materialize=false RESTAT="+bin+`
printf 'mode=good\nlevel=3\n' > good/app.conf
printf 'mode=broken-here\nlevel=3\n' > bad/app.conf
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- "$RESTAT" app.conf)
umount app; mount --bind bad app
if (cd app && "$RESTAT" app.conf); then echo "restat passes here: nothing to locate"; exit 1; fi
locate_bad "$RESTAT" app.conf
# The flip over every call is at the later stat: replaying every call up
# to the read still fails (exit 4: the file changed between the two
# looks), up to the stat passes.
"$EB" show --seq t.envb > "$OUT/show"
read_seq=$(grep 'read(3, "mode=good' "$OUT/show" | head -1 | sed 's/^#\([0-9]*\) .*/\1/')
stat_seq=$(grep 'stat.*app.conf' "$OUT/show" | tail -1 | sed 's/^#\([0-9]*\) .*/\1/')
for k in $read_seq $stat_seq; do
	code=0; (cd app && "$EB" replay -q ../t.envb --prefix $k -- "$RESTAT" app.conf) > /dev/null 2>&1 || code=$?
	echo "$k $code" >> "$OUT/prefixes"
done
`)
	r := readReport(t, out)
	conf := testutil.ReadText(t, out, "w") + "/app/app.conf"
	c := r.Culprit
	if r.Status != "located" || c == nil {
		t.Fatalf("status %s (%s), want located\n%s", r.Status, r.Message, r.raw)
	}
	t.Logf("culprit %d %s %s (%s), flip %+v, space %+v", c.Seq, c.Syscall, c.Path, c.Differs, c.Flip, r.Space)
	switch {
	case strings.Contains(c.Syscall, "stat"):
		t.Errorf("culprit %d %s: the later stat, want the read of %s (or its open)", c.Seq, c.Syscall, conf)
	case c.Path != conf || c.Syscall != "openat" && c.Syscall != "read":
		t.Errorf("culprit %d %s %s, want the read or open of %s", c.Seq, c.Syscall, c.Path, conf)
	}
	diff := c.DataDiff
	if c.Content != nil {
		diff = c.Content.DataDiff
	}
	if c.Differs != "content" || diff == nil || !slices.Contains(diff.Diff, "-mode=good") || !slices.Contains(diff.Diff, "+mode=broken-here") {
		t.Errorf("differs %q, data diff %+v; want the content diff mode=good -> mode=broken-here", c.Differs, diff)
	}
	f := c.Flip
	if f == nil || !f.FirstDiffers || f.Resource != "file "+conf {
		t.Fatalf("flip %+v, want the flip of file %s kept, the culprit first differing", f, conf)
	}
	prefixes := strings.Split(testutil.ReadText(t, out, "prefixes"), "\n")
	var readSeq, statSeq uint64
	var readCode, statCode int
	if len(prefixes) != 2 {
		t.Fatalf("replays by prefix %q, want one up to the read and one up to the later stat\n%s", prefixes, testutil.ReadText(t, out, "show"))
	}
	fmt.Sscan(prefixes[0], &readSeq, &readCode)
	fmt.Sscan(prefixes[1], &statSeq, &statCode)
	t.Logf("replay up to the read #%d: exit %d; up to the later stat #%d: exit %d", readSeq, readCode, statSeq, statCode)
	if readCode != 3 || statCode != 0 || statSeq <= readSeq {
		t.Errorf("replay up to the read #%d exits %d, up to the stat #%d exits %d; want 3 and 0 (the flip over every call at the later stat)",
			readSeq, readCode, statSeq, statCode)
	}
	if f.Unit == "call" && f.Seq != statSeq {
		t.Errorf("flip at call %d, want the later stat %d", f.Seq, statSeq)
	}
	txt := testutil.ReadText(t, out, "report.txt")
	for _, want := range []string{"\ncause     file " + conf + " (content differs)\n", "\nflip      replaying ", "first differs at #"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the text report lacks %q:\n%s", want, txt)
		}
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}

// TestCreateThenUnlink: a script creates a lock file, does its work and
// removes the lock; here the lock's directory does not exist, so the
// creation fails (ENOENT) and so does the removal (rm exits 1). The
// culprit is the creation, the first call of the lock file that differs
// here, not rm's later calls on it. (The call-level search's test,
// --materialize=false: the object search names the directory run,
// missing here, as TestMaterializeMissingDirectory shows.)
func TestCreateThenUnlink(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("rm"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+"LOCATE_FLAGS=--materialize=false\n"+`
for d in good bad; do
	printf ': > run/lock\necho working\nrm run/lock\n' > $d/run.sh
done
mkdir good/run
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- dash run.sh)
umount app; mount --bind bad app
if (cd app && dash run.sh); then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash run.sh
`)
	r := readReport(t, out)
	lock := testutil.ReadText(t, out, "w") + "/app/run/lock"
	c := r.Culprit
	if r.Status != "located" || c == nil {
		t.Fatalf("status %s (%s), want located\n%s", r.Status, r.Message, r.raw)
	}
	t.Logf("culprit %d %s %s %s (%s), flip %+v, space %+v", c.Seq, c.Syscall, c.Path, c.Here.Errno, c.Differs, c.Flip, r.Space)
	if c.Syscall != "openat" || !strings.HasSuffix(c.Path, "run/lock") || c.Here.Errno != "ENOENT" {
		t.Errorf("culprit %d %s %s %s, want the creation (openat) of %s, ENOENT here", c.Seq, c.Syscall, c.Path, c.Here.Errno, lock)
	}
	if f := c.Flip; f == nil || !f.FirstDiffers {
		t.Errorf("flip %+v, want it kept with the creation first differing", f)
	}
	txt := testutil.ReadText(t, out, "report.txt")
	if !strings.Contains(txt, "\ncause     file "+lock+" (ENOENT here)\n") {
		t.Errorf("the text report lacks the cause line with ENOENT here:\n%s", txt)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}
