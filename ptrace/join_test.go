package ptrace

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// TestJoinTraced records a command joined to another process's
// namespaces under ptrace: the session thread seizes and waits for a
// helper that another thread forked, and the trace holds the private
// file's path and content.
func TestJoinTraced(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	target, dir := testutil.PrivateConf(t)
	table, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	obs := &collector{}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	res, err := Run(Config{Config: launch.Config{
		Argv: []string{"cat", "app.conf"}, Env: []string{"PATH=/usr/bin:/bin"}, Dir: dir, CPU: -1,
		Join:  &trace.Join{PID: target, Name: "test namespace"},
		Table: table, Observer: obs, Stdout: devnull,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("cat exited %d", res.ExitCode)
	}
	want := filepath.Join(dir, "app.conf")
	var read []byte
	for _, c := range obs.calls() {
		if c.Path == want && table.ByNr(int(c.Nr)).Name == "read" && c.Ret > 0 {
			for _, m := range c.Mem {
				read = append(read, m.Data...)
			}
		}
	}
	if string(read) != "inside\n" {
		t.Errorf("recorded read of %s: %q, want the private mount's %q", want, read, "inside\n")
	}
	var host string
	for _, e := range obs.start {
		if e.Kind == trace.StartHostname {
			host = e.Value
		}
	}
	if host != "joined-test" {
		t.Errorf("start event hostname %q, want the target's %q", host, "joined-test")
	}
}

// collector is an Observer that keeps everything.
type collector struct {
	mu     sync.Mutex
	start  []trace.StartEvent
	events []trace.Event
}

func (c *collector) Start(ev []trace.StartEvent) { c.start = ev }
func (c *collector) Event(ev trace.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events = append(c.events, ev)
}

func (c *collector) calls() []*trace.Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*trace.Call
	for _, e := range c.events {
		if e.Call != nil {
			out = append(out, e.Call)
		}
	}
	return out
}
