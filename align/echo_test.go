package align

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// echoAll answers EchoOf for every data buffer of the calls it is given:
// the protocol named, at the start of its stream.
func echoAll(t *testing.T, name string) EchoOf {
	var p *systable.EchoProtocol
	for _, e := range systable.EchoProtocols() {
		if e.Name == name {
			p = &e
		}
	}
	if p == nil {
		t.Fatalf("no echo protocol %s", name)
	}
	return func(_ *trace.Call, m *trace.Mem) (*systable.EchoProtocol, systable.EchoState, bool) {
		return p, systable.EchoState{}, m.Part == trace.PartIovData || m.Part == trace.PartWhole && m.Arg == 1
	}
}

// A request or reply that differs only in its echoed fields does not
// differ; one that asks or answers something else does, and without the
// echo data even the same answer differs.
func TestCompareEcho(t *testing.T) {
	tab := tracetest.Amd64(t)
	rec, live := newRun(t, 1000), newRun(t, 5000)
	recv := func(r *run, data []byte) *trace.Call {
		c := r.call(1, "recvmsg", int64(len(data)), "socket:[7]", 3, 0x4000, 0)
		c.Mem = append(c.Mem, trace.Mem{Arg: 1, Part: trace.PartIovData, Dir: trace.Out, Len: uint64(len(data)), Data: data})
		return c
	}
	send := func(r *run, data []byte) *trace.Call {
		c := r.call(1, "sendto", int64(len(data)), "socket:[8]", 3, 0x2000, uint64(len(data)))
		c.Mem = append(c.Mem, trace.Mem{Arg: 1, Dir: trace.In, Len: uint64(len(data)), Data: data})
		return c
	}
	read := func(r *run, data []byte) *trace.Call {
		c := r.call(1, "read", int64(len(data)), "socket:[9]", 3, 0x4000, 512)
		c.Mem = append(c.Mem, trace.Mem{Arg: 1, Dir: trace.Out, Len: uint64(len(data)), Data: data})
		return c
	}
	name := func(r *run, pid uint32) *trace.Call {
		c := r.call(1, "getsockname", 0, "socket:[7]", 3, 0x3000, 0x3100)
		sa := tracetest.SockaddrNL(pid)
		c.Mem = append(c.Mem, trace.Mem{Arg: 1, Dir: trace.Out, Len: uint64(len(sa)), Data: sa})
		return c
	}
	ip := []byte{10, 1, 2, 3}
	cases := []struct {
		name     string
		proto    string
		a, b     *trace.Call
		differs  bool // with the echo data
		withNone bool // without it
	}{
		{"netlink dump, other seq and pid", "netlink",
			recv(rec, tracetest.NlDump(100, 1001, "lo\x00", "eth0\x00")), recv(live, tracetest.NlDump(777, 5001, "lo\x00", "eth0\x00")), false, true},
		{"netlink dump, another interface", "netlink",
			recv(rec, tracetest.NlDump(100, 1001, "lo\x00", "eth0\x00")), recv(live, tracetest.NlDump(777, 5001, "lo\x00", "eth1\x00")), true, true},
		{"netlink request, other seq", "netlink",
			send(rec, tracetest.NlMsg(unix.RTM_GETADDR, 100, 0, "\x00")), send(live, tracetest.NlMsg(unix.RTM_GETADDR, 777, 0, "\x00")), false, true},
		{"netlink request for links, not addresses", "netlink",
			send(rec, tracetest.NlMsg(unix.RTM_GETADDR, 100, 0, "\x00")), send(live, tracetest.NlMsg(unix.RTM_GETLINK, 777, 0, "\x00")), true, true},
		{"dns answer, other id", "dns-udp",
			recv(rec, tracetest.DNSAnswer(0x1234, "example", ip)), recv(live, tracetest.DNSAnswer(0xbeef, "example", ip)), false, true},
		{"dns answer NXDOMAIN here", "dns-udp",
			recv(rec, tracetest.DNSAnswer(0x1234, "example", ip)), recv(live, tracetest.DNSAnswer(0xbeef, "example", nil)), true, true},
		{"dns query for another name", "dns-udp",
			send(rec, tracetest.DNSQuery(0x1234, "example")), send(live, tracetest.DNSQuery(0xbeef, "elsewhere")), true, true},
		{"dns over tcp, other id", "dns-tcp",
			read(rec, tracetest.TCPFrame(tracetest.DNSAnswer(0x1234, "example", ip))), read(live, tracetest.TCPFrame(tracetest.DNSAnswer(0xbeef, "example", ip))), false, true},
		{"dns over tcp, another address", "dns-tcp",
			read(rec, tracetest.TCPFrame(tracetest.DNSAnswer(0x1234, "example", ip))), read(live, tracetest.TCPFrame(tracetest.DNSAnswer(0xbeef, "example", []byte{10, 9, 9, 9}))), true, true},
		// The netlink port id getsockname reports is the process's pid.
		{"netlink port id", "netlink", name(rec, 1001), name(live, 5001), false, false},
	}
	for _, tt := range cases {
		for _, withEcho := range []bool{true, false} {
			o := Options{}
			want := tt.withNone
			if withEcho {
				o.Echo, want = echoAll(t, tt.proto), tt.differs
			}
			d := NewReplayComparer(tab, "amd64", NewKeyer(tab, "", ""), o).Compare(tt.a, tt.b)
			if differs := d != nil && (len(d.Data) > 0 || len(d.Sent) > 0 || d.Ret); differs != want {
				t.Errorf("%s (echo data %v): diff %+v, want differs %v", tt.name, withEcho, d, want)
			}
		}
	}
}
