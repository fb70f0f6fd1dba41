package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Case is one of the thesis' three case studies (Qi's thesis, section 7.2),
// reproduced with the real program from Debian: a Scenario whose command is
// an installed daemon instead of a victim built from testdata/victims.
//
// The cases are not part of All: they need Debian packages and take
// seconds per run, so they have their own tests (test/e2e/casestudies)
// and their own table (`make casestudies`, tools/casestudies).
//
// # Environments at the real paths
//
// The program reads the paths it reads on a real machine (/run/mpd/pid,
// /etc/vsftpd.conf), so a case's Setup points the Work's mount at them:
// Work.Env becomes the real path and Work.Good and Work.Bad what is
// mounted over it, a directory over a directory (/run) or a file over a
// file (/etc/vsftpd.conf). InEnv mounts it inside a private mount
// namespace as for every scenario, so the host's /run and /etc never
// change. Culprit paths stay relative to Work.Env ("mpd/pid"; "." for the
// file itself).
//
// Want.GoodExit and Want.BadExit are not used: a daemon runs until it is
// stopped and has no exit status to compare; the recording's verdict in
// each environment (Judge) is what the tests check instead.
type Case struct {
	Scenario
	// Package is the Debian package that installs Program.
	Package string
	// Program is the daemon's executable, looked up on PATH.
	Program string
	// Tools are the other programs a run needs (the FTP check client).
	Tools []string
	// HostFiles must exist on the host: the targets of bind mounts.
	HostFiles []string
	// Judge returns the flags that judge a run (--alive, --check), given
	// alike to record, locate and replay; they name the case's port.
	Judge func(w *Work) []string
	// Thesis is what the thesis reports for the case.
	Thesis Figures
}

// Figures are the thesis' numbers for a case.
type Figures struct {
	Calls   int    // recorded calls
	Culprit int    // the culprit's position in the trace
	Call    string // the culprit call, in words
}

// Alive is how long a daemon must stay up for a run to pass. The thesis
// judged its web server after 5 s; 2 s is ample for mpd and lighttpd,
// which under the tracer fail (exit) within a few hundred milliseconds
// when they fail, and every passing run costs that long.
const Alive = "2s"

// CheckAfter is when the FTP check client logs in to vsftpd: the check
// decides, so the daemon only has to be listening by then (it is within
// 0.1 s under the tracer), and every run costs that long.
const CheckAfter = "1s"

// Thesis returns the case studies, in the thesis' order, with the
// variant of the vsftpd case that uses the thesis' literal configuration.
// Each call returns fresh values.
func Thesis() []Case {
	return []Case{mpdCase(), vsftpdCase(), vsftpdLiteralCase(), lighttpdCase()}
}

