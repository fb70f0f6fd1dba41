package tracefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestCreateRefusesWhatItMustNotReplace: a file that is not a trace is
// kept (replaced only with Replace), a symbolic link is refused whatever it
// points to, a directory is refused, and in each refusal the existing
// bytes and mode are unchanged.
func TestCreateRefusesWhatItMustNotReplace(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(precious, []byte("the user's notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "trace.envb")
	if err := os.Symlink(precious, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.envb")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{precious, "is not an envbisect trace"},
		{link, "is a symbolic link"},
		{dangling, "is a symbolic link"},
		{dir, "is a directory"},
	} {
		_, err := Create(c.path, sampleHeader())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%s) = %v, want an error saying %q", c.path, err, c.want)
		}
	}
	if b, err := os.ReadFile(precious); err != nil || string(b) != "the user's notes\n" {
		t.Errorf("the file behind the link holds %q (%v)", b, err)
	}
	if fi, _ := os.Stat(precious); fi.Mode().Perm() != 0o644 {
		t.Errorf("the file behind the link is mode %v now", fi.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
	// With Replace, a regular file is replaced (not written through).
	w, err := Options{Replace: true}.Create(precious, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "the user's notes\n" {
		t.Errorf("the old file changed before Close: %q", b)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(precious); err != nil {
		t.Errorf("after Replace: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial")); len(left) > 0 {
		t.Errorf("partial files left behind: %v", left)
	}
}

// TestCreateWritesToDevice: a character device (and a link to one, as
// /dev/stdout is) is written in place: there is no file to rename over.
func TestCreateWritesToDevice(t *testing.T) {
	link := filepath.Join(t.TempDir(), "stdout")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, dev := range []string{"/dev/null", link} {
		w, err := Create(dev, sampleHeader())
		if err != nil {
			t.Fatalf("Create(%s): %v", dev, err)
		}
		if err := w.Close(nil); err != nil {
			t.Fatalf("Close(%s): %v", dev, err)
		}
		if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/null is no longer a device: %v %v", fi, err)
		}
	}
}

// IsPartialName knows the name the trace being written has, and no
// other.
func TestIsPartialName(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, "good.envb"), &trace.Header{Arch: "amd64"})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || !IsPartialName(ents[0].Name()) {
		t.Errorf("the trace being written is %v; want one name IsPartialName knows", ents)
	}
	if err := w.Close(&trace.End{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"good.envb", ".good.envb.partial", ".good.envb.12x.partial", "good.envb.123.partial", "..123.partial"} {
		if IsPartialName(name) {
			t.Errorf("IsPartialName(%q) = true", name)
		}
	}
}
