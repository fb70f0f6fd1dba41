package mountinfo

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := `27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
28 27 0:25 / /mnt/with\040space ro,nosuid,nodev,relatime - tmpfs none ro,size=4k
42 27 254:0 /var/lib/docker /var/lib/docker rw,relatime shared:1 master:2 - ext4 /dev/vda rw
22 27 0:21 / /proc rw,relatime - proc proc rw
`
	ms, err := Parse(strings.NewReader(in))
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
	if _, err := Parse(strings.NewReader("1 2 3\n")); err == nil {
		t.Error("a line without ' - ' parsed")
	}
}
