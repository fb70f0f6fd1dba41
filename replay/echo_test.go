package replay

import (
	"bytes"
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/trace"
)

// netlinkTrace records getifaddrs' exchange: a netlink socket whose port
// id is 4242, a request with seq 100 and a three-message dump read in
// two recvmsg calls.
func netlinkTrace(t *testing.T) (*Recording, *tracetest.Builder) {
	b := tracetest.New(t)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1}})
	path := tracetest.Path("socket:[7]")
	b.Call("sock", 1, 1, "socket", 3, []uint64{unix.AF_NETLINK, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE})
	b.Call("name", 1, 1, "getsockname", 0, []uint64{3, 0x3000, 0x3100}, tracetest.Mem(1, trace.PartWhole, trace.Out, tracetest.SockaddrNL(4242)), path)
	req := tracetest.NlMsg(unix.RTM_GETLINK, 100, 0, "\x00\x00\x00\x00")
	b.Call("send", 1, 1, "sendto", int64(len(req)), []uint64{3, 0x2000, uint64(len(req)), 0, 0x3000, 12},
		tracetest.Mem(1, trace.PartWhole, trace.In, req), tracetest.Mem(4, trace.PartWhole, trace.In, tracetest.SockaddrNL(0)), path)
	dump := tracetest.NlDump(100, 4242, "lo\x00", "eth0\x00")
	b.Call("recv", 1, 1, "recvmsg", int64(len(dump)), []uint64{3, 0x4000, 0}, tracetest.IovData(1, trace.Out, dump), path)
	done := tracetest.NlDump(100, 4242)
	b.Call("done", 1, 1, "recvmsg", int64(len(done)), []uint64{3, 0x4000, 0}, tracetest.IovData(1, trace.Out, done), path)
	return synth(t, b.Events), b
}

// live is a live call like recorded call rc, with the data it sends (if
// any) replaced by data.
func live(rc *trace.Call, data []byte) *trace.Call {
	c := *rc
	c.Mem = nil
	for _, m := range rc.Mem {
		if m.Dir == trace.In && data != nil && (m.Part == trace.PartIovData || m.Arg == 1) {
			m.Data, m.Len = data, uint64(len(data))
		}
		if m.Dir == trace.In {
			c.Mem = append(c.Mem, m)
		}
	}
	return &c
}

// replyFields returns each message's (seq, pid) of a netlink reply
// replayed as rc.
func replyFields(t *testing.T, rc *trace.Call) [][2]uint32 {
	t.Helper()
	m := rc.MemOfDir(1, trace.PartIovData, trace.Out)
	var out [][2]uint32
	for b := m.Data; len(b) >= 16; {
		n := binary.LittleEndian.Uint32(b)
		out = append(out, [2]uint32{binary.LittleEndian.Uint32(b[8:]), binary.LittleEndian.Uint32(b[12:])})
		b = b[(n+3)/4*4:]
	}
	return out
}

// decide runs echoDecide for the recorded call labelled label and a live
// call sending data, with verb as the plan would have it.
func decide(e *engine, b *tracetest.Builder, label string, data []byte, verb ptrace.Verb) (ptrace.Verb, *trace.Call, string) {
	rc, _ := e.rec.Graph.Call(b.L(label))
	return e.echoDecide(e.tab.ByNr(int(rc.Nr)), live(rc, data), rc, verb, "")
}

