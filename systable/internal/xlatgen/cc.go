package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// compiler runs an x86-64 C compiler in a scratch directory.
type compiler struct {
	cc  string
	dir string
}

func newCompiler(cc, dir string) (*compiler, error) {
	out, err := exec.Command(cc, "-dumpmachine").Output()
	if err != nil {
		return nil, fmt.Errorf("run %s -dumpmachine: %w (set CC to an x86-64 C compiler)", cc, err)
	}
	if m := strings.TrimSpace(string(out)); !strings.HasPrefix(m, "x86_64-") {
		return nil, fmt.Errorf("%s targets %s: the x86-64 values need an x86-64 C compiler (set CC, e.g. CC=x86_64-linux-gnu-gcc)", cc, m)
	}
	return &compiler{cc: cc, dir: dir}, nil
}

// values are the results of one list's program.
type values struct {
	Of     map[string]int64 // by C name as written in the list
	Mask   int64
	Kernel string // LINUX_VERSION_CODE as major.minor
}

// program is the C source that prints every value of l. An entry with a
// fallback uses it when the headers do not define the name, and fails to
// compile when they define it otherwise (strace's #checkval).
func program(l *list) string {
	var b strings.Builder
	b.WriteString("#define _GNU_SOURCE\n#include <stdio.h>\n#include <linux/version.h>\n")
	for _, h := range l.From {
		fmt.Fprintf(&b, "#include <%s>\n", h)
	}
	for _, it := range l.entries() {
		if it.Fallback == "" || !ident.MatchString(it.Name) {
			continue
		}
		n := l.cName(it)
		fmt.Fprintf(&b, "#ifdef %[1]s\n_Static_assert((%[1]s) == (%[2]s), \"%[3]s: %[1]s is not %[2]s in the headers\");\n#else\n#define %[1]s (%[2]s)\n#endif\n", n, it.Fallback, l.File)
	}
	b.WriteString("int main(void) {\n")
	b.WriteString("\tprintf(\"kernel %d.%d\\n\", LINUX_VERSION_CODE >> 16, (LINUX_VERSION_CODE >> 8) & 0xff);\n")
	if l.Mask != "" {
		fmt.Fprintf(&b, "\tprintf(\"mask %%lld\\n\", (long long)(%s));\n", l.Mask)
	}
	for _, it := range l.entries() {
		expr := l.cName(it)
		if !ident.MatchString(it.Name) {
			expr = it.Fallback
		}
		fmt.Fprintf(&b, "\tprintf(\"value %s %%lld\\n\", (long long)(%s));\n", it.Name, expr)
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

// eval compiles and runs l's program.
func (c *compiler) eval(l *list) (*values, error) {
	src := filepath.Join(c.dir, l.Name+".c")
	bin := filepath.Join(c.dir, l.Name)
	if err := os.WriteFile(src, []byte(program(l)), 0o644); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command(c.cc, "-std=gnu11", "-o", bin, src)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: compile its values (%s): %w\n%s", l.File, strings.Join(l.From, " "), err, stderr.String())
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: run its program: %w", l.File, err)
	}
	v := &values{Of: map[string]int64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "kernel":
			v.Kernel = f[1]
		case len(f) == 2 && f[0] == "mask":
			v.Mask, err = strconv.ParseInt(f[1], 10, 64)
		case len(f) == 3 && f[0] == "value":
			v.Of[f[1]], err = strconv.ParseInt(f[2], 10, 64)
		default:
			err = fmt.Errorf("unexpected line %q", sc.Text())
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read its program's output: %w", l.File, err)
		}
	}
	return v, nil
}
