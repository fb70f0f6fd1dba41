package serve_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// toolPrelude makes tool.tar in $W (a directory bin/ holding the script
// bin/tool, which makes the directory pub/ran: a creation, which runs
// live also in a replayed run, where a write would be replayed) and the directory tool/
// it was made from, and defines snapshot, which keeps the scratch
// directories in /tmp and the mount table once the environments are
// built (toolEpilogue keeps them again at the end).
const toolPrelude = `
mkdir -p tool/bin
printf '#!/bin/sh\nmkdir pub/ran\n' > tool/bin/tool
chmod 755 tool/bin/tool
tar -cf tool.tar -C tool bin
snapshot() {
	ls -a /tmp | grep envbisect-scratch > "$OUT/tmp.before" || true
	cat /proc/self/mountinfo > "$OUT/mounts.before"
}
`

// toolEpilogue keeps what locate may have left: scratch directories in
// /tmp and mounts.
const toolEpilogue = `
ls -a /tmp | grep envbisect-scratch > "$OUT/tmp.after" || true
cat /proc/self/mountinfo > "$OUT/mounts.after"
`

// TestExtractThenExecuteReadOnly: a script makes a directory, extracts an
// archive into it and runs a tool from it. In bad the directory's parent
// is a read-only bind mount: the mkdir fails with EROFS there. The
// all-replayed end passes only because the replayed creations are made
// in the run's scratch area and the later calls on their paths (tar's
// opens, the exec of the tool) are redirected there; locate names the
// mkdir.
//
// The archive also holds a static binary, run after the script: its exec
// is redirected too, and it must start with the registers the kernel gave
// its image.
func TestExtractThenExecuteReadOnly(t *testing.T) {
	testutil.Require(t, testutil.Binary("tar"), testutil.Binary("mkdir"))
	static := testutil.BuildC(t, "mkran.c", true)
	out := testutil.InWorkNS(t, toolPrelude+`
cp `+static+` tool/bin/static; tar -cf tool.tar -C tool bin
for d in good bad; do
	mkdir $d/ro $d/pub; cp tool.tar $d/
	printf '#!/bin/sh\nmkdir -p ro/out && tar -xf tool.tar -C ro/out && ro/out/bin/tool && ro/out/bin/static pub/ran-static\n' > $d/run.sh; chmod 755 $d/run.sh
done
mount --bind bad/ro bad/ro; mount -o remount,bind,ro bad/ro
snapshot
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
code=0; ./run.sh 2> /dev/null || code=$?; echo $code > "$OUT/bad.code"
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" 2> "$OUT/locate.err" || true
code=0; "$EB" replay --json ../t.envb --prefix all -- ./run.sh > "$OUT/replay.json" 2> "$OUT/replay.err" || code=$?
echo $code > "$OUT/replay.code"
ls -A pub > "$OUT/pub.sandboxed"
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off --force -- ./run.sh > "$OUT/replay-nosandbox.out" 2>&1 || code=$?
echo $code > "$OUT/replay-nosandbox.code"
test -d pub/ran && test -d pub/ran-static && echo yes > "$OUT/replay.ran" || echo no > "$OUT/replay.ran"
ls -A ro > "$OUT/ro.after"
cd ..
`+toolEpilogue)
	if got := testutil.ReadText(t, out, "bad.code"); got == "0" {
		t.Fatalf("the script passes in bad without envbisect: the environment is not bad")
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "mkdir") ||
		!strings.HasSuffix(r.Culprit.Path, "/ro/out") || r.Culprit.Here.Errno != "EROFS" {
		t.Errorf("located %s %+v (%s), want the mkdir of ro/out with EROFS\n%s", r.Status, r.Culprit, r.Message, testutil.ReadText(t, out, "locate.err"))
	}
	if limit := scenarios.RunBound(r.RecordedCalls); r.Runs > limit || r.Runs < 1 {
		t.Errorf("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", r.Runs, r.RecordedCalls, limit)
	}
	if got := testutil.ReadText(t, out, "replay.code"); got != "0" {
		t.Errorf("replay --prefix all in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay.err"))
	}
	if got := testutil.ReadText(t, out, "replay-nosandbox.code"); got != "0" {
		t.Errorf("replay --prefix all --sandbox=off in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay-nosandbox.out"))
	}
	if got := testutil.ReadText(t, out, "replay.ran"); got != "yes" {
		t.Errorf("the tools did not run in the all-replayed run with --sandbox=off (they make pub/ran and pub/ran-static)")
	}
	if got := testutil.ReadText(t, out, "pub.sandboxed"); got != "" {
		t.Errorf("sandboxed runs left %q in pub/", got)
	}
	// --prefix all replays the working directory too (a start item): the
	// script runs at the recorded path, where this tree is mounted in the
	// run's sandbox, so the program names good/ro/out.
	wantRedirect(t, out, "/good/ro/out", "EROFS")
	if got := testutil.ReadText(t, out, "ro.after"); got != "" {
		t.Errorf("the read-only directory holds %q after the runs", got)
	}
	nothingLeft(t, out)
}

