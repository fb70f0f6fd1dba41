package tempnames_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// report is the part of locate's JSON report these tests read.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Runs    int    `json:"runs"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Here    struct {
			Errno string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
}

func readReport(t *testing.T, dir string) (report, string) {
	t.Helper()
	var r report
	testutil.ReadJSON(t, filepath.Join(dir, "report.json"), &r)
	raw, _ := json.Marshal(r)
	return r, string(raw)
}

// tmpPrelude follows InWorkNS's prelude: the temporary files go to
// $W/tmp ($TMPDIR, the same in both environments; the host's /tmp never
// sees them), and good/ and bad/ each hold run.sh, which the test
// writes, and conf.
const tmpPrelude = `mkdir -m 1777 tmp; export TMPDIR="$W/tmp"
echo mode=good > good/conf; echo mode=bad > bad/conf
`

// locateConf records run.sh in good/ and locates it in bad/: the JSON
// report is $OUT/report.json, locate's exit code $OUT/code.
const locateConf = `
for d in good bad; do cp run.sh $d/; chmod 755 $d/run.sh; done
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
ls "$TMPDIR" > "$OUT/tmp-after-record"
cd bad
code=0; "$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`

// TestTempFileThenConfig: a script makes a temporary file with mktemp,
// writes it line by line (80 writes in a row), reads it back, and only
// then reads its config, which differs here; a Python program does the
// same with tempfile.mkstemp (whose gettempdir also creates and removes a
// random-named probe file). Every live temporary name differs from the
// recorded one; the culprit is the config's open or read, located.
// (Before generated names were matched, the Python case's search fell
// back to every recorded call and named an ioctl on the config, ENOTTY,
// after 21 runs; now 4 runs over the differing resources.)
func TestTempFileThenConfig(t *testing.T) {
	testutil.Require(t, testutil.Binary("mktemp"), testutil.Binary("grep"), testutil.File("/usr/bin/python3"))
	for _, tc := range []struct{ name, script string }{
		{"mktemp", `#!/bin/sh
set -e
f=$(mktemp)
for i in $(seq 80); do echo "line $i" >&3; done 3> "$f"
grep -c line "$f" > /dev/null
grep -q mode=good conf
rm "$f"
`},
		{"python-mkstemp", `#!/usr/bin/python3
import os, sys, tempfile
fd, p = tempfile.mkstemp()
for i in range(80):
    os.write(fd, b"line %d\n" % i)
os.close(fd)
with open(p) as f:
    f.read()
with open("conf") as f:
    ok = "mode=good" in f.read()
os.unlink(p)
sys.exit(0 if ok else 1)
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, tmpPrelude+"cat > run.sh <<'S'\n"+tc.script+"S\n"+locateConf)
			r, raw := readReport(t, out)
			t.Logf("status %s, %d runs, culprit %s", r.Status, r.Runs, raw)
			if r.Status != "located" || r.Culprit == nil || !strings.HasSuffix(r.Culprit.Path, "/conf") ||
				!strings.HasPrefix(r.Culprit.Syscall, "open") && !strings.HasPrefix(r.Culprit.Syscall, "read") {
				t.Errorf("status %s (%s), culprit %s; want the config's open or read located", r.Status, r.Message, raw)
			}
			if code := testutil.ReadText(t, out, "code"); code != "0" {
				t.Errorf("locate exited %s, want 0", code)
			}
			if left := testutil.ReadText(t, out, "tmp-after-record"); left != "" {
				t.Errorf("the recorded run left %q in $TMPDIR, want its temporary files removed", left)
			}
		})
	}
}

// TestMkstempNotWritableAsNobody (issue 14's test): a job run as nobody
// makes its temporary file in a spool directory that nobody may write
// in the good environment and not here (root's, mode 755); the culprit
// is the open of the temporary file, EACCES here, although its live name
// is never the recorded one.
func TestMkstempNotWritableAsNobody(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"), testutil.Binary("mktemp"))
	out := testutil.InWorkNS(t, `
chmod 755 "$W"
for d in good bad; do
	mkdir $d/spool; chmod 755 $d
	cat > $d/job.sh <<'S'
#!/bin/sh
set -e
f=$(mktemp -p spool job.XXXXXXXX)
echo job > "$f"
cat "$f"
S
	printf '#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups ./job.sh\n' > $d/run.sh
	chmod 755 $d/run.sh $d/job.sh
done
chmod 777 good/spool
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
cd bad
code=0; "$EB" locate -q --json ../t.envb -- ./run.sh > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`)
	r, raw := readReport(t, out)
	t.Logf("status %s, %d runs, culprit %s", r.Status, r.Runs, raw)
	if r.Status != "located" || r.Culprit == nil || !strings.HasPrefix(r.Culprit.Syscall, "open") ||
		!strings.Contains(r.Culprit.Path, "/spool/job.") || r.Culprit.Here.Errno != "EACCES" {
		t.Errorf("status %s (%s), culprit %s; want the open of spool/job.XXXXXXXX with EACCES", r.Status, r.Message, raw)
	}
}
