package sandbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// setupInit writes the init script's two environments, differing only in
// conf, and records it in good/ (trace t.envb).
const setupInit = `for d in good bad; do
	cat > $d/init.sh <<'SCRIPT'
` + testutil.StateScript + `SCRIPT
	chmod 755 $d/init.sh; echo old > $d/old.log; mkdir $d/data
done
echo mode=good > good/conf; echo mode=bad > bad/conf
(cd good && "$EB" record -q -o ../t.envb -- ./init.sh)
`

// TestStateCreatingCommand: a command that creates state and fails when
// it finds state it did not create is located at the open of the
// configuration that really differs, and the work tree is byte for byte what it was.
func TestStateCreatingCommand(t *testing.T) {
	out := inWorkNS(t, setupInit+`
tree_hash bad > "$OUT/before"
cd bad
code=0; "$EB" locate -q --json ../t.envb -- ./init.sh > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
"$EB" locate -q --json --jobs 2 ../t.envb -- ./init.sh > "$OUT/report2.json" || true
cd ..
tree_hash bad > "$OUT/after"
`)
	for _, name := range []string{"report.json", "report2.json"} {
		r := readReport(t, filepath.Join(out, name))
		// The open of conf: replayed, it hands out the good conf the
		// trace keeps (the read that shows the difference is its
		// evidence).
		if r.Status != "located" || r.Culprit == nil || r.Culprit.Syscall != "openat" || !strings.HasSuffix(r.Culprit.Path, "/conf") {
			t.Errorf("%s: located %s %+v (%s), want the open of conf", name, r.Status, r.Culprit, r.Message)
		}
		if !strings.Contains(r.Isolation, "throwaway copy") {
			t.Errorf("%s: isolation %q", name, r.Isolation)
		}
	}
	if r := readReport(t, filepath.Join(out, "report2.json")); r.Runs > 0 && r.Rounds() == 0 {
		t.Errorf("--jobs 2: the runs have no rounds")
	}
	same(t, out, "before", "after", "the work tree before and after locate (sequential, then --jobs 2)")
}

// TestSandboxOff: --sandbox=off runs on the real file system, as before
// the sandbox: the runs leave their state behind. (--force: the trace
// was recorded in good/, where a run without a sandbox cannot start.)
func TestSandboxOff(t *testing.T) {
	out := inWorkNS(t, setupInit+`
cd bad
"$EB" locate -q --json --sandbox=off --force ../t.envb -- ./init.sh > "$OUT/report.json" || true
if [ -e state ]; then echo left > "$OUT/state"; fi
`)
	r := readReport(t, filepath.Join(out, "report.json"))
	if !strings.Contains(r.Isolation, "--sandbox=off") {
		t.Errorf("isolation %q, want it to say --sandbox=off", r.Isolation)
	}
	if _, err := os.Stat(filepath.Join(out, "state")); err != nil {
		t.Errorf("with --sandbox=off the runs' state should stay: %v", err)
	}
}

// TestReadOnlyBindMount: a read-only bind mount stays read-only in the
// sandbox: the mkdir that gets EROFS there is located.
func TestReadOnlyBindMount(t *testing.T) {
	out := inWorkNS(t, `
for d in good bad; do mkdir $d/data; printf '#!/bin/sh\nmkdir data/x\n' > $d/run.sh; chmod 755 $d/run.sh; done
mount --bind bad/data bad/data; mount -o remount,bind,ro bad/data
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || true
`)
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "mkdir") || r.Culprit.Here.Errno != "EROFS" {
		t.Errorf("located %s %+v (%s), want the mkdir with EROFS", r.Status, r.Culprit, r.Message)
	}
}

// TestPermissionsAsNobody: a directory writable only by root refuses
// nobody (setpriv) inside the sandbox as outside: EACCES is located.
func TestPermissionsAsNobody(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"))
	out := inWorkNS(t, `
chmod 755 "$W"
for d in good bad; do
	mkdir $d/rootonly; chmod 755 $d
	printf '#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups mkdir rootonly/x\n' > $d/run.sh; chmod 755 $d/run.sh
done
chmod 777 good/rootonly
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
"$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || true
`)
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "mkdir") || r.Culprit.Here.Errno != "EACCES" {
		t.Errorf("located %s %+v (%s), want the mkdir with EACCES", r.Status, r.Culprit, r.Message)
	}
}

