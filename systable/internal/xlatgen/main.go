package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "xlatgen:", err)
		os.Exit(1)
	}
}

func run() error {
	in := flag.String("in", "xlat", "directory of the .in lists")
	sets := flag.String("sets", "flagsets_x86_64.go", "output: the flag sets (package systable)")
	nums := flag.String("syscalls", "syscalls_x86_64.go", "output: the syscall numbers (package systable)")
	consts := flag.String("consts", "internal/amd64/consts.go", "output: the constants (package amd64)")
	check := flag.String("check", "xlat_xsys_amd64_test.go", "output: the test against golang.org/x/sys/unix")
	flag.Parse()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}

	paths, err := filepath.Glob(filepath.Join(*in, "*.in"))
	if err != nil || len(paths) == 0 {
		return fmt.Errorf("no .in files in %s", *in)
	}
	sort.Strings(paths)
	lists := map[string]*list{}
	var order []string
	for _, p := range paths {
		l, err := parseFile(p)
		if err != nil {
			return err
		}
		lists[l.Name] = l
		order = append(order, l.Name)
	}

	tmp, err := os.MkdirTemp("", "xlatgen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	c, err := newCompiler(cc, tmp)
	if err != nil {
		return err
	}
	vals := map[string]*values{}
	var errs []string
	kernel := ""
	var syscalls *list
	noXsys := map[string]bool{}
	for _, name := range order {
		v, err := c.eval(lists[name])
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		vals[name] = v
		kernel = v.Kernel
		if lists[name].Syscalls {
			syscalls = lists[name]
		}
		for n := range lists[name].NoXsys {
			noXsys[n] = true
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	if syscalls == nil {
		return fmt.Errorf("no #Syscalls list in %s", *in)
	}

	if err := writeFlagSets(*sets, kernel, order, lists, vals); err != nil {
		return err
	}
	all, err := writeConsts(*consts, kernel, order, lists, vals)
	if err != nil {
		return err
	}
	if err := writeSyscallNumbers(*nums, kernel, syscalls, vals[syscalls.Name]); err != nil {
		return err
	}
	xsys, err := xsysNames()
	if err != nil {
		return err
	}
	return writeXsysCheck(*check, kernel, all, xsys, noXsys)
}
