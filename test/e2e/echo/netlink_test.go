package echo_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// locates is how many times in a row the netlink case is located.
const locates = 10

// report is what the test reads of locate's JSON report.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Runs    int    `json:"runs"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
	} `json:"culprit"`
}

// TestNetlinkDumpLocatedEveryTime: a script lists the interfaces with
// `hostname -I` (glibc's getifaddrs: an RTM_GETLINK and an RTM_GETADDR
// dump over netlink, nlmsg_seq taken from time(), replies checked for
// their seq and the socket's port id) and `ip -brief addr` (iproute2's
// own dumps, seq from time() too), and then reads its configuration,
// which differs here. Each locate runs at least a second after the
// recording, so every run's seq is another than the recorded one; every
// one of the locates must name the configuration's open, never the
// netlink exchange or nothing. The seqs are checked to differ between two
// recordings a second apart.
func TestNetlinkDumpLocatedEveryTime(t *testing.T) {
	testutil.Require(t, testutil.Binary("hostname"), testutil.Binary("ip"), testutil.Binary("grep"), testutil.Binary("mount"))
	out := testutil.InWorkNS(t, `
echo mode=ok > good/app.conf
echo mode=broken > bad/app.conf
mkdir conf
cat > run.sh <<'S'
#!/bin/sh
addrs=$(hostname -I) || exit 2
[ -n "$addrs" ] || exit 2
links=$(ip -brief addr) || exit 2
[ -n "$links" ] || exit 2
grep -q '^mode=ok$' "$W/conf/app.conf"
S
mount --bind "$W/good" "$W/conf"
"$EB" record -q -o "$W/good.envb" -- sh "$W/run.sh"
sleep 1.1
"$EB" record -q -o "$W/again.envb" -- sh "$W/run.sh"
"$EB" show "$W/good.envb" > "$OUT/good.txt"
"$EB" show "$W/again.envb" > "$OUT/again.txt"
umount "$W/conf"
mount --bind "$W/bad" "$W/conf"
code=0; sh "$W/run.sh" || code=$?
echo $code > "$OUT/bad-code"
i=1
while [ $i -le `+strconv.Itoa(locates)+` ]; do
	sleep 1.1
	code=0; "$EB" locate -q --json "$W/good.envb" -- sh "$W/run.sh" > "$OUT/report$i.json" || code=$?
	echo $code > "$OUT/code$i"
	i=$((i+1))
done
`)
	if code := testutil.ReadText(t, out, "bad-code"); code == "0" {
		t.Fatal("the script passes with the bad configuration: nothing to locate")
	}
	seqA, seqB := netlinkRequest(t, out, "good.txt"), netlinkRequest(t, out, "again.txt")
	if seqA == seqB {
		t.Errorf("two recordings a second apart sent the same netlink request %s: the seqs do not differ, the test proves nothing", seqA)
	}
	for i := 1; i <= locates; i++ {
		name := "report" + strconv.Itoa(i) + ".json"
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		code := testutil.ReadText(t, out, "code"+strconv.Itoa(i))
		if r.Status != "located" || code != "0" || r.Culprit == nil || r.Culprit.Syscall != "openat" || !strings.HasSuffix(r.Culprit.Path, "/conf/app.conf") {
			t.Errorf("locate %d: status %s, exit %s, culprit %+v (%s), want located at the open of conf/app.conf", i, r.Status, code, r.Culprit, r.Message)
		}
	}
}

// netlinkRequest returns the first netlink request (sendto on the
// AF_NETLINK socket) as show prints it.
func netlinkRequest(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(testutil.ReadText(t, out, name), "\n") {
		if strings.Contains(l, "sendto(") && strings.Contains(l, "AF_NETLINK") {
			return l
		}
	}
	t.Fatalf("%s: no netlink sendto", name)
	return ""
}
