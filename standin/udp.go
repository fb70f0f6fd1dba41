package standin

import (
	"encoding/binary"
	"net"
	"sync"
	"time"

	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/envobj"
)

// serveUDP answers the datagrams the command sends to peer p until pc
// is closed: with the recorded DNS answer to the same question when
// replay is set (a DNS peer; Materializable refuses other UDP peers),
// relayed to the real peer otherwise.
func (n *Network) serveUDP(pc net.PacketConn, p *envobj.Peer, replay bool) {
	answers := dnsAnswers(p)
	relays := map[string]net.Conn{}
	var mu sync.Mutex
	defer func() {
		mu.Lock()
		for _, r := range relays {
			r.Close()
		}
		mu.Unlock()
	}()
	buf := make([]byte, 64<<10)
	for {
		k, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		msg := append([]byte(nil), buf[:k]...)
		if !replay {
			mu.Lock()
			up := relays[from.String()]
			if up == nil {
				if up, err = net.Dial("udp", p.AddrPort.String()); err != nil {
					mu.Unlock()
					continue
				}
				relays[from.String()] = up
				n.goServe(func() { relayBack(up, pc, from) })
			}
			mu.Unlock()
			up.Write(msg)
			continue
		}
		q, err := dnsmsg.Parse(msg)
		if err != nil || q.Response || len(msg) < 2 {
			n.problem("%s: the command sent a datagram that is no DNS query", p)
			continue
		}
		a, ok := answers[q.Question.String()]
		if !ok {
			n.problem("%s: the command asked %s, which the good run did not ask", p, q.Question)
			continue
		}
		out := append([]byte(nil), a...)
		binary.BigEndian.PutUint16(out, binary.BigEndian.Uint16(msg)) // the live query id
		pc.WriteTo(out, from)
	}
}

// relayBack forwards the real peer's replies on up to the command's
// address from, until up is closed or quiet for a minute.
func relayBack(up net.Conn, pc net.PacketConn, from net.Addr) {
	buf := make([]byte, 64<<10)
	for {
		up.SetReadDeadline(time.Now().Add(time.Minute))
		k, err := up.Read(buf)
		if err != nil {
			return
		}
		pc.WriteTo(buf[:k], from)
	}
}

// dnsAnswers are p's recorded DNS answers by their question ("name A"):
// the first answer to each.
func dnsAnswers(p *envobj.Peer) map[string][]byte {
	out := map[string][]byte{}
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			if t.Sent {
				continue
			}
			m, err := dnsmsg.Parse(t.Data)
			if err != nil || !m.Response {
				continue
			}
			if _, ok := out[m.Question.String()]; !ok {
				out[m.Question.String()] = t.Data
			}
		}
	}
	return out
}
