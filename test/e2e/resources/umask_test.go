package resources_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestUmask: a build step that creates its files itself (with the umask
// it inherits) and archives them with their modes (Python's zipfile
// stores each file's mode) gives another archive under umask 0002 than
// under the good run's 0022. The culprit is the start item umask.
func TestUmask(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, buildPrelude+`
mkdir build
cat > build/build.sh <<'S'
#!/bin/sh
set -e
rm -rf stage; mkdir stage
echo one > stage/f1
printf '#!/bin/sh\necho two\n' > stage/f2; chmod +x stage/f2
touch -d '2020-01-02 03:04:05 UTC' stage/f1 stage/f2
/usr/bin/python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for name in sys.argv[2:]: z.write(name)' "$W/out/stage.zip" stage/f1 stage/f2
S
chmod 755 build/build.sh
cd build
umask 0022
record_good stage.zip ./build.sh
rm -r stage
umask 0002
run_bad stage.zip ./build.sh
rm -r stage
locate_bad stage.zip ./build.sh
`)
	differs(t, out, "the same build under umask 0002")
	r := readReport(t, out, "report.json")
	assertStartCulprit(t, r, "umask", "", "0022", "0002")
	assertSearched(t, r)
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}
