package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestEffectsKeptArchive: GNU tar archives a source tree into out.tar.
// In bad one source file holds other bytes (of the same size, with the
// same modification time), so bad's archive differs from good's. A run
// with every recorded call replayed sees the good environment and keeps
// the program's own effects: tar's writes into out.tar run (the program
// sees the recorded results), so the archive it leaves is good's, byte
// for byte, checked by --check in the run's sandbox and, with
// --sandbox=off, by sha256sum afterwards. Before effects were kept, the
// writes were skipped and out.tar stayed empty. locate, judged by the
// archive's hash, names the open of the file that differs.
func TestEffectsKeptArchive(t *testing.T) {
	testutil.Require(t, testutil.Binary("tar"), testutil.Binary("sha256sum"), testutil.Binary("touch"))
	out := inWorkNS(t, `
for d in good bad; do
	mkdir $d/src
	printf 'alpha\n' > $d/src/a.txt
	printf 'gamma\n' > $d/src/c.txt
	printf '#!/bin/sh\nexec tar -cf out.tar src\n' > $d/build.sh; chmod 755 $d/build.sh
done
printf 'beta1\n' > good/src/b.txt
printf 'beta2\n' > bad/src/b.txt
touch -d @1700000000 good/src/* bad/src/* good/src bad/src
(cd good && "$EB" record -q -o ../t.envb -- ./build.sh)
(cd good && sha256sum out.tar) > good.sum
cd bad
code=0; ./build.sh && sha256sum -c ../good.sum > /dev/null 2>&1 || code=$?; echo $code > "$OUT/bad.code"
rm -f out.tar
code=0; "$EB" replay -q ../t.envb --prefix all --check 'sha256sum -c ../good.sum' -- ./build.sh > "$OUT/replay.out" 2>&1 || code=$?
echo $code > "$OUT/replay.code"
test -e out.tar && echo yes > "$OUT/left" || echo no > "$OUT/left"
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off -- ./build.sh > "$OUT/replay-off.out" 2>&1 || code=$?
echo $code > "$OUT/replay-off.code"
code=0; sha256sum -c ../good.sum > "$OUT/sum.out" 2>&1 || code=$?; echo $code > "$OUT/sum.code"
rm -f out.tar
"$EB" locate -q --json ../t.envb --check 'sha256sum -c ../good.sum' -- ./build.sh > "$OUT/report.json" 2> "$OUT/locate.err" || true
`)
	text := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(out, name))
		return strings.TrimSpace(string(b))
	}
	if text("bad.code") == "0" {
		t.Fatal("bad's archive equals good's without envbisect: the environment is not bad")
	}
	if got := text("replay.code"); got != "0" {
		t.Errorf("replay --prefix all --check 'sha256sum -c': exit %s, want 0 (the archive equals good's)\n%s", got, text("replay.out"))
	}
	if got := text("left"); got != "no" {
		t.Errorf("the sandboxed replay left out.tar in the work tree")
	}
	if got := text("replay-off.code"); got != "0" {
		t.Errorf("replay --prefix all --sandbox=off: exit %s, want 0\n%s", got, text("replay-off.out"))
	}
	if got := text("sum.code"); got != "0" {
		t.Errorf("after replay --prefix all --sandbox=off, sha256sum -c: exit %s, want 0 (the archive byte for byte good's)\n%s", got, text("sum.out"))
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "open") || !strings.HasSuffix(r.Culprit.Path, "/src/b.txt") {
		t.Errorf("located %s %+v (%s), want the open of src/b.txt\n%s", r.Status, r.Culprit, r.Message, text("locate.err"))
	}
	t.Logf("locate: %s in %d runs (+%d repeats)", r.Status, r.Runs, r.RepeatRuns)
}
