package ptrace

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// TestServedExec replays an exec whose recorded image is a real Debian
// program (/bin/echo, read from this machine, as record would have
// stored it): the live path names a missing tool or another program,
// and the thread runs the recorded image with the live call's argv (what
// the program passes is what it does, not what it sees: the recorded
// argv's words are not what this run asked for).
func TestServedExec(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.File("/bin/echo"), testutil.File("/bin/sh"), testutil.File("/bin/false"))
	echo, err := os.ReadFile("/bin/echo")
	if err != nil {
		t.Fatal(err)
	}
	src := &imageSource{f: trace.FileObject{ID: 1, Path: "/usr/bin/echo", Size: int64(len(echo)), Mode: unix.S_IFREG | 0o755,
		SHA256: sha256.Sum256(echo), Chunks: []trace.Hash{sha256.Sum256(echo)}}, data: echo}
	store := serve.NewStore(src)
	defer store.Close()
	for _, tc := range []struct {
		name, live string // live: what the script runs
		noSeccomp  bool
	}{
		{"missing tool", "/nonexistent/helper", false},
		{"another program", "/bin/false", false},
		{"missing tool, no seccomp", "/nonexistent/helper", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.noSeccomp {
				testutil.Require(t, testutil.Seccomp)
			}
			table, err := systable.Native()
			if err != nil {
				t.Fatal(err)
			}
			argv := "echo\x00recorded-arg\x00"
			rec := &trace.Call{Seq: 1, Nr: unix.SYS_EXECVE, Ret: 0, Obj: 1, Path: "/usr/bin/echo",
				Mem: []trace.Mem{{Arg: 1, Part: trace.PartStrings, Dir: trace.In, Len: uint64(len(argv)), Data: []byte(argv)}}}
			rp := &execReplayer{path: tc.live, rec: rec}
			out, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			obs := &collector{}
			res, err := Run(Config{Config: launch.Config{
				Argv: []string{"sh", "-c", tc.live + " live-arg; echo after $?"}, Env: []string{"PATH=/usr/bin:/bin"}, CPU: -1,
				Table: table, Observer: obs, Stdout: w,
			}, NoSeccomp: tc.noSeccomp, Replayer: rp, Serve: store})
			w.Close()
			got, _ := io.ReadAll(out)
			out.Close()
			if err != nil {
				t.Fatal(err)
			}
			if want := "live-arg\nafter 0\n"; string(got) != want || res.ExitCode != 0 {
				t.Errorf("output %q, exit %d; want %q, exit 0 (the recorded echo ran with the live argv)", got, res.ExitCode, want)
			}
			if rp.asked != 1 {
				t.Errorf("the Replayer was asked about the exec %d times, want once", rp.asked)
			}
			var exec *trace.ProcEvent
			for _, e := range obs.events {
				if e.Proc != nil && e.Proc.Kind == trace.Exec && slices.Equal(e.Proc.Argv, []string{tc.live, "live-arg"}) {
					exec = e.Proc
				}
			}
			if exec == nil || exec.Exe != "/usr/bin/echo" {
				t.Errorf("exec event %+v, want the recorded image /usr/bin/echo with the live argv", exec)
			}
		})
	}
}

// TestServedExecScript replays the exec of a "#!" script whose
// interpreter is missing here; the recording ran it with /bin/sh: the
// served image is the recorded interpreter, given the recorded
// interpreter's part of the argv (itself, the script's path) and the
// live call's arguments.
func TestServedExecScript(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.File("/bin/sh"))
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "tool")
	if err := os.WriteFile(script, []byte("#!/nonexistent/interpreter\necho \"script ran with $1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := &imageSource{f: trace.FileObject{ID: 1, Path: "/bin/sh", Size: int64(len(sh)), Mode: unix.S_IFREG | 0o755,
		SHA256: sha256.Sum256(sh), Chunks: []trace.Hash{sha256.Sum256(sh)}}, data: sh}
	store := serve.NewStore(src)
	defer store.Close()
	table, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	argv := "/bin/sh\x00" + script + "\x00recorded-arg\x00"
	rec := &trace.Call{Seq: 1, Nr: unix.SYS_EXECVE, Ret: 0, Obj: 1, Path: script, Mem: []trace.Mem{
		{Arg: 0, Part: trace.PartWhole, Dir: trace.In, Len: uint64(len(script)), Data: []byte(script)},
		{Arg: 1, Part: trace.PartStrings, Dir: trace.In, Len: uint64(len(argv)), Data: []byte(argv)}}}
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(Config{Config: launch.Config{
		Argv: []string{"sh", "-c", script + " live-arg; echo after $?"}, Env: []string{"PATH=/usr/bin:/bin"}, CPU: -1,
		Table: table, Observer: &collector{}, Stdout: w,
	}, Replayer: &execReplayer{path: script, rec: rec}, Serve: store})
	w.Close()
	got, _ := io.ReadAll(out)
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := "script ran with live-arg\nafter 0\n"; string(got) != want || res.ExitCode != 0 {
		t.Errorf("output %q, exit %d; want %q, exit 0 (the recorded interpreter ran the script with the live argument)", got, res.ExitCode, want)
	}
}

