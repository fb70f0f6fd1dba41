package sandbox

import (
	"strings"
	"testing"
)

func TestParseMountinfo(t *testing.T) {
	in := `27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
28 27 0:25 / /mnt/with\040space ro,nosuid,nodev,relatime - tmpfs none ro,size=4k
42 27 254:0 /var/lib/docker /var/lib/docker rw,relatime shared:1 master:2 - ext4 /dev/vda rw
22 27 0:21 / /proc rw,relatime - proc proc rw
`
	ms, err := ParseMountinfo(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 {
		t.Fatalf("got %d mounts, want 4", len(ms))
	}
	if m := ms[1]; m.Point != "/mnt/with space" || !m.ReadOnly() || m.FSType != "tmpfs" || m.ID != 28 || m.Parent != 27 {
		t.Errorf("line 2: %+v", m)
	}
	if m := ms[2]; m.Root != "/var/lib/docker" || m.ReadOnly() || m.Source != "/dev/vda" {
		t.Errorf("line 3 (optional fields): %+v", m)
	}
	if _, err := ParseMountinfo(strings.NewReader("1 2 3\n")); err == nil {
		t.Error("a line without ' - ' parsed")
	}
}

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
