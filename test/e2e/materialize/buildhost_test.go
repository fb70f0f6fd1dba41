package materialize

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeBuildHostname: a build whose artifact is checked by its
// hash, and which differs here by a variation no file shows, the host
// name (it writes `uname -n` into the artifact, as builds that stamp
// where they were made do). Made in a UTS namespace of the test's own,
// named goodhost for the recording and badhost for locate; both as one
// command (build, then compare the hash) and with the comparison as
// locate's --check. The cause is the host name, put in place in a UTS
// namespace of the run's own, and the fix `hostname goodhost`; the
// artifact, the build's own work, is never a candidate.
func TestMaterializeBuildHostname(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("unshare"), testutil.Binary("hostname"), testutil.Binary("sha256sum"))
	for _, tc := range []struct{ name, script string }{
		{"build and check as one command", `
record_good sh -c "$build; $check"
hostname badhost
locate_bad sh -c "$build; $check"
`},
		{"check by --check", `
(cd app && "$EB" record --check "$check" -o ../t.envb -- sh -c "$build") 2> "$OUT/record.err"
cat "$OUT/record.err"
hostname badhost
code=0
(cd app && "$EB" locate --materialize --json --logs "$OUT/logs" --check "$check" ../t.envb -- sh -c "$build" > "$OUT/report.json") || code=$?
echo $code > "$OUT/code"
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, prelude+`
hash=$(printf 'built on goodhost\n' | sha256sum | cut -d' ' -f1)
export build='grep TracerPid /proc/$$/status >&2; mkdir -p '"$W"'/app/out; echo "built on $(uname -n)" > '"$W"'/app/out/build.txt'
export check='test "$(sha256sum < '"$W"'/app/out/build.txt | cut -d" " -f1)" = '$hash
cat > "$W/steps.sh" <<'STEPS'
`+tc.script+`
STEPS
unshare --uts sh -ec '. "$W/fns.sh"; hostname goodhost; . "$W/steps.sh"'
`)
			_, c := located(t, out)
			if c.Kind != "start" || c.Name != "hostname" || c.Says != `hostname is "badhost" here, "goodhost" in the good run` {
				t.Errorf("cause %s %q (%s); want the host name", c.Kind, c.Name, c.Says)
			}
			wantFix(t, c, "hostname goodhost")
		})
	}
}
