package materialize

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// portScript is the command of TestMaterializeHeldPort: it starts
// BusyBox's httpd on 127.0.0.1:PORT in the background and polls for its
// page with BusyBox's wget and a `sleep 0.1` loop, giving up as soon as
// the server has exited (its bind refused); it passes when the page is
// the one it serves. It writes its TracerPid to stderr.
const portScript = `#!/bin/sh
grep TracerPid /proc/$$/status >&2
busybox httpd -f -p 127.0.0.1:PORT -h www &
server=$!
trap 'kill $server 2>/dev/null; wait $server' EXIT
n=0
until page=$(busybox wget -q -O - http://127.0.0.1:PORT/index.html 2>/dev/null); do
	n=$((n+1))
	kill -0 $server 2>/dev/null || { echo "the server exited" >&2; exit 3; }
	[ $n -lt 100 ] || { echo "no server after $n polls" >&2; exit 2; }
	sleep 0.1
done
echo "polled $n times: $page" >&2
[ "$page" = "<html>envbisect port</html>" ]
`

// portHeld is the port TestMaterializeHeldPort's server binds; each
// namespace of the test is the test's own, so it is free where the
// recording is made.
const portHeld = 18433

// TestMaterializeHeldPort: a service whose port another process holds
// here. portScript (BusyBox's httpd, polled with wget) is recorded in a
// network namespace where the port is free, then located in another
// where a persistent BusyBox nc listener (`nc -ll -p PORT -e true`, on
// the wildcard address) holds it: httpd's bind fails with EADDRINUSE.
// Nothing on the file system differs; the one cause is the address, with
// its holder named (nc's pid, /usr/bin/busybox), found by inspection and
// put in place by runs with a network namespace of their own, untraced.
// The fix stops the holder (kill PID), validated by such a run; and the
// holder is still running, still listening, after locate: the search
// never touches it.
func TestMaterializeHeldPort(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("busybox"))
	port := strconv.Itoa(portHeld)
	hexPort := fmt.Sprintf(":%04X ", portHeld)
	out := testutil.InWorkNS(t, prelude+`
mkdir app/www
echo '<html>envbisect port</html>' > app/www/index.html
cat > app/serve.sh <<'SH'
`+strings.ReplaceAll(portScript, "PORT", port)+`SH
chmod 755 app/serve.sh
cat > rec.sh <<'NET'
record_good ./serve.sh
NET
in_netns ./rec.sh
cat > bad.sh <<'NET'
listening() { cat /proc/net/tcp /proc/net/tcp6 | grep -q -e '`+hexPort+`00000000:0000 0A' -e '`+hexPort+`00000000000000000000000000000000:0000 0A'; }
busybox nc -ll -p `+port+` -e /bin/true &
holder=$!
echo $holder > "$OUT/holder.pid"
n=0
until listening; do n=$((n+1)); [ $n -lt 100 ] || { echo "the holder never listened" >&2; exit 1; }; sleep 0.05; done
locate_bad ./serve.sh
state=gone
if kill -0 $holder 2>/dev/null; then
	state="alive $(readlink /proc/$holder/exe)"
	listening && state="$state listening"
fi
echo "$state" > "$OUT/holder.after"
kill $holder
wait $holder || true
NET
in_netns ./bad.sh
`)
	r, c := located(t, out)
	pid := testutil.ReadText(t, out, "holder.pid")
	addr := "127.0.0.1:" + port + "/tcp"
	if c.Kind != "start" || c.Name != "address "+addr {
		t.Errorf("cause %s %q; want the start item address %s", c.Kind, c.Name, addr)
	}
	wantSays := "address " + addr + ": held here by pid " + pid + " (/usr/bin/busybox), free in the good run (bound by call #"
	if !strings.HasPrefix(c.Says, wantSays) {
		t.Errorf("says %q; want it to start %q", c.Says, wantSays)
	}
	wantFix(t, c, "stop the process holding "+addr+" (pid "+pid+", /usr/bin/busybox); `ss -ltnp 'sport = :"+port+"'` shows it",
		"kill "+pid)
	if f := r.Objects.Fix; f == nil || !strings.Contains(f.Note, "network namespace of its own") {
		t.Errorf("fix %+v; want its note to say the run gave the command a network namespace of its own", f)
	}
	if after := testutil.ReadText(t, out, "holder.after"); after != "alive /usr/bin/busybox listening" {
		t.Errorf("the holder after locate: %q; want it alive and listening, untouched", after)
	}
}