// TestCopyThenExecuteAsNobody: cp -r copies a tool into a directory that
// nobody (setpriv) may write to in bad, then runs it: the mkdir cp makes
// fails with EACCES, and the scratch area the run makes must be usable by
// the command's own user.
func TestCopyThenExecuteAsNobody(t *testing.T) {
	testutil.Require(t, testutil.Binary("cp"), testutil.Binary("setpriv"), testutil.Binary("tar"))
	out := testutil.InWorkNS(t, toolPrelude+`
chmod 755 "$W"
chmod -R a+rX tool
for d in good bad; do
	mkdir $d/dst $d/pub; chmod 755 $d; chmod 777 $d/pub
	printf '#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "cp -r ../tool dst/t && dst/t/bin/tool"\n' > $d/run.sh
	chmod 755 $d/run.sh
done
chmod 777 good/dst
snapshot
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" 2> "$OUT/locate.err" || true
code=0; "$EB" replay --json ../t.envb --prefix all -- ./run.sh > "$OUT/replay.json" 2> "$OUT/replay.err" || code=$?
echo $code > "$OUT/replay.code"
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off --force -- ./run.sh > "$OUT/replay-nosandbox.out" 2>&1 || code=$?
echo $code > "$OUT/replay-nosandbox.code"
test -d pub/ran && echo yes > "$OUT/replay.ran" || echo no > "$OUT/replay.ran"
ls -A dst > "$OUT/dst.after"
cd ..
`+toolEpilogue)
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "mkdir") ||
		!strings.HasSuffix(r.Culprit.Path, "/dst/t") || r.Culprit.Here.Errno != "EACCES" {
		t.Errorf("located %s %+v (%s), want the mkdir of dst/t with EACCES\n%s", r.Status, r.Culprit, r.Message, testutil.ReadText(t, out, "locate.err"))
	}
	if limit := scenarios.RunBound(r.RecordedCalls); r.Runs > limit || r.Runs < 1 {
		t.Errorf("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", r.Runs, r.RecordedCalls, limit)
	}
	if got := testutil.ReadText(t, out, "replay.code"); got != "0" {
		t.Errorf("replay --prefix all in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay.err"))
	}
	if got := testutil.ReadText(t, out, "replay-nosandbox.code"); got != "0" {
		t.Errorf("replay --prefix all --sandbox=off in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay-nosandbox.out"))
	}
	if got := testutil.ReadText(t, out, "replay.ran"); got != "yes" {
		t.Errorf("the tool did not run in the all-replayed run with --sandbox=off (it makes pub/ran)")
	}
	wantRedirect(t, out, "/dst/t", "EACCES")
	if got := testutil.ReadText(t, out, "dst.after"); got != "" {
		t.Errorf("the directory nobody may not write to holds %q after the runs", got)
	}
	nothingLeft(t, out)
}

// wantRedirect fails unless replay --json (replay.json under out) lists
// the mkdir of a path ending in suffix, failed here with errno, and the
// scratch path it was made as, and when it lists a creation that failed
// with ENOTDIR.
func wantRedirect(t *testing.T, out, suffix, errno string) {
	t.Helper()
	var rep struct {
		Redirects []struct {
			Syscall string `json:"syscall"`
			Path    string `json:"path"`
			Scratch string `json:"scratch"`
			Errno   string `json:"errno"`
		} `json:"redirects"`
		Divergences []struct {
			Kind string `json:"kind"`
			Got  string `json:"got"`
		} `json:"divergences"`
	}
	if err := json.Unmarshal([]byte(testutil.ReadText(t, out, "replay.json")), &rep); err != nil {
		t.Fatalf("replay --json: %v", err)
	}
	for _, d := range rep.Divergences {
		if d.Kind == "diverged" {
			t.Errorf("the all-replayed run diverged at %s: redirected calls must match their recorded ones", d.Got)
		}
		t.Logf("divergence: %+v", d)
	}
	for _, d := range rep.Redirects {
		if d.Errno == "ENOTDIR" {
			// A creation that ran on a dirfd the run never really opened
			// (a replayed open's memfd stand-in): the closure must make
			// what a replayed creation uses real.
			t.Errorf("replay --json redirected %+v: its dirfd or parent was no directory in the run", d)
		}
	}
	for _, d := range rep.Redirects {
		if strings.HasPrefix(d.Syscall, "mkdir") && strings.HasSuffix(d.Path, suffix) && d.Errno == errno &&
			strings.Contains(d.Scratch, "envbisect-scratch-") {
			return
		}
	}
	t.Errorf("replay --json's redirects %+v, want the mkdir of *%s (%s) and its scratch path", rep.Redirects, suffix, errno)
}

