package envdiff

import (
	"net/netip"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// Peers returns the peers the good run talked to over IP (envobj.Peer):
// each address a socket connected to (connect, that succeeded or was in
// progress, or a sendto that named it), with what the command sent on
// the socket and what it received there, in order (depgraph's EchoMems:
// the bytes of write, sendto, sendmsg, sendmmsg, read, recvfrom, recvmsg,
// recvmmsg), one envobj.Conn per socket. An address the command itself
// bound (BoundAddresses, the same port on the same or the wildcard
// address) is its own server, not a peer: left out. Each address and
// protocol once, in the order it was first reached.
func Peers(tr *tracefile.Trace, table *systable.Table) []envobj.Peer {
	p := newPeerTalk(table)
	b := newBinds(table)
	for i := range tr.Events {
		p.add(&tr.Events[i])
		b.add(&tr.Events[i])
	}
	return p.peers(b.out)
}

// peerTalk gathers Peers one event at a time (Inspector.Peers).
type peerTalk struct {
	table  *systable.Table
	protos map[string]string // socket:[inode] -> tcp, udp
	socks  map[string]*sockTalk
	out    []*envobj.Peer
	byAddr map[string]*envobj.Peer
}

// sockTalk is one socket's connection to a peer.
type sockTalk struct {
	peer *envobj.Peer
	conn int // its index in peer.Conns
}

func newPeerTalk(table *systable.Table) *peerTalk {
	return &peerTalk{table: table, protos: map[string]string{}, socks: map[string]*sockTalk{}, byAddr: map[string]*envobj.Peer{}}
}

// add takes the recorded event ev.
func (p *peerTalk) add(ev *trace.Event) {
	c := ev.Call
	if c == nil || c.Denied || c.NoReturn || !strings.HasPrefix(c.Path, "socket:") {
		return
	}
	row := p.table.ByNr(int(c.Nr))
	if row == nil || row.Unknown {
		return
	}
	if row.Made == systable.MadeSocket {
		delete(p.socks, c.Path) // an inode number used again: a new socket
		if pr := socketProto(row, c); pr != "" && c.Ret >= 0 {
			p.protos[c.Path] = pr
		}
		return
	}
	proto := p.protos[c.Path]
	if proto == "" {
		return // not an IP socket of a type a stand-in speaks
	}
	if row.EffectsFor(c.Args)&systable.ConnectsAddress != 0 {
		if e := c.Errno(); e != 0 && e != int(unix.EINPROGRESS) {
			return
		}
		if ap, ok := sentAddr(row, c); ok {
			p.reach(c, proto, ap)
		}
	}
	s := p.socks[c.Path]
	if s == nil || c.Errno() != 0 || c.Ret < 0 {
		return
	}
	for _, dir := range []trace.Dir{trace.In, trace.Out} {
		for _, m := range depgraph.EchoMems(row, c, dir) {
			if data := depgraph.EchoBytes(row, c, m); len(data) > 0 {
				p.say(s, dir == trace.In, data)
			}
		}
	}
}

// reach notes that socket c.Path connected or sent to ap.
func (p *peerTalk) reach(c *trace.Call, proto string, ap netip.AddrPort) {
	if s := p.socks[c.Path]; s != nil && s.peer.AddrPort == ap {
		return // a sendto naming the connected address again
	}
	k := ap.String() + "/" + proto
	peer := p.byAddr[k]
	if peer == nil {
		peer = &envobj.Peer{AddrPort: ap, Proto: proto, FirstSeq: c.Seq, DNS: ap.Port() == 53}
		p.byAddr[k] = peer
		p.out = append(p.out, peer)
	}
	peer.Conns = append(peer.Conns, envobj.Conn{})
	p.socks[c.Path] = &sockTalk{peer: peer, conn: len(peer.Conns) - 1}
}

// say appends data, sent by the command or received from the peer, to
// s's connection: over TCP to the turn of the same side before it, over
// UDP as a datagram of its own.
func (p *peerTalk) say(s *sockTalk, sent bool, data []byte) {
	peer := s.peer
	if peer.Why != "" {
		return
	}
	if peer.Size()+len(data) > envobj.MaxConversation {
		peer.Why = "its conversation is larger than a stand-in replays"
		peer.Conns = nil
		return
	}
	conn := &peer.Conns[s.conn]
	if n := len(conn.Turns); peer.Proto == "tcp" && n > 0 && conn.Turns[n-1].Sent == sent {
		conn.Turns[n-1].Data = append(conn.Turns[n-1].Data, data...)
		return
	}
	conn.Turns = append(conn.Turns, envobj.Turn{Sent: sent, Data: append([]byte(nil), data...)})
}

// peers is what was gathered, without the addresses the command bound
// itself (bound) and the peers it never said or heard anything with.
func (p *peerTalk) peers(bound []envobj.Address) []envobj.Peer {
	var out []envobj.Peer
	for _, peer := range p.out {
		if ownServer(peer.AddrPort, bound) || (peer.Size() == 0 && peer.Why == "") {
			continue
		}
		out = append(out, *peer)
	}
	return out
}

// ownServer reports whether ap is an address the command bound itself:
// the same port on the same address or a wildcard one.
func ownServer(ap netip.AddrPort, bound []envobj.Address) bool {
	for _, b := range bound {
		if b.AddrPort.Port() == ap.Port() && (b.AddrPort.Addr().Unmap() == ap.Addr().Unmap() || b.AddrPort.Addr().IsUnspecified()) {
			return true
		}
	}
	return false
}

// sentAddr is the IP address a connect or sendto call passed.
func sentAddr(row *systable.Syscall, c *trace.Call) (netip.AddrPort, bool) {
	arg := row.AddressArg(false)
	if arg < 0 {
		return netip.AddrPort{}, false
	}
	m := c.MemOfDir(uint8(arg), trace.PartWhole, trace.In)
	if m == nil {
		return netip.AddrPort{}, false
	}
	sa, ok := systable.DecodeSockaddr(m.Data)
	if !ok || !sa.IP.IsValid() || sa.IP.Port() == 0 {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(sa.IP.Addr().Unmap(), sa.IP.Port()), true
}