// A replayed socket (a stand-in) replays the exchange; the dump's every
// message carries the live seq, and the port id the program was told
// (the recorded one: its getsockname was replayed too).
func TestEchoNetlinkStandIn(t *testing.T) {
	rec, b := netlinkTrace(t)
	e := &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Skip)
	decide(e, b, "name", nil, ptrace.Skip)
	// The plan runs the request (a prefix cut between it and the socket):
	// on a stand-in it is replayed all the same.
	v, _, why := decide(e, b, "send", tracetest.NlMsg(unix.RTM_GETLINK, 777, 0, "\x00\x00\x00\x00"), ptrace.Execute)
	if v != ptrace.Skip {
		t.Fatalf("request on a stand-in: %v (%s), want replayed", v, why)
	}
	for _, label := range []string{"recv", "done"} {
		v, rc, _ := decide(e, b, label, nil, ptrace.Skip)
		if v != ptrace.Skip {
			t.Errorf("%s: %v, want replayed", label, v)
		}
		for i, f := range replyFields(t, rc) {
			if f != [2]uint32{777, 4242} {
				t.Errorf("%s message %d: seq, pid %v, want the live seq 777 and the recorded port id 4242", label, i, f)
			}
		}
	}
	orig, _ := rec.Graph.Call(b.L("recv"))
	if replyFields(t, orig)[0] != [2]uint32{100, 4242} {
		t.Error("the recording itself was changed")
	}
}

// A live socket whose getsockname ran: the replayed reply carries the
// live port id as well.
func TestEchoNetlinkLivePortID(t *testing.T) {
	rec, b := netlinkTrace(t)
	e := &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Execute)
	if v, _, _ := decide(e, b, "name", nil, ptrace.Skip); v != ptrace.Execute {
		t.Errorf("getsockname of a live socket: %v, want executed (the program must know the live port id)", v)
	}
	name, _ := rec.Graph.Call(b.L("name"))
	liveName := *name
	liveName.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Data: tracetest.SockaddrNL(5555), Len: 12}}
	e.echoExit(&liveName, ptrace.Decision{Verb: ptrace.Execute, Rec: name})
	decide(e, b, "send", tracetest.NlMsg(unix.RTM_GETLINK, 777, 0, "\x00\x00\x00\x00"), ptrace.Skip)
	_, rc, _ := decide(e, b, "recv", nil, ptrace.Skip)
	for i, f := range replyFields(t, rc) {
		if f != [2]uint32{777, 5555} {
			t.Errorf("message %d: seq, pid %v, want 777 and the live port id 5555", i, f)
		}
	}
}

// A request the recording did not make (another dump) runs, and so does
// everything after it on the socket; a request that ran on a live socket
// has its replies read live.
func TestEchoOtherRequestRuns(t *testing.T) {
	rec, b := netlinkTrace(t)
	e := &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Skip)
	if v, _, why := decide(e, b, "send", tracetest.NlMsg(unix.RTM_GETADDR, 777, 0, "\x00\x00\x00\x00"), ptrace.Skip); v != ptrace.Execute || why != "execute (other request)" {
		t.Errorf("another request: %v (%s), want executed", v, why)
	}
	if v, _, _ := decide(e, b, "recv", nil, ptrace.Skip); v != ptrace.Execute {
		t.Errorf("its reply: %v, want executed", v)
	}

	e = &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Execute)
	decide(e, b, "send", tracetest.NlMsg(unix.RTM_GETLINK, 777, 0, "\x00\x00\x00\x00"), ptrace.Execute)
	if v, _, why := decide(e, b, "recv", nil, ptrace.Skip); v != ptrace.Execute {
		t.Errorf("the reply to a request that went to the kernel: %v (%s), want executed", v, why)
	}
}

