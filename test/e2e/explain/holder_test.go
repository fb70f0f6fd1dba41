package explain_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestExplainAddressHolder (issue 14's test): Python's http.server
// serves on 127.0.0.1:18431 (the run passes when it is still up after 3
// s); here busybox httpd, started outside the traced tree, holds that
// port. All of it runs in a network namespace of its own (only lo, up).
// The culprit is the server's bind, EADDRINUSE, and the explanation
// names the holder's pid and executable.
func TestExplainAddressHolder(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"), testutil.File("/usr/bin/python3"))
	out := testutil.InWorkNS(t, `
mkdir "$W/www" "$W/other"
echo good > "$W/www/index.html"
cat > "$W/net.sh" <<'NET'
set -e
busybox ip link set lo up
cd "$W/www"
"$EB" record -q --alive 3s -o "$W/t.envb" -- /usr/bin/python3 -m http.server 18431 --bind 127.0.0.1
busybox httpd -f -p 127.0.0.1:18431 -h "$W/other" &
holder=$!
trap 'kill $holder; wait $holder || true' EXIT
sleep 0.3
echo $holder > "$OUT/holder"
readlink /proc/$holder/exe > "$OUT/holder-exe"
code=0; "$EB" locate -q --json --alive 3s "$W/t.envb" -- /usr/bin/python3 -m http.server 18431 --bind 127.0.0.1 > "$OUT/report.json" || code=$?
echo $code > "$OUT/code"
NET
unshare --net sh "$W/net.sh"
`)
	r := readReport(t, out)
	c := r.Culprit
	t.Logf("culprit %s %s; explanation: %s", c.Syscall, c.Here.Errno, c.Explanation)
	if c.Syscall != "bind" || c.Here.Errno != "EADDRINUSE" {
		t.Errorf("culprit %s %s; want the bind, EADDRINUSE", c.Syscall, c.Here.Errno)
	}
	pid, err := strconv.Atoi(testutil.ReadText(t, out, "holder"))
	if err != nil {
		t.Fatal(err)
	}
	exe := testutil.ReadText(t, out, "holder-exe")
	if c.Facts == nil || c.Facts.Holder == nil {
		t.Fatalf("no holder in the facts; explanation %q", c.Explanation)
	}
	if h := c.Facts.Holder; h.Address != "127.0.0.1:18431" || h.PID != pid || h.Exe != exe {
		t.Errorf("holder %+v; want 127.0.0.1:18431 held by pid %d (%s)", *h, pid, exe)
	}
	if want := "127.0.0.1:18431 is held here by pid " + strconv.Itoa(pid) + " (" + exe + ")"; !strings.Contains(c.Explanation, want) {
		t.Errorf("explanation %q lacks %q", c.Explanation, want)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}
