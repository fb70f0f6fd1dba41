package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestExplain: each kind of difference has its sentence, built from the
// culprit's results and Facts.
func TestExplain(t *testing.T) {
	s := func(v string) *string { return &v }
	ok := CallResult{Errno: ""}
	errno := func(e string) CallResult { return CallResult{Errno: e} }
	cases := []struct {
		name string
		c    Culprit
		want string
	}{
		{"start item", Culprit{Start: &StartItem{Kind: "rlimit", Name: "RLIMIT_NOFILE", Good: s("1024 524288"), Here: s("12 524288")}},
			`The command started here with rlimit RLIMIT_NOFILE "12 524288"; in the good run it started with "1024 524288".`},
		{"unset variable", Culprit{Start: &StartItem{Kind: "env", Name: "LANG", Good: s("C.UTF-8")}},
			`The command started here with env LANG (not set); in the good run it started with "C.UTF-8".`},
		{"missing parent", Culprit{Seq: 9, Syscall: "openat", Path: "/var/run/mpd/mpd.pid", Good: ok, Here: errno("ENOENT"),
			Facts: &Facts{Missing: &MissingComponent{Path: "/var/run/mpd", Known: true, Seq: 7, ExistedInGood: true}}},
			"/var/run/mpd does not exist here (call 7 shows it), so /var/run/mpd/mpd.pid cannot be reached; in the good run it existed."},
		{"missing leaf", Culprit{Seq: 9, Syscall: "openat", Path: "/etc/app.conf", Good: ok, Here: errno("ENOENT"),
			Facts: &Facts{Missing: &MissingComponent{Path: "/etc/app.conf", Known: true, Seq: 9, ExistedInGood: true}}},
			"/etc/app.conf does not exist here; in the good run it existed."},
		{"missing, parents unknown", Culprit{Seq: 9, Syscall: "openat", Path: "/opt/x/y", Good: ok, Here: errno("ENOENT"),
			Facts: &Facts{Missing: &MissingComponent{Path: "/opt/x/y"}}},
			"/opt/x/y does not exist here; the trace has no call on its parent directories, so which component of the path " +
				"is missing is not known (in the good run the call succeeded)."},
		{"denied, modes", Culprit{Seq: 12, Syscall: "openat", Path: "/srv/out/f", Good: ok, Here: errno("EACCES"),
			Facts: &Facts{Paths: []PathStat{{Path: "/srv/out", Good: &FileStat{Seq: 10, Mode: 0o40777}, Here: &FileStat{Seq: 10, Mode: 0o40755}}},
				RanAs: &Creds{UID: "65534 65534 65534 65534", GID: "65534 65534 65534 65534", GoodUID: "0 0 0 0", GoodGID: "0 0 0 0"}}},
			"openat(/srv/out/f) is denied here (EACCES) to uid 65534 gid 65534 (good: uid 0 gid 0). " +
				"/srv/out is drwxr-xr-x 0:0 here, drwxrwxrwx 0:0 in the good run."},
		{"denied after setresuid, umask", Culprit{Seq: 12, Syscall: "mkdir", Path: "/srv/out", Good: ok, Here: errno("EPERM"),
			Facts: &Facts{RanAs: &Creds{UID: "0 0 0 0", GID: "0 0 0 0", Changed: []string{"call 4 setresuid(65534, 65534, 65534) = 0", "call 5 setgroups(0, NULL) = 0"}},
				Umask: &StartItem{Kind: "umask", Good: s("0022"), Here: s("0777")}}},
			"mkdir(/srv/out) is denied here (EPERM), after its ids were changed (call 4 setresuid(65534, 65534, 65534), call 5 setgroups(0, NULL)). " +
				"The trace holds no stat of the path or its parent directories, so their modes are not known. " +
				"The umask is 0777 here, 0022 in the good run."},
		{"metadata", Culprit{Syscall: "newfstatat", Path: "/srv/out", Good: ok, Here: ok, DataDiff: &DataDiff{Buffer: "statbuf", GoodSize: 144, HereSize: 144},
			Facts: &Facts{Paths: []PathStat{{Path: "/srv/out", Good: &FileStat{Mode: 0o40777}, Here: &FileStat{Mode: 0o40755, UID: 1000}}}}},
			"/srv/out is drwxr-xr-x 1000:0 here, drwxrwxrwx 0:0 in the good run (mode, owner:group)."},
		{"stat's mtime", Culprit{Syscall: "stat", Path: "/src/out.txt", Good: ok, Here: ok, DataDiff: &DataDiff{Buffer: "statbuf",
			GoodSize: 144, HereSize: 144, Struct: "struct stat",
			Fields: []FieldDiff{{Field: "st_mtime", Good: "2026-11-25 10:05:00 UTC", Here: "2026-11-25 10:00:00 UTC"}}}},
			"/src/out.txt's st_mtime differs here (its stat): here 2026-11-25 10:00:00 UTC, good 2026-11-25 10:05:00 UTC."},
		{"statx, two members", Culprit{Syscall: "statx", Path: "/src/a", Good: ok, Here: ok, DataDiff: &DataDiff{Buffer: "statxbuf",
			Struct: "struct statx", Fields: []FieldDiff{{Field: "stx_size", Good: "12", Here: "6"}, {Field: "stx_mtime", Good: "x", Here: "y"}}}},
			"/src/a's stx_size and stx_mtime differ here (its statx): stx_size here 6, good 12; stx_mtime here y, good x."},
		{"stat, volatile members only", Culprit{Syscall: "stat", Path: "/src/a", Good: ok, Here: ok, DataDiff: &DataDiff{Buffer: "statbuf",
			Struct: "struct stat"}},
			"The stat of /src/a differs here only in members that differ between any two runs by nature (such as device and inode " +
				"numbers), which no program decides by."},
		{"denied in both", Culprit{Syscall: "openat", Path: "/root/x", Good: CallResult{Errno: "EACCES", Return: "-1 EACCES"},
			Here: CallResult{Errno: "EACCES", Return: "-1 EACCES"}},
			"openat(/root/x) returned -1 EACCES here and in the good run; replaying it made the difference."},
		{"text content", Culprit{Syscall: "read", Path: "/etc/app.conf", Good: ok, Here: ok,
			DataDiff: &DataDiff{Text: true, GoodSize: 10, HereSize: 10, FirstDifference: 3}},
			"The content of /etc/app.conf differs here: 10 bytes in both, first difference at offset 3 (the diff below)."},
		{"binary content of an open", Culprit{Syscall: "openat", Path: "/usr/lib/libx.so", Good: ok, Here: ok,
			Content: &Culprit{DataDiff: &DataDiff{GoodSize: 832, HereSize: 840, FirstDifference: 24, GoodSHA256: "aa", HereSHA256: "bb"}}},
			"The content of /usr/lib/libx.so differs here: 832 bytes -> 840 bytes, first difference at offset 24; SHA-256 good aa, here bb."},
		{"address held", Culprit{Syscall: "bind", Good: ok, Here: errno("EADDRINUSE"),
			Facts: &Facts{Holder: &AddressHolder{Address: "127.0.0.1:8080", PID: 412, Exe: "/usr/sbin/nginx", FoundBy: "locate, after the runs"}}},
			"127.0.0.1:8080 is held here by pid 412 (/usr/sbin/nginx), found by locate, after the runs."},
		{"address holder not found", Culprit{Syscall: "bind", Good: ok, Here: errno("EADDRINUSE"),
			Facts: &Facts{Holder: &AddressHolder{Address: "127.0.0.1:8080", Why: "no process of this pid namespace holds its socket"}}},
			"127.0.0.1:8080 is in use here; the process that holds it was not found (no process of this pid namespace holds its socket)."},
		{"did not happen", Culprit{Syscall: "chdir", Path: "/src/wt", Good: CallResult{Return: "0"}, Here: CallResult{Missing: true}},
			"chdir(/src/wt) did not happen here: the program took another path before it; in the good run it returned 0."},
		{"directory entries", Culprit{Syscall: "getdents64", Path: "/etc/ssh/ssh_config.d", Good: ok, Here: ok,
			DataDiff: &DataDiff{Buffer: "dirp", GoodSize: 80, HereSize: 112, GoodSHA256: "aa", HereSHA256: "bb",
				Entries: &DirEntries{OnlyHere: []string{"50-corp.conf"}}}},
			"The directory /etc/ssh/ssh_config.d has an entry here that it did not have in the good run: 50-corp.conf."},
		{"directory entries both ways", Culprit{Syscall: "getdents64", Path: "/etc/app.d", Good: ok, Here: ok,
			DataDiff: &DataDiff{Buffer: "dirp", Entries: &DirEntries{OnlyHere: []string{"x.conf", "y.conf"}, OnlyGood: []string{"a.conf"}}}},
			"The directory /etc/app.d has entries here that it did not have in the good run: x.conf and y.conf. " +
				"It lacks an entry it had in the good run: a.conf."},
		{"capability set", Culprit{Start: &StartItem{Kind: "caps", Name: "permitted", Good: s("00000000a80425fb"), Here: s("00000000a80425fa")}},
			"CAP_CHOWN: in the good run's permitted set, not here."},
		{"PATH hides a program", Culprit{Start: &StartItem{Kind: "env", Name: "PATH", Good: s("/opt/app/bin:/usr/bin"), Here: s("/usr/bin")},
			Facts: &Facts{Programs: []ProgramLookup{{Name: "mytool", Good: "/opt/app/bin/mytool"}}}},
			`The command started here with env PATH "/usr/bin"; in the good run it started with "/opt/app/bin:/usr/bin". ` +
				"The command looked up mytool along PATH: the good run found /opt/app/bin/mytool; here it is found nowhere on PATH."},
		{"PATH reveals a program", Culprit{Start: &StartItem{Kind: "env", Name: "PATH", Good: s("/usr/bin"), Here: s("/usr/local/bin:/usr/bin")},
			Facts: &Facts{Programs: []ProgramLookup{{Name: "find", Good: "/usr/bin/find", Here: "/usr/local/bin/find"}}}},
			`The command started here with env PATH "/usr/local/bin:/usr/bin"; in the good run it started with "/usr/bin". ` +
				"The command looked up find along PATH: the good run found /usr/bin/find; here it is /usr/local/bin/find."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Explain(&tc.c); got != tc.want {
				t.Errorf("Explain:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestModeText: modes as ls prints them.
func TestModeText(t *testing.T) {
	for m, want := range map[uint32]string{
		0o40755: "drwxr-xr-x", 0o41777: "drwxrwxrwt", 0o100644: "-rw-r--r--", 0o104755: "-rwsr-xr-x",
		0o102640: "-rw-r-S---", 0o120777: "lrwxrwxrwx", 0o20666: "crw-rw-rw-", 0o40000: "d---------",
	} {
		if got := ModeText(m); got != want {
			t.Errorf("ModeText(%o) = %q, want %q", m, got, want)
		}
	}
}

// TestExplanationInReport: the explanation is in the text report and in
// JSON as culprit.explanation, with the facts beside it.
func TestExplanationInReport(t *testing.T) {
	c := &Culprit{Seq: 9, Syscall: "openat", Call: `openat(AT_FDCWD, "/var/run/mpd/pid", O_RDONLY) = 3`, Path: "/var/run/mpd/pid",
		Good: CallResult{Return: "3"}, Here: CallResult{Errno: "ENOENT", Return: "-1 ENOENT (No such file or directory)"},
		Facts: &Facts{Missing: &MissingComponent{Path: "/var/run/mpd", Known: true, Seq: 7, ExistedInGood: true}}}
	c.Explanation = Explain(c)
	r := &LocateReport{Status: Located, Runs: 3, RecordedCalls: 20, Culprit: c}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(got, c.Explanation) {
		t.Errorf("the text report lacks the explanation %q:\n%s", c.Explanation, b.String())
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Culprit struct {
			Explanation string `json:"explanation"`
			Facts       struct {
				Missing struct {
					Path  string `json:"path"`
					Known bool   `json:"known"`
				} `json:"missing"`
			} `json:"facts"`
		} `json:"culprit"`
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Culprit.Explanation != c.Explanation || back.Culprit.Facts.Missing.Path != "/var/run/mpd" || !back.Culprit.Facts.Missing.Known {
		t.Errorf("JSON culprit: %s", raw)
	}
}

// TestPackageSentenceNoOwner: a file no package owns on either side is
// said once, not twice.
func TestPackageSentenceNoOwner(t *testing.T) {
	none := &trace.Package{Manager: "dpkg"}
	got := packageSentence(&PackageOwners{Path: "/opt/lib/libfoo.so", Good: none, Here: &trace.Package{Manager: "dpkg"}})
	want := "/opt/lib/libfoo.so belongs to no dpkg package, here or in the good run (installed by hand or built)."
	if got != want {
		t.Errorf("packageSentence = %q, want %q", got, want)
	}
}
