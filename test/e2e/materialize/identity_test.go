package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeSupplementaryGroup: a key file mode 0640, owned by root
// and group 44 (video in Debian's group database), read with coreutils'
// cat by user 1000. The good run has group 44 among its supplementary
// groups (setpriv --groups 44); here the command starts without it
// (setpriv --clear-groups), as a session started before usermod -aG
// would. envbisect runs here as user 1000 too, given CAP_SETGID (to set
// the command's groups) and CAP_SYS_ADMIN (for its sandbox) as ambient
// capabilities, nothing else: the object search gives the command the
// good run's groups in a run and names the group, by id and name, not
// the key file, with a fix validated by that run.
func TestMaterializeSupplementaryGroup(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("setpriv"), testutil.Binary("cat"))
	out := testutil.InWorkNS(t, prelude+`
getent group 44 | cut -d: -f1 > "$OUT/group"
# user 1000 reaches the work directory, writes the trace there and the
# runs' logs to $OUT, and runs envbisect.
chmod 777 "$W" "$OUT" app && chmod 755 "$(dirname "$W")" "$(dirname "$OUT")"
chmod 755 "$(dirname "$EB")"
echo "-----BEGIN TEST KEY-----" > app/key.pem
chown 0:44 app/key.pem && chmod 0640 app/key.pem
cat > app/read.sh <<'SH'
#!/bin/sh
grep TracerPid /proc/$$/status >&2
exec cat key.pem
SH
chmod 755 app/read.sh
user="setpriv --reuid 1000 --regid 1000"
(cd app && $user --groups 44 "$EB" record -o ../t.envb -- ./read.sh) 2> "$OUT/record.err"
cat "$OUT/record.err"
(cd app && $user --clear-groups ./read.sh) && exit 1
code=0
(cd app && $user --clear-groups --inh-caps +setgid,+sys_admin --ambient-caps +setgid,+sys_admin \
	"$EB" locate --json --logs "$OUT/logs" ../t.envb -- ./read.sh > "$OUT/report.json") || code=$?
echo $code > "$OUT/code"
`)
	if g := testutil.ReadText(t, out, "group"); g != "video" {
		t.Fatalf("group 44 is %q in this machine's group database; the test wants Debian's video", g)
	}
	_, c := located(t, out)
	if c.Kind != "start" || c.Name != "creds groups" {
		t.Fatalf("cause %s %q (%s); want the start item creds groups, not the key file", c.Kind, c.Name, c.Says)
	}
	if want := "group 44 (video): in the good run's supplementary groups, not here"; c.Says != want {
		t.Errorf("says %q; want %q", c.Says, want)
	}
	wantFix(t, c, `usermod -aG video "$USER"`,
		"then log in again, or run newgrp video: a session started before the change has its old groups; for one command: sg video -c COMMAND",
		"for one command, as root: setpriv --groups 44 COMMAND (the good run's groups; keep its user with --reuid and --regid)")
	if strings.Contains(c.Says, "key.pem") {
		t.Errorf("says %q: the key file is the symptom, not the cause", c.Says)
	}
}

