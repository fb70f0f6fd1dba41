package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestExecInterpreterDiffers: a #! script names an interpreter, in a
// directory the test controls, that is bash in the good environment and
// dash here, which lacks the arrays and [[ ]] the script uses. locate
// names the execve of the script (whose recorded image is the
// interpreter), and replayed it runs the recorded bash on the script.
func TestExecInterpreterDiffers(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/bash"), testutil.File("/bin/dash"))
	out := testutil.InWorkNS(t, `
mkdir interp
cp /bin/bash interp/sh
for d in good bad; do
	printf '#!%s/interp/sh\na=(x y); [[ ${a[1]} == y ]] && echo arrays work\n' "$W" > $d/tool.sh
	printf '#!/bin/sh\n./tool.sh\n' > $d/run.sh
	chmod 755 $d/tool.sh $d/run.sh
done
PATH=/usr/bin:/bin; export PATH
(cd good && "$EB" record -q -o ../t.envb -- ./run.sh)
rm interp/sh; cp /bin/dash interp/sh
`+locateAndReplay)
	checkExecLocated(t, out, "/tool.sh", true, "", workDir(t, out)+"/interp/sh", "/bin/bash")
}
