package record

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// TestFig79 records the thesis' Figure 7.9 program, static and dynamic,
// with a good and a bad configuration, and checks the trace holds the
// open of the config, the exact bytes read through that fd, and the exit.
func TestFig79(t *testing.T) {
	cases := []struct {
		name     string
		static   bool
		config   string
		wantExit int
	}{
		{"dynamic/good", false, "key=hello world\nsecond line\n", 0},
		{"static/good", true, "key=hello world\nsecond line\n", 0},
		{"dynamic/bad", false, "kye=hello\n", 1},
		{"static/long", true, "key=" + strings.Repeat("x", 300) + "\n", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bin := testutil.BuildC(t, "fig79.c", tc.static)
			cfg := filepath.Join(t.TempDir(), "app.conf")
			if err := os.WriteFile(cfg, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			sum, tr := recordIn(t, Options{}, bin, cfg)
			if sum.ExitCode != tc.wantExit || tr.End == nil || tr.End.ExitCode != tc.wantExit {
				t.Fatalf("exit code: summary %d, end frame %+v; want %d", sum.ExitCode, tr.End, tc.wantExit)
			}
			var open *trace.Call
			for _, c := range calls(t, tr, "openat") {
				if c.Path == cfg {
					open = c
				}
			}
			if open == nil || open.Ret < 0 {
				t.Fatalf("no successful openat of %s in the trace: %+v", cfg, open)
			}
			fd := uint64(open.Ret)
			var read *trace.Call
			for _, c := range calls(t, tr, "read") {
				if c.Args[0] == fd && c.Seq > open.Seq {
					read = c
					break
				}
			}
			if read == nil {
				t.Fatalf("no read of fd %d after the open (seq %d)", fd, open.Seq)
			}
			want := []byte(tc.config)
			if len(want) > 128 {
				want = want[:128]
			}
			if got := outData(read); !bytes.Equal(got, want) || read.Ret != int64(len(want)) {
				t.Errorf("read seq %d returned %d with %q; want %d bytes %q", read.Seq, read.Ret, got, len(want), want)
			}
			if read.Path != cfg || read.Proc != 1 || read.Thread != 1 {
				t.Errorf("read path %q proc %d thread %d; want %q, 1, 1", read.Path, read.Proc, read.Thread, cfg)
			}
			exits := procEvents(tr, trace.Exit)
			if len(exits) != 1 || exits[0].Status != tc.wantExit || exits[0].Proc != 1 {
				t.Errorf("exit events %+v; want one for proc 1 with status %d", exits, tc.wantExit)
			}
			if v, ok := startValue(tr, trace.StartArgv, "1"); !ok || v != cfg {
				t.Errorf("start event argv[1] = %q, %v; want %q", v, ok, cfg)
			}
		})
	}
}

// TestForkExecPipe follows a fork, the child's exec of /bin/cat and the
// pipe between them.
func TestForkExecPipe(t *testing.T) {
	bin := testutil.BuildC(t, "forkexecpipe.c", false)
	data := filepath.Join(t.TempDir(), "data.txt")
	content := "line one\nline two\n"
	os.WriteFile(data, []byte(content), 0o644)
	sum, tr := recordIn(t, Options{}, bin, data)
	if sum.ExitCode != 0 {
		t.Fatalf("exit %d", sum.ExitCode)
	}
	if sum.Procs != 2 {
		t.Errorf("procs = %d, want 2", sum.Procs)
	}
	spawns := procEvents(tr, trace.Spawn)
	if len(spawns) != 2 || spawns[1].Parent != 1 || spawns[1].Proc != 2 || spawns[1].Index != 1 {
		t.Fatalf("spawn events %+v; want proc 1 and its first child proc 2", spawns)
	}
	var catExec *trace.ProcEvent
	for _, e := range procEvents(tr, trace.Exec) {
		if e.Proc == 2 {
			catExec = e
		}
	}
	if catExec == nil || !strings.HasSuffix(catExec.Exe, "/cat") || len(catExec.Argv) != 2 || catExec.Argv[1] != data {
		t.Fatalf("exec of proc 2: %+v; want /bin/cat %s", catExec, data)
	}
	// The child's cat read the file, and the parent read the same bytes from the pipe.
	var catRead, pipeRead []byte
	for _, c := range calls(t, tr, "read") {
		switch {
		case c.Proc == 2 && c.Path == data && c.Ret > 0:
			catRead = append(catRead, outData(c)...)
		case c.Proc == 1 && strings.HasPrefix(c.Path, "pipe:") && c.Ret > 0:
			pipeRead = append(pipeRead, outData(c)...)
		}
	}
	if string(catRead) != content || string(pipeRead) != content {
		t.Errorf("cat read %q, parent read %q from the pipe; want %q both", catRead, pipeRead, content)
	}
	pipes := calls(t, tr, "pipe2")
	pipes = append(pipes, calls(t, tr, "pipe")...)
	if len(pipes) == 0 || !strings.HasPrefix(pipes[0].Path, "pipe:") {
		t.Errorf("pipe calls %+v; want one naming its pipe", pipes)
	}
	waits := calls(t, tr, "wait4")
	if len(waits) == 0 || waits[len(waits)-1].Ret != int64(spawns[1].PID) {
		t.Errorf("wait4 calls %+v; want one returning the child's pid %d", waits, spawns[1].PID)
	}
}

