package materialize

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeJVMSecurity: a JVM program (testdata/victims/jvmkeystore,
// run from source by the JRE: about 15 threads, a perf-data file named
// after its pid in /tmp) reads its security properties from the JDK's
// java.security (Debian keeps it in /etc/java-N-openjdk/security). Here
// a copy that sets keystore.type=jks is bound over it, so the default
// keystore type is not pkcs12. The cause is that file, with the diff of
// the line; not the JVM's own files.
func TestMaterializeJVMSecurity(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("java"))
	src := filepath.Join(testutil.RepoRoot(t), "testdata", "victims", "jvmkeystore", "Main.java")
	out := testutil.InWorkNS(t, prelude+`
sec=$(readlink -f "$(dirname "$(readlink -f "$(command -v java)")")/../conf/security/java.security")
echo "$sec" > "$OUT/security"
grep -q '^keystore.type=pkcs12$' "$sec"
cp "`+src+`" app/Main.java
record_good java Main.java
sed 's/^keystore.type=pkcs12$/keystore.type=jks/' "$sec" > java.security
mount --bind java.security "$sec"
locate_bad java Main.java
`)
	sec := testutil.ReadText(t, out, "security")
	_, c := located(t, out)
	if c.Kind != "object" || c.Path != sec || !strings.HasPrefix(c.Says, "the content of "+sec+" differs") {
		t.Errorf("cause %s %s (%s); want the object %s, its content", c.Kind, c.Path, c.Says, sec)
	}
	wantFix(t, c, "restore "+sec+" from the good environment")
	wantDiff(t, c, sec, "-keystore.type=pkcs12", "+keystore.type=jks")
}
