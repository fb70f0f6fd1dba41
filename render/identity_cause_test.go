package render

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestExplainCulprit(t *testing.T) {
	s := func(v string) *string { return &v }
	bounding := StartItem{Kind: string(trace.StartCaps), Name: trace.CapSetBounding, Good: s("00000000a80425fb"), Here: s("00000000a80425fa"),
		Docker: "--cap-drop CHOWN"}
	root := StartItem{Kind: string(trace.StartMount), Name: "/", Good: s("rw"), Here: s("ro"), Docker: "--read-only"}
	tmp := StartItem{Kind: string(trace.StartMount), Name: "/tmp", Good: s("rw"), Here: s("nosuid,nodev,noexec"), Docker: "--tmpfs /tmp (noexec)"}
	filter := StartItem{Kind: string(trace.StartSeccompFilter), Name: "1", Good: s("sha256:aa"), Here: s("sha256:bb"), Docker: "--security-opt seccomp=..."}
	nofile := StartItem{Kind: string(trace.StartRlimit), Name: "RLIMIT_NOFILE", Good: s("1024 1024"), Here: s("40 40")}
	nofileHigher := StartItem{Kind: string(trace.StartRlimit), Name: "RLIMIT_NOFILE", Good: s("40 40"), Here: s("1024 1024")}
	nproc := StartItem{Kind: string(trace.StartRlimit), Name: "RLIMIT_NPROC", Good: s("unlimited unlimited"), Here: s("5 5")}
	call := func(syscall, path, errno string, denied bool) *Culprit {
		return &Culprit{Syscall: syscall, Path: path, Here: CallResult{Errno: errno, Denied: denied}}
	}
	cases := []struct {
		name      string
		c         *Culprit
		unapplied []StartItem
		facts     CallFacts
		want      string // the cause's item label, "" for none
		text      string // in the cause's text
	}{
		{"capability", call("chown", "/tmp/owned", "EPERM", false), []StartItem{root, bounding}, CallFacts{Capabilities: []int{0}},
			"caps bounding", "CAP_CHOWN is in the good run's bounding set, not here"},
		{"capability not needed", call("chown", "/tmp/owned", "EPERM", false), []StartItem{bounding}, CallFacts{Capabilities: []int{5}}, "", ""},
		{"read-only", call("openat", "/new", "EROFS", false), []StartItem{tmp, root}, CallFacts{}, "mount /", "the mount at / is read-only here"},
		{"noexec", call("execve", "/tmp/x.sh", "EACCES", false), []StartItem{root, tmp}, CallFacts{Execs: true}, "mount /tmp", "noexec here"},
		{"noexec but no exec", call("openat", "/tmp/x.sh", "EACCES", false), []StartItem{tmp}, CallFacts{}, "", ""},
		{"seccomp", call("faccessat2", "/etc/passwd", "EPERM", true), []StartItem{bounding, filter}, CallFacts{}, "seccomp_filter 1",
			"seccomp filter denies faccessat2"},
		{"success", call("openat", "/new", "", false), []StartItem{root}, CallFacts{}, "", ""},
		{"open-files limit", call("openat", "/in/37", "EMFILE", false), []StartItem{root, nofile}, CallFacts{}, "rlimit RLIMIT_NOFILE",
			"open-files limit (RLIMIT_NOFILE) is 40 40 here, 1024 1024 in the good run"},
		{"process limit", call("clone", "", "EAGAIN", false), []StartItem{nproc}, CallFacts{CreatesProcess: true}, "rlimit RLIMIT_NPROC",
			"process limit (RLIMIT_NPROC) is 5 5 here"},
		// EAGAIN from a call that creates no process is not the process
		// limit's; a limit higher here explains no EMFILE.
		{"EAGAIN of a read", call("read", "/dev/x", "EAGAIN", false), []StartItem{nproc}, CallFacts{}, "", ""},
		{"limit higher here", call("openat", "/in/37", "EMFILE", false), []StartItem{nofileHigher}, CallFacts{}, "", ""},
		// Nothing that differs explains these: no cause is named.
		{"same error in the good run", &Culprit{Syscall: "chown", Path: "/tmp/owned", Here: CallResult{Errno: "EPERM"}, Good: CallResult{Errno: "EPERM"}},
			[]StartItem{bounding}, CallFacts{Capabilities: []int{0}}, "", ""},
		{"denied, no filter differs", call("faccessat2", "/etc/passwd", "EPERM", true), []StartItem{bounding}, CallFacts{}, "", ""},
		{"inheritable set only", call("chown", "/tmp/owned", "EPERM", false),
			[]StartItem{{Kind: string(trace.StartCaps), Name: trace.CapSetInheritable, Good: s("1"), Here: s("0")}}, CallFacts{Capabilities: []int{0}}, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ExplainCulprit(tc.c, tc.unapplied, tc.facts)
			if tc.want == "" {
				if got != nil {
					t.Fatalf("cause %+v, want none", got)
				}
				return
			}
			if got == nil || got.Item.Label() != tc.want || !strings.Contains(got.Text, tc.text) {
				t.Fatalf("cause %+v, want %s saying %q", got, tc.want, tc.text)
			}
		})
	}
	got := ExplainCulprit(call("faccessat2", "", "EPERM", true), []StartItem{filter}, CallFacts{})
	if got.Item.Docker != "--security-opt seccomp=... (denies faccessat2)" {
		t.Errorf("seccomp in docker's words: %q", got.Item.Docker)
	}
	if filter.Docker != "--security-opt seccomp=..." {
		t.Errorf("the listed item changed: %q", filter.Docker)
	}
}

