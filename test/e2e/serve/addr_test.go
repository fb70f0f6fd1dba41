package serve_test

import (
	"encoding/json"
	"math/bits"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// addrCase is a script that starts a real server on 127.0.0.1:port and
// checks it with a real client; in the bad environment a process outside
// the traced tree (started by the test) holds the port and serves
// another page.
type addrCase struct {
	port   int
	setup  string // shell lines run before recording: config files the server reads
	server string // the command that serves $W/www on 127.0.0.1:port in the foreground
	client string // the command that prints the page at http://127.0.0.1:port/index.html
}

// addrScript builds the work tree, records the script in a network
// namespace of its own (only lo, up), then starts the outside holder and
// runs locate and replay --prefix all there. Results go to $OUT:
// locate.json, replay.json and their exit codes, native.rc (the script's
// own run in the bad environment).
func (c addrCase) addrScript() string {
	port := strconv.Itoa(c.port)
	return `mkdir -p "$W/www" "$W/other"
echo "the good page" > "$W/www/index.html"
echo "someone else" > "$W/other/index.html"
` + c.setup + `
cat > "$W/serve.sh" <<'SCRIPT'
#!/bin/sh
` + c.server + ` &
pid=$!
sleep 0.5
got=$(` + c.client + `)
kill $pid
wait $pid
echo "got: $got"
[ "$got" = "the good page" ]
SCRIPT
chmod 755 "$W/serve.sh"
cat > "$W/net.sh" <<'NET'
set -e
busybox ip link set lo up
"$EB" record -q -o "$W/good.envb" -- "$W/serve.sh"
busybox httpd -f -p 127.0.0.1:` + port + ` -h "$W/other" &
holder=$!
trap 'kill $holder; wait $holder || true' EXIT
sleep 0.3
rc=0; "$W/serve.sh" || rc=$?; echo $rc > "$OUT/native.rc"
rc=0; "$EB" locate --json "$W/good.envb" -- "$W/serve.sh" > "$OUT/locate.json" || rc=$?; echo $rc > "$OUT/locate.rc"
rc=0; "$EB" replay -q --json --prefix all "$W/good.envb" -- "$W/serve.sh" > "$OUT/replay.json" || rc=$?; echo $rc > "$OUT/replay.rc"
NET
unshare --net sh "$W/net.sh"
`
}

// addrReport is the part of locate's JSON report these tests read.
type addrReport struct {
	Status        string `json:"status"`
	Message       string `json:"message"`
	Runs          int    `json:"runs"`
	RecordedCalls int    `json:"recorded_calls"`
	Culprit       *struct {
		Syscall string `json:"syscall"`
		Call    string `json:"call"`
		Bad     struct {
			Errno string `json:"errno"`
		} `json:"bad"`
	} `json:"culprit"`
}

// replayReport is the part of replay --json these tests read.
type replayReport struct {
	Verdict       string `json:"verdict"`
	Detail        string `json:"detail"`
	AddrRedirects []struct {
		Recorded   string `json:"recorded"`
		Live       string `json:"live"`
		Errno      string `json:"errno"`
		Redirected int    `json:"redirected"`
	} `json:"address_redirects"`
}

// run runs the case and checks what a user would: the script fails here
// on its own; locate names the bind, EADDRINUSE here, in at most
// ⌈log2 N⌉+3 runs; replay --prefix all passes, its bind moved to a free
// port on the same address and the client's connect followed it.
func (c addrCase) run(t *testing.T) {
	out := testutil.InWorkNS(t, c.addrScript())
	if rc := addrReadFile(t, out, "native.rc"); rc == "0" {
		t.Fatalf("the script passed in the bad environment without envbisect: the holder did not take port %d", c.port)
	}
	var loc addrReport
	addrReadJSON(t, out, "locate.json", &loc)
	if loc.Status != "located" || loc.Culprit == nil || loc.Culprit.Syscall != "bind" || loc.Culprit.Bad.Errno != "EADDRINUSE" {
		t.Errorf("locate: %s, culprit %+v (%s); want the bind, EADDRINUSE here", loc.Status, loc.Culprit, loc.Message)
	} else if want := `inet_addr("127.0.0.1")`; !strings.Contains(loc.Culprit.Call, "htons("+strconv.Itoa(c.port)+")") || !strings.Contains(loc.Culprit.Call, want) {
		t.Errorf("locate: culprit %s, want the bind of 127.0.0.1:%d", loc.Culprit.Call, c.port)
	}
	if limit := addrMaxRuns(loc.RecordedCalls); loc.Runs < 1 || loc.Runs > limit {
		t.Errorf("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", loc.Runs, loc.RecordedCalls, limit)
	}
	if rc := addrReadFile(t, out, "locate.rc"); rc != "0" {
		t.Errorf("locate exited %s", rc)
	}
	var rep replayReport
	addrReadJSON(t, out, "replay.json", &rep)
	if rc := addrReadFile(t, out, "replay.rc"); rc != "0" || rep.Verdict != "pass" {
		t.Errorf("replay --prefix all: exit %s, %s (%s); want a pass", rc, rep.Verdict, rep.Detail)
	}
	if len(rep.AddrRedirects) != 1 {
		t.Fatalf("replay --prefix all: redirects %+v, want the one bind", rep.AddrRedirects)
	}
	r := rep.AddrRedirects[0]
	recorded := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(c.port))
	live, err := netip.ParseAddrPort(r.Live)
	switch {
	case r.Recorded != recorded.String() || r.Errno != "EADDRINUSE":
		t.Errorf("redirect %+v, want %s, EADDRINUSE here", r, recorded)
	case err != nil || live.Addr() != recorded.Addr() || live.Port() == recorded.Port() || live.Port() == 0:
		t.Errorf("redirect %+v: live address %q, want 127.0.0.1 on another port", r, r.Live)
	case r.Redirected < 1:
		t.Errorf("redirect %+v: no connect followed it", r)
	}
}

// TestAddrHeldBusyboxHTTPD: busybox httpd checked with busybox wget, the
// port held by another httpd here.
func TestAddrHeldBusyboxHTTPD(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"))
	addrCase{
		port:   8080,
		server: `busybox httpd -f -p 127.0.0.1:8080 -h "$W/www"`,
		client: `busybox wget -qO- http://127.0.0.1:8080/index.html`,
	}.run(t)
}

// TestAddrHeldLighttpd: lighttpd checked with curl, the port held by a
// busybox httpd here.
func TestAddrHeldLighttpd(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"), testutil.Binary("lighttpd"), testutil.Binary("curl"))
	addrCase{
		port: 8081,
		setup: `cat > "$W/lighttpd.conf" <<CONF
server.document-root = "$W/www"
server.bind = "127.0.0.1"
server.port = 8081
CONF`,
		server: `lighttpd -D -f "$W/lighttpd.conf"`,
		client: `curl -s http://127.0.0.1:8081/index.html`,
	}.run(t)
}

// addrMaxRuns is ⌈log2 n⌉ + 3.
func addrMaxRuns(n int) int {
	if n <= 1 {
		return 3
	}
	return bits.Len(uint(n-1)) + 3
}

func addrReadFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func addrReadJSON(t *testing.T, dir, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
}
