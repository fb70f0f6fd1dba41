package sandbox_test

import (
	"bytes"
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
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off --force -- ./build.sh > "$OUT/replay-off.out" 2>&1 || code=$?
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

// TestEffectsKeptArtifact: other archivers than tar, each writing its
// archive another way, run with every recorded call replayed in bad,
// where one source file holds other bytes (same size, same times): the
// archive they leave is good's, byte for byte. The check compares it
// with good's archive inside the run's sandbox; with --sandbox=off the
// archive is left in the work tree and compared here.
//
//   - cpio: find lists the tree into a pipe, cpio -o writes the archive
//     to its stdout, a file the shell opened with O_CREAT|O_TRUNC (a
//     replayed creation, and writes through an inherited fd);
//   - ar: writes a temporary file (named from the clock: another name
//     than the recording's, so its calls run unmatched), then truncates
//     the archive it created, copies the temporary file into it and
//     unlinks it.
func TestEffectsKeptArtifact(t *testing.T) {
	for _, tc := range []struct {
		name     string
		needs    []string // programs
		artifact string
		build    string // the command build.sh runs, in good/ or bad/
	}{
		{"cpio", []string{"cpio", "find", "sort"}, "out.cpio",
			"find src | LC_ALL=C sort | cpio -o -H newc --reproducible --quiet > out.cpio"},
		{"ar", []string{"ar"}, "out.a",
			"ar rc out.a src/a.txt src/b.txt src/c.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needs := []testutil.Need{testutil.Binary("sha256sum"), testutil.Binary("touch"), testutil.Binary("cmp")}
			for _, p := range tc.needs {
				needs = append(needs, testutil.Binary(p))
			}
			testutil.Require(t, needs...)
			out := inWorkNS(t, `
a=`+tc.artifact+`
for d in good bad; do
	mkdir $d/src
	printf 'alpha\n' > $d/src/a.txt
	printf 'gamma\n' > $d/src/c.txt
	printf '#!/bin/sh\nset -e\n%s\n' '`+tc.build+`' > $d/build.sh; chmod 755 $d/build.sh
done
printf 'beta1\n' > good/src/b.txt
printf 'beta2\n' > bad/src/b.txt
touch -d @1700000000 good/src/* bad/src/* good/src bad/src
(cd good && "$EB" record -q -o ../t.envb -- ./build.sh)
cp good/$a "$OUT/good.artifact"
cd bad
./build.sh && cp $a "$OUT/bad.artifact" && rm $a
code=0; "$EB" replay -q ../t.envb --prefix all --check "cmp $a ../good/$a" -- ./build.sh > "$OUT/replay.out" 2>&1 || code=$?
echo $code > "$OUT/replay.code"
test -e $a && echo yes > "$OUT/left" || echo no > "$OUT/left"
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off --force -- ./build.sh > "$OUT/replay-off.out" 2>&1 || code=$?
echo $code > "$OUT/replay-off.code"
cp $a "$OUT/replayed.artifact" || true
`)
			good, err := os.ReadFile(filepath.Join(out, "good.artifact"))
			if err != nil {
				t.Fatal(err)
			}
			if bad, err := os.ReadFile(filepath.Join(out, "bad.artifact")); err != nil || bytes.Equal(bad, good) {
				t.Fatalf("bad's archive (%v) equals good's without envbisect: the environment is not bad", err)
			}
			if got := testutil.ReadText(t, out, "replay.code"); got != "0" {
				t.Errorf("replay --prefix all --check 'cmp %s ../good/%s': exit %s, want 0 (the archive equals good's)\n%s",
					tc.artifact, tc.artifact, got, testutil.ReadText(t, out, "replay.out"))
			}
			if got := testutil.ReadText(t, out, "left"); got != "no" {
				t.Errorf("the sandboxed replay left %s in the work tree", tc.artifact)
			}
			if got := testutil.ReadText(t, out, "replay-off.code"); got != "0" {
				t.Errorf("replay --prefix all --sandbox=off: exit %s, want 0\n%s", got, testutil.ReadText(t, out, "replay-off.out"))
			}
			replayed, err := os.ReadFile(filepath.Join(out, "replayed.artifact"))
			if err != nil {
				t.Fatalf("replay --prefix all --sandbox=off left no %s: %v", tc.artifact, err)
			}
			if !bytes.Equal(replayed, good) {
				t.Errorf("after replay --prefix all --sandbox=off, %s (%d bytes) differs from good's (%d bytes)", tc.artifact, len(replayed), len(good))
			}
		})
	}
}
