package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeProgramEarlierOnPath: GNU find, found along PATH in the
// good run, is hidden here by BusyBox's find (a link to busybox in a
// directory earlier on PATH), which knows no -printf. Nothing else
// differs. The cause is that link, which exists only here; the report
// names both programs (the good run ran /usr/bin/find), the fix removes
// the link, validated by a run without it, untraced.
func TestMaterializeProgramEarlierOnPath(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("find"), testutil.Binary("busybox"))
	out := testutil.InWorkNS(t, prelude+`
mkdir "$W/bin"
export PATH="$W/bin:$PATH"
check='grep TracerPid /proc/$$/status >&2; find . -maxdepth 0 -printf "%p\n"'
record_good sh -c "$check"
ln -s "$(command -v busybox)" "$W/bin/find"
if (cd app && sh -c "$check" 2>/dev/null); then echo "the check passes here: nothing to locate"; exit 1; fi
locate_bad sh -c "$check"
`)
	_, c := located(t, out)
	shim := testutil.ReadText(t, out, "w") + "/bin/find"
	if c.Kind != "object" || c.Path != shim {
		t.Errorf("cause %s %s; want the link %s", c.Kind, c.Path, shim)
	}
	// Inspection stats the path as the command's lookup did, through the
	// link: what is there is a file.
	if want := "file " + shim + " exists only here"; c.Says != want {
		t.Errorf("says %q; want %q", c.Says, want)
	}
	if c.Observed == nil || !strings.Contains(c.Observed.Explanation, "it runs "+shim+" here, where the good run ran /usr/bin/find") {
		t.Errorf("observed %+v; want both programs named", c.Observed)
	}
	wantFix(t, c, "rm "+shim)
	untraced(t, out)
}