// ThesisCase returns the case called name.
func ThesisCase(name string) (Case, bool) {
	for _, c := range Thesis() {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// RecordArgv is `envbisect record -o TRACE JUDGE... [extra...] -- CMD` in
// the good environment: record judges the run as locate will.
func (c *Case) RecordArgv(w *Work, envbisect, trace string, extra ...string) []string {
	return c.RecordIn(Good, w, envbisect, trace, extra...)
}

// RecordIn is RecordArgv in side.
func (c *Case) RecordIn(side Side, w *Work, envbisect, trace string, extra ...string) []string {
	return c.Scenario.RecordIn(side, w, envbisect, trace, append(c.Judge(w), extra...)...)
}

// LocateArgv is `envbisect locate TRACE JUDGE... [extra...] -- CMD` in the
// bad environment.
func (c *Case) LocateArgv(w *Work, envbisect, trace string, extra ...string) []string {
	return c.Scenario.LocateArgv(w, envbisect, trace, append(c.Judge(w), extra...)...)
}

// ReplayArgv is `envbisect replay TRACE --prefix PREFIX JUDGE...
// [extra...] -- CMD` in the bad environment.
func (c *Case) ReplayArgv(w *Work, envbisect, trace, prefix string, extra ...string) []string {
	return c.Scenario.ReplayArgv(w, envbisect, trace, prefix, append(c.Judge(w), extra...)...)
}

// alive judges a daemon by being up after Alive.
func alive(*Work) []string { return []string{"--alive", Alive} }

// mpdConf is the MPD configuration: the pid file at Debian's place, no
// music directory (so no database), no audio output but a null one, and
// the client port on loopback only. {dir} and {port} are the Work's.
const mpdConf = `# envbisect case study: MPD with a pid file in /run/mpd
pid_file          "/run/mpd/pid"
bind_to_address   "127.0.0.1"
port              "{port}"
zeroconf_enabled  "no"
audio_output {
	type "null"
	name "null output"
}
`

// 1. MPD cannot write its pid file: /run/mpd is missing.
func mpdCase() Case {
	return Case{
		Scenario: Scenario{
			Name: "mpd",
			Summary: "Debian's mpd starts in the foreground (mpd --no-daemon) with a config of its own " +
				"and writes its pid file /run/mpd/pid",
			Differs: "/run/mpd exists in the good environment and is missing in the bad one, " +
				`where mpd exits with "Failed to create pid file"; inside the namespace a directory of the test is mounted over /run`,
			NeedsPort: true,
			Setup: func(w *Work) error {
				w.Env = "/run"
				return firstErr(
					w.Mkdir(Good, "mpd"),
					writeFile(filepath.Join(w.Dir, "mpd.conf"), w.Expand(mpdConf), 0o644),
				)
			},
			Command: func(w *Work) []string {
				return []string{"mpd", "--no-daemon", "--stderr", filepath.Join(w.Dir, "mpd.conf")}
			},
			Want: Want{
				Status: "located", ExitCode: 0,
				Culprit: &Culprit{Syscalls: []string{"openat", "open", "creat"}, Path: "mpd/pid", Exe: "mpd", BadErrno: "ENOENT"},
			},
			Timeout: 2 * time.Minute,
		},
		Package: "mpd",
		Program: "mpd",
		Judge:   alive,
		Thesis:  Figures{Calls: 1038, Culprit: 7, Call: "open of the pid file"},
	}
}

// vsftpdBase is the part of the vsftpd configuration that both
// environments share: standalone on loopback, in the foreground,
// anonymous users in a directory of the test, no local users (no PAM), no
// log files, and a refused login answered at once (not after the default
// second), so that failing runs end sooner.
const vsftpdBase = `listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port={port}
background=NO
local_enable=NO
anon_root={dir}/ftp
secure_chroot_dir={dir}/empty
xferlog_enable=NO
delay_failed_login=0
`

// vsftpdHead opens every vsftpd configuration; the lines that make the
// difference follow it, before vsftpdBase, as an administrator's edits
// near the top of the file would. (Were they at the end, the good file
// would be a prefix of the bad one, and replaying the fstat that tells
// vsftpd the file's size would already make it read only the good part:
// locate would rightly name that fstat.)
const vsftpdHead = "# envbisect case study, see docs/case-studies.md\n"

// vsftpdGood lets anonymous users in.
const vsftpdGood = vsftpdHead + "anonymous_enable=YES\n" + vsftpdBase

// vsftpdBad leaves anonymous_enable on and turns the user list into the
// list of the only users allowed in (userlist_deny=NO), naming the
// anonymous user there. vsftpd 3.0.3 reads the list only when
// local_enable=YES, so for this anonymous-only server the list is empty
// and every login, USER anonymous too, gets "530 Permission denied.".
const vsftpdBad = vsftpdHead + "anonymous_enable=YES\nuserlist_enable=YES\nuserlist_deny=NO\nuserlist_file={dir}/vsftpd.user_list\n" + vsftpdBase

// vsftpdLiteral is the thesis' bad configuration as we read it: anonymous
// access turned off and granted through the user list instead. vsftpd
// 3.0.3 (local_enable=NO) then has no way to log in at all and answers
// every connection with "500 OOPS: vsftpd: both local and anonymous access
// disabled!".
const vsftpdLiteral = vsftpdHead + "anonymous_enable=NO\nuserlist_enable=YES\nuserlist_deny=NO\nuserlist_file={dir}/vsftpd.user_list\n" + vsftpdBase

// vsftpdUsers is the user list of the bad configurations: the anonymous
// user and its system account, as an administrator granting anonymous
// access through the list would write it.
const vsftpdUsers = "anonymous\nftp\n"

// ftpCheck is the check client: curl logs in anonymously over loopback
// (USER anonymous, PASS, PWD, QUIT) and exits 0 only if the login worked
// (67 on "530 Permission denied.", 8 on "500 OOPS").
func ftpCheck(w *Work) string {
	return "curl -sSI --max-time 5 -o /dev/null ftp://127.0.0.1:" + strconv.Itoa(w.Port) + "/"
}

// vsftpdSetup writes the shared directories and both configurations and
// points the mount at /etc/vsftpd.conf, the file vsftpd reads by default.
func vsftpdSetup(bad string) func(w *Work) error {
	return func(w *Work) error {
		var errs []error
		// anon_root and secure_chroot_dir: owned by root and not writable
		// by the ftp user, or vsftpd refuses them.
		for _, d := range []string{"ftp", "empty"} {
			p := filepath.Join(w.Dir, d)
			errs = append(errs, os.MkdirAll(p, 0o755), os.Chmod(p, 0o755))
		}
		errs = append(errs,
			writeFile(filepath.Join(w.Dir, "ftp", "README"), "envbisect case study\n", 0o644),
			writeFile(filepath.Join(w.Dir, "vsftpd.user_list"), vsftpdUsers, 0o644),
			writeFile(filepath.Join(w.Good, "vsftpd.conf"), w.Expand(vsftpdGood), 0o644),
			writeFile(filepath.Join(w.Bad, "vsftpd.conf"), w.Expand(bad), 0o644),
		)
		w.Env = "/etc/vsftpd.conf"
		w.Good = filepath.Join(w.Good, "vsftpd.conf")
		w.Bad = filepath.Join(w.Bad, "vsftpd.conf")
		return firstErr(errs...)
	}
}

// vsftpdCulprit is the open of vsftpd's configuration file (".": the
// file mounted at Work.Env itself), whose replay hands out the good
// file; the report shows the read of it as the content evidence. (The
// thesis, without served files, named that read.)
func vsftpdCulprit() *Culprit {
	return &Culprit{Syscalls: []string{"openat", "open"}, Path: ".", Exe: "vsftpd", Content: true}
}

// 2. vsftpd refuses anonymous logins: its configuration says so.
func vsftpdCase() Case {
	return Case{
		Scenario: Scenario{
			Name: "vsftpd",
			Summary: "Debian's vsftpd runs standalone on 127.0.0.1 with /etc/vsftpd.conf; " +
				"an FTP client (curl) logs in anonymously while it runs",
			Differs: "/etc/vsftpd.conf (a file of the test mounted over it inside the namespace) has anonymous_enable=YES " +
				"in the good environment and adds userlist_enable=YES, userlist_deny=NO in the bad one, " +
				`where the anonymous login gets "530 Permission denied."`,
			NeedsPort: true,
			Setup:     vsftpdSetup(vsftpdBad),
			Command:   func(*Work) []string { return []string{"vsftpd"} },
			Want:      Want{Status: "located", ExitCode: 0, Culprit: vsftpdCulprit()},
			Timeout:   2 * time.Minute,
		},
		Package:   "vsftpd",
		Program:   "vsftpd",
		Tools:     []string{"curl"},
		HostFiles: []string{"/etc/vsftpd.conf"},
		Judge:     func(w *Work) []string { return []string{"--alive", CheckAfter, "--check", ftpCheck(w)} },
		Thesis:    Figures{Calls: 26, Culprit: 2, Call: "read of vsftpd.conf"},
	}
}

// 2b. The thesis' configuration as written: vsftpd answers "500 OOPS".
func vsftpdLiteralCase() Case {
	c := vsftpdCase()
	c.Name = "vsftpd-literal"
	c.Summary = "as vsftpd, with the thesis' bad configuration as written"
	c.Differs = "/etc/vsftpd.conf has anonymous_enable=YES in the good environment; in the bad one anonymous_enable=NO " +
		"and the user list (userlist_enable=YES, userlist_deny=NO) names anonymous: vsftpd 3.0.3 answers every " +
		`connection with "500 OOPS: vsftpd: both local and anonymous access disabled!"`
	c.Setup = vsftpdSetup(vsftpdLiteral)
	return c
}

// lighttpdConf serves a directory of the test on 127.0.0.1:{port}.
const lighttpdConf = `# envbisect case study: a web server whose port is taken
server.document-root = "{dir}/www"
server.bind          = "127.0.0.1"
server.port          = {port}
`

// 3. A web server cannot bind its port: another process listens on it.
func lighttpdCase() Case {
	return Case{
		Scenario: Scenario{
			Name: "lighttpd",
			Summary: "Debian's lighttpd runs in the foreground (lighttpd -D) on 127.0.0.1:PORT; " +
				"a run passes when it is still up after " + Alive,
			Differs: "in the bad environment the test itself listens on PORT, so lighttpd's bind fails " +
				"with EADDRINUSE and it exits; the files are the same",
			NeedsPort: true,
			Setup: func(w *Work) error {
				return firstErr(
					writeFile(filepath.Join(w.Dir, "lighttpd.conf"), w.Expand(lighttpdConf), 0o644),
					writeFile(filepath.Join(w.Dir, "www", "index.html"), "<p>envbisect case study</p>\n", 0o644),
				)
			},
			Command: func(w *Work) []string {
				return []string{"lighttpd", "-D", "-f", filepath.Join(w.Dir, "lighttpd.conf")}
			},
			Occupy: HoldPort,
			Want: Want{
				Status: "located", ExitCode: 0,
				Culprit: &Culprit{Syscalls: []string{"bind"}, Resource: "{port}", Exe: "lighttpd", BadErrno: "EADDRINUSE"},
			},
			Timeout: 2 * time.Minute,
		},
		Package: "lighttpd",
		Program: "lighttpd",
		Judge:   alive,
		Thesis:  Figures{Calls: 16, Culprit: 7, Call: "bind → EADDRINUSE"},
	}
}

// writeFile writes content to path with mode, creating its directory.
func writeFile(path, content string, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
