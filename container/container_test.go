package container

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSockets(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"defaults", nil, []string{"/var/run/docker.sock", "/run/podman/podman.sock"}},
		{"docker host first", map[string]string{"DOCKER_HOST": "unix:///tmp/d.sock"},
			[]string{"/tmp/d.sock", "/var/run/docker.sock", "/run/podman/podman.sock"}},
		{"docker host the default", map[string]string{"DOCKER_HOST": "unix:///var/run/docker.sock"},
			[]string{"/var/run/docker.sock", "/run/podman/podman.sock"}},
		{"docker host podman's", map[string]string{"DOCKER_HOST": "unix:///run/podman/podman.sock"},
			[]string{"/run/podman/podman.sock", "/var/run/docker.sock"}},
		{"tcp docker host ignored", map[string]string{"DOCKER_HOST": "tcp://127.0.0.1:2375"},
			[]string{"/var/run/docker.sock", "/run/podman/podman.sock"}},
		{"rootless podman", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"},
			[]string{"/var/run/docker.sock", "/run/podman/podman.sock", "/run/user/1000/podman/podman.sock"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Sockets(func(k string) string { return tc.env[k] })
			if !slices.Equal(got, tc.want) {
				t.Errorf("Sockets = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLookupNoEngine: with no engine on any socket, the error lists the
// sockets tried and says what to do; a socket file nobody listens on
// counts as no engine.
func TestLookupNoEngine(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "stale.sock")
	l, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	missing := filepath.Join(dir, "missing.sock")
	_, err = Lookup(context.Background(), "web", []string{missing, stale})
	if !errors.Is(err, ErrNoEngine) {
		t.Fatalf("Lookup: %v, want ErrNoEngine", err)
	}
	for _, want := range []string{missing, stale + " (not answering)", "DOCKER_HOST=unix://", "dockerd"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestFromPID reads a child's target: its environment, its working
// directory, and its cgroup (ours, which exists whenever the host has
// cgroup v2).
func TestFromPID(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "60")
	cmd.Dir = dir
	cmd.Env = []string{"APP_MODE=test", "PATH=/usr/bin:/bin"}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sleep: %v", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// Start returns before the child's exec is done: until then /proc
	// shows the forked copy of the test, and during the exec, after the
	// name changed, an empty environment.
	environ := fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid)
	for i := 0; i < 200; i++ {
		if b, _ := os.ReadFile(environ); strings.HasPrefix(string(b), "APP_MODE=") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	tg, err := FromPID(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tg.Env, cmd.Env) {
		t.Errorf("Env = %q, want %q", tg.Env, cmd.Env)
	}
	if tg.Dir != dir {
		t.Errorf("Dir = %q, want %q", tg.Dir, dir)
	}
	if tg.String() != "pid "+strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("String() = %q", tg.String())
	}
	self, _ := os.ReadFile("/proc/self/cgroup")
	if p := cgroupV2Path(self); p != tg.Cgroup {
		t.Errorf("Cgroup = %q, want the child's, which is ours: %q", tg.Cgroup, p)
	}
	if tg.Cgroup != "" && (tg.CgroupDir == "" || tg.CgroupID == 0) {
		t.Errorf("cgroup %q: CgroupDir %q, CgroupID %d: want both found", tg.Cgroup, tg.CgroupDir, tg.CgroupID)
	}
}

func TestFromPIDErrors(t *testing.T) {
	for _, pid := range []int{0, -3, 1 << 30} {
		if _, err := FromPID(pid); !errors.Is(err, ErrNoProcess) {
			t.Errorf("FromPID(%d): %v, want ErrNoProcess", pid, err)
		}
	}
}

func TestInsideRoot(t *testing.T) {
	cases := []struct{ dir, root, want string }{
		{"/etc", "/", "/etc"},
		{"/srv/jail/app", "/srv/jail", "/app"},
		{"/srv/jail", "/srv/jail", "/"},
		{"/srv/jailbreak", "/srv/jail", "/srv/jailbreak"},
	}
	for _, tc := range cases {
		if got := insideRoot(tc.dir, tc.root); got != tc.want {
			t.Errorf("insideRoot(%q, %q) = %q, want %q", tc.dir, tc.root, got, tc.want)
		}
	}
}

func TestCgroupFiles(t *testing.T) {
	v1 := "4:memory:/docker/abc\n0::/docker/abc\n"
	if got := cgroupV2Path([]byte(v1)); got != "/docker/abc" {
		t.Errorf("cgroupV2Path = %q", got)
	}
	if got := cgroupV2Path([]byte("4:memory:/x\n")); got != "" {
		t.Errorf("cgroupV2Path of a v1-only file = %q, want \"\"", got)
	}
	mi := "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n" +
		"35 25 0:31 / /sys/fs/cgroup/unified rw,relatime shared:14 - cgroup2 cgroup2 rw\n"
	mnt, root, ok := cgroup2Mount([]byte(mi))
	if !ok || mnt != "/sys/fs/cgroup/unified" || root != "/" {
		t.Errorf("cgroup2Mount = %q %q %v", mnt, root, ok)
	}
	if _, _, ok := cgroup2Mount([]byte("30 25 0:26 / /a\\040b rw - ext4 /dev/sda rw\n")); ok {
		t.Error("cgroup2Mount found a mount without cgroup2")
	}
	if mnt, _, ok := cgroup2Mount([]byte("36 25 0:32 / /sys/fs/cgroup/a\\040b rw - cgroup2 cgroup2 rw\n")); !ok || mnt != "/sys/fs/cgroup/a b" {
		t.Errorf("cgroup2Mount of an escaped mount point = %q %v, want /sys/fs/cgroup/a b", mnt, ok)
	}
	for _, tc := range []struct{ mnt, root, path, want string }{
		{"/sys/fs/cgroup", "/", "/docker/abc", "/sys/fs/cgroup/docker/abc"},
		{"/sys/fs/cgroup", "/kubepods", "/kubepods/pod1/abc", "/sys/fs/cgroup/pod1/abc"},
		{"/sys/fs/cgroup", "/kubepods", "/other", ""},
	} {
		got, _ := cgroupDir(tc.mnt, tc.root, tc.path)
		if got != tc.want {
			t.Errorf("cgroupDir(%q, %q, %q) = %q, want %q", tc.mnt, tc.root, tc.path, got, tc.want)
		}
	}
}

func TestTargetString(t *testing.T) {
	tg := &Target{PID: 7, Name: "web", ID: "3f2a9c1b7d4e5f60718293a4b5c6d7e8"}
	if got := tg.String(); got != "container web (3f2a9c1b7d4e)" {
		t.Errorf("String() = %q", got)
	}
}

func TestExecEnv(t *testing.T) {
	cases := []struct {
		name   string
		config []string
		want   []string
	}{
		{"defaults", nil, []string{"PATH=" + defaultPath, "HOSTNAME=web1", "HOME=/"}},
		{"configured", []string{"PATH=/bin", "LANG=C", "HOME=/srv"}, []string{"PATH=/bin", "HOSTNAME=web1", "LANG=C", "HOME=/srv"}},
		{"hostname overridden", []string{"HOSTNAME=mine"}, []string{"PATH=" + defaultPath, "HOSTNAME=mine", "HOME=/"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// pid 1<<30 has no /etc/passwd to read: HOME defaults to /.
			if got := execEnv(tc.config, "web1", rootHome(1<<30)); !slices.Equal(got, tc.want) {
				t.Errorf("execEnv = %q, want %q", got, tc.want)
			}
		})
	}
	// Our own root's passwd names root's home (or there is none: /).
	if h := rootHome(os.Getpid()); !strings.HasPrefix(h, "/") {
		t.Errorf("rootHome = %q", h)
	}
}
