package depgraph

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/trace"
)

// dnsMsg is a query (rcode < 0) or a response for name and typ, built
// with the library's builder; a response to an A question for a name
// with addr set carries it.
func dnsMsg(t *testing.T, id uint16, name string, typ dnsmessage.Type, rcode int, addr ...byte) []byte {
	t.Helper()
	n := dnsmessage.MustNewName(name)
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, Response: rcode >= 0, RCode: dnsmessage.RCode(max(rcode, 0))})
	if err := b.StartQuestions(); err != nil {
		t.Fatal(err)
	}
	if err := b.Question(dnsmessage.Question{Name: n, Type: typ, Class: dnsmessage.ClassINET}); err != nil {
		t.Fatal(err)
	}
	if len(addr) == 4 {
		if err := b.StartAnswers(); err != nil {
			t.Fatal(err)
		}
		if err := b.AResource(dnsmessage.ResourceHeader{Name: n, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: [4]byte(addr)}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// udpExchange adds a resolver's exchange over UDP on fd 3 of process 1:
// socket, connect to server, sendto of query, recvfrom of answer,
// close; labels are prefix+"socket" ... prefix+"recv".
func (b *tb) udpExchange(prefix, server string, query, answer []byte) {
	b.do(prefix+"socket", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK, 0})
	b.do(prefix+"connect", 1, "connect", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4(server, 53)))
	b.do(prefix+"send", 1, "sendto", int64(len(query)), []uint64{3, 0x2000, uint64(len(query)), unix.MSG_NOSIGNAL, 0, 0},
		mem(1, trace.PartWhole, trace.In, query))
	b.do(prefix+"recv", 1, "recvfrom", int64(len(answer)), []uint64{3, 0x4000, 1024, 0, 0x3000, 0x3100},
		mem(1, trace.PartWhole, trace.Out, answer), mem(4, trace.PartWhole, trace.Out, sockaddr4(server, 53)))
	b.do(prefix+"close", 1, "close", 0, []uint64{3})
}