// TestThreads records a multi-threaded C program and a Go program: every
// thread is followed, and each C thread's read holds the file's bytes.
func TestThreads(t *testing.T) {
	t.Run("pthreads", func(t *testing.T) {
		bin := testutil.BuildC(t, "threads.c", false)
		data := filepath.Join(t.TempDir(), "data.txt")
		os.WriteFile(data, []byte("thread data\n"), 0o644)
		sum, tr := recordIn(t, Options{}, bin, "4", data)
		if sum.ExitCode != 0 || sum.Procs != 1 || sum.Threads != 5 {
			t.Fatalf("exit %d procs %d threads %d; want 0, 1, 5", sum.ExitCode, sum.Procs, sum.Threads)
		}
		readers := map[uint32]bool{}
		for _, c := range calls(t, tr, "read") {
			if c.Path == data && c.Ret > 0 {
				if string(outData(c)) != "thread data\n" {
					t.Errorf("thread %d read %q", c.Thread, outData(c))
				}
				readers[c.Thread] = true
			}
		}
		if len(readers) != 4 || readers[1] {
			t.Errorf("threads that read the file: %v; want 4 threads other than the main one", readers)
		}
		if n := len(procEvents(tr, trace.SpawnThread)); n != 4 {
			t.Errorf("%d thread spawn events, want 4", n)
		}
	})
	t.Run("go", func(t *testing.T) {
		bin := testutil.BuildGo(t, "gothreads")
		sum, tr := recordIn(t, Options{}, bin)
		if sum.ExitCode != 0 || sum.Threads < 3 || sum.Procs < 2 {
			t.Fatalf("exit %d procs %d threads %d; want 0, ≥2 (the exec'd child), ≥3", sum.ExitCode, sum.Procs, sum.Threads)
		}
		for _, c := range calls(t, tr, "") {
			if c.Thread == 0 || c.Proc == 0 {
				t.Fatalf("call %d has no logical thread/process", c.Seq)
			}
		}
	})
}

// TestNoHelperInTrace: the re-exec helper never shows in a trace, even
// when the seize lands while the helper is still inside its own execve
// (it did in about 1 recording in 25 before the helper's image was
// recognised): one process, one thread, one exec, of the command.
func TestNoHelperInTrace(t *testing.T) {
	for i := 0; i < 40; i++ {
		sum, tr := recordIn(t, Options{}, "true")
		execs := procEvents(tr, trace.Exec)
		if sum.Procs != 1 || sum.Threads != 1 || len(execs) != 1 || !strings.HasSuffix(execs[0].Exe, "/true") {
			t.Fatalf("run %d: %d procs, %d threads, execs %+v; want the command alone", i, sum.Procs, sum.Threads, execs)
		}
		if v, _ := startValue(tr, trace.StartArgv, "0"); v != "true" {
			t.Fatalf("run %d: start argv[0] = %q, want true", i, v)
		}
	}
}

// TestGarbageInIntArgument: an int-sized length whose register has
// garbage in its upper half is read as the kernel reads it, 32 bits: the
// trace holds bind's 16-byte address (and recording does not try to copy
// terabytes).
func TestGarbageInIntArgument(t *testing.T) {
	bin := testutil.BuildC(t, "garbagelen.c", false)
	sum, tr := recordIn(t, Options{CPU: -1}, bin)
	if sum.ExitCode != 0 {
		t.Fatalf("exit %d, want 0", sum.ExitCode)
	}
	for _, ev := range tr.Events {
		c := ev.Call
		if c == nil || c.Nr != 49 { // bind
			continue
		}
		m := c.MemOf(1, trace.PartWhole)
		if m == nil || m.Len != 16 || len(m.Data) != 16 || m.Flag != 0 {
			t.Fatalf("bind's address captured as %+v, want 16 bytes", m)
		}
		return
	}
	t.Fatal("no bind in the trace")
}
