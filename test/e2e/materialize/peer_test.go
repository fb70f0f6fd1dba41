package materialize

import (
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// peerPython is Debian's python3 (a PATH may lead to another build).
const peerPython = "/usr/bin/python3"

// TestMaterializePeerDNS: a program whose answer depends on a DNS
// resolver, which answers differently here. Python's socket.getaddrinfo
// (glibc's resolver: one sendmmsg asking A and AAAA) resolves a name
// through the resolver /etc/resolv.conf names, 127.0.0.1:53 (the test's
// small DNS server, testdata/victims/dnsserver); it is recorded in a
// network namespace where the server answers the name with 10.1.2.3 and
// located in another where it answers NXDOMAIN. Nothing on the file
// system differs; the one cause is the peer 127.0.0.1:53/udp, found by
// inspection (asked the recorded questions here) and put in place by
// runs in a network namespace of their own where a stand-in answers the
// recorded answers with the live query ids, untraced. Its text names
// both answers, its fix the record to restore.
func TestMaterializePeerDNS(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("unshare"), testutil.Binary("busybox"), testutil.Binary("mount"), testutil.File(peerPython))
	server := testutil.BuildGo(t, "dnsserver")
	out := testutil.InWorkNS(t, prelude+`
printf 'nameserver 127.0.0.1\noptions attempts:1 timeout:1\n' > resolv.conf
printf '127.0.0.1 localhost\n::1 localhost\n' > hosts
printf 'hosts: files dns\n' > nsswitch.conf
mount --bind resolv.conf /etc/resolv.conf
mount --bind hosts /etc/hosts
mount --bind nsswitch.conf /etc/nsswitch.conf
cat > app/resolve.sh <<'SH'
#!/bin/sh
grep TracerPid /proc/$$/status >&2
exec `+peerPython+` -c 'import socket, sys
a = socket.getaddrinfo("artifacts.internal", 80)[0][4][0]
print(a)
sys.exit(a != "10.1.2.3")'
SH
chmod 755 app/resolve.sh
cat > "$W/serve.sh" <<'SERVE'
serve() {
	rm -f "$W/ready"
	`+server+` -dns 127.0.0.1:53 -ready "$W/ready" "$@" &
	S=$!
	i=0; while [ ! -e "$W/ready" ]; do i=$((i+1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
}
SERVE
cat > rec.sh <<'NET'
. "$W/serve.sh"
serve -a artifacts.internal=10.1.2.3
record_good ./resolve.sh
kill $S; wait $S || true
NET
in_netns ./rec.sh
cat > bad.sh <<'NET'
. "$W/serve.sh"
serve
code=0; (cd app && ./resolve.sh) > "$OUT/bad-out" 2>&1 || code=$?
echo $code > "$OUT/bad-code"
locate_bad ./resolve.sh
kill $S; wait $S || true
NET
in_netns ./bad.sh
`)
	if code := testutil.ReadText(t, out, "bad-code"); code == "0" {
		t.Fatalf("the command passes here: nothing to locate")
	}
	r, c := located(t, out)
	if c.Kind != "start" || c.Name != "peer 127.0.0.1:53/udp" {
		t.Errorf("cause %s %q; want the start item peer 127.0.0.1:53/udp", c.Kind, c.Name)
	}
	if want := "127.0.0.1:53/udp answers NXDOMAIN for artifacts.internal A here; the good run got A 10.1.2.3"; !strings.Contains(c.Says, want) {
		t.Errorf("says %q; want it to hold %q", c.Says, want)
	}
	if len(c.Fix) == 0 || !strings.HasPrefix(c.Fix[0].String(), "make the resolver at 127.0.0.1:53/udp answer artifacts.internal A with A 10.1.2.3") {
		t.Errorf("fix %v; want it to restore the record artifacts.internal A 10.1.2.3", c.Fix)
	}
	if f := r.Objects.Fix; f == nil || !strings.Contains(f.Note, "stand-in") {
		t.Errorf("fix %+v; want its note to say a stand-in answered in the run's own network", f)
	}
}

// peerPort is the port TestMaterializePeerHTTP's server listens on.
const peerPort = 18437

// TestMaterializePeerHTTP: a program whose answer depends on a TCP
// service on 127.0.0.1, which serves another file here. curl fetches
// /artifact.txt from Python's http.server and the command checks its
// content; recorded where the server serves "release 1.2", located where
// it serves "release 1.3". A note file the command reads differs too,
// and does not matter: the search over the files alone still fails, and
// the search again with the TCP peer names the peer alone, never the
// note. The one cause is the peer 127.0.0.1:PORT/tcp, named by its
// request and the good run's answer, put in place by a stand-in that
// replays the good run's connection after checking that the command sent
// the same request; untraced.
func TestMaterializePeerHTTP(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("unshare"), testutil.Binary("busybox"), testutil.Binary("curl"), testutil.File(peerPython))
	port := strconv.Itoa(peerPort)
	out := testutil.InWorkNS(t, prelude+`
mkdir -p www/good www/bad
echo 'release 1.2' > www/good/artifact.txt
echo 'release 1.3' > www/bad/artifact.txt
cat > app/fetch.sh <<'SH'
#!/bin/sh
grep TracerPid /proc/$$/status >&2
read note < fetch.note
got=$(curl -sf http://127.0.0.1:`+port+`/artifact.txt) || exit 2
echo "got: $got" >&2
[ "$got" = "release 1.2" ]
SH
chmod 755 app/fetch.sh
cat > "$W/serve.sh" <<'SERVE'
serve() {
	`+peerPython+` -m http.server --bind 127.0.0.1 --directory "$W/www/$1" `+port+` > "$OUT/server-$1.log" 2>&1 &
	S=$!
	i=0; until busybox wget -q -O /dev/null http://127.0.0.1:`+port+`/artifact.txt 2>/dev/null; do
		i=$((i+1)); [ $i -lt 200 ] || exit 1; sleep 0.05
	done
}
SERVE
cat > rec.sh <<'NET'
. "$W/serve.sh"
serve good
echo 'fetched on the good machine' > app/fetch.note
record_good ./fetch.sh
echo 'fetched here' > app/fetch.note
kill $S; wait $S || true
NET
in_netns ./rec.sh
cat > bad.sh <<'NET'
. "$W/serve.sh"
serve bad
code=0; (cd app && ./fetch.sh) > "$OUT/bad-out" 2>&1 || code=$?
echo $code > "$OUT/bad-code"
locate_bad ./fetch.sh
kill $S; wait $S || true
NET
in_netns ./bad.sh
`)
	if code := testutil.ReadText(t, out, "bad-code"); code == "0" {
		t.Fatalf("the command passes here: nothing to locate")
	}
	r, c := located(t, out)
	if r.Objects.Candidates != 2 {
		t.Errorf("%d candidates; want the peer and the note", r.Objects.Candidates)
	}
	addr := "127.0.0.1:" + port + "/tcp"
	if c.Kind != "start" || c.Name != "peer "+addr {
		t.Errorf("cause %s %q; want the start item peer %s", c.Kind, c.Name, addr)
	}
	if want := "peer " + addr + ` answers differently here; the good run got "HTTP/1.0 200 OK" to "GET /artifact.txt HTTP/1.1"`; c.Says != want {
		t.Errorf("says %q; want %q", c.Says, want)
	}
	if len(c.Fix) != 1 || !strings.HasPrefix(c.Fix[0].String(), "make the service at "+addr+" answer as in the good run") {
		t.Errorf("fix %v; want the service at %s to answer as in the good run", c.Fix, addr)
	}
}
