package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeDropInExtra: apt reads its configuration from the
// drop-in directory /etc/apt/apt.conf.d, every file in it. A check that
// apt goes to the network directly (apt-config dump names no HTTP proxy)
// passes in the good run and fails here, where the directory has one more
// file, 99proxy, that sets a stale proxy. (Both directories are copies of
// the host's bound over it in the test's mount namespace.) The cause is
// the extra entry, named by its path (not by the bytes apt read from it),
// and the fix removes it.
func TestMaterializeDropInExtra(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("apt-config"), testutil.File("/etc/apt/apt.conf.d"))
	out := testutil.InWorkNS(t, prelude+`
cp -a /etc/apt/apt.conf.d good/apt.conf.d
cp -a /etc/apt/apt.conf.d bad/apt.conf.d
echo 'Acquire::http::Proxy "http://10.0.0.1:3128/";' > bad/apt.conf.d/99proxy
check='grep TracerPid /proc/$$/status >&2; ! apt-config dump | grep "^Acquire::http::Proxy "'
mount --bind good/apt.conf.d /etc/apt/apt.conf.d
record_good sh -c "$check"
umount /etc/apt/apt.conf.d
mount --bind bad/apt.conf.d /etc/apt/apt.conf.d
locate_bad sh -c "$check"
`)
	_, c := located(t, out)
	const extra = "/etc/apt/apt.conf.d/99proxy"
	if c.Kind != "object" || c.Path != extra {
		t.Errorf("cause %s %s; want the entry %s", c.Kind, c.Path, extra)
	}
	if want := "file " + extra + " exists only here"; c.Says != want {
		t.Errorf("says %q; want %q", c.Says, want)
	}
	if !strings.HasPrefix(c.FirstCall, "getdents") {
		t.Errorf("first call %q; want apt's listing of the directory", c.FirstCall)
	}
	wantFix(t, c, "rm "+extra)
}

// TestMaterializeMissingDirectory: a file in a directory missing here
// (not the one the service test debugged the fix with: GNU grep reading
// conf.d/app.conf of its working directory). The run that validates the
// cause makes the missing directory when it puts the file in place, so
// the fix makes it too, before restoring the file.
func TestMaterializeMissingDirectory(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("grep"))
	out := testutil.InWorkNS(t, prelude+`
mkdir -p app/conf.d
echo 'listen=8080' > app/conf.d/app.conf
check='grep TracerPid /proc/$$/status >&2; grep -q ^listen= conf.d/app.conf'
record_good sh -c "$check"
rm -r app/conf.d
locate_bad sh -c "$check"
`)
	_, c := located(t, out)
	dir := testutil.ReadText(t, out, "w") + "/app/conf.d"
	if c.Path != dir && c.Path != dir+"/app.conf" {
		t.Errorf("cause %s %s (%s); want the directory %s, missing here, or the file in it", c.Kind, c.Path, c.Says, dir)
	}
	wantFix(t, c, "mkdir -p "+dir, "restore "+dir+"/app.conf from the good environment (it is missing here)")
}