// DNS over UDP and TCP: the replayed answer carries the live query id;
// a query for another name runs.
func TestEchoDNS(t *testing.T) {
	b := tracetest.New(t)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1}})
	server := [4]byte{10, 0, 0, 1}
	ip := []byte{10, 1, 2, 3}
	q, a := tracetest.DNSQuery(0x1234, "example"), tracetest.DNSAnswer(0x1234, "example", ip)
	u := tracetest.Path("socket:[8]")
	b.Call("usock", 1, 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0})
	b.Call("usend", 1, 1, "sendto", int64(len(q)), []uint64{3, 0x2000, uint64(len(q)), 0, 0x3000, 16},
		tracetest.Mem(1, trace.PartWhole, trace.In, q), tracetest.Mem(4, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 53)), u)
	b.Call("urecv", 1, 1, "recvfrom", int64(len(a)), []uint64{3, 0x4000, 512, 0, 0x3000, 0x3100},
		tracetest.Mem(1, trace.PartWhole, trace.Out, a), tracetest.Mem(4, trace.PartWhole, trace.Out, tracetest.Sockaddr4(server, 53)), u)
	tp := tracetest.Path("socket:[9]")
	b.Call("tsock", 1, 1, "socket", 4, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
	b.Call("conn", 1, 1, "connect", 0, []uint64{4, 0x3000, 16}, tracetest.Mem(1, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 53)), tp)
	tq, ta := tracetest.TCPFrame(q), tracetest.TCPFrame(a)
	b.Call("tsend", 1, 1, "writev", int64(len(tq)), []uint64{4, 0x2000, 2}, tracetest.IovData(1, trace.In, tq), tp)
	b.Call("tlen", 1, 1, "read", 2, []uint64{4, 0x4000, 2}, tracetest.Mem(1, trace.PartWhole, trace.Out, ta[:2]), tp)
	b.Call("tmsg", 1, 1, "read", int64(len(a)), []uint64{4, 0x4000, uint64(len(a))}, tracetest.Mem(1, trace.PartWhole, trace.Out, ta[2:]), tp)
	rec := synth(t, b.Events)
	e := &engine{rec: rec, tab: rec.Table}

	decide(e, b, "usock", nil, ptrace.Skip)
	decide(e, b, "usend", tracetest.DNSQuery(0xbeef, "example"), ptrace.Skip)
	_, rc, _ := decide(e, b, "urecv", nil, ptrace.Skip)
	if got := rc.MemOfDir(1, trace.PartWhole, trace.Out).Data; !bytes.Equal(got, tracetest.DNSAnswer(0xbeef, "example", ip)) {
		t.Errorf("udp answer replayed as %x, want the recorded answer with id beef", got)
	}

	decide(e, b, "tsock", nil, ptrace.Skip)
	decide(e, b, "conn", nil, ptrace.Skip)
	decide(e, b, "tsend", tracetest.TCPFrame(tracetest.DNSQuery(0xcafe, "example")), ptrace.Skip)
	if _, rc, _ := decide(e, b, "tlen", nil, ptrace.Skip); !bytes.Equal(rc.MemOfDir(1, trace.PartWhole, trace.Out).Data, ta[:2]) {
		t.Error("the answer's length was changed")
	}
	_, rc, _ = decide(e, b, "tmsg", nil, ptrace.Skip)
	if got := rc.MemOfDir(1, trace.PartWhole, trace.Out).Data; !bytes.Equal(got, tracetest.DNSAnswer(0xcafe, "example", ip)) {
		t.Errorf("tcp answer replayed as %x, want the recorded answer with id cafe", got)
	}

	e = &engine{rec: rec, tab: rec.Table}
	decide(e, b, "usock", nil, ptrace.Skip)
	if v, _, _ := decide(e, b, "usend", tracetest.DNSQuery(0xbeef, "elsewhere"), ptrace.Skip); v != ptrace.Execute {
		t.Errorf("a query for another name: %v, want executed", v)
	}
}