func TestLocateTextListsUnapplied(t *testing.T) {
	s := func(v string) *string { return &v }
	root := StartItem{Kind: string(trace.StartMount), Name: "/", Good: s("rw"), Here: s("ro"), Docker: "--read-only"}
	r := &LocateReport{Status: Located, Runs: 3, RecordedCalls: 9, Unapplied: []StartItem{root},
		Culprit: &Culprit{Seq: 4, Who: "[1]", Syscall: "openat", Call: `openat(AT_FDCWD, "/new", O_WRONLY|O_CREAT, 0666)`, Path: "/new",
			Good: CallResult{Return: "3"}, Here: CallResult{Errno: "EROFS", Return: "-1 EROFS (Read-only file system)"}}}
	r.Cause = ExplainCulprit(r.Culprit, r.Unapplied, CallFacts{})
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cause     mount / (--read-only)\n", "Differs here and could not be applied by a run:\n  mount /: good rw, here ro (here: --read-only)\n",
		"the mount at / is read-only here"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestStillFailsTextNamesCause(t *testing.T) {
	s := func(v string) *string { return &v }
	tmp := StartItem{Kind: string(trace.StartMount), Name: "/tmp", Good: s("rw"), Here: s("noexec,nosuid,nodev"), Docker: "--tmpfs /tmp (noexec)"}
	r := &LocateReport{Status: ReplayStillFails, Runs: 2, Unapplied: []StartItem{tmp}}
	r.Cause = ExplainCall(FailedCall{Seq: 7, Syscall: "execve", Path: "/tmp/s.sh", Call: `execve("/tmp/s.sh", ["/tmp/s.sh"], ...) = -1 EACCES`,
		Errno: "EACCES"}, r.Unapplied, CallFacts{Execs: true})
	if r.Cause == nil || r.Cause.Seq != 7 {
		t.Fatalf("cause %+v", r.Cause)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Cause: mount /tmp (--tmpfs /tmp (noexec)).", "evidence  call 7: execve(", "the mount at /tmp is noexec here"} {
		if !strings.Contains(strings.ReplaceAll(b.String(), "\n", " "), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
