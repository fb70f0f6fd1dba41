package main

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestLocateReportPaths: --report and --logs are checked before the
// trace is read and before the first run. A --report into a directory
// that does not exist, a --report that is a directory, and a --logs on a
// read-only file system each fail at once with exit 2, naming the path
// and what to do: stdout is empty and stderr holds that one line (no
// run's progress). When the report file cannot be written at the end
// anyway (its file system is full), the report is not lost: it is on
// stdout, the error names the path and says so (exit 1), and no half
// file is left in that directory.
func TestLocateReportPaths(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("mount"), testutil.Binary("dd"))
	out := testutil.InWorkNS(t, `
cd "$W/good"
printf '#!/bin/sh\nread v < conf\n[ "$v" = good ]\n' > run.sh
chmod +x run.sh
echo good > conf
"$EB" record -q -o ../t.envb -- ./run.sh
cp run.sh ../bad/
cd "$W/bad"
echo bad > conf
mkdir "$W/ro"; mount --bind "$W/ro" "$W/ro"; mount -o remount,bind,ro "$W/ro"
mkdir "$W/full"; mount -t tmpfs -o size=8k tmpfs "$W/full"
dd if=/dev/zero of="$W/full/fill" bs=4k count=8 2>/dev/null || true
for c in "missing:--report $W/none/r.json" "isdir:--report $W" "logsro:--logs $W/ro/logs" "logsrodir:--logs $W/ro" "full:--report $W/full/r.json"; do
	name=${c%%:*}; flags=${c#*:}
	code=0; "$EB" locate $flags ../t.envb -- ./run.sh > "$OUT/$name.out" 2> "$OUT/$name.err" || code=$?; echo $code > "$OUT/$name.code"
done
ls -A "$W/full" > "$OUT/full.ls"
ls -A "$W" > "$OUT/w.ls"
`)
	for _, c := range []struct{ name, want string }{
		{"missing", "/none/r.json: directory "},
		{"isdir", ": is a directory: give a file's path, such as "},
		{"logsro", "/ro/logs: cannot make the directory of the logs ("},
		{"logsrodir", "/ro: cannot create the logs' files there ("},
	} {
		code, stdout, stderr := strings.TrimSpace(readOut(t, out, c.name+".code")), readOut(t, out, c.name+".out"), readOut(t, out, c.name+".err")
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != "2" || stdout != "" || len(lines) != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %s, stdout %q, stderr %q; want exit 2, nothing on stdout and one line with %q", c.name, code, stdout, stderr, c.want)
		}
	}
	if s := readOut(t, out, "missing.err"); !strings.Contains(s, "does not exist: create it first (mkdir -p ") {
		t.Errorf("--report into a missing directory: %q; want what to do", s)
	}
	if s := readOut(t, out, "w.ls"); strings.Contains(s, "none") {
		t.Errorf("--report into a missing directory made it: %s", s)
	}

	code, stdout, stderr := strings.TrimSpace(readOut(t, out, "full.code")), readOut(t, out, "full.out"), readOut(t, out, "full.err")
	if code != "1" || !strings.HasPrefix(stdout, "located: ") {
		t.Errorf("--report on a full file system: exit %s, stdout %q; want 1 and the report on stdout", code, stdout)
	}
	if !strings.Contains(stderr, "/full/r.json: could not write the report: ") || !strings.Contains(stderr, "no space left on device") ||
		!strings.Contains(stderr, "the report is on stdout only") {
		t.Errorf("--report on a full file system: stderr %q; want the path, the reason and where the report is", stderr)
	}
	if s := strings.TrimSpace(readOut(t, out, "full.ls")); s != "fill" {
		t.Errorf("--report on a full file system left %q in its directory; want only the filler", s)
	}
}
