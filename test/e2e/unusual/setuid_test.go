package unusual_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// asNobody is setpriv's prefix that runs a command as nobody.
var asNobody = []string{"setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"}

const passwdNotice = "/usr/bin/passwd is set-user-ID uid 0 but runs as uid 65534 under envbisect"

// TestSetuidWithoutPrivilegeReported: envbisect run by nobody (no
// CAP_SYS_PTRACE) records `passwd -S`, set-user-ID root: the kernel
// withholds the privilege from a traced program, passwd runs as nobody,
// and record says so once, naming /usr/bin/passwd.
func TestSetuidWithoutPrivilegeReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("setpriv"), testutil.File("/usr/bin/passwd"))
	if fi, err := os.Stat("/usr/bin/passwd"); err != nil || fi.Mode()&os.ModeSetuid == 0 {
		t.Fatalf("/usr/bin/passwd is not set-user-ID here: %v", err)
	}
	dir := testutil.OpenDir(t)
	eb := filepath.Join(dir, "envbisect")
	testutil.CopyExecutable(t, testutil.Envbisect(t), eb)
	cmd := exec.Command(asNobody[0], append(asNobody[1:], eb, "record", "-o", filepath.Join(dir, "p.envb"), "--", "passwd", "-S")...)
	_, _, stderr := runCmd(t, cmd)
	if n := strings.Count(stderr, passwdNotice); n != 1 {
		t.Errorf("%d setuid notices, want one: %q", n, passwdNotice)
	}
}

// TestSetuidHonouredNotReported: root's envbisect traces nobody running
// `passwd -S`: the tracer has CAP_SYS_PTRACE, so the kernel honours the
// set-user-ID bit (passwd reads /etc/shadow), and nothing is reported.
func TestSetuidHonouredNotReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("setpriv"), testutil.File("/usr/bin/passwd"))
	eb := testutil.Envbisect(t)
	out := filepath.Join(t.TempDir(), "p.envb")
	_, _, stderr := run(t, eb, append(append([]string{"record", "-o", out, "--"}, asNobody...), "passwd", "-S")...)
	if strings.Contains(stderr, "set-user-ID") {
		t.Errorf("a notice although the privilege was honoured")
	}
	_, shown, _ := run(t, eb, "show", out)
	if !strings.Contains(shown, `"/etc/shadow", O_RDONLY|O_CLOEXEC) = 3`) {
		t.Errorf("passwd did not open /etc/shadow: it ran without its privilege")
	}
}

// TestSetgidLocateReported: locate run by nobody (no CAP_SYS_PTRACE)
// over a command that runs `chage -l nobody`, set-group-ID shadow (it
// reads /etc/shadow): in every run the kernel withholds the group from
// the traced chage, and locate says so once, naming /usr/bin/chage, on
// stderr, in its text report and in its JSON report's warnings, also
// when its runs are spread over two worker processes (--jobs 2). The
// command fails for another reason (a file it tests is missing here),
// which locate still locates.
func TestSetgidLocateReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("setpriv"), testutil.File("/usr/bin/chage"))
	fi, err := os.Stat("/usr/bin/chage")
	if err != nil || fi.Mode()&os.ModeSetgid == 0 {
		t.Fatalf("/usr/bin/chage is not set-group-ID here: %v", err)
	}
	nogroup, err := user.LookupGroup("nogroup")
	if err != nil {
		t.Fatal(err)
	}
	notice := fmt.Sprintf("/usr/bin/chage is set-group-ID gid %d but runs as gid %s under envbisect",
		fi.Sys().(*syscall.Stat_t).Gid, nogroup.Gid)

	dir := testutil.OpenDir(t)
	eb := filepath.Join(dir, "envbisect")
	testutil.CopyExecutable(t, testutil.Envbisect(t), eb)
	script, flag, tr := filepath.Join(dir, "run.sh"), filepath.Join(dir, "flag"), filepath.Join(dir, "good.envb")
	// chage fails without its group (it cannot open /etc/shadow), in the
	// recording as in the runs: the command goes by the flag file only.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nchage -l nobody > /dev/null 2>&1\ntest -e "+flag+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flag, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	asNobodyRun := func(args ...string) (int, string, string) {
		t.Helper()
		return runCmd(t, exec.Command(asNobody[0], append(append(asNobody[1:], eb), args...)...))
	}
	if code, _, stderr := asNobodyRun("record", "-o", tr, "--", script); code != 0 || strings.Count(stderr, notice) != 1 {
		t.Fatalf("record: exit %d, %d notices; want 0 and one %q", code, strings.Count(stderr, notice), notice)
	}
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []string{"1", "2"} {
		t.Run("jobs "+jobs, func(t *testing.T) {
			report := filepath.Join(dir, "report"+jobs+".json")
			// No sandbox: nobody may not make a mount namespace.
			code, stdout, stderr := asNobodyRun("locate", "--sandbox=off", "--jobs", jobs, "--report", report, tr, "--", script)
			if code != 0 {
				t.Fatalf("locate: exit %d, want 0 (located)", code)
			}
			if n := strings.Count(stderr, "envbisect: warning: "+notice); n != 1 {
				t.Errorf("locate warned %d times on stderr, want once: %q", n, notice)
			}
			if n := strings.Count(stdout, notice); n != 1 || !strings.Contains(stdout, "The tracer warned in the runs:\n  "+notice) {
				t.Errorf("the text report names the notice %d times, want once under \"The tracer warned in the runs:\"", n)
			}
			b, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Status  string `json:"status"`
				Culprit *struct {
					Syscall string `json:"syscall"`
					Path    string `json:"path"`
				} `json:"culprit"`
				Warnings []string `json:"warnings"`
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Status != "located" || rep.Culprit == nil || rep.Culprit.Path != flag || !strings.Contains(rep.Culprit.Syscall, "stat") {
				t.Errorf("report: %s %+v, want the stat of %s located", rep.Status, rep.Culprit, flag)
			}
			if len(rep.Warnings) != 1 || !strings.HasPrefix(rep.Warnings[0], notice) {
				t.Errorf("report's warnings %q, want the one notice %q", rep.Warnings, notice)
			}
		})
	}
}
