package record

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// sha256sum is what /usr/bin/sha256sum says of path.
func sha256sum(t *testing.T, path string) trace.Hash {
	t.Helper()
	out, err := exec.Command("sha256sum", path).Output()
	if err != nil {
		t.Fatalf("sha256sum %s: %v", path, err)
	}
	b, err := hex.DecodeString(strings.Fields(string(out))[0])
	if err != nil || len(b) != 32 {
		t.Fatalf("sha256sum %s printed %q", path, out)
	}
	return trace.Hash(b)
}

// objectOf returns the file object whose path or resolved path is path.
func objectOf(tr *tracefile.Trace, path string) *trace.FileObject {
	for i := range tr.Files {
		if f := &tr.Files[i]; f.Path == path || f.Resolved == path {
			return f
		}
	}
	return nil
}

// content reads f's content back from the trace.
func content(t *testing.T, tr *tracefile.Trace, f *trace.FileObject) []byte {
	t.Helper()
	rc, err := tr.OpenContent(f)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A recording of a real dynamically linked Debian program keeps the
// program, its ELF interpreter, its libraries and its input, each with
// the SHA-256 sha256sum gives and its whole content; the execve and the
// opens name them, and each file is kept once.
func TestKeepsProgramAndLibraries(t *testing.T) {
	testutil.Require(t, testutil.Binary("xz"), testutil.Binary("sha256sum"))
	xz, _ := exec.LookPath("xz")
	xz, _ = filepath.EvalSymlinks(xz)
	in := filepath.Join(t.TempDir(), "in.xz")
	if out, err := exec.Command("sh", "-c", "echo hello content | xz > "+in).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	sum, tr := recordIn(t, Options{}, xz, "-d", "-c", in)
	if sum.ExitCode != 0 {
		t.Fatalf("xz exited %d", sum.ExitCode)
	}
	ef, err := elf.Open(xz)
	if err != nil {
		t.Fatal(err)
	}
	var interp string
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			b, _ := io.ReadAll(p.Open())
			interp = strings.TrimRight(string(b), "\x00")
		}
	}
	ef.Close()
	if interp == "" {
		t.Fatalf("%s has no PT_INTERP: not dynamically linked", xz)
	}
	want := map[string]string{"the program": xz, "its interpreter": interp, "its input": in}
	for _, lib := range []string{"liblzma.so.5", "libc.so.6"} {
		for _, c := range calls(t, tr, "openat") {
			if strings.HasSuffix(c.Path, "/"+lib) && c.Ret >= 0 {
				want[lib] = c.Path
			}
		}
		if want[lib] == "" {
			t.Fatalf("no successful open of %s in the trace", lib)
		}
	}
	for what, path := range want {
		f := objectOf(tr, path)
		if f == nil {
			t.Errorf("%s (%s) is not a file object", what, path)
			continue
		}
		real, _ := filepath.EvalSymlinks(path)
		data, _ := os.ReadFile(real)
		if !f.Stored() || f.SHA256 != sha256sum(t, real) || f.Size != int64(len(data)) {
			t.Errorf("%s %s: stored %v, size %d, sha256 %x; want stored, %d bytes, sha256sum's", what, path, f.Stored(), f.Size, f.SHA256[:8], len(data))
			continue
		}
		if !bytes.Equal(content(t, tr, f), data) {
			t.Errorf("%s %s: the stored content differs from the file's", what, path)
		}
	}
	execs := calls(t, tr, "execve")
	if len(execs) == 0 || tr.File(execs[0].Obj) == nil || tr.File(execs[0].Obj) != objectOf(tr, xz) {
		t.Errorf("the execve does not name the program's object: %+v", execs)
	}
	for _, c := range calls(t, tr, "openat") {
		if c.Path == want["liblzma.so.5"] && c.Obj != objectOf(tr, c.Path).ID {
			t.Errorf("the open of %s names object %d, not %d", c.Path, c.Obj, objectOf(tr, c.Path).ID)
		}
	}
	seen := map[[2]uint64]bool{}
	for _, f := range tr.Files {
		if seen[[2]uint64{f.Dev, f.Ino}] {
			t.Errorf("%s is kept twice", f.Path)
		}
		seen[[2]uint64{f.Dev, f.Ino}] = true
	}
	if err := tr.VerifyContent(); err != nil {
		t.Error(err)
	}
}

