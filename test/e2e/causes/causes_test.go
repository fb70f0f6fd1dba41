package causes_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// locateScript runs in every test after InWorkNS's prelude: locate_bad
// CMD... locates CMD here against $W/t.envb and leaves the JSON report
// in $OUT/report.json and locate's exit status in $OUT/code, with
// $LOCATE_FLAGS (unquoted) before the trace.
const locateScript = `
locate_bad() {
	code=0; "$EB" locate -q --json $LOCATE_FLAGS "$W/t.envb" -- "$@" > "$OUT/report.json" || code=$?
	echo $code > "$OUT/code"
}
`

// TestTwoConfigFiles: a script reads two configuration files with one
// cat and passes only when both say what the good environment's do.
// Here both differ: replaying either alone still fails, so both are
// causes, each confirmed, and the set of the two is 1-minimal.
func TestTwoConfigFiles(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("cat"), testutil.Binary("grep"))
	out := testutil.InWorkNS(t, locateScript+`
mkdir app
printf 'mode=strict\n' > app/a.conf
printf 'level=high\n' > app/b.conf
printf 'n=$(cat %s/app/a.conf %s/app/b.conf | grep -c -e "^mode=strict$" -e "^level=high$")\n[ "$n" = 2 ]\n' "$W" "$W" > app/run.sh
"$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh"
printf 'mode=loose\n' > app/a.conf
printf 'level=low\n' > app/b.conf
if dash "$W/app/run.sh"; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	assertCauses(t, r, "/app/a.conf", "/app/b.conf")
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}

// TestFileAndEnvironmentVariable: a script needs MODE=strict and a
// configuration file's level=high; here MODE is loose and the file says
// low. Both are causes: the start item env MODE and the file.
func TestFileAndEnvironmentVariable(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("grep"))
	out := testutil.InWorkNS(t, locateScript+`
mkdir app
printf 'level=high\n' > app/b.conf
printf 'grep -q "^level=high$" %s/app/b.conf; g=$?\n[ "$MODE" = strict ] && [ $g = 0 ]\n' "$W" > app/run.sh
MODE=strict "$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh"
printf 'level=low\n' > app/b.conf
export MODE=loose
if dash "$W/app/run.sh"; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	assertCauses(t, r, "env MODE", "/app/b.conf")
}

