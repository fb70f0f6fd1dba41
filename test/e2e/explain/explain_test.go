package explain_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestExplainMissingComponent: a script checks for its configuration
// directory and then reads a file in it; in bad the directory does not
// exist. The explanation names the directory as the component missing
// here, which existed in the good run.
func TestExplainMissingComponent(t *testing.T) {
	testutil.Require(t, testutil.Binary("cat"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
for d in good bad; do
	printf '#!/bin/sh\ntest -d conf.d || echo "no conf.d" >&2\nexec cat conf.d/app.conf\n' > $d/run.sh; chmod 755 $d/run.sh
done
mkdir good/conf.d; echo 'mode=fast' > good/conf.d/app.conf
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- ./run.sh)
umount app; mount --bind bad app
locate_bad ./run.sh
`)
	w := testutil.ReadText(t, out, "w")
	r := readReport(t, out)
	c := r.Culprit
	t.Logf("explanation: %s", c.Explanation)
	dir := w + "/app/conf.d"
	if c.Here.Errno != "ENOENT" || !strings.HasPrefix(c.Path, dir) {
		t.Errorf("culprit %s %s %s; want a call on %s failing with ENOENT", c.Syscall, c.Path, c.Here.Errno, dir)
	}
	if c.Facts == nil || c.Facts.Missing == nil {
		t.Fatalf("no missing component in the facts; explanation %q", c.Explanation)
	}
	if m := c.Facts.Missing; m.Path != dir || !m.Known || !m.ExistedInGood {
		t.Errorf("missing %+v; want %s, known, existed in the good run", *m, dir)
	}
	if !strings.HasPrefix(c.Explanation, dir+" does not exist here") || !strings.HasSuffix(c.Explanation, "in the good run it existed.") {
		t.Errorf("explanation %q", c.Explanation)
	}
	if txt := strings.Join(strings.Fields(testutil.ReadText(t, out, "report.txt")), " "); !strings.Contains(txt, c.Explanation) {
		t.Errorf("the text report lacks the explanation:\n%s", txt)
	}
}

// TestExplainMissingParentUnseen: touch creates a stamp file in its
// cache directory and makes no call on the directory itself; in bad the
// directory does not exist. No call of the failing run tells which
// component is missing, so locate stats the parents in the runs'
// environment after the runs, and the directories record stat'ed say
// the cache existed in the good run.
func TestExplainMissingParentUnseen(t *testing.T) {
	testutil.Require(t, testutil.Binary("touch"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
mkdir -p good/spool/cache bad/spool
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- touch spool/cache/stamp)
umount app; mount --bind bad app
locate_bad touch spool/cache/stamp
`)
	w := testutil.ReadText(t, out, "w")
	r := readReport(t, out)
	c := r.Culprit
	if c == nil {
		t.Fatalf("no culprit: %s %s", r.Status, r.Message)
	}
	t.Logf("explanation: %s", c.Explanation)
	dir, stamp := w+"/app/spool/cache", w+"/app/spool/cache/stamp"
	if c.Here.Errno != "ENOENT" || c.Path != stamp || c.Syscall != "openat" {
		t.Errorf("culprit %s %s %s; want openat of %s failing with ENOENT", c.Syscall, c.Path, c.Here.Errno, stamp)
	}
	if c.Facts == nil || c.Facts.Missing == nil {
		t.Fatalf("no missing component in the facts; explanation %q", c.Explanation)
	}
	if m := c.Facts.Missing; m.Path != dir || !m.Known || !m.AfterRuns || !m.ExistedInGood {
		t.Errorf("missing %+v; want %s, known after the runs, existed in the good run", *m, dir)
	}
	want := dir + " does not exist here (locate found it missing after the runs), so " + stamp +
		" cannot be reached; in the good run it existed."
	if c.Explanation != want {
		t.Errorf("explanation %q\nwant        %q", c.Explanation, want)
	}
}

