package materialize

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeTunable: a service's preflight check (as Redis's and
// Elasticsearch's bootstrap checks do) asks procps's sysctl for the
// listen backlog limit, net.core.somaxconn, and the ephemeral port
// range, and refuses to start below a backlog of 1024; it also reads a
// random UUID, the boot id and the count of open files, which differ
// run to run. It is recorded in a network namespace where somaxconn is
// 4096 and located in another where it is 512 (both namespaces the
// test's own: sysctl -w there never touches this machine's settings).
// The cause is the tunable, with both values in words, and the fix
// sysctl -w net.core.somaxconn=4096, validated by a run that bound the
// good value over /proc/sys/net/core/somaxconn in its mount namespace.
// The port range reads the same on both sides, and the volatile files
// are never candidates.
func TestMaterializeTunable(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("busybox"), testutil.Binary("unshare"), testutil.Binary("sysctl"))
	out := testutil.InWorkNS(t, prelude+`
cat > app/preflight.sh <<'SH'
#!/bin/sh
set -e
grep TracerPid /proc/$$/status >&2
run=$(cat /proc/sys/kernel/random/uuid)
cat /proc/sys/kernel/random/boot_id /proc/sys/fs/file-nr > /dev/null
backlog=$(sysctl -n net.core.somaxconn)
ports=$(sysctl -n net.ipv4.ip_local_port_range)
if [ "$backlog" -lt 1024 ]; then
	echo "preflight $run: net.core.somaxconn is $backlog, the service needs 1024" >&2
	exit 2
fi
echo "preflight $run: backlog $backlog, ephemeral ports $ports"
SH
chmod 755 app/preflight.sh
cat > good.sh <<'NET'
sysctl -w net.core.somaxconn=4096
record_good ./preflight.sh
NET
cat > bad.sh <<'NET'
sysctl -w net.core.somaxconn=512
sysctl -n net.core.somaxconn > "$OUT/here"
locate_bad ./preflight.sh
NET
in_netns ./good.sh
in_netns ./bad.sh
sysctl -n net.core.somaxconn > "$OUT/host"
`)
	if here, host := testutil.ReadText(t, out, "here"), testutil.ReadText(t, out, "host"); here != "512" || host == "512" {
		t.Fatalf("somaxconn %q in the bad namespace, %q on this machine; want 512 in the namespace only", here, host)
	}
	r, c := located(t, out)
	const p = "/proc/sys/net/core/somaxconn"
	if c.Kind != "object" || c.Path != p {
		t.Errorf("cause %s %s; want the tunable %s", c.Kind, c.Path, p)
	}
	if want := `kernel tunable net.core.somaxconn is "512" here, "4096" in the good run`; !strings.HasPrefix(c.Says, want) {
		t.Errorf("says %q; want it to start %q", c.Says, want)
	}
	if len(c.Objects) != 1 || !strings.Contains(strings.Join(c.Objects[0].Differs, ","), "value") {
		t.Errorf("objects %+v; want the one tunable, its value", c.Objects)
	}
	if !strings.Contains(c.FirstCall, `"`+p+`"`) {
		t.Errorf("first call %q; want sysctl's first call on %s", c.FirstCall, p)
	}
	wantFix(t, c, "sysctl -w net.core.somaxconn=4096")
	// The UUID differs, and the port range does not: neither is an
	// object of the search.
	if r.Objects.Objects != 1 {
		t.Errorf("the search had %d objects; want the one tunable, not the volatile files", r.Objects.Objects)
	}
	for _, u := range r.Objects.Unplaced {
		if strings.HasPrefix(u.Path, "/proc/") {
			t.Errorf("not placed: %s (%s): a kernel file that differs is a candidate or skipped, never an unplaced object", u.Path, u.Why)
		}
	}
}
