package envobj

import (
	"slices"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// Each kind of difference has its words and its fix: what a user runs
// here to get the state a run puts in place.
func TestObjectFixAndSays(t *testing.T) {
	dir := func(mode uint32) State { return State{Exists: true, Type: TypeDir, Mode: mode, Known: stat} }
	file := func(mode uint32, size int64) State {
		return State{Exists: true, Type: TypeFile, Mode: mode, Size: size, Known: append(Aspects{AspectContent}, stat...)}
	}
	link := func(target string) State {
		return State{Exists: true, Type: TypeSymlink, Target: target, Known: append(Aspects{AspectTarget}, stat...)}
	}
	for _, c := range []struct {
		name string
		o    Object
		says string
		fix  []string
	}{
		{"missing directory", Object{Path: "/run/mpd", Good: dir(0o755), Differs: Aspects{AspectExists}},
			"directory /run/mpd is missing here (drwxr-xr-x 0:0 in the good run)",
			[]string{"mkdir -p /run/mpd"}},
		{"missing directory, its own mode and owner", Object{Path: "/run/mpd",
			Good: State{Exists: true, Type: TypeDir, Mode: 0o750, UID: 105, GID: 29, Known: stat}, Differs: Aspects{AspectExists}},
			"directory /run/mpd is missing here (drwxr-x--- 105:29 in the good run)",
			[]string{"mkdir -p /run/mpd", "chmod 750 /run/mpd", "chown 105:29 /run/mpd"}},
		{"mode", Object{Path: "/tmp", Good: dir(0o1777), Here: dir(0o755), Differs: Aspects{AspectMode}},
			"/tmp is drwxr-xr-x here, drwxrwxrwt in the good run",
			[]string{"chmod 1777 /tmp"}},
		{"owner", Object{Path: "/srv/data", Good: State{Exists: true, Type: TypeDir, Mode: 0o755, UID: 1000, GID: 1000, Known: stat},
			Here: dir(0o755), Differs: Aspects{AspectOwner}},
			"/srv/data is owned by 0:0 here, 1000:1000 in the good run",
			[]string{"chown 1000:1000 /srv/data"}},
		{"only here", Object{Path: "/etc/app.d/extra.conf", Here: file(0o644, 12), Differs: Aspects{AspectExists}},
			"file /etc/app.d/extra.conf exists only here",
			[]string{"rm /etc/app.d/extra.conf"}},
		{"directory only here", Object{Path: "/usr/lib/python3/site-packages/yaml", Here: dir(0o755), Differs: Aspects{AspectExists}},
			"directory /usr/lib/python3/site-packages/yaml exists only here",
			[]string{"rm -r /usr/lib/python3/site-packages/yaml"}},
		{"link target", Object{Path: "/usr/bin/python3", Good: link("python3.12"), Here: link("python3.11"), Differs: Aspects{AspectTarget}},
			"/usr/bin/python3 leads to python3.11 here, python3.12 in the good run",
			[]string{"ln -sfn python3.12 /usr/bin/python3"}},
		{"missing link", Object{Path: "/etc/localtime", Good: link("/usr/share/zoneinfo/Etc/UTC"), Differs: Aspects{AspectExists}},
			"symbolic link /etc/localtime is missing here (-> /usr/share/zoneinfo/Etc/UTC in the good run)",
			[]string{"ln -sfn /usr/share/zoneinfo/Etc/UTC /etc/localtime"}},
		{"content", Object{Path: "/etc/app.conf", Stored: true, Good: file(0o644, 1523), Here: file(0o644, 1498), Differs: Aspects{AspectContent}},
			"the content of /etc/app.conf differs (1498 bytes here, 1523 in the good run)",
			[]string{"restore /etc/app.conf from the good environment"}},
		{"content and mode", Object{Path: "/etc/app.conf", Stored: true, Good: file(0o600, 10), Here: file(0o644, 10), Differs: Aspects{AspectContent, AspectMode}},
			"the content of /etc/app.conf differs (10 bytes on both sides); /etc/app.conf is -rw-r--r-- here, -rw------- in the good run",
			[]string{"restore /etc/app.conf from the good environment", "chmod 600 /etc/app.conf"}},
		{"missing file", Object{Path: "/etc/my app.conf", Stored: true, Good: file(0o640, 7), Differs: Aspects{AspectExists}},
			"file /etc/my app.conf is missing here (-rw-r----- 0:0, 7 bytes in the good run)",
			[]string{"restore /etc/my app.conf from the good environment (it is missing here)", "chmod 640 '/etc/my app.conf'"}},
		{"a file here, a directory there", Object{Path: "/var/lib/app", Good: dir(0o755), Here: file(0o644, 0), Differs: Aspects{AspectType}},
			"/var/lib/app is a file here, a directory in the good run",
			[]string{"rm /var/lib/app", "mkdir -p /var/lib/app"}},
		{"mtime", Object{Path: "/etc/app.conf", Good: State{Exists: true, Type: TypeFile, Mode: 0o644, MtimeNS: 1_700_000_000_500_000_000, Known: stat},
			Here: State{Exists: true, Type: TypeFile, Mode: 0o644, MtimeNS: 1_710_000_000_000_000_000, Known: stat}, Differs: Aspects{AspectMtime}},
			"/etc/app.conf was modified 2024-03-09 16:00:00.000000000 UTC here, 2023-11-14 22:13:20.500000000 UTC in the good run",
			[]string{"touch -h -m -d @1700000000.500000000 /etc/app.conf"}},
	} {
		if got := c.o.Says(); got != c.says {
			t.Errorf("%s: says %q,\n want %q", c.name, got, c.says)
		}
		var fix []string
		for _, s := range c.o.Fix() {
			fix = append(fix, s.String())
		}
		if !slices.Equal(fix, c.fix) {
			t.Errorf("%s: fix %q, want %q", c.name, fix, c.fix)
		}
		if _, err := c.o.Ops(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// A restore step names the file, for the caller to add its diff.
func TestFixRestorePath(t *testing.T) {
	o := Object{Path: "/etc/app.conf", Stored: true, Good: State{Exists: true, Type: TypeFile}, Here: State{Exists: true, Type: TypeFile}, Differs: Aspects{AspectContent}}
	if s := o.Fix(); len(s) != 1 || s[0].Path != "/etc/app.conf" || s[0].Command != "" {
		t.Errorf("fix %+v", s)
	}
}

// A package's fix is its manager's install command at the good version.
func TestPackageFix(t *testing.T) {
	for _, c := range []struct {
		p         trace.Package
		reinstall bool
		want      string
	}{
		{trace.Package{Manager: trace.PackageDpkg, Name: "python3-yaml", Version: "6.0-3"}, false, "apt-get install python3-yaml=6.0-3"},
		{trace.Package{Manager: trace.PackageDpkg, Name: "libssl3", Version: "3.0.11-1~deb12u2"}, true, "apt-get install --reinstall 'libssl3=3.0.11-1~deb12u2'"},
		{trace.Package{Manager: trace.PackageApk, Name: "py3-yaml", Version: "6.0.1-r1"}, false, "apk add py3-yaml=6.0.1-r1"},
		{trace.Package{Manager: trace.PackageApk, Name: "py3-yaml", Version: "6.0.1-r1"}, true, "apk fix py3-yaml"},
		{trace.Package{Manager: "rpm", Name: "foo", Version: "1"}, false, "install foo 1 as the good environment has it"},
	} {
		if got := PackageFix(&c.p, c.reinstall)[0].String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.p, got, c.want)
		}
	}
}

// A start item's fix is the shell's way to start with the good value.
func TestStartFix(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		it   StartValue
		says string
		want []string
	}{
		{StartValue{Kind: "env", Name: "TZ", Good: s("UTC"), Here: s("Europe/Paris")}, `env TZ is "Europe/Paris" here, "UTC" in the good run`, []string{"export TZ=UTC"}},
		{StartValue{Kind: "env", Name: "LANG", Here: s("C")}, `env LANG is "C" here, not set in the good run`, []string{"unset LANG"}},
		{StartValue{Kind: "env", Name: "OPTS", Good: s("-x 'y'")}, `env OPTS is not set here, "-x 'y'" in the good run`, []string{`export OPTS='-x '\''y'\'''`}},
		{StartValue{Kind: "umask", Good: s("022"), Here: s("077")}, `umask is "077" here, "022" in the good run`, []string{"umask 022"}},
		{StartValue{Kind: "rlimit", Name: "RLIMIT_NOFILE", Good: s("1024 1024"), Here: s("256 256")}, "", []string{"ulimit -n 1024"}},
		{StartValue{Kind: "rlimit", Name: "RLIMIT_NOFILE", Good: s("1024 4096"), Here: s("256 256")}, "", []string{"ulimit -H -n 4096", "ulimit -S -n 1024"}},
		{StartValue{Kind: "rlimit", Name: "RLIMIT_CORE", Good: s("unlimited unlimited"), Here: s("0 0")}, "", []string{"ulimit -c unlimited"}},
		{StartValue{Kind: "cwd", Good: s("/src/build"), Here: s("/tmp")}, "", []string{"cd /src/build"}},
		{StartValue{Kind: "creds", Name: "uid", Good: s("0 0 0 0"), Here: s("1000 1000 1000 1000")}, "", []string{`start the command with creds uid "0 0 0 0", as in the good run`}},
	} {
		if c.says != "" && c.it.Says() != c.says {
			t.Errorf("%s: says %q, want %q", c.it.Label(), c.it.Says(), c.says)
		}
		var got []string
		for _, st := range c.it.Fix() {
			got = append(got, st.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: fix %q, want %q", c.it.Label(), got, c.want)
		}
	}
}
