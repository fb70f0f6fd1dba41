package explain_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestExplainMkstempParentMode (issue 14's test): a job run as nobody
// makes its temporary file with mktemp in a spool directory, which
// nobody may write in the good environment (0777) and not here (root's
// 0755). No call of the job stats the directory: its mode in the good
// run is the one record stored with the calls (Call.Dirs), here the one
// locate finds after the runs. The culprit is the open of the temporary
// file, EACCES, and the explanation gives the directory's mode on both
// sides.
func TestExplainMkstempParentMode(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"), testutil.Binary("mktemp"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
chmod 755 "$W"
for d in good bad; do
	mkdir $d/spool
	printf '#!/bin/sh\nset -e\nf=$(mktemp -p spool job.XXXXXXXX)\necho job > "$f"\ncat "$f"\n' > $d/job.sh
	chmod 755 $d $d/job.sh
done
chmod 777 good/spool
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- setpriv --reuid=65534 --regid=65534 --clear-groups ./job.sh)
umount app; mount --bind bad app
locate_bad setpriv --reuid=65534 --regid=65534 --clear-groups ./job.sh
`)
	w := testutil.ReadText(t, out, "w")
	r := readReport(t, out)
	c := r.Culprit
	t.Logf("culprit %s %s %s; explanation: %s", c.Syscall, c.Path, c.Here.Errno, c.Explanation)
	dir := w + "/app/spool"
	if c.Here.Errno != "EACCES" || !strings.HasPrefix(c.Path, dir+"/job.") {
		t.Errorf("culprit %s %s %s; want the creation of %s/job.XXXXXXXX, EACCES", c.Syscall, c.Path, c.Here.Errno, dir)
	}
	if c.Facts == nil {
		t.Fatalf("no facts; explanation %q", c.Explanation)
	}
	found := false
	for _, p := range c.Facts.Paths {
		if p.Path != dir {
			continue
		}
		found = true
		if p.Good == nil || p.Here == nil {
			t.Fatalf("%s: good %+v, here %+v; want both", dir, p.Good, p.Here)
		}
		if p.Good.Mode&0o7777 != 0o777 || p.Here.Mode&0o7777 != 0o755 {
			t.Errorf("%s: good mode %o, here %o; want 0777, 0755", dir, p.Good.Mode, p.Here.Mode)
		}
		if p.Good.From != "record" || p.Here.From != "locate after the runs" {
			t.Errorf("%s: from %q and %q; want record's stat and locate's", dir, p.Good.From, p.Here.From)
		}
	}
	if !found {
		t.Errorf("no %s in the facts: %+v", dir, c.Facts.Paths)
	}
	if want := dir + " is drwxr-xr-x 0:0 here, drwxrwxrwx 0:0 in the good run"; !strings.Contains(c.Explanation, want) {
		t.Errorf("explanation %q lacks %q", c.Explanation, want)
	}
	if !strings.Contains(c.Explanation, "65534") {
		t.Errorf("explanation %q does not name the ids the call ran as (65534)", c.Explanation)
	}
}
