package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeTempDirMode: a job run as nobody (setpriv) makes three
// temporary files with mktemp in its spool directory, random names each
// run, and leaves them there. The spool is drwxrwxrwt (1777) in the good
// run and root's drwxr-xr-x here, where nobody cannot create in it. The
// cause is the directory and its mode, named once (not each random
// name: those are the job's own creations, not environment), and the
// fix is chmod 1777.
func TestMaterializeTempDirMode(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("setpriv"), testutil.Binary("mktemp"))
	out := testutil.InWorkNS(t, prelude+`
chmod 755 "$W"
for d in good bad; do
	mkdir $d/spool
	cat > $d/job.sh <<'JOB'
#!/bin/sh
set -e
grep TracerPid /proc/$$/status >&2
for part in a b c; do
	f=$(mktemp -p spool "job-$part.XXXXXXXX")
	echo "$part" > "$f"
done
cat spool/job-* | wc -l
JOB
	chmod 755 $d $d/job.sh
done
chmod 1777 good/spool
mount --bind good app
record_good setpriv --reuid=65534 --regid=65534 --clear-groups ./job.sh
ls good/spool > "$OUT/left"
umount app
mount --bind bad app
locate_bad setpriv --reuid=65534 --regid=65534 --clear-groups ./job.sh
`)
	w := testutil.ReadText(t, out, "w")
	if left := strings.Fields(testutil.ReadText(t, out, "left")); len(left) != 3 {
		t.Fatalf("the recorded job left %q in its spool; want its 3 temporary files", left)
	}
	_, c := located(t, out)
	spool := w + "/app/spool"
	if c.Kind != "object" || c.Path != spool {
		t.Errorf("cause %s %s; want the directory %s", c.Kind, c.Path, spool)
	}
	if want := spool + " is drwxr-xr-x here, drwxrwxrwt in the good run"; c.Says != want {
		t.Errorf("says %q; want %q", c.Says, want)
	}
	if !strings.Contains(c.FirstCall, `"spool/job-a.`) {
		t.Errorf("first call %q; want the creation of the first temporary file", c.FirstCall)
	}
	wantFix(t, c, "chmod 1777 "+spool)
}