// TestExplainDeniedMode: a script run as nobody (setpriv) checks its
// output directory and creates a file in it; in bad the directory is
// 0755 root's instead of 0777. The culprit is the creation, EACCES, and
// the explanation gives the directory's mode on both sides and the id
// change the process made before the call.
func TestExplainDeniedMode(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
for d in good bad; do
	printf '#!/bin/sh\ntest -d out && echo ok > out/result\n' > $d/run.sh; chmod 755 $d/run.sh
	mkdir $d/out
done
chmod 777 good/out; chmod 755 bad/out
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- setpriv --reuid=65534 --regid=65534 --clear-groups ./run.sh)
umount app; mount --bind bad app
locate_bad setpriv --reuid=65534 --regid=65534 --clear-groups ./run.sh
`)
	w := testutil.ReadText(t, out, "w")
	r := readReport(t, out)
	c := r.Culprit
	t.Logf("explanation: %s", c.Explanation)
	dir := w + "/app/out"
	if c.Here.Errno != "EACCES" || c.Path != dir+"/result" {
		t.Errorf("culprit %s %s %s; want the creation of %s/result, EACCES", c.Syscall, c.Path, c.Here.Errno, dir)
	}
	if c.Facts == nil {
		t.Fatalf("no facts; explanation %q", c.Explanation)
	}
	found := false
	for _, p := range c.Facts.Paths {
		if p.Path == dir && p.Good != nil && p.Here != nil {
			found = true
			if p.Good.Mode&0o7777 != 0o777 || p.Here.Mode&0o7777 != 0o755 {
				t.Errorf("%s: good mode %o, here %o; want 0777, 0755", dir, p.Good.Mode, p.Here.Mode)
			}
		}
	}
	if !found {
		t.Errorf("no stat of %s on both sides in the facts: %+v", dir, c.Facts.Paths)
	}
	if c.Facts.RanAs == nil || !strings.Contains(strings.Join(c.Facts.RanAs.Changed, "\n"), "setresuid(65534, 65534, 65534) = 0") {
		t.Errorf("ran as %+v; want the id change to 65534", c.Facts.RanAs)
	}
	if want := dir + " is drwxr-xr-x 0:0 here, drwxrwxrwx 0:0 in the good run"; !strings.Contains(c.Explanation, want) {
		t.Errorf("explanation %q lacks %q", c.Explanation, want)
	}
}

// TestExplainOpenFilesLimit: bash dups a file to fd 20; here the soft
// open-files limit is 12 (the hard one 4096, so that envbisect's Go
// runtime raises its own soft limit to 4095). The start item
// RLIMIT_NOFILE is located, and its "here" value is the command's, 12,
// not envbisect's own.
func TestExplainOpenFilesLimit(t *testing.T) {
	testutil.Require(t, testutil.Binary("bash"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
mount --bind good app
(ulimit -S -n 1024; ulimit -H -n 4096; cd app && "$EB" record -q -o ../t.envb -- bash -c 'exec 20</etc/passwd && echo opened')
(ulimit -S -n 12; ulimit -H -n 4096; locate_bad bash -c 'exec 20</etc/passwd && echo opened')
`)
	r := readReport(t, out)
	it := r.Culprit.Start
	t.Logf("explanation: %s", r.Culprit.Explanation)
	if it == nil || it.Kind != "rlimit" || it.Name != "RLIMIT_NOFILE" {
		t.Fatalf("culprit %+v; want the start item RLIMIT_NOFILE", r.Culprit)
	}
	if it.Here == nil || *it.Here != "12 4096" || it.Good == nil || *it.Good != "1024 4096" {
		t.Errorf("good %s, here %s; want \"1024 4096\" and the command's \"12 4096\"", value(it.Good), value(it.Here))
	}
	if want := `started here with rlimit RLIMIT_NOFILE "12 4096"`; !strings.Contains(r.Culprit.Explanation, want) {
		t.Errorf("explanation %q lacks %q", r.Culprit.Explanation, want)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}

// value is *v quoted, or "(not set)".
func value(v *string) string {
	if v == nil {
		return "(not set)"
	}
	return strconv.Quote(*v)
}
