package main

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestRecordChown: as root, record --chown gives the trace to the user
// named (and its login group, or the group named), by name or by number;
// a user that does not exist is a usage error before the command runs.
func TestRecordChown(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	dir := t.TempDir()
	cases := []struct {
		spec     string
		uid, gid int
	}{
		{"nobody", uid, gid},
		{"nobody:0", uid, 0},
		{"54321:54322", 54321, 54322},
	}
	for i, tc := range cases {
		out := filepath.Join(dir, "t"+strconv.Itoa(i)+".envb")
		code, _, stderr := cli(t, "record", "-q", "--chown", tc.spec, "-o", out, "--", "true")
		if code != 0 {
			t.Errorf("record --chown %s: exit %d, %s", tc.spec, code, stderr)
			continue
		}
		fi, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if int(st.Uid) != tc.uid || int(st.Gid) != tc.gid || fi.Mode().Perm() != 0o600 {
			t.Errorf("--chown %s: the trace is %d:%d %v; want %d:%d -rw-------", tc.spec, st.Uid, st.Gid, fi.Mode().Perm(), tc.uid, tc.gid)
		}
	}
	marker := filepath.Join(dir, "ran")
	code, _, stderr := cli(t, "record", "--chown", "no-such-user-xyz", "-o", filepath.Join(dir, "bad.envb"), "--", "touch", marker)
	if code != exitUsage || !strings.Contains(stderr, `--chown "no-such-user-xyz"`) {
		t.Errorf("--chown of no user: exit %d, %q; want %d naming the flag", code, stderr, exitUsage)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran although --chown named no user")
	}
}
