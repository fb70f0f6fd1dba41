package depgraph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// DNS exchanges. A socket whose echo protocol (systable's EchoProtocol
// rows, echo.go) has DNS messages (MessagesDNS: UDP or TCP to port 53)
// carries queries and their answers; its calls make a group of their
// own, GroupDNS, named by what the queries ask ("artifacts.internal
// A"), so that the search over what differs treats "the answer for
// artifacts.internal A" as one resource whatever socket and calls
// carried it. Sockets that ask the same questions share the group (a
// resolver asking again over TCP, or a program resolving a name twice),
// as connections to one address do. A socket to the port whose bytes
// are no DNS message the library can read stays a connection.

// dnsSock is what the trace shows of a socket to a DNS server.
type dnsSock struct {
	questions []dnsmsg.Question
}

// dnsSocket is what the graph keeps of a socket to a DNS server.
type dnsSocket struct {
	proto  string // "udp", "tcp"
	stream bool   // messages follow a length prefix (systable.FramePrefix)
}

// isDNSServer reports whether s is a socket to a DNS server: its echo
// protocol's messages are DNS messages.
func isDNSServer(s *sockState) bool {
	return s.echo != nil && s.echo.Messages == systable.MessagesDNS
}

// findDNS finds the sockets to DNS servers and the questions their
// messages ask; sockGroup then groups them by those questions.
func (b *builder) findDNS() {
	for _, d := range b.sockets {
		if isDNSServer(d.sock) {
			d.sock.dns = &dnsSock{}
			b.g.dns[d.res.ID] = dnsSocket{proto: proto(d.sock), stream: d.sock.echo.Framing == systable.FramePrefix}
		}
	}
	if len(b.g.dns) == 0 {
		return
	}
	calls := make([]*trace.Call, len(b.onSockets))
	for i, sc := range b.onSockets {
		calls[i] = sc.c
	}
	for _, m := range b.g.dnsMessages(calls, func(c *trace.Call) *trace.Call { return c }) {
		s := b.descs[m.Resource].sock.dns
		if !slices.Contains(s.questions, m.Question) {
			s.questions = append(s.questions, m.Question)
		}
	}
}

// dnsGroupName names the group of a socket that asked questions: its
// questions, the name once when they all ask about one name:
// "artifacts.internal A", "artifacts.internal A, AAAA".
func dnsGroupName(qs []dnsmsg.Question) string {
	same := true
	for _, q := range qs {
		same = same && q.Name == qs[0].Name
	}
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.String()
		if same && i > 0 {
			parts[i] = q.Type
		}
	}
	return strings.Join(parts, ", ")
}

// DNSMessage is one DNS message a call of the trace sent or received
// on a socket to a DNS server.
type DNSMessage struct {
	dnsmsg.Message
	// Seq is the recorded call that carried it (over TCP, the one that
	// carried its last byte).
	Seq uint64
	// Resource is the socket; Server its peer ("127.0.0.1:53") and
	// Proto "udp" or "tcp".
	Resource      ResourceID
	Server, Proto string
}

// DNSMessages returns the DNS messages that the calls seqs (of a
// GroupDNS group, say) sent and received, in order, with each call's
// data taken from call(seq): the recorded call (Graph.Call), or the live
// result of the same call in a run; a nil call is one that did not
// happen. Messages no DNS parser can read are left out.
func (g *Graph) DNSMessages(seqs []uint64, call func(seq uint64) *trace.Call) []DNSMessage {
	var calls []*trace.Call
	byCall := map[*trace.Call]uint64{}
	for _, seq := range seqs {
		rec, ok := g.Call(seq)
		c := call(seq)
		if !ok || c == nil {
			continue
		}
		// The call as recorded decides the socket; c's memory the bytes.
		calls = append(calls, c)
		byCall[c] = rec.Seq
	}
	return g.dnsMessages(calls, func(c *trace.Call) *trace.Call {
		if seq, ok := byCall[c]; ok {
			rec, _ := g.Call(seq)
			return rec
		}
		return nil
	})
}

// dnsMessages decodes the messages calls carry on the graph's DNS
// sockets; recorded maps each call to its recorded counterpart, whose
// socket it acts on.
func (g *Graph) dnsMessages(calls []*trace.Call, recorded func(*trace.Call) *trace.Call) []DNSMessage {
	type stream struct {
		buf []byte
		seq uint64
	}
	streams := map[[2]int]*stream{} // resource, dir -> bytes so far (TCP)
	var out []DNSMessage
	emit := func(id ResourceID, seq uint64, b []byte) {
		m, err := dnsmsg.Parse(b)
		if err != nil {
			return
		}
		r := g.Resource(id)
		out = append(out, DNSMessage{Message: m, Seq: seq, Resource: id, Server: r.Peer(), Proto: g.dns[id].proto})
	}
	for _, c := range calls {
		rec := recorded(c)
		if rec == nil {
			continue
		}
		id := g.primaryOf(rec.Seq)
		sock, ok := g.dns[id]
		if !ok {
			continue
		}
		if c.Errno() != 0 || c.NoReturn {
			continue
		}
		row := g.tab.ByNr(int(c.Nr))
		for _, dir := range []trace.Dir{trace.In, trace.Out} {
			// One message a datagram: sendmmsg and recvmmsg carry several.
			for _, m := range EchoMems(row, c, dir) {
				data := EchoBytes(row, c, m)
				if !sock.stream {
					emit(id, rec.Seq, data)
					continue
				}
				s := streams[[2]int{int(id), int(dir)}]
				if s == nil {
					s = &stream{}
					streams[[2]int{int(id), int(dir)}] = s
				}
				s.buf = append(s.buf, data...)
				for _, m := range dnsmsg.Stream(s.buf) {
					emit(id, rec.Seq, m)
					s.buf = s.buf[2+len(m):]
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b DNSMessage) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// primaryOf is the resource that decides call seq's group.
func (g *Graph) primaryOf(seq uint64) ResourceID {
	i, ok := g.pos(seq)
	if !ok {
		return 0
	}
	return g.info[i].primary
}
