package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
)

// runWithObjects runs script in a sandbox built as spec says, with the
// contents of spec's writes from contents passed in a bundle (fd 3 of
// the child, as the helper gets it), in directory dir; it must be called
// from inWorkNS's f.
func runWithObjects(spec Spec, contents Contents, dir, script string) (sandboxed, error) {
	bundle, err := NewBundle(ContentHashes(spec.Objects), contents)
	if err != nil {
		return sandboxed{}, err
	}
	defer bundle.Close()
	self, err := os.Executable()
	if err != nil {
		return sandboxed{}, err
	}
	sb, _ := json.Marshal(spec)
	ib, _ := json.Marshal(bundle.Index())
	cmd := exec.Command(self)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childSpecEnv+"="+string(sb), childScriptEnv+"="+script, childBundleEnv+"="+string(ib))
	cmd.ExtraFiles = []*os.File{bundle.File()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	r := sandboxed{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	return r, err
}

// TestObjectsInPlace: every kind of operation puts its object in place
// in the run's view, missing parents are made (as an OpMkdir for them
// says, else root's 0755), a removal hides the file, a write on a
// read-only bind mount lands in an overlay that is read-only again for
// the command, and afterwards the work tree and the mount table are what
// they were; the same in a narrowed view (Spec.Narrow).
func TestObjectsInPlace(t *testing.T) {
	inWorkNS(t, func(work string) error {
		w := func(p string) string { return filepath.Join(work, p) }
		for _, d := range []string{"etc", "shared", "rosrc", "ro"} {
			if err := os.Mkdir(w(d), 0o755); err != nil {
				return err
			}
		}
		for p, c := range map[string]string{"etc/app.conf": "bad\n", "etc/owned": "x\n", "old": "old\n", "rosrc/conf": "bad\n"} {
			if err := os.WriteFile(w(p), []byte(c), 0o644); err != nil {
				return err
			}
		}
		if err := unix.Mount(w("rosrc"), w("ro"), "", unix.MS_BIND, ""); err != nil {
			return err
		}
		if err := unix.Mount("", w("ro"), "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID, ""); err != nil {
			return err
		}
		before, err := treeHash(work)
		if err != nil {
			return err
		}
		mounts, err := mountTable()
		if err != nil {
			return err
		}
		// /dev/shm is shared as it is, unless an object goes there.
		shm := fmt.Sprintf("/dev/shm/envbisect-test-%d", os.Getpid())
		mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()
		c := MemContents{}
		good, deep, ro := c.Add("good\n"), c.Add("deep\n"), c.Add("good ro\n")
		spec := Spec{Objects: []envobj.Op{
			{Kind: envobj.OpWrite, Path: w("etc/app.conf"), Mode: 0o640, UID: 0, GID: 4, MtimeNS: mtime, Content: good},
			{Kind: envobj.OpWrite, Path: w("new/deep/file.conf"), Mode: 0o600, Content: deep},
			{Kind: envobj.OpWrite, Path: w("made/sub/f"), Mode: 0o644, Content: deep},
			{Kind: envobj.OpMkdir, Path: w("made"), Mode: 0o711, UID: 1000, GID: 1000},
			{Kind: envobj.OpChmod, Path: w("shared"), Mode: 0o1777},
			{Kind: envobj.OpSymlink, Path: w("link"), Target: "etc/app.conf"},
			{Kind: envobj.OpRemove, Path: w("old")},
			{Kind: envobj.OpChown, Path: w("etc/owned"), UID: 1000, GID: 1000},
			{Kind: envobj.OpMtime, Path: w("etc/owned"), MtimeNS: mtime},
			{Kind: envobj.OpWrite, Path: w("ro/conf"), Mode: 0o644, Content: ro},
			{Kind: envobj.OpWrite, Path: w("ro/added"), Mode: 0o644, Content: ro},
			{Kind: envobj.OpMkdir, Path: shm, Mode: 0o1777},
		}}
		// Isolated in full, and narrowed to where the run writes
		// (narrow_linux.go): the same objects in place either way.
		for _, narrow := range []bool{false, true} {
			spec.Narrow = narrow
			r, err := runWithObjects(spec, c, work, `set -e
test "$(cat etc/app.conf)" = good; test "$(stat -c '%a %u %g %Y' etc/app.conf)" = "640 0 4 1577934245"
test "$(cat new/deep/file.conf)" = deep; test "$(stat -c '%a %u' new new/deep)" = "755 0
755 0"
test "$(stat -c '%a %u %g' made made/sub)" = "711 1000 1000
755 0 0"
test "$(stat -c %a shared)" = 1777
test "$(readlink link)" = etc/app.conf; test "$(cat link)" = good
test ! -e old
test "$(stat -c '%u %g %Y' etc/owned)" = "1000 1000 1577934245"
test "$(cat ro/conf)" = "good ro"; test "$(cat ro/added)" = "good ro"
echo x > ro/conf 2>/dev/null && exit 9
touch ro/other 2>&1 | grep -q "Read-only file system"
grep " $PWD/ro " /proc/self/mountinfo | grep -q " ro,nosuid"
test "$(stat -c %a `+shm+`)" = 1777
echo ok`)
			if err != nil {
				return err
			}
			if r.code != 0 || strings.TrimSpace(r.stdout) != "ok" {
				return fmt.Errorf("script in the sandbox (narrowed: %v): exit %d, stdout %q, stderr %q", narrow, r.code, r.stdout, r.stderr)
			}
		}
		// Without the objects, the same script fails.
		if r, err := runSandboxed(Spec{}, work, `test "$(cat etc/app.conf)" = good`); err != nil || r.code == 0 {
			return fmt.Errorf("without objects: exit %d (%v), want a failure", r.code, err)
		}
		after, err := treeHash(work)
		if err != nil {
			return err
		}
		if before != after {
			return errors.New("the work tree changed")
		}
		if m, _ := mountTable(); m != mounts {
			return fmt.Errorf("mounts changed: %q", lineDiff(m, mounts))
		}
		if _, err := os.Lstat(shm); !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s exists outside the run: %v", shm, err)
		}
		if err := unix.Access(w("ro/conf"), unix.W_OK); err != unix.EROFS {
			return fmt.Errorf("the real read-only mount: access(W_OK) = %v, want EROFS", err)
		}
		return nil
	})
}

