package bisect

import (
	"context"
	"encoding/binary"
	"net/netip"
	"slices"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// dnsMsg is a query (rcode < 0) or a response for name and typ, built
// with the library's builder; a response with addr set carries it as an
// A record.
func dnsMsg(t *testing.T, id uint16, name string, typ dnsmessage.Type, rcode int, addr ...byte) []byte {
	t.Helper()
	n := dnsmessage.MustNewName(name)
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, Response: rcode >= 0, RCode: dnsmessage.RCode(max(rcode, 0))})
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.StartQuestions())
	must(b.Question(dnsmessage.Question{Name: n, Type: typ, Class: dnsmessage.ClassINET}))
	if len(addr) == 4 {
		must(b.StartAnswers())
		must(b.AResource(dnsmessage.ResourceHeader{Name: n, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: [4]byte(addr)}))
	}
	out, err := b.Finish()
	must(err)
	return out
}

// sockaddrIn is a struct sockaddr_in.
func sockaddrIn(ip string, port uint16) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint16(b, unix.AF_INET)
	binary.BigEndian.PutUint16(b[2:], port)
	a := netip.MustParseAddr(ip).As4()
	copy(b[4:], a[:])
	return b
}

// exchange adds a resolver's exchange over UDP with 127.0.0.1:53:
// socket, connect, sendto, ioctl FIONREAD, recvfrom, close, labelled
// prefix+"recv" ...
func (b *tb) exchange(prefix string, query, answer []byte) {
	b.do(prefix+"socket", "socket", 3, []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0})
	b.do(prefix+"connect", "connect", 0, []uint64{3, 0x3000, 16}, trace.Mem{Arg: 1, Dir: trace.In, Len: 16, Data: sockaddrIn("127.0.0.1", 53)})
	b.do(prefix+"send", "sendto", int64(len(query)), []uint64{3, 0x2000, uint64(len(query)), 0, 0, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: uint64(len(query)), Data: query})
	b.do(prefix+"avail", "ioctl", 0, []uint64{3, unix.SIOCINQ, 0x5000},
		trace.Mem{Arg: 2, Dir: trace.Out, Len: 4, Data: binary.LittleEndian.AppendUint32(nil, uint32(len(answer)))})
	b.do(prefix+"recv", "recvfrom", int64(len(answer)), []uint64{3, 0x4000, 1024, 0, 0, 0},
		trace.Mem{Arg: 1, Dir: trace.Out, Len: uint64(len(answer)), Data: answer})
	b.do(prefix+"close", "close", 0, []uint64{3})
}

// TestDNSCulprit: both answers differ here (NXDOMAIN), the command
// needs the A answer; the search runs over the two DNS exchanges as
// resources and the culprit carries the A answer decoded on both sides.
// The culprit named is the recvfrom of the answer, not the ioctl
// FIONREAD before it that shows the answer's other size first.
func TestDNSCulprit(t *testing.T) {
	const name = "artifacts.internal."
	b := newTB(t)
	b.always(1)
	b.file("hosts.", "/etc/hosts", "127.0.0.1 localhost\n")
	b.exchange("six.", dnsMsg(t, 7, name, dnsmessage.TypeAAAA, -1), dnsMsg(t, 7, name, dnsmessage.TypeAAAA, 0))
	b.exchange("four.", dnsMsg(t, 8, name, dnsmessage.TypeA, -1), dnsMsg(t, 8, name, dnsmessage.TypeA, 0, 10, 1, 2, 3))
	b.always(1)
	g := b.graph()
	nx := func(label string, id uint16, typ dnsmessage.Type) *trace.Call {
		c := call(t, g, b.l(label))
		return changed(c, 36, 1, string(dnsMsg(t, id, name, typ, int(dnsmessage.RCodeNameError))))
	}
	recv := b.l("four.recv")
	avail := func(label string) *trace.Call {
		c := call(t, g, b.l(label))
		return changed(c, 0, 2, string(binary.LittleEndian.AppendUint32(nil, 36)))
	}
	f := &fake{g: g, culprit: recv, here: map[uint64]*trace.Call{
		b.l("six.avail"):  avail("six.avail"),
		b.l("four.avail"): avail("four.avail"),
		b.l("six.recv"):   nx("six.recv", 7, dnsmessage.TypeAAAA),
		recv:              nx("four.recv", 8, dnsmessage.TypeA),
	}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != recv || rep.Group == nil || rep.Group.Title != "the answer for artifacts.internal A" {
		t.Fatalf("got %s (%s), culprit %+v, group %+v; want the A answer's recvfrom", rep.Status, rep.Message, rep.Culprit, rep.Group)
	}
	var titles []string
	for _, r := range rep.Space.Resources {
		titles = append(titles, r.Title)
	}
	if !slices.Equal(titles, []string{"the answer for artifacts.internal AAAA", "the answer for artifacts.internal A"}) {
		t.Errorf("space %v", titles)
	}
	d := rep.Culprit.DNS
	if d == nil {
		t.Fatal("no culprit.dns")
	}
	if want := "the answer for artifacts.internal A differs: good A 10.1.2.3, here NXDOMAIN (server 127.0.0.1:53)"; d.Line() != want {
		t.Errorf("dns line %q, want %q", d.Line(), want)
	}
}
