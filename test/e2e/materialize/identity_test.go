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
