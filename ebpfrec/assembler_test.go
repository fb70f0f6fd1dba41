package ebpfrec

import (
	"bytes"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// collected is an Observer that keeps what it gets.
type collected struct {
	start  []trace.StartEvent
	events []trace.Event
}

func (c *collected) Start(ev []trace.StartEvent) { c.start = ev }
func (c *collected) Event(ev trace.Event)        { c.events = append(c.events, ev) }

func (c *collected) calls() []*trace.Call {
	var out []*trace.Call
	for _, ev := range c.events {
		if ev.Call != nil {
			out = append(out, ev.Call)
		}
	}
	return out
}

const (
	rootPID   = 100
	helperExe = "/usr/bin/envbisect"
)

func newTestAssembler(t *testing.T) (*assembler, *collected) {
	t.Helper()
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	obs := &collected{}
	a := newAssembler(tab, obs, launch.ContentFilter{}, 0)
	a.helperExe = helperExe
	fds := systable.NewFDTable[string]()
	fds.Open(1, "/dev/pts/0", false)
	a.command(rootPID, fds, "/work", []trace.StartEvent{{Kind: trace.StartCwd, Value: "/work"}})
	return a, obs
}

// execCommand feeds what the start of a recording looks like: the
// helper's own exec (under way when the probe began), a call of the
// helper, then the command's exec and its execve.
func execCommand(a *assembler, seq uint64) {
	a.record(&bpf.Record{Exec: &bpf.Exec{TID: rootPID, TGID: rootPID, OldTID: rootPID, Filename: helperExe}})
	a.record(&bpf.Record{Call: &bpf.Call{TID: rootPID, TGID: rootPID, TSeq: seq, Nr: unix.SYS_READ, Ret: 10}})
	a.record(&bpf.Record{Exec: &bpf.Exec{TID: rootPID, TGID: rootPID, OldTID: rootPID, Filename: "./app"}})
	argv := []byte("app\x00-v\x00")
	a.record(&bpf.Record{Call: &bpf.Call{TID: rootPID, TGID: rootPID, TSeq: seq + 1, Nr: unix.SYS_EXECVE, Ret: 0,
		Bufs: []bpf.Buf{{Arg: 1, Part: uint8(trace.PartStrings), Dir: bpf.DirIn, Len: uint64(len(argv)), Want: uint32(len(argv))}}}})
	a.record(&bpf.Record{Chunk: &bpf.Chunk{TID: rootPID, TSeq: seq + 1, Buf: 0, Data: argv}})
}

func TestAssemblerDropsTheHelper(t *testing.T) {
	a, obs := newTestAssembler(t)
	execCommand(a, 1)
	a.finish()
	cs := obs.calls()
	if len(cs) != 1 || cs[0].Nr != unix.SYS_EXECVE || cs[0].Seq != 1 || cs[0].TSeq != 1 {
		t.Fatalf("calls %+v: want only the command's execve, numbered 1", cs)
	}
	if obs.start == nil {
		t.Error("no start events at the command's exec")
	}
	var exec *trace.ProcEvent
	for _, ev := range obs.events {
		if ev.Proc != nil && ev.Proc.Kind == trace.Exec {
			exec = ev.Proc
		}
	}
	if exec == nil || exec.Exe != "/work/app" || len(exec.Argv) != 2 || exec.Argv[1] != "-v" {
		t.Errorf("exec event %+v: want /work/app with argv [app -v]", exec)
	}
}

func TestAssemblerGapsAndLosses(t *testing.T) {
	a, obs := newTestAssembler(t)
	execCommand(a, 1)
	path := []byte("/etc/app.conf")
	// Call 3 opens, calls 4 and 5 are lost, call 6 reads 8 bytes of
	// which one chunk of 4 arrives, call 7's data arrives whole.
	a.record(&bpf.Record{Call: &bpf.Call{TID: rootPID, TGID: rootPID, TSeq: 3, Nr: unix.SYS_OPENAT, Ret: 3,
		Args: [6]uint64{uint64(0xffffff9c)}, Bufs: []bpf.Buf{{Arg: 1, Dir: bpf.DirIn, Len: uint64(len(path)), Want: uint32(len(path))}}}})
	a.record(&bpf.Record{Chunk: &bpf.Chunk{TID: rootPID, TSeq: 3, Data: path}})
	a.record(&bpf.Record{Call: &bpf.Call{TID: rootPID, TGID: rootPID, TSeq: 6, Nr: unix.SYS_READ, Ret: 8,
		Args: [6]uint64{3}, Bufs: []bpf.Buf{{Arg: 1, Dir: bpf.DirOut, Len: 8, Want: 8}}}})
	a.record(&bpf.Record{Chunk: &bpf.Chunk{TID: rootPID, TSeq: 6, Data: []byte("mode")}})
	a.record(&bpf.Record{Call: &bpf.Call{TID: rootPID, TGID: rootPID, TSeq: 7, Nr: unix.SYS_READ, Ret: 2,
		Args: [6]uint64{3}, Bufs: []bpf.Buf{{Arg: 1, Dir: bpf.DirOut, Len: 2, Want: 2}}}})
	a.record(&bpf.Record{Chunk: &bpf.Chunk{TID: rootPID, TSeq: 7, Data: []byte("ok")}})
	a.record(&bpf.Record{Exit: &bpf.Exit{TID: rootPID, TGID: rootPID, Code: 3 << 8, GroupDead: true}})
	a.finish()
	cs := obs.calls()
	if len(cs) != 4 {
		t.Fatalf("%d calls, want execve, openat and two reads", len(cs))
	}
	open, short, whole := cs[1], cs[2], cs[3]
	if open.Path != "/etc/app.conf" || open.Gap != 0 {
		t.Errorf("openat: path %q gap %d", open.Path, open.Gap)
	}
	if short.Gap != 2 || !short.Incomplete() || short.Path != "/etc/app.conf" {
		t.Errorf("read after two lost calls: gap %d, incomplete %v, path %q; want 2, true, /etc/app.conf", short.Gap, short.Incomplete(), short.Path)
	}
	if m := short.MemOf(1, trace.PartWhole); m == nil || !bytes.Equal(m.Data[:4], []byte("mode")) || m.Flag&trace.Lost == 0 {
		t.Errorf("the short read's memory %+v: want the 4 bytes that came, flagged lost", m)
	}
	if whole.Incomplete() || whole.Gap != 0 || string(whole.MemOf(1, trace.PartWhole).Data) != "ok" {
		t.Errorf("the whole read: %+v", whole)
	}
	if a.lost.Incomplete != 1 {
		t.Errorf("incomplete calls counted %d, want 1", a.lost.Incomplete)
	}
	last := obs.events[len(obs.events)-1].Proc
	if last == nil || last.Kind != trace.Exit || last.Status != 3 {
		t.Errorf("last event %+v: want the exit with status 3", last)
	}
}

func TestAssemblerForkAndThreads(t *testing.T) {
	a, obs := newTestAssembler(t)
	execCommand(a, 1)
	a.record(&bpf.Record{Fork: &bpf.Fork{ParentTID: rootPID, ParentTGID: rootPID, ChildTID: 101, ChildTGID: rootPID, Thread: true, Time: time.Millisecond}})
	a.record(&bpf.Record{Fork: &bpf.Fork{ParentTID: 101, ParentTGID: rootPID, ChildTID: 200, ChildTGID: 200}})
	a.record(&bpf.Record{Call: &bpf.Call{TID: 200, TGID: 200, TSeq: 1, Nr: unix.SYS_WRITE, Ret: 1, Args: [6]uint64{1}}})
	a.record(&bpf.Record{Exit: &bpf.Exit{TID: 200, TGID: 200, Code: 9, GroupDead: true}})
	a.finish()
	var kinds []trace.ProcKind
	var child *trace.ProcEvent
	for _, ev := range obs.events {
		if p := ev.Proc; p != nil {
			kinds = append(kinds, p.Kind)
			if p.Kind == trace.Spawn && p.PID == 200 {
				child = p
			}
		}
	}
	if child == nil || child.Proc != 2 || child.Parent != 1 || child.ParentThread != 2 || child.Index != 1 {
		t.Fatalf("spawn of the child %+v: want process 2, made by thread 2 of process 1, its first child", child)
	}
	cs := obs.calls()
	if w := cs[len(cs)-1]; w.Proc != 2 || w.Path != "/dev/pts/0" {
		t.Errorf("the child's write: proc %d path %q; want process 2 writing the inherited /dev/pts/0", w.Proc, w.Path)
	}
	want := []trace.ProcKind{trace.Spawn, trace.Exec, trace.SpawnThread, trace.Spawn, trace.Exit}
	if len(kinds) != len(want) {
		t.Fatalf("process events %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("process events %v, want %v", kinds, want)
		}
	}
	if last := obs.events[len(obs.events)-1].Proc; last.Signal != 9 || last.Status != 137 {
		t.Errorf("the child's exit %+v: want killed by SIGKILL (137)", last)
	}
}
