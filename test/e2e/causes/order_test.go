package causes_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestCausesInOrderMet: a script checks its configuration with sed and
// grep, then tests its data archive with gzip. Here both differ (the
// configuration says another mode, the archive is cut short), and each
// alone still fails: two causes. Whichever search names them, and in
// whatever order it found them, the report lists them in the order the
// program met them: the configuration first (the culprit), the archive
// second.
func TestCausesInOrderMet(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("sed"), testutil.Binary("grep"), testutil.Binary("gzip"), testutil.Binary("head"))
	for _, flags := range []string{"", "--materialize=false"} {
		name := "objects"
		if flags != "" {
			name = "calls"
		}
		t.Run(name, func(t *testing.T) {
			out := testutil.InWorkNS(t, locateScript+"LOCATE_FLAGS="+flags+`
mkdir app
printf 'mode=ok\n' > app/first.conf
seq 1 2000 | gzip -c > app/data.gz
printf 'sed -n p %s/app/first.conf | grep -q "^mode=ok$" || exit 1\ngzip -t %s/app/data.gz\n' "$W" "$W" > app/run.sh
"$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh"
printf 'mode=off\n' > app/first.conf
head -c 100 app/data.gz > app/cut.gz && mv app/cut.gz app/data.gz
if dash "$W/app/run.sh" 2>/dev/null; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
			r := readReport(t, out)
			assertCauses(t, r, "/app/first.conf", "/app/data.gz")
			if t.Failed() {
				return
			}
			if !strings.Contains(r.Causes[0].names(), "/app/first.conf") || !strings.Contains(r.Causes[1].names(), "/app/data.gz") {
				t.Errorf("causes %q, %q; want the configuration first, as the program met them", r.Causes[0].names(), r.Causes[1].names())
			}
			if r.Objects != nil && len(r.Objects.Causes) == 2 && !strings.HasSuffix(r.Objects.Causes[0].Name, "/app/first.conf") {
				t.Errorf("object causes %q first; want the configuration", r.Objects.Causes[0].Name)
			}
		})
	}
}
