package envobj

import (
	"net/netip"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// dnsBytes is a query (rcode < 0) or a response with an A record when
// addr is given.
func dnsBytes(t *testing.T, name string, rcode int, addr ...byte) []byte {
	t.Helper()
	n := dnsmessage.MustNewName(name)
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: 9, Response: rcode >= 0, RCode: dnsmessage.RCode(max(rcode, 0))})
	b.StartQuestions()
	b.Question(dnsmessage.Question{Name: n, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET})
	if len(addr) == 4 {
		b.StartAnswers()
		b.AResource(dnsmessage.ResourceHeader{Name: n, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: [4]byte(addr)})
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A peer is named by what it answered, never by its bytes: a resolver
// by its questions and both answers, a TCP service by the first lines
// of its request and answer; the report's copy (Shown) says the same
// without the conversation.
func TestPeerSaysAndFix(t *testing.T) {
	dns := Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:8053"), Proto: "udp", DNS: true,
		Conns: []Conn{{Turns: []Turn{{Sent: true, Data: dnsBytes(t, "artifacts.internal.", -1)}, {Data: dnsBytes(t, "artifacts.internal.", 0, 10, 1, 2, 3)}}}},
		Here:  []DNSAnswer{{Question: "artifacts.internal A", Answer: "NXDOMAIN"}}}
	web := Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:8000"), Proto: "tcp",
		Conns: []Conn{{Turns: []Turn{{Sent: true, Data: []byte("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")}, {Data: []byte("HTTP/1.0 200 OK\r\n\r\nok")}}}}}
	for _, c := range []struct {
		name      string
		p         Peer
		says, fix string
	}{
		{"dns", dns, "127.0.0.1:8053/udp answers NXDOMAIN for artifacts.internal A here; the good run got A 10.1.2.3",
			"make the resolver at 127.0.0.1:8053/udp answer artifacts.internal A with A 10.1.2.3, as the good run's did"},
		{"tcp", web, `peer 127.0.0.1:8000/tcp answers differently here; the good run got "HTTP/1.0 200 OK" to "GET /a HTTP/1.1"`,
			`make the service at 127.0.0.1:8000/tcp answer as in the good run ("HTTP/1.0 200 OK" to "GET /a HTTP/1.1")`},
	} {
		for _, p := range []*Peer{&c.p, c.p.Shown()} {
			if got := p.Says(); got != c.says {
				t.Errorf("%s: Says = %q; want %q", c.name, got, c.says)
			}
			if f := p.Fix(); len(f) != 1 || !strings.HasPrefix(f[0].Text, c.fix) {
				t.Errorf("%s: Fix = %v; want %q", c.name, f, c.fix)
			}
		}
		if c.p.Shown().Conns != nil {
			t.Errorf("%s: Shown keeps the conversation", c.name)
		}
	}
}

// What a stand-in can answer for: loopback, TCP or DNS over UDP, with
// an answer in the trace.
func TestPeerMaterializable(t *testing.T) {
	answered := []Conn{{Turns: []Turn{{Sent: true, Data: []byte("q")}, {Data: []byte("a")}}}}
	for _, c := range []struct {
		name string
		p    Peer
		why  string
	}{
		{"tcp on loopback", Peer{AddrPort: netip.MustParseAddrPort("127.0.0.2:80"), Proto: "tcp", Conns: answered}, ""},
		{"another interface", Peer{AddrPort: netip.MustParseAddrPort("10.0.0.1:80"), Proto: "tcp", Conns: answered}, "loopback interface only"},
		{"udp, not dns", Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:9"), Proto: "udp", Conns: answered}, "DNS only"},
		{"dns over tcp", Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:53"), Proto: "tcp", DNS: true, Conns: answered}, "DNS over TCP"},
		{"tls", Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:443"), Proto: "tcp", Conns: []Conn{{Turns: []Turn{{Sent: true, Data: []byte{0x16, 3, 1, 0, 5}}, {Data: []byte("a")}}}}}, "TLS"},
		{"no answer", Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:80"), Proto: "tcp", Conns: []Conn{{Turns: []Turn{{Sent: true, Data: []byte("q")}}}}}, "no answer"},
	} {
		ok, why := c.p.Materializable()
		if ok != (c.why == "") || !strings.Contains(why, c.why) {
			t.Errorf("%s: Materializable = %v, %q; want %q", c.name, ok, why, c.why)
		}
	}
}
