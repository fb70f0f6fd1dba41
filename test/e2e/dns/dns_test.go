package dns_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// report is what the test reads of locate's JSON report.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall  string `json:"syscall"`
		Resource string `json:"resource"`
		DNS      *struct {
			Seq                       uint64
			Name, Type, Server, Proto string
			Good, Here                answer
		} `json:"dns"`
	} `json:"culprit"`
	Group *struct {
		Kind  string `json:"kind"`
		Title string `json:"title"`
	} `json:"group"`
}

// answer is one side of culprit.dns.
type answer struct {
	RCode   string   `json:"rcode"`
	Answers []string `json:"answers"`
	Missing bool     `json:"missing"`
}

// The name the environments disagree on, the address the good one
// gives it, and the service there.
const (
	name    = "artifacts.internal"
	address = "10.1.2.3"
	port    = "8080"
	// python is Debian's python3 (a PATH may lead to another build).
	python = "/usr/bin/python3"
)

// netnsScript is the part of a test that runs in a network namespace of
// its own (inside the work namespace's mount namespace): loopback up,
// the service's address on it, resolv.conf, hosts (without the name) and
// nsswitch.conf bound over /etc's, the DNS server answering the name
// while the command is recorded, then answering NXDOMAIN while it is
// located. The HTTP service is up in both: only the name's answer
// differs. resolvOptions are resolv.conf's options. locate searches
// recorded calls (--materialize=false): these tests are of the call-level
// DNS exchange; the object search's peer (a stand-in resolver) is
// test/e2e/materialize's TestMaterializePeerDNS.
func netnsScript(server, resolvOptions, command string) string {
	return fmt.Sprintf(`set -e
cd "$W"
ip link set lo up
ip addr add %[4]s/32 dev lo
printf 'nameserver 127.0.0.1\noptions %[2]s\n' > resolv.conf
printf '127.0.0.1 localhost\n::1 localhost\n' > hosts
printf 'hosts: files dns\n' > nsswitch.conf
mount --bind resolv.conf /etc/resolv.conf
mount --bind hosts /etc/hosts
mount --bind nsswitch.conf /etc/nsswitch.conf
serve() {
	rm -f ready
	%[1]s -dns 127.0.0.1:53 -http %[4]s:%[5]s -ready ready "$@" &
	S=$!
	i=0; while [ ! -e ready ]; do i=$((i+1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
}
serve -a %[6]s=%[4]s
code=0; %[3]s > "$OUT/good-out" || code=$?
echo $code > "$OUT/good-code"
"$EB" record -q -o good.envb -- %[3]s
"$EB" show good.envb > "$OUT/good-show"
kill $S; wait $S || true
serve
code=0; %[3]s > "$OUT/bad-out" || code=$?
echo $code > "$OUT/bad-code"
code=0; "$EB" locate -q --materialize=false --json good.envb -- %[3]s > "$OUT/report.json" || code=$?
echo $code > "$OUT/locate-code"
"$EB" locate -q --materialize=false good.envb -- %[3]s > "$OUT/report.txt" || true
kill $S; wait $S || true
`, server, resolvOptions, command, address, port, name)
}

// sendmmsg2 finds, in show's text, a sendmmsg that sent two messages.
var sendmmsg2 = regexp.MustCompile(`(?m)sendmmsg\(.*\) = 2$`)

