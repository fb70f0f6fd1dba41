package depgraph

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// getifaddrs' exchange: a netlink socket, its port id, one request, a
// multi-message dump read in two recvmsg calls.
func TestEchoNetlink(t *testing.T) {
	b := newTB(t)
	b.do("sock", 1, "socket", 3, []uint64{unix.AF_NETLINK, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE})
	b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 12}, mem(1, trace.PartWhole, trace.In, tracetest.SockaddrNL(0)), fdPath("socket:[7]"))
	b.do("name", 1, "getsockname", 0, []uint64{3, 0x3000, 0x3100}, mem(1, trace.PartWhole, trace.Out, tracetest.SockaddrNL(4242)), fdPath("socket:[7]"))
	req := tracetest.NlMsg(unix.RTM_GETLINK, 100, 0, "\x00\x00\x00\x00")
	b.do("send", 1, "sendto", int64(len(req)), []uint64{3, 0x2000, uint64(len(req)), 0, 0x3000, 12},
		mem(1, trace.PartWhole, trace.In, req), mem(4, trace.PartWhole, trace.In, tracetest.SockaddrNL(0)), fdPath("socket:[7]"))
	dump := tracetest.NlDump(100, 4242, "lo\x00", "eth0\x00")
	b.do("recv", 1, "recvmsg", int64(len(dump)), []uint64{3, 0x4000, 0}, tracetest.IovData(1, trace.Out, dump), fdPath("socket:[7]"))
	done := tracetest.NlDump(100, 4242)
	b.do("done", 1, "recvmsg", int64(len(done)), []uint64{3, 0x4000, 0}, tracetest.IovData(1, trace.Out, done), fdPath("socket:[7]"))
	g := b.graph()

	mk := g.Echo(b.L("sock"))
	if mk == nil || mk.Proto.Name != "netlink" || !mk.Makes {
		t.Fatalf("socket: %+v, want the netlink socket made", mk)
	}
	if r := g.Resource(mk.Socket); r.Echo() != "netlink" {
		t.Errorf("resource %s: Echo %q, want netlink", r.Name(), r.Echo())
	}
	if e := g.Echo(b.L("name")); e == nil || !e.Reports || e.Dir != 0 {
		t.Errorf("getsockname: %+v, want Reports", e)
	}
	if e := g.Echo(b.L("bind")); e == nil || !e.Reports {
		t.Errorf("bind: %+v, want Reports", e)
	}
	send := g.Echo(b.L("send"))
	if send == nil || send.Dir != trace.In || send.Socket != mk.Socket {
		t.Fatalf("sendto: %+v, want a request on the socket", send)
	}
	if s := send.Spans(req); len(s) != 2 || s[0].Off != 8 || s[1].Off != 12 {
		t.Errorf("request spans %+v, want seq at 8, pid at 12", s)
	}
	recv := g.Echo(b.L("recv"))
	if recv == nil || recv.Dir != trace.Out {
		t.Fatalf("recvmsg: %+v, want a reply", recv)
	}
	if s := recv.Spans(dump); len(s) != 6 {
		t.Errorf("reply spans %+v, want seq and pid of 3 messages", s)
	}
	if e := g.Echo(b.L("done")); e == nil || e.Dir != trace.Out {
		t.Errorf("second recvmsg: %+v", e)
	}
}

// DNS over UDP (sendto an address on port 53) and over TCP (a connected
// stream, the answer read as its length and then the message).
func TestEchoDNS(t *testing.T) {
	b := newTB(t)
	server := [4]byte{10, 0, 0, 1}
	b.do("usock", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK, 0})
	q := tracetest.DNSQuery(0x1234, "example")
	b.do("usend", 1, "sendto", int64(len(q)), []uint64{3, 0x2000, uint64(len(q)), 0, 0x3000, 16},
		mem(1, trace.PartWhole, trace.In, q), mem(4, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 53)), fdPath("socket:[8]"))
	a := tracetest.DNSAnswer(0x1234, "example", []byte{1, 2, 3, 4})
	b.do("urecv", 1, "recvfrom", int64(len(a)), []uint64{3, 0x4000, 512, 0, 0x3000, 0x3100},
		mem(1, trace.PartWhole, trace.Out, a), mem(4, trace.PartWhole, trace.Out, tracetest.Sockaddr4(server, 53)), fdPath("socket:[8]"))
	b.do("ntp", 1, "socket", 4, []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0})
	b.do("ntpsend", 1, "sendto", 4, []uint64{4, 0x2000, 4, 0, 0x3000, 16},
		mem(1, trace.PartWhole, trace.In, []byte("time")), mem(4, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 123)), fdPath("socket:[9]"))

	b.do("tsock", 1, "socket", 5, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
	b.do("conn", 1, "connect", 0, []uint64{5, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, tracetest.Sockaddr4(server, 53)), fdPath("socket:[10]"))
	tq := tracetest.TCPFrame(q)
	b.do("tsend", 1, "writev", int64(len(tq)), []uint64{5, 0x2000, 2}, tracetest.IovData(1, trace.In, tq), fdPath("socket:[10]"))
	ta := tracetest.TCPFrame(a)
	b.do("tlen", 1, "read", 2, []uint64{5, 0x4000, 2}, mem(1, trace.PartWhole, trace.Out, ta[:2]), fdPath("socket:[10]"))
	b.do("tmsg", 1, "read", int64(len(a)), []uint64{5, 0x4000, uint64(len(a))}, mem(1, trace.PartWhole, trace.Out, ta[2:]), fdPath("socket:[10]"))
	g := b.graph()

	for _, c := range []struct {
		label, proto string
		dir          trace.Dir
		data         []byte
		off          int // of the id's span; -1: none
	}{
		{"usend", "dns-udp", trace.In, q, 0},
		{"urecv", "dns-udp", trace.Out, a, 0},
		{"tsend", "dns-tcp", trace.In, tq, 2},
		{"tlen", "dns-tcp", trace.Out, ta[:2], -1},
		{"tmsg", "dns-tcp", trace.Out, ta[2:], 0},
	} {
		e := g.Echo(b.L(c.label))
		if e == nil || e.Proto.Name != c.proto || e.Dir != c.dir {
			t.Errorf("%s: %+v, want %s %d", c.label, e, c.proto, c.dir)
			continue
		}
		s := e.Spans(c.data)
		switch {
		case c.off < 0 && len(s) != 0, c.off >= 0 && (len(s) != 1 || s[0].Off != c.off || s[0].Len != 2):
			t.Errorf("%s: spans %+v, want the id at %d", c.label, s, c.off)
		}
	}
	if e := g.Echo(b.L("ntpsend")); e != nil {
		t.Errorf("udp to port 123: %+v, want no echo protocol", e)
	}
}
