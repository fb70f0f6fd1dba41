package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
)

// diff reads its traces without the contents of files (stored out of
// line) and reads in only those it compares with different addresses and
// those it prints: a file read differently in the two runs is still
// reported at its first differing byte, and a large read printed as
// context still shows its bytes.
func TestDiffLeanRead(t *testing.T) {
	same := strings.Repeat("same-content ", 200) // 2,600 bytes: a blob
	conf := []byte(strings.Repeat("key = value\n", 200))
	run := func(base int32, conf []byte) string {
		r := newDiffRun(t, base)
		diffPrologue(r)
		r.call(1, "openat", 3, "/etc/same", diffAtFDCWD)
		tracetest.Out(r.call(1, "read", int64(len(same)), "/etc/same", 3, 0, 4096), 1, same)
		r.call(1, "close", 0, "/etc/same", 3)
		r.call(1, "openat", 3, "/etc/app.conf", diffAtFDCWD)
		tracetest.Out(r.call(1, "read", int64(len(conf)), "/etc/app.conf", 3, 0, 4096), 1, string(conf))
		r.call(1, "close", 0, "/etc/app.conf", 3)
		r.exit(0)
		return r.file("t.envb")
	}
	bad := bytes.Clone(conf)
	copy(bad[1500:], "KEY")
	a, b := run(1000, conf), run(2000, bad)

	code, out, errs := runCLI("diff", "--context", "4", a, b)
	if code != 1 {
		t.Fatalf("diff: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
	for _, want := range []string{
		"offset 1500",              // the differing read, compared after reading its bytes in
		`read(3, "same-content sa`, // a context call, printed with its bytes
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI("diff", a, a); code != 0 {
		t.Errorf("a trace against itself: exit %d:\n%s", code, out)
	}
}
