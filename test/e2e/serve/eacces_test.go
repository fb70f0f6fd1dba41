package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// eaccesScript records grep, run as nobody by setpriv, reading a
// configuration file that nobody may read in good; in bad the same file
// is root's and 0600, so the open fails with EACCES there. The reads
// after the open execute in most runs of the search.
const eaccesScript = `
mkdir app
for i in $(seq 200); do echo "setting$i = value$i"; done > good/app.conf
echo "wanted = yes" >> good/app.conf
cp good/app.conf bad/app.conf
chmod 0644 good/app.conf
chmod 0600 bad/app.conf
chmod 0755 good bad app "$W"
chmod 0711 "$(dirname "$W")" # the test's temporary directory: nobody may pass through
RUN="setpriv --reuid=65534 --regid=65534 --clear-groups -- grep -q wanted $W/app/app.conf"
mount --bind good app
"$EB" record -o t.envb -- $RUN
umount app
mount --bind bad app
$RUN 2> $OUT/native-bad.txt && exit 1
"$EB" replay t.envb --prefix all -- $RUN > $OUT/replay.txt 2>&1 || { cat $OUT/replay.txt; exit 1; }
"$EB" locate --json t.envb -- $RUN > $OUT/report.json 2> $OUT/locate.err || true
`

// TestOpenDeniedHereThenReads: the open of the configuration fails with
// EACCES here and grep reads it through calls that execute; the culprit
// is the open (whose replay hands out the good file to those reads), not
// a read that found nothing.
func TestOpenDeniedHereThenReads(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"), testutil.Binary("grep"))
	out := testutil.InWorkNS(t, eaccesScript)
	t.Logf("native run in bad: %s", fileText(t, out, "native-bad.txt"))
	r := readLocate(t, out, "report.json")
	wantCulprit(t, r, "openat", "/app/app.conf")
	if r.Culprit != nil && r.Culprit.Here.Errno != "EACCES" {
		t.Errorf("the culprit's errno here is %q, want EACCES", r.Culprit.Here.Errno)
	}
}
