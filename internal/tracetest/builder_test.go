package tracetest

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestBuilder(t *testing.T) {
	b := New(t)
	open := b.Call("open", 1, 1, "openat", 3, []uint64{AtCWD, 0, 0}, Named("conf", "/etc/conf"))
	read := b.Call("", 1, 1, "read", 5, []uint64{3, 0x20000, 4096}, Mem(1, trace.PartWhole, trace.Out, []byte("hello")), Path("/etc/conf"))
	other := b.Call("other", 1, 1, "close", 0, []uint64{3}, On(2))
	exit := b.Call("", 1, 1, "exit_group", 0, nil, NoReturn())

	if b.L("open") != 1 || b.L("other") != 3 || b.Seq() != 4 || len(b.Events) != 4 {
		t.Errorf("labels open %d other %d, seq %d, %d events", b.L("open"), b.L("other"), b.Seq(), len(b.Events))
	}
	if open.Path != "/etc/conf" || string(open.MemOf(1, trace.PartWhole).Data) != "conf\x00" || open.Args[1] == 0 {
		t.Errorf("openat: %+v", open)
	}
	if read.Path != "/etc/conf" || string(read.MemOf(1, trace.PartWhole).Data) != "hello" || read.TSeq != 2 {
		t.Errorf("read: %+v", read)
	}
	if other.Thread != 2 || other.TSeq != 1 || exit.TSeq != 3 || !exit.NoReturn {
		t.Errorf("close on thread %d TSeq %d, exit_group TSeq %d NoReturn %v", other.Thread, other.TSeq, exit.TSeq, exit.NoReturn)
	}
	if c := Out(In(&trace.Call{}, 0, "in"), 1, "out"); len(c.Mem) != 2 || c.Mem[0].Dir != trace.In || c.Mem[1].Len != 3 {
		t.Errorf("In, Out: %+v", c.Mem)
	}
}