// glibc's getaddrinfo: two queries in one sendmmsg (one per struct
// mmsghdr entry), their answers read by recvfrom. Each live query is
// matched at its place modulo its id, and each replayed answer carries
// the live id of its own query; the graph decodes both queries from the
// sendmmsg. A sendmmsg whose second query asks something else runs.
func TestEchoDNSSendmmsg(t *testing.T) {
	b := tracetest.New(t)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1}})
	server := [4]byte{10, 0, 0, 1}
	ip := []byte{10, 1, 2, 3}
	qs := [][]byte{tracetest.DNSQuery(0x1111, "example"), tracetest.DNSQuery(0x2222, "other")}
	as := [][]byte{tracetest.DNSAnswer(0x1111, "example", ip), tracetest.DNSAnswer(0x2222, "other", nil)}
	entries := func(dir trace.Dir, msgs [][]byte) []trace.Mem {
		var out []trace.Mem
		for k, m := range msgs {
			out = append(out, trace.Mem{Arg: 1, Part: trace.PartIovData, Dir: dir, Len: uint64(len(m)), Data: m, Entry: uint32(k)})
		}
		return out
	}
	msgLens := func() []trace.Mem {
		var out []trace.Mem
		for k, q := range qs {
			out = append(out, trace.Mem{Arg: 1, Part: trace.PartMsgLen, Dir: trace.Out, Len: 4,
				Data: binary.LittleEndian.AppendUint32(nil, uint32(len(q))), Entry: uint32(k)})
		}
		return out
	}
	u := tracetest.Path("socket:[8]")
	b.Call("sock", 1, 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0})
	b.Call("conn", 1, 1, "connect", 0, []uint64{3, 0x3000, 16}, tracetest.Mem(1, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 53)), u)
	b.Call("send", 1, 1, "sendmmsg", 2, []uint64{3, 0x2000, 2, 0}, tracetest.Mems(append(entries(trace.In, qs), msgLens()...)...), u)
	for k, a := range as {
		b.Call([]string{"recv0", "recv1"}[k], 1, 1, "recvfrom", int64(len(a)), []uint64{3, 0x4000, 512, 0, 0x3000, 0x3100},
			tracetest.Mem(1, trace.PartWhole, trace.Out, a), tracetest.Mem(4, trace.PartWhole, trace.Out, tracetest.Sockaddr4(server, 53)), u)
	}
	rec := synth(t, b.Events)

	if ms := rec.Graph.DNSMessages([]uint64{b.L("send")}, func(seq uint64) *trace.Call { c, _ := rec.Graph.Call(seq); return c }); len(ms) != 2 ||
		ms[0].Question.Name != "example" || ms[1].Question.Name != "other" {
		t.Errorf("the sendmmsg's DNS messages: %+v, want the queries for example and other", ms)
	}

	send := func(e *engine, live [][]byte) ptrace.Verb {
		rc, _ := rec.Graph.Call(b.L("send"))
		c := *rc
		c.Mem = entries(trace.In, live)
		v, _, _ := e.echoDecide(e.tab.ByNr(int(rc.Nr)), &c, rc, ptrace.Skip, "")
		return v
	}
	e := &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Skip)
	decide(e, b, "conn", nil, ptrace.Skip)
	if v := send(e, [][]byte{tracetest.DNSQuery(0xbeef, "example"), tracetest.DNSQuery(0xcafe, "other")}); v != ptrace.Skip {
		t.Fatalf("the sendmmsg of the same queries with other ids: %v, want replayed", v)
	}
	for k, want := range [][]byte{tracetest.DNSAnswer(0xbeef, "example", ip), tracetest.DNSAnswer(0xcafe, "other", nil)} {
		_, rc, _ := decide(e, b, []string{"recv0", "recv1"}[k], nil, ptrace.Skip)
		if got := rc.MemOfDir(1, trace.PartWhole, trace.Out).Data; !bytes.Equal(got, want) {
			t.Errorf("answer %d replayed as %x, want %x (the live id of its query)", k, got, want)
		}
	}

	e = &engine{rec: rec, tab: rec.Table}
	decide(e, b, "sock", nil, ptrace.Skip)
	decide(e, b, "conn", nil, ptrace.Skip)
	if v := send(e, [][]byte{tracetest.DNSQuery(0xbeef, "example"), tracetest.DNSQuery(0xcafe, "elsewhere")}); v != ptrace.Execute {
		t.Errorf("a sendmmsg whose second query asks another name: %v, want executed", v)
	}
}
