package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/envobj"
)

// TestNarrowedView: a narrowed view (Spec.Narrow) binds the writable
// mounts read-only, so that a write where the run was not to write fails
// with EROFS; a directory of Writable gets a throwaway overlay, where the
// command writes; an object replacing a file that is there is a file
// bound over it, with its owner, mode and modification time, and the
// directory around it is no overlay; an object adding an entry gets an
// overlay on its directory only, the directory's other entries bound
// over it from the real directory, read-only, and the added file bound
// over a placeholder there; a replayed working directory that is
// missing is made in an overlay. Afterwards the work tree and the mount
// table are what they were.
func TestNarrowedView(t *testing.T) {
	inWorkNS(t, func(work string) error {
		w := func(p string) string { return filepath.Join(work, p) }
		for _, d := range []string{"etc", "conf.d", "out", "data", "cwdparent"} {
			if err := os.Mkdir(w(d), 0o755); err != nil {
				return err
			}
		}
		for p, c := range map[string]string{"etc/app.conf": "bad\n", "etc/other.conf": "other\n", "out/old": "old\n", "conf.d/there.conf": "there\n"} {
			if err := os.WriteFile(w(p), []byte(c), 0o644); err != nil {
				return err
			}
		}
		before, err := treeHash(work)
		if err != nil {
			return err
		}
		mounts, err := mountTable()
		if err != nil {
			return err
		}
		mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()
		c := MemContents{}
		good := c.Add("good\n")
		spec := Spec{Narrow: true, Writable: []string{w("out")}, Cwd: w("cwdparent/replayed/dir"), Objects: []envobj.Op{
			{Kind: envobj.OpWrite, Path: w("etc/app.conf"), Mode: 0o640, UID: 0, GID: 4, MtimeNS: mtime, Content: good},
			{Kind: envobj.OpWrite, Path: w("conf.d/added.conf"), Mode: 0o600, Content: good},
		}}
		r, err := runWithObjects(spec, c, work, `set -e
cd `+work+`
test "$(cat etc/app.conf)" = good; test "$(stat -c '%a %u %g %Y' etc/app.conf)" = "640 0 4 1577934245"
grep -q " $PWD/etc/app.conf " /proc/self/mountinfo
test "$(stat -f -c %T etc)" != overlayfs
test "$(cat etc/other.conf)" = other
touch etc/new 2>&1 | grep -q "Read-only file system"
echo x 2>/dev/null > data/f && exit 9
test "$(cat conf.d/added.conf)" = good; test "$(stat -f -c %T conf.d)" = overlayfs
test "$(stat -c %a conf.d/added.conf)" = 600; grep -q " $PWD/conf.d/added.conf " /proc/self/mountinfo
test "$(ls conf.d)" = "added.conf
there.conf"
test "$(cat conf.d/there.conf)" = there; test "$(stat -f -c %T conf.d/there.conf)" != overlayfs
echo x 2>/dev/null > conf.d/there.conf && exit 8
echo written > out/new; mkdir out/sub; rm out/old; test "$(cat out/new)" = written
test "$(stat -f -c %T out)" = overlayfs
test -d cwdparent/replayed/dir/etc; test "$(stat -f -c %T cwdparent)" = overlayfs
echo ok`)
		if err != nil {
			return err
		}
		if r.code != 0 || strings.TrimSpace(r.stdout) != "ok" {
			return fmt.Errorf("script in the narrowed sandbox: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
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
		for _, p := range []string{"out/new", "cwdparent/replayed", "conf.d/added.conf"} {
			if _, err := os.Lstat(w(p)); !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%s exists outside the run: %v", p, err)
			}
		}
		return nil
	})
}
