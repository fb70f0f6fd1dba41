package trace

import "testing"

func TestMountOf(t *testing.T) {
	points := []string{"/", "/tmp", "/proc", "/tmp/sub"}
	cases := map[string]string{
		"/etc/passwd": "/", "/tmp": "/tmp", "/tmp/x.sh": "/tmp", "/tmpfile": "/", "/tmp/sub/a": "/tmp/sub",
		"/tmp/../etc": "/", "pipe:[12]": "", "": "",
	}
	for p, want := range cases {
		if got := MountOf(p, points); got != want {
			t.Errorf("MountOf(%q) = %q, want %q", p, got, want)
		}
	}
	touched := MountsTouched([]StartEvent{{Kind: StartMount, Name: "/"}, {Kind: StartMount, Name: "/tmp"}, {Kind: StartMount, Name: "/proc"}},
		[]string{"/etc/passwd", "/tmp/a"})
	if len(touched) != 2 || !touched["/"] || !touched["/tmp"] {
		t.Errorf("MountsTouched = %v", touched)
	}
}

func TestMountFlags(t *testing.T) {
	cases := map[string]string{
		"rw,nosuid,nodev,noexec,relatime,rw,size=65536k": "noexec,nosuid,nodev",
		"ro,relatime,ro,lowerdir=/x":                     "ro",
		"rw,relatime,rw":                                 "rw",
	}
	for opts, want := range cases {
		if got := MountFlags(opts); got != want {
			t.Errorf("MountFlags(%q) = %q, want %q", opts, got, want)
		}
	}
	if !HasMountFlag("noexec,nosuid", MountNoExec) || HasMountFlag("rw", MountReadOnly) {
		t.Error("HasMountFlag")
	}
}

func TestFilterHash(t *testing.T) {
	a := BPFProgram{{Code: 6, K: 0x7fff0000}}
	b := BPFProgram{{Code: 6, K: 0x00050001}}
	if FilterHash(a) == FilterHash(b) || FilterHash(a) != FilterHash(BPFProgram{{Code: 6, K: 0x7fff0000}}) {
		t.Error("FilterHash does not tell programs apart by content")
	}
	if h := FilterHash(a); len(h) != len("sha256:")+16 {
		t.Errorf("FilterHash = %q", h)
	}
}
