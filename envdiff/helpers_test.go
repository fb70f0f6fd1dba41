package envdiff_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/tracefile"
)

// The test binary is also the tracer's re-exec helper.
func TestMain(m *testing.M) {
	launch.MaybeRunHelper()
	testutil.Main(m)
}

// recordIn records `sh -c script` in dir and reads the trace back.
func recordIn(t *testing.T, dir, script string) *tracefile.Trace {
	t.Helper()
	testutil.Require(t, testutil.Ptrace, testutil.Binary("sh"))
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	out := filepath.Join(t.TempDir(), "t.envb")
	sum, err := record.Run(record.Options{Output: out, Argv: []string{"sh", "-c", script}, Dir: dir,
		Stdin: devnull, Stdout: devnull, Stderr: devnull, CPU: -1})
	if err != nil {
		t.Fatalf("record %s: %v", script, err)
	}
	if sum.ExitCode != 0 {
		t.Fatalf("record %s: exit %d", script, sum.ExitCode)
	}
	tr, err := tracefile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// inspect runs Inspect under root.
func inspect(t *testing.T, tr *tracefile.Trace, root string) *envdiff.Diff {
	t.Helper()
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	d, err := envdiff.Inspect(tr, tab, root, envdiff.Options{})
	if err != nil {
		t.Fatalf("Inspect %s: %v", root, err)
	}
	sameWalk(t, tr, tab)
	return d
}

// sameWalk checks that a trace read as a stream (Inspector), whose file
// objects are known only at its end, is walked to the states Inspect's
// walk of tr records.
func sameWalk(t *testing.T, tr *tracefile.Trace, tab *systable.Table) {
	t.Helper()
	if whole, streamed := envdiff.WalkDump(tr, tab, false), envdiff.WalkDump(tr, tab, true); whole != streamed {
		t.Errorf("a streamed walk differs from Inspect's:\n%s", lineDiff(whole, streamed))
	}
}

// lineDiff lists the lines of a and b that differ, in order.
func lineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := range max(len(la), len(lb)) {
		x, y := "", ""
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out = append(out, "- "+x, "+ "+y)
		}
	}
	return strings.Join(out, "\n")
}

// under are d's objects below dir, as "relative path: aspects", and
// those elsewhere that differ by more than their mtime (on a shared
// machine, other processes touch directories such as /tmp).
func under(d *envdiff.Diff, dir string) (in map[string]string, elsewhere []string) {
	in = map[string]string{}
	for _, o := range d.Objects {
		if rel, ok := strings.CutPrefix(o.Path, dir+"/"); ok {
			in[rel] = o.Differs.String()
		} else if !slices.Contains(d.MtimeOnly, o.Path) {
			elsewhere = append(elsewhere, o.Describe())
		}
	}
	return in, elsewhere
}

// writeTree makes files (path: content) and directories (path ending in
// "/") under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// object is d's object of path, failing t when there is none.
func object(t *testing.T, d *envdiff.Diff, path string) *envobj.Object {
	t.Helper()
	o := d.Object(path)
	if o == nil {
		t.Fatalf("no object %s", path)
	}
	return o
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// isListing reports whether call seq of tr lists directory dir (a
// getdents call on it, by its row's dirent buffer).
func isListing(t *testing.T, tr *tracefile.Trace, seq uint64, dir string) bool {
	t.Helper()
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range tr.Events {
		c := ev.Call
		if c == nil || c.Seq != seq {
			continue
		}
		for _, a := range tab.ByNr(int(c.Nr)).Args {
			if is := systable.StructOf(a.Struct).Is; c.Path == dir && (is == systable.StructDirent64 || is == systable.StructDirent) {
				return true
			}
		}
	}
	return false
}