// TestTwoModificationTimesOneCause: the script of TestUnconfirmedSuspect,
// where both files' modification times differ and both are needed. No
// call-level run can confirm either alone; the object search, locate's
// default, puts both in place as one cause (the modification times of
// app's files), validated by the run that made the command pass, with
// one `touch -d` per file as the fix.
func TestTwoModificationTimesOneCause(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("stat"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, locateScript+"STAMPS='one two'\n"+stampScript+`
touch -d @1700000000 app/one app/two
if dash "$W/app/run.sh"; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	if r.Status != "located" || r.Mechanism != "materialized" || r.Objects == nil || len(r.Objects.Causes) != 1 {
		t.Fatalf("status %s by %q (%s); want located by the object search, one cause\n%s", r.Status, r.Mechanism, r.Message, indent(r.raw))
	}
	c := r.Objects.Causes[0]
	var paths []string
	for _, o := range c.Objects {
		paths = append(paths, o.Path)
	}
	if len(paths) != 2 || !strings.HasSuffix(paths[0], "/app/one") || !strings.HasSuffix(paths[1], "/app/two") {
		t.Errorf("cause %s %q holds %q; want app/one and app/two", c.Kind, c.Name, paths)
	}
	fix := ""
	for _, s := range c.Fix {
		fix += s.Command + "\n"
	}
	if strings.Count(fix, "touch ") != 2 || strings.Count(fix, " -d @1600000000") != 2 || r.Objects.Fix == nil || !r.Objects.Fix.Validated {
		t.Errorf("fix %q (validated: %v); want a validated touch of each file to @1600000000", fix, r.Objects.Fix != nil && r.Objects.Fix.Validated)
	}
	if r.Culprit == nil || !strings.HasSuffix(r.Culprit.Path, "/app/one") {
		t.Errorf("culprit %q; want the first call that met app/one", r.Culprit.names())
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}

// stampScript makes $W/app/run.sh pass only when the modification time
// of each file named in $STAMPS under app/ is the recorded one
// (1600000000), and records it with every stamp so.
const stampScript = `
mkdir app
for f in $STAMPS; do echo same > app/$f; touch -d @1600000000 app/$f; done
: > app/run.sh
for f in $STAMPS; do printf '[ "$(stat -c %%Y %s/app/%s)" = 1600000000 ] || exit 1\n' "$W" "$f" >> app/run.sh; done
"$EB" record -q -o "$W/t.envb" -- dash "$W/app/run.sh"
`

// TestModificationTimeConfirmed: a script passes only when a file's
// modification time is the recorded one. The comparison of live and
// recorded results leaves times out (they differ between any two runs),
// so no resource is seen to differ and the search falls back to every
// call; it ends at the stat of the file. That stat is not identical here
// (its modification time differs, byte for byte), and its file alone
// makes the command pass while everything but it fails: it is confirmed
// and located. (The object search, locate's default, finds the file by
// its modification time before any traced run: this is the call-level
// search's test, --materialize=false.)
func TestModificationTimeConfirmed(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("stat"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, locateScript+"STAMPS=stamp LOCATE_FLAGS=--materialize=false\n"+stampScript+`
touch -d @1700000000 app/stamp
if dash "$W/app/run.sh"; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	assertCauses(t, r, "/app/stamp")
	if r.Space == nil || r.Space.Over != "all" {
		t.Errorf("space %+v, want the fallback over every call", r.Space)
	}
}

// TestUnconfirmedSuspect: the same script with two files whose
// modification times differ here, both needed. The fallback over every
// call ends at the stat of the second file (every call before it
// replayed too), but replaying that file alone does not make the command
// pass: the suspect is not confirmed, nothing is located, the status is
// unconfirmed with the disagreeing confirmation run, and locate exits 3.
//
// That is the call-level search (--materialize=false);
// TestTwoModificationTimesOneCause is the same case located by the
// object search.
func TestUnconfirmedSuspect(t *testing.T) {
	testutil.Require(t, testutil.Binary("dash"), testutil.Binary("stat"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, locateScript+"STAMPS='one two' LOCATE_FLAGS=--materialize=false\n"+stampScript+`
touch -d @1700000000 app/one app/two
if dash "$W/app/run.sh"; then echo "the script passes here: nothing to locate"; exit 1; fi
locate_bad dash "$W/app/run.sh"
`)
	r := readReport(t, out)
	t.Logf("status %s (%s), suspect %q, disagreeing %v", r.Status, r.Message, r.Suspect.names(), r.Disagreeing)
	if r.Status != "unconfirmed" || r.Culprit != nil || len(r.Causes) != 0 {
		t.Fatalf("status %s, culprit %q, causes %d; want unconfirmed and nothing named\n%s", r.Status, r.Culprit.names(),
			len(r.Causes), indent(r.raw))
	}
	if r.Suspect == nil || !strings.HasSuffix(r.Suspect.Path, "/app/two") {
		t.Errorf("suspect %q, want the stat of app/two", r.Suspect.names())
	}
	confirm := map[int]bool{}
	for _, st := range r.Steps {
		if st.Role == "confirm" {
			confirm[st.Step] = true
		}
	}
	if len(r.Disagreeing) == 0 || !confirm[r.Disagreeing[0]] {
		t.Errorf("disagreeing steps %v, want a confirmation run (steps %v)", r.Disagreeing, confirm)
	}
	if code := testutil.ReadText(t, out, "code"); code != "3" {
		t.Errorf("locate exited %s, want 3", code)
	}
}
