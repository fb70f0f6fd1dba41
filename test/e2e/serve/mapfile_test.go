package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// mapFileScript records mapdata, which maps a data file and reads its
// head, with good/ bound on $W/app, and locates it with bad/ there:
// $MODE is "different" (other bytes, same size) or "truncated".
const mapFileScript = `
mkdir app
for i in $(seq 2000); do echo "good record $i"; done > good/data
case $MODE in
different) sed 's/^good/evil/' good/data > bad/data ;;
truncated) head -c 100 good/data > bad/data ;;
esac
mount --bind good app
"$EB" record -o t.envb -- "$MAPDATA" "$W/app/data" > /dev/null
umount app
mount --bind bad app
"$MAPDATA" "$W/app/data" > $OUT/native-bad.txt && exit 1
"$EB" replay t.envb --prefix all -- "$MAPDATA" "$W/app/data" > $OUT/replay.txt 2>&1 || { cat $OUT/replay.txt; exit 1; }
"$EB" locate --json t.envb -- "$MAPDATA" "$W/app/data" > $OUT/report.json 2> $OUT/locate.err || true
`

// TestMappedDataFile: a program maps a data file that differs here or is
// shorter; with the open replayed, the mapping holds the good bytes (no
// SIGBUS, no short map), and locate names the open.
func TestMappedDataFile(t *testing.T) {
	bin := testutil.BuildC(t, "mapdata.c", false)
	for _, mode := range []string{"different", "truncated"} {
		t.Run(mode, func(t *testing.T) {
			out := testutil.InWorkNS(t, "MODE="+mode+"\nMAPDATA="+bin+"\n"+mapFileScript)
			t.Logf("native run in bad: %s", fileText(t, out, "native-bad.txt"))
			wantCulprit(t, readReport(t, out, "report.json"), "openat", "/app/data")
		})
	}
}
