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

// addrCase is a command that starts a real server and checks it with a
// real client; in the bad environment its address is held: by a process
// outside the traced tree that the test starts (busybox httpd on an inet
// port, serving another page), or by a stale file (a unix path).
type addrCase struct {
	// recorded is the address the server binds, as replay --json prints
	// it; for a unix path, its end.
	recorded string
	setup    string // shell lines run before recording: files the command needs
	command  string // the traced command, as shell words
	// holdPort, when not 0, is the 127.0.0.1 port an outside busybox httpd
	// holds in the bad environment; holdPath, when set, is a stale file
	// put where the server binds its unix socket.
	holdPort int
	holdPath string
	// shows is a line the command prints when it sees the recorded
	// address from getsockname, "" when it prints none.
	shows string
}

// addrScript builds the work tree, records the command in a network
// namespace of its own (only lo, up), then holds the address and runs
// the command, locate and replay --prefix all there. Results go to $OUT:
// native.rc (the command's own run in the bad environment), locate.json,
// replay.json, replay.err (the command's output under replay) and the
// exit codes.
func (c addrCase) addrScript() string {
	hold := `holder=`
	if c.holdPort != 0 {
		hold = `busybox httpd -f -p 127.0.0.1:` + strconv.Itoa(c.holdPort) + ` -h "$W/other" &
holder=$!
sleep 0.3`
	}
	if c.holdPath != "" {
		hold += `
echo stale > ` + c.holdPath
	}
	return `mkdir -p "$W/www" "$W/other"
echo "the good page" > "$W/www/index.html"
echo "someone else" > "$W/other/index.html"
` + c.setup + `
cat > "$W/net.sh" <<'NET'
set -e
busybox ip link set lo up
cd "$W"
"$EB" record -q -o "$W/good.envb" -- ` + c.command + `
` + hold + `
trap 'if [ -n "$holder" ]; then kill $holder; wait $holder || true; fi' EXIT
rc=0; ` + c.command + ` || rc=$?; echo $rc > "$OUT/native.rc"
rc=0; "$EB" locate --json "$W/good.envb" -- ` + c.command + ` > "$OUT/locate.json" || rc=$?; echo $rc > "$OUT/locate.rc"
rc=0; "$EB" replay -q --json --prefix all "$W/good.envb" -- ` + c.command + ` > "$OUT/replay.json" 2> "$OUT/replay.err" || rc=$?; echo $rc > "$OUT/replay.rc"
NET
unshare --net sh "$W/net.sh"
`
}

// httpCase is an addrCase of a script that starts server (serving $W/www
// on 127.0.0.1:port in the foreground), fetches index.html with client,
// and passes when it got the good page; an outside httpd holds the port
// in the bad environment.
func httpCase(port int, setup, server, client string) addrCase {
	return addrCase{
		recorded: "127.0.0.1:" + strconv.Itoa(port),
		setup: setup + `
cat > "$W/serve.sh" <<'SCRIPT'
#!/bin/sh
` + server + ` &
pid=$!
sleep 0.5
got=$(` + client + `)
kill $pid
wait $pid
echo "got: $got"
[ "$got" = "the good page" ]
SCRIPT
chmod 755 "$W/serve.sh"`,
		command:  `"$W/serve.sh"`,
		holdPort: port,
	}
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
		Here    struct {
			Errno string `json:"errno"`
		} `json:"here"`
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
		t.Fatalf("the command passed in the bad environment without envbisect: %s was not held", c.recorded)
	}
	var loc addrReport
	addrReadJSON(t, out, "locate.json", &loc)
	if loc.Status != "located" || loc.Culprit == nil || loc.Culprit.Syscall != "bind" || loc.Culprit.Here.Errno != "EADDRINUSE" {
		t.Errorf("locate: %s, culprit %+v (%s); want the bind, EADDRINUSE here", loc.Status, loc.Culprit, loc.Message)
	} else if !bindsText(loc.Culprit.Call, c.recorded) {
		t.Errorf("locate: culprit %s, want the bind of %s", loc.Culprit.Call, c.recorded)
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
	if !strings.HasSuffix(r.Recorded, c.recorded) || r.Errno != "EADDRINUSE" || r.Redirected < 1 {
		t.Errorf("redirect %+v, want %s, EADDRINUSE here, a connect that followed", r, c.recorded)
	}
	if rec, err := netip.ParseAddrPort(c.recorded); err == nil {
		live, err := netip.ParseAddrPort(r.Live)
		if err != nil || live.Addr() != rec.Addr() || live.Port() == rec.Port() || live.Port() == 0 {
			t.Errorf("redirect %+v: live address %q, want %s on another port", r, r.Live, rec.Addr())
		}
	} else if !strings.HasPrefix(r.Live, "@") {
		t.Errorf("redirect %+v: live address %q, want an abstract unix name", r, r.Live)
	}
	if got := addrReadFile(t, out, "replay.err"); c.shows != "" && !strings.Contains(got, c.shows) {
		t.Errorf("replay --prefix all: the command printed %q, want %q", got, c.shows)
	}
}

// bindsText reports whether call, a bind as show prints it, binds addr
// ("127.0.0.1:8080", or the end of a unix path).
func bindsText(call, addr string) bool {
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		return strings.Contains(call, "htons("+strconv.Itoa(int(ap.Port()))+")") &&
			strings.Contains(call, `inet_addr("`+ap.Addr().String()+`")`)
	}
	return strings.Contains(call, `sun_path="`) && strings.Contains(call, addr+`"`)
}

// TestAddrHeldBusyboxHTTPD: busybox httpd checked with busybox wget, the
// port held by another httpd here.
func TestAddrHeldBusyboxHTTPD(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"))
	httpCase(8080, "",
		`busybox httpd -f -p 127.0.0.1:8080 -h "$W/www"`,
		`busybox wget -qO- http://127.0.0.1:8080/index.html`).run(t)
}

// TestAddrHeldLighttpd: lighttpd checked with curl, the port held by a
// busybox httpd here.
func TestAddrHeldLighttpd(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"), testutil.Binary("lighttpd"), testutil.Binary("curl"))
	httpCase(8081, `cat > "$W/lighttpd.conf" <<CONF
server.document-root = "$W/www"
server.bind = "127.0.0.1"
server.port = 8081
CONF`,
		`lighttpd -D -f "$W/lighttpd.conf"`,
		`curl -s http://127.0.0.1:8081/index.html`).run(t)
}

// TestAddrHeldVictim: a program that is its own server and client
// (testdata/victims/addrheld.c) and checks that getsockname on the
// accepted connection names the address it bound: an inet port held by
// an outside httpd, and a unix path where a stale file lies.
func TestAddrHeldVictim(t *testing.T) {
	testutil.Require(t, testutil.Binary("busybox"))
	bin := testutil.BuildC(t, "addrheld.c", false)
	t.Run("inet", func(t *testing.T) {
		addrCase{recorded: "127.0.0.1:8082", command: bin + " inet 8082", holdPort: 8082,
			shows: "server local: 127.0.0.1:8082"}.run(t)
	})
	t.Run("unix", func(t *testing.T) {
		// In the test's own tmpfs $W, whose name the Go side does not
		// know: a unix address is checked by its last element.
		addrCase{recorded: "/addrheld.sock", command: bin + ` unix "$W/addrheld.sock"`,
			holdPath: `"$W/addrheld.sock"`, shows: "/addrheld.sock"}.run(t)
	})
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
