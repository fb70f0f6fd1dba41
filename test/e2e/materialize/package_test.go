package materialize

import (
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializePackageMissing: a program loads a library from a
// Debian package, and here the package's files are missing, while dpkg's
// database still lists it (what a half-removed or overwritten
// installation looks like; made in the test's mount namespace). The
// cause is the package, named whole with its version from the good run's
// dpkg database ("PKG VERSION is not installed here (N files)", "and M
// directories" when its directories are missing too), not one
// of its files nor anything next to them that no package owns, and the
// fix is apt-get install PKG=VERSION.
//
//   - liberror-perl (a dependency of git): perl's Error.pm and
//     Error/Simple.pm, both loaded by `use Error::Simple`; here a copy of
//     /usr/share/perl5 without them is bound over it.
//
// A Debian Python package, whose .py sources Python only stats, is
// TestMaterializePythonPackageMissing's (pypackage_test.go).
func TestMaterializePackageMissing(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("dpkg-query"))
	for _, tc := range []struct {
		name, pkg string
		needs     []testutil.Need
		dir       string // where the package's files are
		command   string // run in the script: "$check" is set by setup
		setup     string // sets check
		hide      string // makes the package's files missing
	}{
		{"liberror-perl", "liberror-perl", []testutil.Need{testutil.Binary("perl"), testutil.File("/usr/share/perl5/Error.pm")},
			"/usr/share/perl5", `perl -e "$check"`, `
check='
BEGIN { open my $s, "<", "/proc/self/status" or die; print STDERR grep { /^TracerPid:/ } <$s> }
use Error qw(:try); use Error::Simple;
my $caught = 0;
try { throw Error::Simple("stale") } catch Error::Simple with { $caught = 1 };
exit !$caught;
'`, `
cp -a /usr/share/perl5 perl5
rm -r perl5/Error.pm perl5/Error
mount --bind perl5 /usr/share/perl5
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testutil.Require(t, tc.needs...)
			out := testutil.InWorkNS(t, prelude+`
dpkg-query -W -f '${Version}\n' `+tc.pkg+` > "$OUT/version"
`+tc.setup+`
record_good `+tc.command+`
`+tc.hide+`
locate_bad `+tc.command+`
`)
			version := testutil.ReadText(t, out, "version")
			_, c := located(t, out)
			if c.Kind != "package" || c.Package == nil || c.Package.Name != tc.pkg || c.Package.Version != version {
				t.Errorf("cause %s %q (package %+v); want the package %s %s", c.Kind, c.Name, c.Package, tc.pkg, version)
			}
			says := regexp.MustCompile(`^` + regexp.QuoteMeta(tc.pkg+" "+version) + ` is not installed here \(\d+ files( and \d+ director(y|ies))?\)$`)
			if !says.MatchString(c.Says) {
				t.Errorf("says %q; want %q", c.Says, says)
			}
			if len(c.Objects) < 2 {
				t.Errorf("the package holds %d objects; want its files the program loaded", len(c.Objects))
			}
			for _, o := range c.Objects {
				if !strings.HasPrefix(o.Path, tc.dir+"/") || strings.Contains(o.Path, "__pycache__") {
					t.Errorf("the package's objects hold %s: want only %s's files under %s", o.Path, tc.pkg, tc.dir)
				}
			}
			if !strings.Contains(c.FirstCall, `"`+tc.dir+"/") {
				t.Errorf("first call %q; want one on a file of the package", c.FirstCall)
			}
			wantFix(t, c, "apt-get install "+tc.pkg+"="+version)
		})
	}
}
