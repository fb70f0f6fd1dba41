package materialize

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeStaticGo: a static Go binary (CGO_ENABLED=0:
// testdata/victims/golookup, Go's own resolver, no libc) resolves its
// database's name in 8 goroutines, which the runtime moves between its
// threads. /etc/hosts gives the name 10.1.2.3 in the good run and
// 10.9.9.9 here (copies of the host's bound over it in the test's mount
// namespace; a network namespace of its own keeps its DNS queries off the
// network). The cause is /etc/hosts, its content, with the diff of the
// two lines as the fix.
func TestMaterializeStaticGo(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("busybox"), testutil.File("/etc/hosts"))
	t.Setenv("CGO_ENABLED", "0")
	bin := testutil.BuildGo(t, "golookup")
	static(t, bin)
	out := testutil.InWorkNS(t, prelude+`
cp "`+bin+`" app/golookup
cat > net.sh <<'NET'
for d in good bad; do cp /etc/hosts $d/hosts; done
echo '10.1.2.3 db.envbisect.test' >> good/hosts
echo '10.9.9.9 db.envbisect.test' >> bad/hosts
mount --bind good/hosts /etc/hosts
record_good ./golookup db.envbisect.test 10.1.2.3
umount /etc/hosts
mount --bind bad/hosts /etc/hosts
locate_bad ./golookup db.envbisect.test 10.1.2.3
NET
in_netns ./net.sh
`)
	_, c := located(t, out)
	if c.Kind != "object" || c.Path != "/etc/hosts" || !strings.Contains(c.Says, "the content of /etc/hosts differs") {
		t.Errorf("cause %s %s (%s); want the object /etc/hosts, its content", c.Kind, c.Path, c.Says)
	}
	if !strings.Contains(c.FirstCall, `"/etc/hosts"`) {
		t.Errorf("first call %q; want a call of the program on /etc/hosts", c.FirstCall)
	}
	wantFix(t, c, "restore /etc/hosts from the good environment")
	wantDiff(t, c, "/etc/hosts", "-10.1.2.3 db.envbisect.test", "+10.9.9.9 db.envbisect.test")
}

// static fails the test unless bin is a static executable: no program
// interpreter (PT_INTERP), so no dynamic loader and no libc.
func static(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("%s has a program interpreter: not a static binary", bin)
		}
	}
}
