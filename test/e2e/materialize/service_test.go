package materialize

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// serviceScript is the command of TestMaterializeService: it starts
// Python's http.server on www/ in the background and polls for it with
// curl and a `sleep 0.1` loop (as many times as the server takes to
// answer: a different number from one run to the next, and more under
// the recorder), then checks the feed it serves is there and has the Atom
// type, which http.server takes from /etc/mime.types. It writes its
// TracerPid and how many times it polled to stderr.
const serviceScript = `#!/bin/sh
grep TracerPid /proc/$$/status >&2
/usr/bin/python3 -m http.server 18427 --bind 127.0.0.1 --directory www 2>/dev/null &
server=$!
trap 'kill $server; wait $server' EXIT
n=0
until got=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' http://127.0.0.1:18427/feed.atom) && [ "${got%% *}" != 000 ]; do
	n=$((n+1))
	[ $n -lt 100 ] || { echo "no server after $n polls" >&2; exit 2; }
	sleep 0.1
done
echo "polled $n times: $got" >&2
[ "$got" = "200 application/atom+xml" ]
`

// TestMaterializeService: a service started by a shell that polls for
// it with a sleep loop (serviceScript), in a network namespace of the
// test's own. The loop runs another number of times in every run, which
// call-level replay cannot line up; the object search runs the script
// live. What differs here:
//
//   - its configuration under /etc: /etc/mime.types (Debian's
//     media-types; a copy bound over it) lacks the Atom type here, so the
//     feed is served as application/octet-stream. The cause is that file
//     (the one file of its package that differs), with the diff of the
//     line.
//   - a directory it needs: its document root www/ (with the feed) is
//     missing here, so it answers 404. The cause is the directory, or the
//     feed in it, and the fix makes the directory before restoring the
//     feed: the run that validated it made both.
func TestMaterializeService(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/usr/bin/python3"), testutil.Binary("curl"), testutil.Binary("busybox"),
		testutil.File("/etc/mime.types"))
	for _, tc := range []struct {
		name, bad string
		check     func(t *testing.T, www string, c cause)
	}{
		{"config under /etc", `
grep -v '^application/atom+xml[[:space:]]' /etc/mime.types > mime.types
mount --bind mime.types /etc/mime.types
`, func(t *testing.T, www string, c cause) {
			if c.Kind != "object" || c.Path != "/etc/mime.types" || !strings.HasPrefix(c.Says, "the content of /etc/mime.types differs") {
				t.Errorf("cause %s %s (%s); want the object /etc/mime.types, its content", c.Kind, c.Path, c.Says)
			}
			wantFix(t, c, "restore /etc/mime.types from the good environment")
			wantDiff(t, c, "/etc/mime.types", "-application/atom+xml\t\t\t\tatom")
		}},
		{"directory missing", `
rm -r bad/www
`, func(t *testing.T, www string, c cause) {
			// The feed alone passes (the run makes its missing parent), so
			// the search may name it rather than the directory; either way
			// the validated fix must make the directory the run made.
			if c.Path != www && c.Path != www+"/feed.atom" {
				t.Errorf("cause %s %s (%s); want the directory %s, missing here, or the feed in it", c.Kind, c.Path, c.Says, www)
			}
			wantFix(t, c, "mkdir -p "+www, "restore "+www+"/feed.atom from the good environment (it is missing here)")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, prelude+`
for d in good bad; do
	mkdir $d/www
	printf '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>envbisect</title></feed>\n' > $d/www/feed.atom
	cat > $d/serve.sh <<'SH'
`+serviceScript+`SH
	chmod 755 $d/serve.sh
done
cat > net.sh <<'NET'
mount --bind good app
record_good ./serve.sh
umount app
NET
cat >> net.sh <<'NET'
`+tc.bad+`
mount --bind bad app
locate_bad ./serve.sh
NET
in_netns ./net.sh
`)
			w := testutil.ReadText(t, out, "w")
			_, c := located(t, out)
			tc.check(t, w+"/app/www", c)
			polls(t, out)
		})
	}
}

// pollLine is what serviceScript says after its loop.
var pollLine = regexp.MustCompile(`(?m)^polled (\d+) times`)

// polls logs how many times the loop ran in the recording and in each
// object run that got an answer.
func polls(t *testing.T, out string) {
	t.Helper()
	rec, err := os.ReadFile(filepath.Join(out, "record.err"))
	if err != nil {
		t.Fatal(err)
	}
	counts := []string{"recording " + firstPolls(string(rec))}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "run-*-object*.log"))
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, strings.TrimSuffix(filepath.Base(l), ".log")+" "+firstPolls(string(b)))
	}
	t.Logf("the loop polled: %s", strings.Join(counts, ", "))
}

func firstPolls(s string) string {
	if m := pollLine.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return "-"
}
