package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// libPrelude makes the same Python program in good/ and bad/: main.py
// renders a size with the library "report" of its vendor directory
// (vendor/report: __init__.py, fmt.py, units.py, each made long by a
// docstring so that Python reads its sources in several chunks), on
// PYTHONPATH (with bytecode written whatever the caller set), and exits 1 unless it gets "1.5 KiB". It writes its
// TracerPid to stderr first. The recorded run compiles the modules into
// vendor/report/__pycache__ (its own work: missing in bad/).
const libPrelude = `
for d in good bad; do
	mkdir -p $d/vendor/report
	pad=$(head -c 30000 /dev/zero | tr '\0' x)
	printf '"""report: render sizes. %s"""\nfrom .fmt import render\n' "$pad" > $d/vendor/report/__init__.py
	printf '"""fmt. %s"""\nfrom . import units\n\ndef render(n):\n    v, u = units.scale(n)\n    return "%%s %%s" %% (v, u)\n' "$pad" > $d/vendor/report/fmt.py
	printf '"""units. %s"""\nNAMES = ["B", "KiB", "MiB"]\n\ndef scale(n):\n    i = 0\n    while n >= 1024 and i < len(NAMES) - 1:\n        n /= 1024\n        i += 1\n    return round(n, 1), NAMES[i]\n' "$pad" > $d/vendor/report/units.py
	cat > $d/main.py <<'PY'
import sys
with open("/proc/self/status") as f:
    sys.stderr.write("".join(l for l in f if l.startswith("TracerPid:")))
import report
got = report.render(1536)
print(got)
sys.exit(got != "1.5 KiB")
PY
done
mount --bind good app
record_good env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=vendor /usr/bin/python3 main.py
ls good/vendor/report/__pycache__ > "$OUT/pycache"
umount app
mount --bind bad app
`

// TestMaterializeInterpreterLibrary: an interpreter that loads its own
// library sources (libPrelude). Here one module of the library differs
// (units.py is an older version that rounds to whole units) or is
// missing. The cause is that module, with its diff or as missing here;
// not the bytecode the recorded run compiled (its own work), nor the
// other modules.
func TestMaterializeInterpreterLibrary(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/usr/bin/python3"))
	for _, tc := range []struct {
		name, bad string
		says      string // what the cause says, after the path
		fix       string // the fix, after the path
		diff      []string
	}{
		{"module differs", `sed -i 's/return round(n, 1), NAMES\[i\]/return round(n), NAMES[i]/' bad/vendor/report/units.py`,
			"the content of PATH differs", "restore PATH from the good environment",
			[]string{"-    return round(n, 1), NAMES[i]", "+    return round(n), NAMES[i]"}},
		{"module missing", `rm bad/vendor/report/units.py`,
			"file PATH is missing here", "restore PATH from the good environment (it is missing here)", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, prelude+libPrelude+tc.bad+`
locate_bad env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=vendor /usr/bin/python3 main.py
`)
			if pyc := testutil.ReadText(t, out, "pycache"); !strings.Contains(pyc, "units.") {
				t.Fatalf("the recorded run compiled %q; want the library's modules in __pycache__", pyc)
			}
			w := testutil.ReadText(t, out, "w")
			_, c := located(t, out)
			units := w + "/app/vendor/report/units.py"
			if c.Kind != "object" || c.Path != units {
				t.Errorf("cause %s %s; want the module %s", c.Kind, c.Path, units)
			}
			if want := strings.ReplaceAll(tc.says, "PATH", units); !strings.HasPrefix(c.Says, want) {
				t.Errorf("says %q; want %q", c.Says, want)
			}
			if !strings.Contains(c.FirstCall, "units.py") {
				t.Errorf("first call %q; want one on units.py", c.FirstCall)
			}
			wantFix(t, c, strings.ReplaceAll(tc.fix, "PATH", units))
			if tc.diff != nil {
				wantDiff(t, c, units, tc.diff...)
			}
		})
	}
}
