package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// debianLibScript records Debian's xz in good (the host's libraries) and
// makes bad by putting a read-only overlay on /usr/lib/x86_64-linux-gnu
// (inside the test's mount namespace) whose upper layer either removes
// liblzma.so.5 (a whiteout) or replaces it with another library's build
// (zlib's): $MODE says which.
const debianLibScript = `
L=/usr/lib/x86_64-linux-gnu
"$EB" record -o t.envb -- xz --version > $OUT/native-good.txt
mkdir up wk
case $MODE in
removed) mknod up/liblzma.so.5 c 0 0 ;;
swapped) cp $L/libz.so.1 up/liblzma.so.5 ;;
esac
mount -t overlay -o ro,lowerdir=$L,upperdir=$W/up,workdir=$W/wk bad-libs $L
xz --version > /dev/null 2> $OUT/native-bad.txt && exit 1
"$EB" replay t.envb --prefix all -- xz --version > $OUT/replay.txt 2>&1 || { cat $OUT/replay.txt; exit 1; }
"$EB" locate --json t.envb -- xz --version > $OUT/report.json 2> $OUT/locate.err || true
`

// TestDebianLibrarySwappedOrRemoved: xz's liblzma is missing here, or
// another library's build stands in its place; locate names the dynamic
// loader's open of liblzma.so.5, whose replay hands out the good build
// (served to the loader's mmaps), and everything replayed passes.
func TestDebianLibrarySwappedOrRemoved(t *testing.T) {
	testutil.Require(t, testutil.Binary("xz"), testutil.Binary("mknod"),
		testutil.File("/usr/lib/x86_64-linux-gnu/liblzma.so.5"), testutil.File("/usr/lib/x86_64-linux-gnu/libz.so.1"))
	for _, mode := range []string{"removed", "swapped"} {
		t.Run(mode, func(t *testing.T) {
			out := testutil.InWorkNS(t, "MODE="+mode+"\n"+debianLibScript)
			t.Logf("native run in bad: %s", fileText(t, out, "native-bad.txt"))
			wantCulprit(t, readReport(t, out, "report.json"), "openat", "/liblzma.so.5")
		})
	}
}
