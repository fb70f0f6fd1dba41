package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The git and make workloads run real tools on projects the harness
// makes in its scratch directory, the same on every machine: many stat
// calls over a tree (git status), and a parallel build that starts many
// short compiler processes (make -j2).

// Sizes of the generated projects.
const (
	gitFiles  = 2000 // files in the git workload's repository
	gitDirs   = 40   // spread over this many directories
	makeFiles = 40   // C files of the make workload's project
)

// gitRepo makes a repository of gitFiles committed files under dir and
// returns the workload's command: `git status` in it. A first status
// refreshes the index's stat data, so that every measured run does the
// same work (stat every file, write nothing).
func gitRepo(ctx context.Context, dir string) ([]string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("git not installed (apt-get install git)")
	}
	for i := range gitFiles {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%gitDirs))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		body := fmt.Sprintf("file %d\n%s", i, strings.Repeat("envbisect bench\n", i%7))
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.txt", i)), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	git := []string{"git", "-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "bench"}, {"status"}} {
		cmd := exec.CommandContext(ctx, git[0], append(git[1:], args...)...)
		cmd.Env = benchEnv()
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git %s: %v\n%s", args[0], err, b)
		}
	}
	return []string{"git", "-C", dir, "status"}, nil
}

// makeProject writes makeFiles C files and a Makefile that compiles each
// with gcc -O2 and links them, and returns the workload's command:
// `make -B -j2` (-B: every run builds everything again).
func makeProject(dir string) ([]string, error) {
	if _, err := exec.LookPath("make"); err != nil {
		return nil, errors.New("make not installed (apt-get install make)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var objs, calls strings.Builder
	for i := range makeFiles {
		src := fmt.Sprintf("#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n\n"+
			"int f%d(const char *s) {\n\tchar buf[64];\n\tsnprintf(buf, sizeof buf, \"%%s-%d\", s);\n"+
			"\treturn (int)strlen(buf) + atoi(s);\n}\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.c", i)), []byte(src), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&objs, " f%02d.o", i)
		fmt.Fprintf(&calls, "\tint f%d(const char *);\n\tn += f%d(argv[0]);\n", i, i)
	}
	main := "#include <stdio.h>\n\nint main(int argc, char **argv) {\n\tint n = argc;\n" + calls.String() +
		"\tprintf(\"%d\\n\", n);\n\treturn 0;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(main), 0o644); err != nil {
		return nil, err
	}
	mk := "OBJS = main.o" + objs.String() + "\n\nprog: $(OBJS)\n\tgcc -o $@ $(OBJS)\n\n" +
		"%.o: %.c\n\tgcc -O2 -c -o $@ $<\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		return nil, err
	}
	return []string{"make", "-s", "-B", "-j2", "-C", dir}, nil
}
