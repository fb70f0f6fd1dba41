package resources_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestChainOfMissingFiles: a shell script sources five parts of its
// configuration in turn, and every part is missing here; dash stops at
// the first it cannot open, so each run reaches one part more than the
// run before. The search widens its pass end by what each run saw
// differ, then once by what no run reached, and locates every part the
// script needs, named in the order it met them (a program of the class
// Python's imports of a removed package belong to). A test of the call-level search
// (--materialize=false): the object search, locate's default, puts the
// five parts in place from its first runs and names them all.
func TestChainOfMissingFiles(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"))
	out := testutil.InWorkNS(t, buildPrelude+"LOCATE_FLAGS=--materialize=false\n"+`
mkdir build build/conf.d
for p in a b c d e; do echo "P_$p=$p" > build/conf.d/$p; done
build='. ./conf.d/a; . ./conf.d/b; . ./conf.d/c; . ./conf.d/d; . ./conf.d/e; echo "$P_a$P_b$P_c$P_d$P_e" > "$W/out/said"'
cd build
record_good said dash -c "$build"
rm conf.d/*
run_bad said dash -c "$build" 2>/dev/null || true
locate_bad said dash -c "$build"
`)
	r := readReport(t, out, "report.json")
	t.Logf("status %s, culprit %s, %d runs, space %s", r.Status, show(r.Culprit), r.Runs, showSpace(r.Space))
	// Every part is needed: the five are the causes, in the order the
	// script met them, the culprit the first.
	var parts []string
	for _, c := range r.Causes {
		if c.Syscall == "openat" {
			parts = append(parts, c.Path[strings.LastIndex(c.Path, "/")+1:])
		}
	}
	if r.Status != "located" || r.Culprit == nil || !strings.HasSuffix(r.Culprit.Path, "/conf.d/a") || strings.Join(parts, " ") != "a b c d e" {
		t.Errorf("status %s, culprit %s, causes %q; want the opens of the five parts, a to e\n%s", r.Status, show(r.Culprit), parts, indent(r.raw))
	}
	unobserved := 0
	if r.Space != nil {
		for _, res := range r.Space.Resources {
			if res.Differs == 0 {
				unobserved++
			}
		}
	}
	if r.Space == nil || r.Space.Over != "differing" || r.Space.Candidates < 5 || unobserved == 0 {
		t.Errorf("space %s: want at least the five parts searched, some added because no run had reached them", showSpace(r.Space))
	}
}
