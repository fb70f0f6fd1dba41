package firstdiff_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/testutil"
)

// tryAgainClient connects to 127.0.0.1:18432, reads without blocking
// after a pause, polls and retries while told to try again (EAGAIN), and
// passes when the server said "mode=good".
const tryAgainClient = `import select, socket, sys, time
s = socket.create_connection(("127.0.0.1", 18432))
s.setblocking(False)
time.sleep(0.2)
while True:
    try:
        data = s.recv(100)
        break
    except BlockingIOError:
        select.select([s], [], [], 5)
sys.exit(0 if data == b"mode=good\n" else 1)
`

// tryAgainServer answers every connection with argv[2], after argv[1]
// seconds.
const tryAgainServer = `import socket, sys, time
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", 18432)); l.listen(8)
while True:
    c, _ = l.accept(); time.sleep(float(sys.argv[1])); c.sendall(sys.argv[2].encode() + b"\n"); c.close()
`

// TestTryAgainThenData: a client reads its server's answer from a
// non-blocking socket. Where it works the answer is there at its first
// read; here the server is slower and answers otherwise, so the first
// read is told to try again (EAGAIN) and the retry gets "mode=bad". The
// culprit is the connection with the bytes that differ, not the EAGAIN
// (a matter of timing): the retry is the read compared with the
// recorded one. That is the call-level search (--materialize=false);
// locate's default, the object search, names the server itself: a
// stand-in answering its recorded conversation makes the client pass.
func TestTryAgainThenData(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"), testutil.File("/usr/bin/python3"))
	out := testutil.InWorkNS(t, `
cat > "$W/client.py" <<'PY'
`+tryAgainClient+`PY
cat > "$W/server.py" <<'PY'
`+tryAgainServer+`PY
cat > "$W/net.sh" <<'NET'
busybox ip link set lo up
cd "$W"
/usr/bin/python3 server.py 0 mode=good & srv=$!
sleep 0.5
"$EB" record -q -o "$W/t.envb" -- /usr/bin/python3 client.py
kill $srv; wait $srv 2>/dev/null
/usr/bin/python3 server.py 0.6 mode=bad & srv=$!
sleep 0.5
code=0; "$EB" locate -q --materialize=false --report "$OUT/report.json" "$W/t.envb" -- /usr/bin/python3 client.py > "$OUT/report.txt" || code=$?
echo $code > "$OUT/code"
"$EB" locate -q --json "$W/t.envb" -- /usr/bin/python3 client.py > "$OUT/objects.json" || true
kill $srv; wait $srv 2>/dev/null
true
NET
unshare --net sh "$W/net.sh"
`)
	r := readReport(t, out)
	c := r.Culprit
	if r.Status != "located" || c == nil {
		t.Fatalf("status %s (%s); want located\n%s", r.Status, r.Message, r.raw)
	}
	t.Logf("cause %s, culprit %s #%d, here %q", c.Resource, c.Syscall, c.Seq, c.Here.Errno)
	if !strings.HasPrefix(c.Resource, "connection to tcp 127.0.0.1:18432") || c.Here.Errno != "" || c.Differs != "content" {
		t.Errorf("culprit %s %s on %s, errno %q here, differs %q; want the connection's read, its content differing\n%s",
			c.Syscall, c.Path, c.Resource, c.Here.Errno, c.Differs, r.raw)
	}
	if txt := testutil.ReadText(t, out, "report.txt"); !strings.Contains(txt, "+mode=bad\n") || strings.Contains(txt, "EAGAIN") {
		t.Errorf("the text report should show the bytes read here and no EAGAIN:\n%s", txt)
	}
	var o report
	o.raw = reportschema.ReadReport(t, filepath.Join(out, "objects.json"), &o)
	if c := o.Culprit; o.Status != "located" || c == nil || c.Start == nil || c.Start.Kind != "peer" || c.Start.Name != "127.0.0.1:18432/tcp" {
		t.Errorf("object search: status %s (%s); want located at the peer 127.0.0.1:18432/tcp\n%s", o.Status, o.Message, o.raw)
	}
}
