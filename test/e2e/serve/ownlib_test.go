package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// ownLibScript builds libgreet in two versions (the new one adds
// greet_loud) and a program linked against the new one that calls it;
// good/lib has the new build, bad/lib the old one, each bound on $W/lib
// where the program's run path looks. It records in good and, in bad,
// runs the program natively, replays everything and locates.
const ownLibScript = `
cat > greet1.c <<'C'
#include <stdio.h>
void greet(void) { puts("hello"); }
C
cat > greet2.c <<'C'
#include <stdio.h>
void greet(void) { puts("hello"); }
void greet_loud(void) { puts("HELLO"); }
C
cat > prog.c <<'C'
void greet(void);
void greet_loud(void);
int main(void) { greet(); greet_loud(); return 0; }
C
mkdir lib
gcc -shared -fPIC -o good/libgreet.so greet2.c
gcc -shared -fPIC -o bad/libgreet.so greet1.c
cp good/libgreet.so lib/
gcc -o prog prog.c -L"$W/lib" -lgreet -Wl,-rpath,"$W/lib"
mount --bind good lib
"$W/prog" > $OUT/native-good.txt
"$EB" record -o t.envb -- "$W/prog" > /dev/null
umount lib
mount --bind bad lib
"$W/prog" > /dev/null 2> $OUT/native-bad.txt && exit 1
"$EB" replay t.envb --prefix all -- "$W/prog" > $OUT/replay.txt 2>&1 || { cat $OUT/replay.txt; exit 1; }
"$EB" locate --json t.envb -- "$W/prog" > $OUT/report.json 2> $OUT/locate.err || true
`

// TestOwnLibraryNewSymbol: the program needs a symbol only the good
// environment's build of its library has; locate names the open of the
// library (the loader's, replayed with the good build served to its
// mmap), and with everything replayed the program runs in bad.
func TestOwnLibraryNewSymbol(t *testing.T) {
	testutil.Require(t, testutil.Binary("gcc"))
	out := testutil.InWorkNS(t, ownLibScript)
	if got := fileText(t, out, "native-good.txt"); got != "hello\nHELLO" {
		t.Fatalf("the program in good printed %q", got)
	}
	t.Logf("native run in bad: %s", fileText(t, out, "native-bad.txt"))
	wantCulprit(t, readReport(t, out, "report.json"), "openat", "/lib/libgreet.so")
}
