package sandbox

import (
	"strings"
	"testing"
)

func TestActionFor(t *testing.T) {
	cases := []struct {
		name string
		m    Mount
		want Action
	}{
		{"writable root", Mount{Point: "/", FSType: "ext4", Options: []string{"rw"}}, Overlay},
		{"read-only mount", Mount{Point: "/data", FSType: "ext4", Options: []string{"ro"}}, Bind},
		{"read-only superblock", Mount{Point: "/data", FSType: "ext4", Options: []string{"rw"}, Super: []string{"ro"}}, Bind},
		{"proc", Mount{Point: "/proc", FSType: "proc", Options: []string{"rw"}}, Bind},
		{"tmpfs in /dev", Mount{Point: "/dev/shm", FSType: "tmpfs", Options: []string{"rw"}}, Bind},
		{"cgroup", Mount{Point: "/sys/fs/cgroup/cpu", FSType: "cgroup", Options: []string{"rw"}}, Bind},
		{"tmpfs /run", Mount{Point: "/run", FSType: "tmpfs", Options: []string{"rw"}}, Overlay},
		{"devices-like name outside /dev", Mount{Point: "/devices", FSType: "ext4", Options: []string{"rw"}}, Overlay},
	}
	for _, c := range cases {
		if got := ActionFor(c.m); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestByDepth(t *testing.T) {
	ms := []Mount{{Point: "/a/b/c"}, {Point: "/"}, {Point: "/a/b"}, {Point: "/z"}}
	ByDepth(ms)
	var got []string
	for _, m := range ms {
		got = append(got, m.Point)
	}
	if strings.Join(got, " ") != "/ /z /a/b /a/b/c" {
		t.Errorf("order %v", got)
	}
}

func TestParseUnixSockets(t *testing.T) {
	in := `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 20435 /run/systemd/notify
0000000000000000: 00000002 00000000 00010000 0001 01 20436 @abstract
0000000000000000: 00000002 00000000 00000000 0001 03 20437
0000000000000000: 00000002 00000000 00010000 0001 01 20438 relative.sock
0000000000000000: 00000002 00000000 00010000 0001 01 20439 /tmp/with space.sock
0000000000000000: 00000002 00000000 00010000 0001 01 20440 /run/systemd/notify
`
	got := ParseUnixSockets(strings.NewReader(in))
	if strings.Join(got, "|") != "/run/systemd/notify|/tmp/with space.sock" {
		t.Errorf("got %q", got)
	}
}