// A file past --max-content keeps only its hash, marked over-budget, and
// the summary names it; --exclude-content keeps a file's hash only,
// marked excluded; --max-content 0 keeps no content at all.
func TestContentLimits(t *testing.T) {
	testutil.Require(t, testutil.Binary("cat"))
	dir := t.TempDir()
	small := filepath.Join(dir, "small.conf")
	big := filepath.Join(dir, "big.db")
	secret := filepath.Join(dir, "secret.key")
	os.WriteFile(small, []byte("listen = 8080\n"), 0o644)
	os.WriteFile(secret, []byte("hunter2\n"), 0o600)
	bigData := bytes.Repeat([]byte("0123456789abcdef"), 32<<20/16) // 32 MiB
	os.WriteFile(big, bigData, 0o644)

	t.Run("over budget", func(t *testing.T) {
		sum, tr := recordIn(t, Options{MaxContent: 16 << 20}, "cat", small, big)
		f := objectOf(tr, big)
		if f == nil || f.Why != trace.ContentOverBudget || f.Stored() || len(f.Chunks) != 0 || f.SHA256 != sha256.Sum256(bigData) {
			t.Fatalf("%s: %+v; want over-budget with its hash", big, f)
		}
		if len(sum.OverBudget) != 1 || sum.OverBudget[0].Path != big || sum.MaxContent != 16<<20 {
			t.Errorf("summary: over budget %+v, max %d; want %s only", sum.OverBudget, sum.MaxContent, big)
		}
		if _, err := tr.OpenContent(f); err == nil || !strings.Contains(err.Error(), "over-budget") {
			t.Errorf("OpenContent of an over-budget file: %v", err)
		}
		if s := objectOf(tr, small); s == nil || !s.Stored() || string(content(t, tr, s)) != "listen = 8080\n" {
			t.Errorf("%s: %+v, want stored", small, s)
		}
	})
	t.Run("excluded", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "t.envb")
		sum, tr := recordIn(t, Options{Output: out, Exclude: []string{dir + "/*.key"}}, "cat", small, secret)
		f := objectOf(tr, secret)
		if f == nil || f.Why != trace.ContentExcluded || len(f.Chunks) != 0 || f.SHA256 != sha256.Sum256([]byte("hunter2\n")) {
			t.Fatalf("%s: %+v; want excluded with its hash", secret, f)
		}
		if len(sum.OverBudget) != 0 {
			t.Errorf("over budget: %+v", sum.OverBudget)
		}
		if s := objectOf(tr, small); s == nil || !s.Stored() {
			t.Errorf("%s: %+v, want stored", small, s)
		}
		if raw, _ := os.ReadFile(out); bytes.Contains(raw, []byte("hunter2")) {
			t.Error("the excluded content is in the trace file")
		}
	})
	t.Run("hash only", func(t *testing.T) {
		_, tr := recordIn(t, Options{NoContent: true}, "cat", small)
		if len(tr.Files) == 0 {
			t.Fatal("no file objects")
		}
		for _, f := range tr.Files {
			if f.Stored() || f.Why != trace.ContentOverBudget || f.SHA256 == (trace.Hash{}) {
				t.Errorf("%s: stored %v, why %q; want its hash only", f.Path, f.Stored(), f.Why)
			}
		}
	})
}

// A "#!" script's execve names the image that ran, its interpreter
// (replaying the exec runs that), and the script is kept too.
func TestKeepsScriptAndInterpreter(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/sh"))
	script := filepath.Join(t.TempDir(), "hello.sh")
	body := "#!/bin/sh\necho hello\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	_, tr := recordIn(t, Options{}, script)
	execs := calls(t, tr, "execve")
	if len(execs) == 0 {
		t.Fatal("no execve")
	}
	sh, _ := filepath.EvalSymlinks("/bin/sh")
	f := tr.File(execs[0].Obj)
	if f == nil || !f.Stored() || f.SHA256 != sha256sum(t, sh) {
		t.Fatalf("the execve of the script names %+v, want the interpreter %s, stored", f, sh)
	}
	if o := objectOf(tr, script); o == nil || string(content(t, tr, o)) != body {
		t.Errorf("the script %s: %+v, want it stored", script, o)
	}
}
