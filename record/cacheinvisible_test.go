package record

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The content cache is only read while the command runs: a command that
// looks for it while its files are being stored finds no directory (not
// even an empty one) on the first recording, and on the second the
// cache's listing, mtimes included, is the same before and after it read
// a file the cache holds and one it does not. Both recordings bring the
// cache up to date after the command has exited: the second one hits what
// the first stored, and what it missed is in the cache afterwards.
func TestContentCacheUntouchedWhileCommandRuns(t *testing.T) {
	testutil.Require(t, testutil.Binary("sh"), testutil.Binary("cat"), testutil.Binary("ls"), testutil.Binary("cmp"))
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	cache := filepath.Join(home, ".cache", "envbisect", "content")
	var files []string
	for _, name := range []string{"old1", "old2", "new"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("the content of "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := Options{ContentCache: cache}

	// The sleeps give the content goroutines time to store what cat read.
	script := `cat "$1" "$2" >/dev/null; sleep 0.3; test ! -e "$3/.cache" || exit 9; ` +
		`cat /dev/null; sleep 0.2; test ! -e "$3/.cache" || exit 10`
	sum, _ := recordIn(t, opts, "sh", "-c", script, "sh", files[0], files[1], home)
	if sum.ExitCode != 0 {
		t.Fatalf("first recording: the command exited %d: it saw %s/.cache while it ran", sum.ExitCode, home)
	}
	first, err := os.ReadDir(cache)
	if err != nil || len(first) < 3 { // sh, its libraries, old1, old2
		t.Fatalf("after the first recording the cache holds %d entries (%v); want what it stored", len(first), err)
	}
	if fi, err := os.Stat(cache); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the cache's directory: %v; want mode 0700", err)
	}

	before, after := filepath.Join(dir, "before"), filepath.Join(dir, "after")
	script = `ls -A --full-time "$4" >"$5"; cat "$1" "$2" "$3" >/dev/null; sleep 0.3; ls -A --full-time "$4" >"$6"; cmp -s "$5" "$6"`
	sum, _ = recordIn(t, opts, "sh", "-c", script, "sh", files[0], files[1], files[2], cache, before, after)
	if sum.ExitCode != 0 {
		b, _ := os.ReadFile(before)
		a, _ := os.ReadFile(after)
		t.Fatalf("second recording: the cache changed while the command ran:\nbefore:\n%s\nafter:\n%s", b, a)
	}
	if sum.CacheHits < 3 {
		t.Errorf("second recording: %d hits; want sh, its libraries and the two files the first stored", sum.CacheHits)
	}
	second, _ := os.ReadDir(cache)
	if len(second) <= len(first) {
		t.Errorf("after the second recording the cache holds %d entries, as many as before: the file it missed was not added", len(second))
	}
	if sum.CacheUpdate <= 0 {
		t.Errorf("Summary.CacheUpdate = %v; want the time the update took", sum.CacheUpdate)
	}
}

// A recording cut short (the command killed by a signal, or interrupted
// as Ctrl-C does) still brings the cache up to date after the command
// has gone, with entries a later recording uses; the update does not
// hold up the end of the recording.
func TestContentCacheUpdatedAfterInterrupt(t *testing.T) {
	testutil.Require(t, testutil.Binary("sh"), testutil.Binary("cat"), testutil.Binary("sleep"))
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("killed", func(t *testing.T) {
		cache := filepath.Join(t.TempDir(), "cache")
		sum, _ := recordIn(t, Options{ContentCache: cache}, "sh", "-c", `cat "$1" >/dev/null; kill -KILL $$`, "sh", data)
		if sum.Signal != int(syscall.SIGKILL) {
			t.Fatalf("signal %d; want SIGKILL", sum.Signal)
		}
		if ents, _ := os.ReadDir(cache); len(ents) < 2 {
			t.Fatalf("the cache holds %d entries after a killed command", len(ents))
		}
		sum, _ = recordIn(t, Options{ContentCache: cache}, "cat", data)
		if sum.CacheHits < 2 {
			t.Errorf("a recording after the killed one: %d hits; want cat's and the data's", sum.CacheHits)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		cache := filepath.Join(t.TempDir(), "cache")
		sigs := make(chan os.Signal, 2)
		go func() {
			time.Sleep(700 * time.Millisecond)
			sigs <- syscall.SIGINT
		}()
		start := time.Now()
		sum, _ := recordIn(t, Options{ContentCache: cache, Interrupt: sigs}, "sh", "-c", `cat "$1" >/dev/null; exec sleep 30`, "sh", data)
		took := time.Since(start)
		if !sum.Interrupted {
			t.Fatalf("the recording was not interrupted (exit %d, signal %d)", sum.ExitCode, sum.Signal)
		}
		if took > 5*time.Second {
			t.Errorf("the interrupted recording took %v", took)
		}
		t.Logf("cache update after the interrupt: %v (%d entries)", sum.CacheUpdate, countEntries(cache))
		if countEntries(cache) < 2 {
			t.Fatalf("the cache holds %d entries after an interrupted recording", countEntries(cache))
		}
		sum, _ = recordIn(t, Options{ContentCache: cache}, "cat", data)
		if sum.CacheHits < 2 || sum.CacheRefused != 0 {
			t.Errorf("a recording after the interrupted one: %d hits, %d refused; want cat's and the data's", sum.CacheHits, sum.CacheRefused)
		}
	})
}

func countEntries(dir string) int {
	ents, _ := os.ReadDir(dir)
	return len(ents)
}