// TestPersistShares: what the runs write under --persist stays. Every
// run appends a line, also those that replay the append: a replayed
// write into a file keeps its effect (the program sees the recorded
// result), so the log has one line per run: every step of the report,
// the object search's (with its traced observation run) and the
// call-level search's (with its repeatability checks and confirmations).
// (Recorded in good/ and located in bad/, the file is another path: the
// object search, which compares paths as recorded, finds no object that
// differs and falls back to the call-level search.)
func TestPersistShares(t *testing.T) {
	out := inWorkNS(t, `
for d in good bad; do mkdir $d/log; printf '#!/bin/sh\necho run >> log/runs\ngrep -q mode=good conf\n' > $d/run.sh; chmod 755 $d/run.sh; done
echo mode=good > good/conf; echo mode=bad > bad/conf
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
"$EB" locate -q --json --persist log ../t.envb -- ./run.sh > "$OUT/report.json" || true
wc -l < log/runs > "$OUT/lines"
`)
	r := readReport(t, filepath.Join(out, "report.json"))
	b, _ := os.ReadFile(filepath.Join(out, "lines"))
	if n, _ := strconv.Atoi(strings.TrimSpace(string(b))); n < 3 || n != r.allRuns() {
		t.Errorf("%d lines in the persisted log after %d runs (%d, %d repeats, %d confirmation and %d cause runs; %s), want one per run (effects kept)",
			n, r.allRuns(), r.Runs, r.RepeatRuns, r.ConfirmRuns, r.CauseRuns, r.Status)
	}
	if !strings.Contains(r.Isolation, "--persist") {
		t.Errorf("isolation %q, want the persisted path named", r.Isolation)
	}
}

// TestFlakyNotRepeatable: a command that passes one time in two is
// reported as not repeatable, not located.
func TestFlakyNotRepeatable(t *testing.T) {
	out := inWorkNS(t, `
for d in good bad; do
	mkdir $d/cnt
	printf '#!/bin/sh\nn=$(cat cnt/n); n=$((n+1)); echo $n > cnt/n; [ $((n %% 2)) -eq 0 ]\n' > $d/run.sh; chmod 755 $d/run.sh
done
echo 1 > good/cnt/n; echo 0 > bad/cnt/n
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
code=0; "$EB" locate -q --json --persist cnt ../t.envb -- ./run.sh > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`)
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "not-repeatable" || r.Culprit != nil {
		t.Errorf("status %s, culprit %+v (%s); want not-repeatable and none", r.Status, r.Culprit, r.Message)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "code")); strings.TrimSpace(string(b)) != "3" {
		t.Errorf("exit status %s, want 3", b)
	}
}

// TestInterruptedLeavesNothing: SIGINT or SIGKILL of locate in the middle
// of a run leaves no mount, no scratch and no process, and the work tree
// as it was.
func TestInterruptedLeavesNothing(t *testing.T) {
	testutil.Require(t, testutil.Binary("sleep"), testutil.Binary("pgrep"))
	for _, c := range []struct{ sig, jobs string }{{"INT", "1"}, {"KILL", "1"}, {"KILL", "2"}} {
		sig := c.sig
		t.Run(sig+"-jobs"+c.jobs, func(t *testing.T) {
			out := inWorkNS(t, `
echo keep > bad/file
(cd good && "$EB" record -q -o ../t.envb --alive 300ms -- sleep 1234)
cat /proc/self/mountinfo > "$OUT/mounts.before"; tree_hash bad > "$OUT/before"
cd bad
"$EB" locate -q --jobs `+c.jobs+` ../t.envb --alive 60s -- sleep 1234 > /dev/null 2>&1 &
pid=$!
sleep 1.5
kill -`+sig+` $pid; wait $pid || true
sleep 0.5
cd ..
cat /proc/self/mountinfo > "$OUT/mounts.after"; tree_hash bad > "$OUT/after"
pgrep -f '^sleep 1234$' > "$OUT/procs" || true
`)
			noMountLeft(t, out, "mounts.before", "mounts.after")
			same(t, out, "before", "after", "the work tree")
			if b, _ := os.ReadFile(filepath.Join(out, "procs")); len(b) != 0 {
				t.Errorf("processes left behind: %s", b)
			}
		})
	}
}

// TestRecordSandbox: record --sandbox records a destructive command
// without its side effects; the trace holds what it did.
func TestRecordSandbox(t *testing.T) {
	out := inWorkNS(t, `
echo precious > good/file
cd good
"$EB" record -q --sandbox -o ../t.envb -- sh -c 'rm file; echo x > made; test ! -e file'
echo $? > "$OUT/code"
cd ..
ls good > "$OUT/ls"
"$EB" show t.envb > "$OUT/show"
`)
	if b, _ := os.ReadFile(filepath.Join(out, "code")); strings.TrimSpace(string(b)) != "0" {
		t.Errorf("record exited %s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "ls")); strings.TrimSpace(string(b)) != "file" {
		t.Errorf("after record --sandbox the directory holds %q, want only file", b)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "show")); !strings.Contains(string(b), "unlink") {
		t.Errorf("the trace does not show the unlink:\n%s", b)
	}
}
