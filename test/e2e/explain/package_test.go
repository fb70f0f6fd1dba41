package explain_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// libPrelude builds $W/zv, a program linked to the zlib of this
// machine's package (libz.so.1) that prints zlibVersion() and fails
// unless it is its argument; records it with the library as it is
// ($OUT/version: what it printed); and makes $W/libz.bad, a copy of the
// library whose version strings end in "x" instead of their last digit
// (the same length). $OUT/lib is the library's real path, $OUT/owner
// and $OUT/goodversion its package and version as dpkg says.
const libPrelude = `
cat > "$W/zv.c" <<'C'
#include <stdio.h>
#include <string.h>
extern const char *zlibVersion(void);
int main(int argc, char **argv) {
	const char *v = zlibVersion();
	printf("%s\n", v);
	return argc > 1 && strcmp(v, argv[1]) != 0;
}
C
gcc -O2 -o "$W/zv" "$W/zv.c" -l:libz.so.1
lib=$(readlink -f "$(ldd "$W/zv" | awk '/libz\.so/ {print $3}')")
echo "$lib" > "$OUT/lib"
# dpkg lists the path it unpacked: /lib/... on a /usr-merged system
pkg=$( (dpkg-query -S "$lib" 2>/dev/null || dpkg-query -S "${lib#/usr}") | head -1 | cut -d: -f1)
echo "$pkg" > "$OUT/owner"
dpkg-query -W -f '${Version}\n' "$pkg" | head -1 > "$OUT/goodversion"
v=$("$W/zv")
echo "$v" > "$OUT/version"
cd "$W"
"$EB" record -q -o t.envb -- ./zv "$v"
bad=$(echo "$v" | sed 's/.$/x/')
perl -pe "s/\Q$v\E/$bad/g" "$lib" > "$W/libz.bad"
mount --bind "$W/libz.bad" "$lib"
`

// TestExplainLibraryPackage (issue 14's test): a program linked to zlib
// from this machine's Debian package; here the library is another build
// (a modified copy bound over it). The explanation names the package
// that owns the library and its version on each side: from this
// machine's dpkg database in the good run (recorded), from the bad
// environment's here (its status file says another version; in the
// second case its .list no longer lists the library).
func TestExplainLibraryPackage(t *testing.T) {
	testutil.Require(t, testutil.Binary("gcc"), testutil.Binary("perl"), testutil.Binary("dpkg-query"),
		testutil.Binary("ldd"), testutil.File("/var/lib/dpkg/status"))
	for _, tc := range []struct {
		name, here   string
		wantHereVer  string // the version here ("": no package owns it here)
		wantSentence string // in the explanation, after the path
	}{
		{"another version here", `
awk -v p="$pkg" '/^Package: /{inp=($2==p)} inp && /^Version: /{$0="Version: 9.9.9-bad"} {print}' /var/lib/dpkg/status > "$W/status"
mount --bind "$W/status" /var/lib/dpkg/status
`, "9.9.9-bad", "and to PKG 9.9.9-bad (dpkg) here."},
		{"not owned here", `
for l in /var/lib/dpkg/info/"$pkg".list /var/lib/dpkg/info/"$pkg":*.list; do
	[ -e "$l" ] || continue
	grep -v libz "$l" > "$W/list"; mount --bind "$W/list" "$l"
done
`, "", "and is owned by no dpkg package here."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, libPrelude+tc.here+`
code=0; "$EB" locate -q --json t.envb -- ./zv "$v" > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
`)
			lib, pkg, goodVer := testutil.ReadText(t, out, "lib"), testutil.ReadText(t, out, "owner"), testutil.ReadText(t, out, "goodversion")
			r := readReport(t, out)
			c := r.Culprit
			t.Logf("culprit %s %s; explanation: %s", c.Syscall, c.Path, c.Explanation)
			if c.Facts == nil || c.Facts.Package == nil {
				t.Fatalf("no package in the facts; explanation %q", c.Explanation)
			}
			p := c.Facts.Package
			if p.Good == nil || p.Good.Manager != "dpkg" || p.Good.Name != pkg || p.Good.Version != goodVer {
				t.Errorf("good owner %+v; want dpkg's %s %s", p.Good, pkg, goodVer)
			}
			wantName := pkg
			if tc.wantHereVer == "" {
				wantName = ""
			}
			if p.Here == nil || p.Here.Manager != "dpkg" || p.Here.Name != wantName || p.Here.Version != tc.wantHereVer {
				t.Errorf("here %+v; want dpkg's %q %q", p.Here, wantName, tc.wantHereVer)
			}
			if !strings.Contains(p.Path, "/libz.so") {
				t.Errorf("package of %s; want the library %s", p.Path, lib)
			}
			want := "belongs to " + pkg + " " + goodVer + " (dpkg) in the good run " + strings.ReplaceAll(tc.wantSentence, "PKG", pkg)
			if !strings.Contains(c.Explanation, want) {
				t.Errorf("explanation %q lacks %q", c.Explanation, want)
			}
			if code := testutil.ReadText(t, out, "code"); code != "0" {
				t.Errorf("locate exited %s, want 0", code)
			}
		})
	}
}
