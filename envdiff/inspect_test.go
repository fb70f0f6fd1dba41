package envdiff_test

import (
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// script is what the recorded shell does in its directory: it reads
// configuration files, lists a drop-in directory, tests a directory and a
// path that is missing, reads a symbolic link, appends to a file it read
// first, and makes files of its own (one after checking it was missing).
const script = `cat conf/app.conf conf/mode.conf conf/owner.conf >/dev/null
ls conf.d >/dev/null
test -d run/mpd
readlink link >/dev/null
test -e missing || true
cat data.txt >/dev/null; echo more >> data.txt
echo x > out.txt; cat out.txt >/dev/null
mkdir -p build && echo o > build/o
test -e app.pid || echo 1 > app.pid`

// A recording of a shell reading its configuration, then the tree
// changed the ways an environment differs: Inspect names exactly the
// objects that differ, with their aspects, and nothing of what the
// command wrote itself, except what the recording saw before the command
// changed it (data.txt's content before the append, app.pid missing).
func TestInspectFindsWhatDiffers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	writeTree(t, dir, map[string]string{
		"conf/app.conf": "listen 80\n", "conf/mode.conf": "mode\n", "conf/owner.conf": "owner\n",
		"conf.d/a.conf": "a\n", "run/mpd/": "", "data.txt": "data\n",
	})
	must(t, os.Symlink("conf/app.conf", filepath.Join(dir, "link")))
	tr := recordIn(t, dir, script)

	// Right after the recording, what differs is what the command
	// changed of what was there before it: data.txt (appended to) and
	// app.pid (missing before the command made it).
	d := inspect(t, tr, "/")
	got, elsewhere := under(d, dir)
	want := map[string]string{"data.txt": "content, mtime", "app.pid": "exists"}
	if !maps.Equal(got, want) || len(elsewhere) > 0 {
		t.Errorf("right after recording: objects %v, elsewhere %v; want %v and none elsewhere", got, elsewhere, want)
	}
	// record reads a file's content a little after the open: of a file
	// the command then changed, the trace's copy may be the changed one.
	// The good state is what cat's fstat saw, with the content when
	// record read it before the append.
	o := object(t, d, filepath.Join(dir, "data.txt"))
	if o.Good.Size != 5 || o.Here.Size != 10 {
		t.Errorf("data.txt: good %+v here %+v; want its state before the append, 5 bytes", o.Good, o.Here)
	}
	if known := o.Good.Known.Has(envobj.AspectContent); known != (o.File != 0) ||
		known && o.Good.SHA256 != sha256.Sum256([]byte("data\n")) {
		t.Errorf("data.txt: good %+v, file %d; want the content before the append, or none", o.Good, o.File)
	}
	for _, own := range []string{"out.txt", "build", "build/o"} {
		if !slices.Contains(d.Own, filepath.Join(dir, own)) {
			t.Errorf("%s is not among the command's own work %v", own, d.Own)
		}
	}

	// Change the tree.
	app := filepath.Join(dir, "conf/app.conf")
	fi, err := os.Stat(app)
	must(t, err)
	must(t, os.WriteFile(app, []byte("listen 81\n"), 0o644)) // same size, same mtime: only the hash tells
	must(t, os.Chtimes(app, time.Time{}, fi.ModTime()))
	must(t, os.Chmod(filepath.Join(dir, "conf/mode.conf"), 0o600))
	must(t, os.Chown(filepath.Join(dir, "conf/owner.conf"), 1234, 1234))
	writeTree(t, dir, map[string]string{"conf.d/b.conf": "b\n", "missing": "", "out.txt": "changed\n"})
	must(t, os.Remove(filepath.Join(dir, "run/mpd")))
	must(t, os.Remove(filepath.Join(dir, "link")))
	must(t, os.Symlink("conf/other.conf", filepath.Join(dir, "link")))
	must(t, os.RemoveAll(filepath.Join(dir, "build")))

	d = inspect(t, tr, "/")
	got, elsewhere = under(d, dir)
	want = map[string]string{
		"app.pid":         "exists",
		"conf.d":          "mtime, entries",
		"conf.d/b.conf":   "exists",
		"conf/app.conf":   "content",
		"conf/mode.conf":  "mode",
		"conf/owner.conf": "owner",
		"data.txt":        "content, mtime",
		"link":            "target",
		"missing":         "exists",
		"run/mpd":         "exists",
	}
	if !maps.Equal(got, want) || len(elsewhere) > 0 {
		t.Errorf("objects %v, elsewhere %v;\nwant %v and none elsewhere", got, elsewhere, want)
	}
	if slices.Contains(d.MtimeOnly, filepath.Join(dir, "conf.d")) {
		t.Errorf("conf.d differs by its entries too, but is listed as differing by mtime only")
	}
	for _, o := range d.Objects {
		if o.FirstSeq == 0 {
			t.Errorf("%s: no first call", o.Path)
		}
	}

	o = object(t, d, app)
	if o.File == 0 || !o.Stored || o.Good.SHA256 == o.Here.SHA256 || o.Good.Size != o.Here.Size {
		t.Errorf("app.conf: %+v; want the stored good content, compared by hash", o)
	}
	if ops, err := o.Ops(); err != nil || len(ops) != 1 || ops[0].Kind != envobj.OpWrite {
		t.Errorf("app.conf: ops %v, %v; want one write", ops, err)
	}
	if _, err := os.Stat("/var/lib/dpkg/status"); err == nil && (o.Package == nil || o.Package.Manager != trace.PackageDpkg || o.Package.Name != "") {
		t.Errorf("app.conf: package %v; want the one record looked up: none of dpkg's", o.Package)
	}
	if o := object(t, d, filepath.Join(dir, "conf/mode.conf")); o.Good.Mode != 0o644 || o.Here.Mode != 0o600 {
		t.Errorf("mode.conf: good %04o here %04o", o.Good.Mode, o.Here.Mode)
	}
	if o := object(t, d, filepath.Join(dir, "conf/owner.conf")); o.Good.UID != 0 || o.Here.UID != 1234 || o.Here.GID != 1234 {
		t.Errorf("owner.conf: good %d:%d here %d:%d", o.Good.UID, o.Good.GID, o.Here.UID, o.Here.GID)
	}
	o = object(t, d, filepath.Join(dir, "conf.d"))
	if !slices.Equal(o.Good.Entries, []string{"a.conf"}) || !slices.Equal(o.Here.Entries, []string{"a.conf", "b.conf"}) {
		t.Errorf("conf.d: entries %v here %v; want [a.conf] and [a.conf b.conf]", o.Good.Entries, o.Here.Entries)
	}
	o = object(t, d, filepath.Join(dir, "conf.d/b.conf"))
	if o.Good.Exists || !o.Here.Exists || !isListing(t, tr, o.FirstSeq, filepath.Join(dir, "conf.d")) {
		t.Errorf("conf.d/b.conf: %+v; want only here, first met by the listing of conf.d", o)
	}
	if ops, err := o.Ops(); err != nil || len(ops) != 1 || ops[0].Kind != envobj.OpRemove {
		t.Errorf("conf.d/b.conf: ops %v, %v; want a remove", ops, err)
	}
	o = object(t, d, filepath.Join(dir, "link"))
	if o.Good.Target != "conf/app.conf" || o.Here.Target != "conf/other.conf" {
		t.Errorf("link: target %q here %q", o.Good.Target, o.Here.Target)
	}
	o = object(t, d, filepath.Join(dir, "run/mpd"))
	if o.Good.Type != envobj.TypeDir || o.Here.Exists {
		t.Errorf("run/mpd: %+v; want a directory missing here", o)
	}
	if ops, err := o.Ops(); err != nil || len(ops) != 1 || ops[0].Kind != envobj.OpMkdir || ops[0].Mode != 0o755 {
		t.Errorf("run/mpd: ops %v, %v; want mkdir 0755", ops, err)
	}
	if o := object(t, d, filepath.Join(dir, "missing")); o.Good.Exists || !o.Here.Exists {
		t.Errorf("missing: %+v; want only here", o)
	}
}
