package scenarios

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BuildC compiles root/testdata/victims/src (one C file) with gcc -O2
// -Wall, with -pthread when it includes <pthread.h>, dynamically linked,
// into outDir/NAME (NAME: src's base name without ".c") and returns the
// binary's path. It is testutil.BuildC for callers without a testing.T.
func BuildC(root, src, outDir string) (string, error) {
	path := filepath.Join(root, "testdata", "victims", src)
	code, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("victim %s: %w", src, err)
	}
	out := filepath.Join(outDir, strings.TrimSuffix(filepath.Base(src), ".c"))
	args := []string{"-O2", "-Wall"}
	if bytes.Contains(code, []byte("<pthread.h>")) {
		args = append(args, "-pthread")
	}
	args = append(args, "-o", out, path)
	if b, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("gcc %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out, nil
}