// TestDNSGroups: a socket to a DNS server's port is a group of its own
// named by what its queries ask; sockets asking the same share it; one
// whose bytes are no DNS stays a connection.
func TestDNSGroups(t *testing.T) {
	b := newTB(t)
	name := "artifacts.internal."
	b.udpExchange("six-", "127.0.0.1", dnsMsg(t, 1, name, dnsmessage.TypeAAAA, -1), dnsMsg(t, 1, name, dnsmessage.TypeAAAA, 0))
	b.udpExchange("four-", "127.0.0.1", dnsMsg(t, 2, name, dnsmessage.TypeA, -1), dnsMsg(t, 2, name, dnsmessage.TypeA, 0, 10, 1, 2, 3))
	b.udpExchange("again-", "127.0.0.2", dnsMsg(t, 3, name, dnsmessage.TypeA, -1), dnsMsg(t, 3, name, dnsmessage.TypeA, 0, 10, 1, 2, 3))
	b.udpExchange("http-", "127.0.0.1", []byte("GET / HTTP/1.0\r\n\r\n"), []byte("HTTP/1.0 200 OK\r\n\r\n"))
	// Over TCP: the query in one write with its length, the answer read
	// as its length, then the rest.
	q := dnsMsg(t, 4, "mirror.example.", dnsmessage.TypeA, -1)
	a := dnsMsg(t, 4, "mirror.example.", dnsmessage.TypeA, 3)
	b.do("tcp-socket", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
	b.do("tcp-connect", 1, "connect", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("127.0.0.1", 53)))
	b.do("tcp-send", 1, "write", int64(2+len(q)), []uint64{3, 0x2000, uint64(2 + len(q))},
		mem(1, trace.PartWhole, trace.In, append(binary.BigEndian.AppendUint16(nil, uint16(len(q))), q...)))
	b.do("tcp-len", 1, "read", 2, []uint64{3, 0x4000, 2}, mem(1, trace.PartWhole, trace.Out, binary.BigEndian.AppendUint16(nil, uint16(len(a)))))
	b.do("tcp-recv", 1, "read", int64(len(a)), []uint64{3, 0x4000, uint64(len(a))}, mem(1, trace.PartWhole, trace.Out, a))
	g := b.graph()

	for _, tt := range []struct {
		label string
		kind  GroupKind
		title string
	}{
		{"six-socket", GroupDNS, "the answer for artifacts.internal AAAA"},
		{"six-recv", GroupDNS, "the answer for artifacts.internal AAAA"},
		{"four-connect", GroupDNS, "the answer for artifacts.internal A"},
		{"four-recv", GroupDNS, "the answer for artifacts.internal A"},
		{"again-recv", GroupDNS, "the answer for artifacts.internal A"},
		{"http-recv", GroupConnection, "connection to udp 127.0.0.1:53"},
		{"tcp-recv", GroupDNS, "the answer for mirror.example A"},
	} {
		gr := g.GroupOf(b.l(tt.label))
		if gr == nil || gr.Kind != tt.kind || gr.Title() != tt.title || gr.Class != Environment {
			t.Errorf("%s: group %+v, want %s %q (environment)", tt.label, gr, tt.kind, tt.title)
		}
	}
	if g.GroupOf(b.l("four-recv")) != g.GroupOf(b.l("again-send")) {
		t.Error("two sockets asking the same question are not one group")
	}

	// The messages of a group, from the recording and from live calls.
	gr := g.GroupOf(b.l("four-recv"))
	rec := g.DNSMessages(gr.Calls, func(seq uint64) *trace.Call { c, _ := g.Call(seq); return c })
	if len(rec) != 4 || rec[0].Response || !rec[1].Response || rec[1].Answer.String() != "A 10.1.2.3" ||
		rec[1].Server != "127.0.0.1:53" || rec[1].Proto != "udp" || rec[3].Server != "127.0.0.2:53" {
		t.Errorf("recorded messages: %+v", rec)
	}
	nx := dnsMsg(t, 9, name, dnsmessage.TypeA, 3)
	live := func(seq uint64) *trace.Call {
		if seq != b.l("four-recv") {
			return nil // only the answer ran live
		}
		c, _ := g.Call(seq)
		l := *c
		l.Ret = int64(len(nx))
		l.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Len: uint64(len(nx)), Data: nx}}
		return &l
	}
	got := g.DNSMessages(gr.Calls, live)
	if len(got) != 1 || got[0].Question.String() != "artifacts.internal A" || got[0].Answer.String() != "NXDOMAIN" || got[0].Seq != b.l("four-recv") {
		t.Errorf("live messages: %+v", got)
	}
	tcp := g.DNSMessages(g.GroupOf(b.l("tcp-recv")).Calls, func(seq uint64) *trace.Call { c, _ := g.Call(seq); return c })
	if len(tcp) != 2 || tcp[1].Answer.String() != "NXDOMAIN" || tcp[1].Proto != "tcp" || tcp[1].Seq != b.l("tcp-recv") {
		t.Errorf("tcp messages: %+v", tcp)
	}
}

// TestDNSGroupName: one name asked several types is named once; other
// names in full.
func TestDNSGroupName(t *testing.T) {
	for _, tt := range []struct {
		qs   []dnsmsg.Question
		name string
	}{
		{[]dnsmsg.Question{{Name: "a.example", Type: "A"}}, "a.example A"},
		{[]dnsmsg.Question{{Name: "a.example", Type: "A"}, {Name: "a.example", Type: "AAAA"}}, "a.example A, AAAA"},
		{[]dnsmsg.Question{{Name: "a.example.corp", Type: "A"}, {Name: "a.example", Type: "A"}}, "a.example.corp A, a.example A"},
	} {
		if got := dnsGroupName(tt.qs); got != tt.name {
			t.Errorf("%v: %q, want %q", tt.qs, got, tt.name)
		}
	}
	g := &Group{Kind: GroupDNS, Name: "a.example A, AAAA", Questions: 2}
	if g.Title() != "the answers for a.example A, AAAA" {
		t.Errorf("title %q", g.Title())
	}
}
