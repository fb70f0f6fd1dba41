package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeList(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseFlagSet(t *testing.T) {
	p := writeList(t, "open_flags.in", `/* a comment line */
#Doc OpenFlags are open's flags.
#Var OpenFlags
#From linux/fcntl.h
#Mask O_ACCMODE
#Enum
O_RDONLY
#Bits
O_ASYNC	FASYNC	/* libc's name */	/* second comment */
#Include cloexec_flags
#NoXsysCheck O_LARGEFILE
O_LARGEFILE	0100000
`)
	l, err := parseFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "open_flags" || l.Var != "OpenFlags" || l.Mask != "O_ACCMODE" || !reflect.DeepEqual(l.From, []string{"linux/fcntl.h"}) {
		t.Fatalf("parsed %+v", l)
	}
	want := []item{
		{Name: "O_ASYNC", Fallback: "FASYNC", Comment: "libc's name; second comment"},
		{Include: "cloexec_flags"},
		{Name: "O_LARGEFILE", Fallback: "0100000"},
	}
	if !reflect.DeepEqual(l.Bits, want) || len(l.Enum) != 1 || !l.NoXsys["O_LARGEFILE"] {
		t.Fatalf("bits %+v enum %+v", l.Bits, l.Enum)
	}
	src := program(l)
	for _, s := range []string{
		"#include <linux/fcntl.h>",
		"_Static_assert((O_ASYNC) == (FASYNC)",
		"#define O_LARGEFILE (0100000)",
		`printf("mask %lld\n", (long long)(O_ACCMODE));`,
		`printf("value O_RDONLY %lld\n", (long long)(O_RDONLY));`,
	} {
		if !strings.Contains(src, s) {
			t.Errorf("program lacks %q:\n%s", s, src)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for name, text := range map[string]string{
		"no header":    "#Var X\n#Bits\nA\n",
		"no var":       "#From a.h\n#Bits\nA\n",
		"no section":   "#Var X\n#From a.h\nA\n",
		"bad name":     "#Var X\n#From a.h\n#Enum\n0\n",
		"directive":    "#Var X\n#From a.h\n#Whatever\n",
		"open comment": "#Var X\n#From a.h\n#Bits\nA /* open\n",
	} {
		if _, err := parseFile(writeList(t, "x.in", text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSyscallNames(t *testing.T) {
	l, err := parseFile(writeList(t, "syscalls.in", "#From asm/unistd_64.h\n#Syscalls\nread\nuprobe\t336\n"))
	if err != nil {
		t.Fatal(err)
	}
	it := l.Enum[1]
	if l.cName(it) != "__NR_uprobe" || l.goConst(it) != "SYS_UPROBE" {
		t.Fatalf("cName %q goConst %q", l.cName(it), l.goConst(it))
	}
}

func TestCombosAndNegatives(t *testing.T) {
	got := combos("F_OK", []named{{"R_OK", 4}, {"W_OK", 2}})
	want := []named{{"F_OK", 0}, {"R_OK", 4}, {"W_OK", 2}, {"R_OK|W_OK", 6}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("combos = %v", got)
	}
	if v, err := flagValue(-1); err != nil || v != 0xffffffff {
		t.Fatalf("flagValue(-1) = %#x, %v", v, err)
	}
	if _, err := flagValue(-1 << 40); err == nil {
		t.Fatal("flagValue accepted a value below the 32-bit range")
	}
}
