package explain_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestExplainLinkTarget: a shell runs bin/tool, a symbolic link to
// /bin/true where it works and to /bin/false here. The culprit is the
// exec of bin/tool, and the explanation says where the link leads on
// each side. (The command's own first exec is not replayed: the shell
// is what it runs.)
func TestExplainLinkTarget(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/true"), testutil.File("/bin/false"))
	trueBin, err := filepath.EvalSymlinks("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	falseBin, err := filepath.EvalSymlinks("/bin/false")
	if err != nil {
		t.Fatal(err)
	}
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
mkdir good/bin bad/bin
ln -s `+trueBin+` good/bin/tool
ln -s `+falseBin+` bad/bin/tool
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- /bin/sh -c './bin/tool && echo ok')
umount app; mount --bind bad app
locate_bad /bin/sh -c './bin/tool && echo ok'
`)
	w := testutil.ReadText(t, out, "w")
	r := readReport(t, out)
	c := r.Culprit
	if c == nil {
		t.Fatalf("no culprit: %s %s", r.Status, r.Message)
	}
	t.Logf("culprit %s %s; explanation: %s", c.Syscall, c.Path, c.Explanation)
	tool := w + "/app/bin/tool"
	if c.Path != tool {
		t.Errorf("culprit %s %s; want a call on %s", c.Syscall, c.Path, tool)
	}
	want := tool + " leads to " + falseBin + " here and to " + trueBin + " in the good run (a symbolic link)."
	if !strings.HasPrefix(c.Explanation, want) {
		t.Errorf("explanation %q\nwant it to start %q", c.Explanation, want)
	}
}