// imageSource is a serve.Source holding one file object.
type imageSource struct {
	f    trace.FileObject
	data []byte
}

func (s *imageSource) File(id uint32) *trace.FileObject {
	if id != s.f.ID {
		return nil
	}
	return &s.f
}

func (s *imageSource) OpenContent(*trace.FileObject) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(s.data)), nil
}

// execReplayer replays the exec of path with rec's results and executes
// everything else.
type execReplayer struct {
	mu    sync.Mutex
	path  string
	rec   *trace.Call
	asked int
}

func (r *execReplayer) Enter(c *trace.Call) Decision {
	if c.Nr == unix.SYS_EXECVE && strings.HasSuffix(c.Path, r.path) {
		r.mu.Lock()
		r.asked++
		r.mu.Unlock()
		return Decision{Verb: Skip, Rec: r.rec}
	}
	return Decision{Verb: Execute}
}

func (r *execReplayer) Exit(*trace.Call, Decision) {}

// TestServedExecFallsBack: where the recorded image cannot be served (the
// trace lacks its content) or does not start here (not an executable),
// the live exec runs after all, as unreplayed, with a warning.
func TestServedExecFallsBack(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.File("/bin/sh"), testutil.File("/bin/false"))
	text := []byte("not an executable\n")
	for _, tc := range []struct {
		name, why, warning string
	}{
		{"not stored", trace.ContentExcluded, "excluded"},
		{"does not start", "", "did not start here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := trace.FileObject{ID: 1, Path: "/usr/bin/tool", Size: int64(len(text)), Mode: unix.S_IFREG | 0o755,
				SHA256: sha256.Sum256(text), Why: tc.why}
			if tc.why == "" {
				f.Chunks = []trace.Hash{sha256.Sum256(text)}
			}
			store := serve.NewStore(&imageSource{f: f, data: text})
			defer store.Close()
			table, err := systable.Native()
			if err != nil {
				t.Fatal(err)
			}
			argv := "tool\x00"
			rec := &trace.Call{Seq: 1, Nr: unix.SYS_EXECVE, Ret: 0, Obj: 1, Path: "/usr/bin/tool",
				Mem: []trace.Mem{{Arg: 1, Part: trace.PartStrings, Dir: trace.In, Len: uint64(len(argv)), Data: []byte(argv)}}}
			out, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			res, err := Run(Config{Config: launch.Config{
				Argv: []string{"sh", "-c", "/bin/false; echo after $?"}, Env: []string{"PATH=/usr/bin:/bin"}, CPU: -1,
				Table: table, Observer: &collector{}, Stdout: w, Warn: func(m string) { warnings = append(warnings, m) },
			}, Replayer: &execReplayer{path: "/bin/false", rec: rec}, Serve: store})
			w.Close()
			got, _ := io.ReadAll(out)
			out.Close()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "after 1\n" || res.ExitCode != 0 {
				t.Errorf("output %q, exit %d; want the live /bin/false to have run (after 1)", got, res.ExitCode)
			}
			if !slices.ContainsFunc(warnings, func(m string) bool { return strings.Contains(m, tc.warning) }) {
				t.Errorf("warnings %q, want one saying %q", warnings, tc.warning)
			}
		})
	}
}