// nothingLeft fails when a scratch directory or a mount is left after the
// runs (tmp.* and mounts.* under out, see toolPrelude).
func nothingLeft(t *testing.T, out string) {
	t.Helper()
	for _, d := range onlyAfter(testutil.ReadText(t, out, "tmp.before"), testutil.ReadText(t, out, "tmp.after")) {
		t.Errorf("scratch directory left in /tmp: %s", d)
	}
	for _, m := range onlyAfter(testutil.ReadText(t, out, "mounts.before"), testutil.ReadText(t, out, "mounts.after")) {
		t.Errorf("mount left behind: %s", m)
	}
}

// onlyAfter returns the lines of after that before has not (what went
// away meanwhile, another test's, is no failure).
func onlyAfter(before, after string) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		have[l] = true
	}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		if l != "" && !have[l] {
			out = append(out, l)
		}
	}
	return out
}

// report is the part of locate's JSON report these tests look at.
type report struct {
	Status        string `json:"status"`
	Message       string `json:"message"`
	Runs          int    `json:"runs"`
	RecordedCalls int    `json:"recorded_calls"`
	Culprit       *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Here    struct {
			Errno string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
}

// TestCopyRenameExecuteReadOnly: cp writes a temporary file into a
// directory and mv renames it into place before it is run, where the
// directory is a read-only bind mount in bad: the open that creates the
// temporary file fails with EROFS, and locate names it. The rename's
// source is then in the scratch area, so the rename is made there too,
// replayed or executed (where the kernel would say EXDEV, which no run
// without envbisect meets), and the exec follows it.
func TestCopyRenameExecuteReadOnly(t *testing.T) {
	testutil.Require(t, testutil.Binary("cp"), testutil.Binary("mv"), testutil.Binary("tar"))
	out := testutil.InWorkNS(t, toolPrelude+`
for d in good bad; do
	mkdir $d/ro $d/pub
	printf '#!/bin/sh\ncp ../tool/bin/tool ro/.tool.tmp && mv ro/.tool.tmp ro/tool && ro/tool\n' > $d/run.sh; chmod 755 $d/run.sh
done
mount --bind bad/ro bad/ro; mount -o remount,bind,ro bad/ro
snapshot
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" 2> "$OUT/locate.err" || true
code=0; "$EB" replay --json ../t.envb --prefix all -- ./run.sh > "$OUT/replay.json" 2> "$OUT/replay.err" || code=$?
echo $code > "$OUT/replay.code"
code=0; "$EB" replay -q ../t.envb --prefix all --sandbox=off --force -- ./run.sh > "$OUT/replay-nosandbox.out" 2>&1 || code=$?
echo $code > "$OUT/replay-nosandbox.code"
test -d pub/ran && echo yes > "$OUT/replay.ran" || echo no > "$OUT/replay.ran"
cd ..
`+toolEpilogue)
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "open") ||
		!strings.HasSuffix(r.Culprit.Path, "/ro/.tool.tmp") || r.Culprit.Here.Errno != "EROFS" {
		t.Errorf("located %s %+v (%s), want the open of ro/.tool.tmp with EROFS\n%s", r.Status, r.Culprit, r.Message, testutil.ReadText(t, out, "locate.err"))
	}
	if limit := scenarios.RunBound(r.RecordedCalls); r.Runs > limit || r.Runs < 1 {
		t.Errorf("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", r.Runs, r.RecordedCalls, limit)
	}
	if got := testutil.ReadText(t, out, "replay.code"); got != "0" {
		t.Errorf("replay --prefix all in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay.err"))
	}
	if got := testutil.ReadText(t, out, "replay-nosandbox.code"); got != "0" {
		t.Errorf("replay --prefix all --sandbox=off in bad exited %s, want 0 (pass)\n%s", got, testutil.ReadText(t, out, "replay-nosandbox.out"))
	}
	if got := testutil.ReadText(t, out, "replay.ran"); got != "yes" {
		t.Errorf("the tool did not run in the all-replayed run with --sandbox=off (it makes pub/ran)")
	}
	nothingLeft(t, out)
}

func readReport(t *testing.T, path string) report {
	t.Helper()
	var r report
	testutil.ReadJSON(t, path, &r)
	return r
}