// pingReport is what the ping tests read of locate's JSON report.
type pingReport struct {
	Status    string `json:"status"`
	Message   string `json:"message"`
	Mechanism string `json:"mechanism"`
	Culprit   *struct {
		Syscall    string `json:"syscall"`
		Path       string `json:"path"`
		Unreplayed bool   `json:"unreplayed"`
		Here       struct {
			Errno string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
	Cause *struct {
		Item struct {
			Kind   string `json:"kind"`
			Name   string `json:"name"`
			Text   string `json:"text"`
			Remedy string `json:"remedy"`
		} `json:"item"`
		Text string `json:"text"`
	} `json:"cause"`
	Steps []struct {
		Prefix  int    `json:"prefix"`
		Verdict string `json:"verdict"`
		Detail  string `json:"detail"`
	} `json:"steps"`
}

// pingLocated runs iputils' ping (PING, a path) to 127.0.0.1 in network
// namespaces whose net.ipv4.ping_group_range excludes every group, so
// that it needs a raw socket: recorded with this process's bounding set,
// located under setpriv --bounding-set -net_raw. It checks what both
// ping tests want: located, by the call-level search (no object differs
// here), at a call of syscall, the cause CAP_NET_RAW in the bounding set,
// with no run that replayed anything (the call is never handed a
// stand-in), and returns the report.
func pingLocated(t *testing.T, setup, ping, syscall string) pingReport {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Binary("setpriv"), testutil.Binary("busybox"), testutil.Binary("sysctl"),
		testutil.File("/usr/bin/ping"))
	out := testutil.InWorkNS(t, prelude+setup+`
cat > good.sh <<NET
sysctl -qw net.ipv4.ping_group_range="1 0"
(cd app && "\$EB" record -q -o ../t.envb -- `+ping+` -c1 -W2 127.0.0.1)
NET
cat > bad.sh <<NET
sysctl -qw net.ipv4.ping_group_range="1 0"
code=0
(cd app && setpriv --bounding-set -net_raw -- "\$EB" locate --json ../t.envb -- `+ping+` -c1 -W2 127.0.0.1 > "\$OUT/report.json") || code=\$?
echo \$code > "\$OUT/code"
NET
in_netns ./good.sh
in_netns ./bad.sh
`)
	var r pingReport
	testutil.ReadJSON(t, out+"/report.json", &r)
	for _, s := range r.Steps {
		t.Logf("  step: prefix %d: %s (%s)", s.Prefix, s.Verdict, s.Detail)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" || r.Status != "located" {
		t.Fatalf("locate exited %s, status %q (%s); want 0, located", code, r.Status, r.Message)
	}
	if r.Mechanism != "call-level" {
		t.Errorf("mechanism %q; want call-level (no object differs here)", r.Mechanism)
	}
	if c := r.Culprit; c == nil || c.Syscall != syscall || c.Here.Errno != "EPERM" || !c.Unreplayed {
		t.Errorf("culprit %+v; want the %s that got EPERM here, named unreplayed", c, syscall)
	}
	if c := r.Cause; c == nil || c.Item.Kind != "caps" || c.Item.Name != "bounding" ||
		c.Item.Text != "CAP_NET_RAW: in the good run's bounding set, not here" ||
		!strings.HasSuffix(c.Text, "EPERM here: CAP_NET_RAW is in the good run's bounding set, not here") {
		t.Fatalf("cause %+v; want CAP_NET_RAW in the bounding set", c)
	} else if !strings.Contains(c.Item.Remedy, "bounding set holds CAP_NET_RAW") {
		t.Errorf("remedy %q; want it to say what gives CAP_NET_RAW back", c.Item.Remedy)
	}
	for _, s := range r.Steps {
		if s.Prefix != 0 {
			t.Errorf("a run replayed %d units (%s): the raw socket's replay would hand ping a stand-in", s.Prefix, s.Detail)
		}
	}
	return r
}

// TestLocatePingWithoutNetRaw: Debian's ping carries cap_net_raw+ep;
// started from a process without CAP_NET_RAW in its bounding set, the
// kernel refuses its exec (EPERM). envbisect lacks the capability too,
// so no run can start ping: locate names the exec, and CAP_NET_RAW as
// the cause, where it used to end with "replay still fails".
func TestLocatePingWithoutNetRaw(t *testing.T) {
	r := pingLocated(t, "", "ping", "execve")
	if r.Culprit.Path != "/usr/bin/ping" {
		t.Errorf("culprit path %q; want /usr/bin/ping", r.Culprit.Path)
	}
}

// TestLocatePingRawSocketWithoutNetRaw: the same ping, copied without its
// file capabilities (cp keeps no xattrs) and run as root: here it starts,
// and its socket(AF_INET, SOCK_RAW) fails with EPERM. A run that replayed
// that call would hand ping a stand-in descriptor, on which its recvmsg
// fails with ENOTSOCK (the search then ended inconclusive); locate names
// the socket call, and CAP_NET_RAW as its cause, with no run replaying
// it.
func TestLocatePingRawSocketWithoutNetRaw(t *testing.T) {
	pingLocated(t, "cp /usr/bin/ping app/ping\n", "./ping", "socket")
}
