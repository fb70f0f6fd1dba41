package trace

import (
	"slices"
	"testing"
)

func TestFDObjectKind(t *testing.T) {
	cases := []struct{ value, want string }{
		{"pipe:[123]", "pipe"},
		{"socket:[4567]", "socket"},
		{"anon_inode:[eventfd]", "anon_inode:[eventfd]"},
		{"anon_inode:inotify", "anon_inode:inotify"},
		{"/dev/null", "/dev/null"},
		{"/dev/pts/0", "/dev/pts/0"},
		{"/tmp/a:[1]", "/tmp/a:[1]"}, // a path is a path
		{"pipe:[12x]", "pipe:[12x]"},
		{"", ""},
	}
	for _, c := range cases {
		if got := FDObjectKind(c.value); got != c.want {
			t.Errorf("FDObjectKind(%q) = %q, want %q", c.value, got, c.want)
		}
	}
}

func TestStartFDs(t *testing.T) {
	start := []StartEvent{
		{Kind: StartEnv, Name: "3", Value: "x"},
		{Kind: StartFD, Name: "0", Value: "/dev/null"},
		{Kind: StartFD, Name: "1", Value: "pipe:[1]"},
		{Kind: StartFD, Name: "2", Value: "pipe:[1]"},
		{Kind: StartFD, Name: "251", Value: "/dev/null"},
	}
	if got := StartFDs(start); !slices.Equal(got, []int{0, 1, 2, 251}) {
		t.Errorf("StartFDs = %v, want [0 1 2 251]", got)
	}
	if got := StartFDs(nil); got != nil {
		t.Errorf("StartFDs(nil) = %v, want nil", got)
	}
}