// TestDNSAnswerLocated: getent hosts and curl resolve the name; here the
// server says NXDOMAIN. locate names the exchange of the name's A
// question with both answers decoded.
func TestDNSAnswerLocated(t *testing.T) {
	testutil.Require(t, testutil.Binary("ip"), testutil.Binary("getent"), testutil.Binary("curl"), testutil.Binary("mount"), testutil.File(python))
	server := testutil.BuildGo(t, "dnsserver")
	for _, tt := range []struct {
		name, command string
		// options are resolv.conf's; use-vc makes glibc ask over TCP.
		// getent hosts (gethostbyname) asks A only, with send; python's
		// socket.getaddrinfo and curl (getaddrinfo, glibc's default
		// path) ask A and AAAA at once with one sendmmsg, whose two
		// queries must both be matched modulo their ids and whose
		// answers must carry the live ids. (getent ahosts asks A only
		// here: its AI_ADDRCONFIG finds no IPv6 address but ::1.)
		options string
		goodOut string
		group   string
		proto   string
		// mmsg: the queries went out in one sendmmsg of two messages.
		mmsg bool
	}{
		{"getent", "getent hosts " + name, "attempts:1 timeout:1", address + " ", "the answer for " + name + " A", "udp", false},
		{"getent over tcp", "getent hosts " + name, "attempts:1 timeout:1 use-vc", address + " ", "the answer for " + name + " A", "tcp", false},
		{"python getaddrinfo", python + ` -c 'import socket; print(socket.getaddrinfo("` + name + `", ` + port + `)[0][4][0])'`,
			"attempts:1 timeout:1", address, "the answers for " + name + " A, AAAA", "udp", true},
		{"curl", "curl -sf http://" + name + ":" + port + "/", "attempts:1 timeout:1", "ok",
			"the answers for " + name + " A, AAAA", "udp", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, "cat > netns.sh <<'NETNS'\n"+netnsScript(server, tt.options, tt.command)+"NETNS\nunshare --net sh netns.sh\n")
			if code, got := testutil.ReadText(t, out, "good-code"), testutil.ReadText(t, out, "good-out"); code != "0" || !strings.HasPrefix(got, tt.goodOut) {
				t.Fatalf("good environment: exit %s, output %q: want 0 and %q", code, got, tt.goodOut)
			}
			if sent := sendmmsg2.MatchString(testutil.ReadText(t, out, "good-show")); sent != tt.mmsg {
				t.Fatalf("the recording has a sendmmsg of 2 messages: %v, want %v", sent, tt.mmsg)
			}
			if code := testutil.ReadText(t, out, "bad-code"); code == "0" {
				t.Fatal("the command passes here: nothing to locate")
			}
			var r report
			testutil.ReadJSON(t, out+"/report.json", &r)
			if code := testutil.ReadText(t, out, "locate-code"); r.Status != "located" || code != "0" || r.Culprit == nil {
				t.Fatalf("locate: exit %s, %s: %s", code, r.Status, r.Message)
			}
			if r.Group == nil || r.Group.Kind != "dns" || r.Group.Title != tt.group || r.Culprit.Resource != tt.group {
				t.Errorf("group %+v, culprit's resource %q: want the dns group %q", r.Group, r.Culprit.Resource, tt.group)
			}
			if !slices.Contains([]string{"recvfrom", "recvmsg", "read", "readv"}, r.Culprit.Syscall) {
				t.Errorf("culprit %s: want the call that received the answer", r.Culprit.Syscall)
			}
			d := r.Culprit.DNS
			if d == nil {
				t.Fatal("no culprit.dns")
			}
			if d.Name != name || d.Type != "A" || d.Server != "127.0.0.1:53" || d.Proto != tt.proto ||
				d.Good.RCode != "NOERROR" || !slices.Equal(d.Good.Answers, []string{"A " + address}) ||
				d.Here.RCode != "NXDOMAIN" || len(d.Here.Answers) != 0 || d.Here.Missing {
				t.Errorf("culprit.dns %+v", *d)
			}
			text := testutil.ReadText(t, out, "report.txt")
			server := "127.0.0.1:53"
			if tt.proto == "tcp" {
				server += " over tcp"
			}
			if want := "dns       the answer for " + name + " A differs: good A " + address + ", here NXDOMAIN (server " + server + ")"; !strings.Contains(text, want) {
				t.Errorf("the text report lacks %q:\n%s", want, text)
			}
		})
	}
}