// TestObjectsRefused: an object that cannot be put in place in the run's
// throwaway view fails the run, naming the path and why, and changes
// nothing: a path shared with --persist, a directory that holds a mount
// point, a directory in a kernel file system; a tunable's content is
// bound over it in the view.
func TestObjectsRefused(t *testing.T) {
	inWorkNS(t, func(work string) error {
		w := func(p string) string { return filepath.Join(work, p) }
		for _, d := range []string{"db", "tree", "tree/mnt"} {
			if err := os.Mkdir(w(d), 0o755); err != nil {
				return err
			}
		}
		if err := unix.Mount("inner", w("tree/mnt"), "tmpfs", 0, ""); err != nil {
			return err
		}
		if err := os.WriteFile(w("tree/mnt/f"), []byte("keep\n"), 0o644); err != nil {
			return err
		}
		c := MemContents{}
		good := c.Add("good\n")
		cases := []struct {
			name string
			spec Spec
			want string
		}{
			{"persist", Spec{Persist: []string{w("db")}, Objects: []envobj.Op{{Kind: envobj.OpWrite, Path: w("db/x"), Content: good}}},
				"shared on purpose (--persist"},
			{"mount point below", Spec{Objects: []envobj.Op{{Kind: envobj.OpRemove, Path: w("tree")}}}, "is a mount point"},
			{"kernel file system", Spec{Objects: []envobj.Op{{Kind: envobj.OpMkdir, Path: "/proc/envbisect-test", Mode: 0o755}}},
				"a kernel file system"},
		}
		for _, tc := range cases {
			r, err := runWithObjects(tc.spec, c, work, `echo ran`)
			if err != nil {
				return fmt.Errorf("%s: %w", tc.name, err)
			}
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, tc.want) {
				return fmt.Errorf("%s: exit %d, stdout %q, stderr %q; want the sandbox refused with %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
			}
		}
		if b, err := os.ReadFile(w("tree/mnt/f")); err != nil || string(b) != "keep\n" {
			return fmt.Errorf("the file under the mount point: %q, %v", b, err)
		}
		tunable := "/proc/sys/kernel/ostype"
		real, err := os.ReadFile(tunable)
		if err != nil {
			return err
		}
		r, err := runWithObjects(Spec{Objects: []envobj.Op{{Kind: envobj.OpWrite, Path: tunable, Mode: 0o444, Content: good}}}, c, work, `cat `+tunable)
		if err != nil {
			return err
		}
		if r.code != 0 || r.stdout != "good\n" {
			return fmt.Errorf("the tunable in the view: exit %d, %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		if now, _ := os.ReadFile(tunable); !bytes.Equal(now, real) {
			return fmt.Errorf("the real tunable became %q", now)
		}
		return nil
	})
}
