package causes_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestWrapperEarlierOnPath: a script compresses and checks its data
// with gzip. In the good run the shell's lookup of gzip along PATH
// found nothing in $W/bin and ran /usr/bin/gzip; here a wrapper script
// left in $W/bin (earlier on PATH) comes first and refuses. Whichever
// search names it, the cause is the wrapper, and its explanation names
// both programs: the one that runs here and the one the good run ran.
func TestWrapperEarlierOnPath(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("gzip"))
	for _, flags := range []string{"", "--materialize=false"} {
		name := "objects"
		if flags != "" {
			name = "calls"
		}
		t.Run(name, func(t *testing.T) {
			out := testutil.InWorkNS(t, locateScript+"LOCATE_FLAGS="+flags+`
mkdir app bin
export PATH="$W/bin:$PATH"
seq 1 500 > app/data
check="gzip -c $W/app/data | gzip -dc | cmp -s - $W/app/data"
"$EB" record -q -o "$W/t.envb" -- dash -c "$check"
printf '#!/bin/sh\necho "gzip: use the site compressor" >&2\nexit 2\n' > bin/gzip
chmod +x bin/gzip
if dash -c "$check" 2>/dev/null; then echo "the check passes here: nothing to locate"; exit 1; fi
locate_bad dash -c "$check"
echo "$W" > "$OUT/w"
`)
			r := readReport(t, out)
			shim := testutil.ReadText(t, out, "w") + "/bin/gzip"
			assertCauses(t, r, shim)
			if t.Failed() {
				return
			}
			want := "it runs " + shim + " here, where the good run ran /usr/bin/gzip"
			if !strings.Contains(r.Culprit.Explanation, want) {
				t.Errorf("explanation %q; want both programs named (%q)", r.Culprit.Explanation, want)
			}
		})
	}
}
