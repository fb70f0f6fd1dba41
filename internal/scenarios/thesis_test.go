package scenarios

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestThesis checks the case studies' definitions: unique names, a
// program and a judge, a culprit to look for, configurations that name
// the case's port and directory.
func TestThesis(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Thesis() {
		if c.Name == "" || names[c.Name] {
			t.Errorf("case name %q empty or repeated", c.Name)
		}
		names[c.Name] = true
		if c.Package == "" || c.Program == "" || c.Judge == nil || c.Command == nil || c.Setup == nil {
			t.Errorf("%s: Package, Program, Judge, Command and Setup must be set", c.Name)
		}
		if cu := c.Want.Culprit; cu == nil || len(cu.Syscalls) == 0 || c.Want.Status != "located" {
			t.Errorf("%s: every case must be located, with a culprit to look for", c.Name)
		}
		if c.Thesis.Calls == 0 || c.Thesis.Culprit == 0 {
			t.Errorf("%s: the thesis' figures are missing", c.Name)
		}
		if got, ok := ThesisCase(c.Name); !ok || got.Name != c.Name {
			t.Errorf("ThesisCase(%q) = %q, %v", c.Name, got.Name, ok)
		}
		if _, ok := ByName(c.Name); ok {
			t.Errorf("%s is also in All: the case studies have their own tests", c.Name)
		}
	}
}

// TestThesisSetup prepares every case (no program runs) and checks where
// its environments are mounted and what its files say.
func TestThesisSetup(t *testing.T) {
	for _, c := range Thesis() {
		t.Run(c.Name, func(t *testing.T) {
			w, err := c.Prepare(testutil.RepoRoot(t), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if w.Port == 0 {
				t.Errorf("no port picked")
			}
			argv := strings.Join(c.LocateArgv(w, "envbisect", "t.envb", "--json"), " ")
			if !strings.Contains(argv, " "+w.Bad+" "+w.Env+" envbisect locate t.envb --alive ") {
				t.Errorf("locate does not mount %s over %s: %s", w.Bad, w.Env, argv)
			}
			if !strings.Contains(strings.Join(c.RecordArgv(w, "envbisect", "t.envb"), " "), " "+w.Good+" "+w.Env+" envbisect record -o t.envb --alive ") {
				t.Errorf("record does not mount %s over %s", w.Good, w.Env)
			}
			switch c.Program {
			case "mpd":
				if w.Env != "/run" || !isDir(w.Good+"/mpd") || isDir(w.Bad+"/mpd") {
					t.Errorf("mpd: want /run mounted from a tree with mpd/ (good) and without (bad); env %s", w.Env)
				}
				if conf := readFile(t, w.Dir+"/mpd.conf"); !strings.Contains(conf, `"/run/mpd/pid"`) || !strings.Contains(conf, w.Expand(`"{port}"`)) {
					t.Errorf("mpd.conf:\n%s", conf)
				}
			case "vsftpd":
				good, bad := readFile(t, w.Good), readFile(t, w.Bad)
				if w.Env != "/etc/vsftpd.conf" || !strings.Contains(good, "anonymous_enable=YES\n") ||
					strings.Contains(good, "userlist") || !strings.Contains(bad, "userlist_enable=YES\nuserlist_deny=NO\n") {
					t.Errorf("vsftpd: env %s\ngood:\n%s\nbad:\n%s", w.Env, good, bad)
				}
				// The differing lines come early: the good file is no
				// prefix of the bad one.
				if strings.HasPrefix(bad, good[:len(good)-1]) {
					t.Errorf("the good configuration is a prefix of the bad one")
				}
				if !slices.Contains(c.Judge(w), "--check") || !strings.Contains(strings.Join(c.Judge(w), " "), w.Expand("127.0.0.1:{port}/")) {
					t.Errorf("vsftpd is not judged by an FTP client on its port: %q", c.Judge(w))
				}
			case "lighttpd":
				if c.Occupy == nil || !strings.Contains(readFile(t, w.Dir+"/lighttpd.conf"), w.Expand("server.port          = {port}")) {
					t.Errorf("lighttpd: no port held, or not in the config")
				}
			}
		})
	}
}

func TestRunBound(t *testing.T) {
	for n, want := range map[int]int{1: 3, 2: 4, 16: 7, 17: 8, 106: 10, 519: 13, 2676: 15} {
		if got := RunBound(n); got != want {
			t.Errorf("RunBound(%d) = %d, want %d", n, got, want)
		}
	}
	if got := Thousands(1038); got != "1,038" {
		t.Errorf("Thousands(1038) = %q", got)
	}
}

// TestStopNew starts processes named like a daemon of a case and checks
// that the leftover check finds the new one, kills it, and leaves the one
// that ran before be. The program is a copy of sleep with a name of its
// own, so that no other test's process can be taken for it; each runs in
// a mount namespace of its own, as a case's daemons do.
func TestStopNew(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("sleep"), testutil.Binary("unshare"))
	src, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	const name = "envbstopnew"
	bin := filepath.Join(t.TempDir(), name)
	if b, err := os.ReadFile(src); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	start := func() *exec.Cmd {
		cmd := exec.Command("unshare", "--mount", "--", bin, "60") // unshare execs bin: one pid
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Until unshare has exec'd bin, the process is named unshare.
		comm := fmt.Sprintf("/proc/%d/comm", cmd.Process.Pid)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(comm); strings.TrimSpace(string(b)) == name {
				break
			}
		}
		return cmd
	}
	old := start()
	defer func() { old.Process.Kill(); old.Wait() }()
	before := ProgramPids(name)
	if _, ok := before[old.Process.Pid]; !ok || len(before) != 1 {
		t.Fatalf("ProgramPids(%s) = %v, want just %d", name, before, old.Process.Pid)
	}
	cmd := start()
	left := stopNew(before, 100*time.Millisecond, name)
	err = cmd.Wait()
	if len(left) != 1 || !strings.Contains(left[0], fmt.Sprintf("process %d (%s) outlived", cmd.Process.Pid, name)) || err == nil {
		t.Errorf("stopNew = %q (the new process's wait: %v); want it reported and killed", left, err)
	}
	if now := ProgramPids(name); len(now) != 1 {
		t.Errorf("after stopNew: %v, want the old process only", now)
	}
	// One in this process's own namespace is another package's, not a
	// case's: not found, not killed.
	mine := exec.Command(bin, "60")
	if err := mine.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { mine.Process.Kill(); mine.Wait() }()
	if now := ProgramPids(name); len(now) != 1 {
		t.Errorf("with one in our own namespace: %v, want the old process only", now)
	}
	if left := stopNew(ProgramPids(name), 0, name); len(left) != 0 {
		t.Errorf("stopNew reports %q with nothing new", left)
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
