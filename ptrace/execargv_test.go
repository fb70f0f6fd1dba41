package ptrace

import (
	"slices"
	"testing"
)

func TestScriptArgs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		image    []string
		execfn   string
		liveArgc int
		want     []string
	}{
		{"an ELF program", []string{"as", "-o", "x.o", "/tmp/cc1.s"}, "/usr/bin/as", 4, nil},
		{"an ELF program named by its path", []string{"/usr/bin/as", "/usr/bin/as"}, "/usr/bin/as", 2, nil},
		{"a script", []string{"/bin/sh", "./build.sh", "-v"}, "./build.sh", 2, []string{"/bin/sh", "./build.sh"}},
		{"a script with an interpreter argument", []string{"/usr/bin/env", "python3", "/usr/local/bin/tool", "x"}, "/usr/local/bin/tool", 2,
			[]string{"/usr/bin/env", "python3", "/usr/local/bin/tool"}},
		{"a script called with more arguments here", []string{"/bin/sh", "./build.sh", "a"}, "./build.sh", 4, []string{"/bin/sh", "./build.sh"}},
		{"a script called with none", []string{"/bin/sh", "./build.sh"}, "./build.sh", 1, []string{"/bin/sh", "./build.sh"}},
		{"no execfn recorded", []string{"/bin/sh", "./build.sh"}, "", 1, nil},
		{"another program with other arguments", []string{"cc1", "-o", "/tmp/a.s"}, "/usr/lib/gcc/cc1", 5, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := scriptArgs(tc.image, tc.execfn, tc.liveArgc); !slices.Equal(got, tc.want) {
				t.Errorf("scriptArgs(%q, %q, %d) = %q, want %q", tc.image, tc.execfn, tc.liveArgc, got, tc.want)
			}
		})
	}
}
