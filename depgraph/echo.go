package depgraph

import (
	"encoding/binary"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// EchoCall says where a call on a socket that speaks an echo protocol
// (systable's EchoProtocol: netlink, DNS) stands in the socket's
// exchange: align compares its data without the echoed fields, and
// replay writes the live values into a replayed reply.
type EchoCall struct {
	Proto  *systable.EchoProtocol
	Socket ResourceID // the socket resource
	// Makes: the call made the socket (socket). Reports: it reports or
	// sets the socket's local address (getsockname, bind), where a
	// FromLocalPort field's value comes from.
	Makes, Reports bool
	// Dir is the direction of the data the call carries: trace.In for a
	// request the program sends, trace.Out for a reply it receives, 0
	// for none.
	Dir trace.Dir
	// At is where the socket's stream in Dir stood before the call's
	// data (FramePrefix framing; the zero state otherwise).
	At systable.EchoState
}

// Echo returns where call seq stands in an echo protocol's exchange, or
// nil when the call is on no such socket.
func (g *Graph) Echo(seq uint64) *EchoCall { return g.echo[seq] }

// Spans returns where the echoed fields lie in buffer buf of a call
// found at e (a live call is read at its recorded counterpart's place).
func (e *EchoCall) Spans(buf []byte) []systable.EchoSpan {
	s, _ := e.Proto.Spans(e.At, buf)
	return s
}

// EchoData returns the memory of a call that holds the bytes it sends
// (dir trace.In) or receives (trace.Out): a plain buffer (write, sendto,
// read, recvfrom) or an iovec array's data (writev, sendmsg, readv,
// recvmsg); nil when it has none. A call that carries several messages
// (sendmmsg, recvmmsg) has one such memory per message: see EchoMems.
func EchoData(row *systable.Syscall, c *trace.Call, dir trace.Dir) *trace.Mem {
	if ms := EchoMems(row, c, dir); len(ms) > 0 {
		return ms[0]
	}
	return nil
}

// EchoMems returns the memory holding each message a call sends (dir
// trace.In) or receives (trace.Out), in order: EchoData's one buffer, or
// for an array of struct mmsghdr (sendmmsg, recvmmsg) each entry's data,
// every entry the program passed for trace.In (a live call before it
// runs has no result yet) and the entries the kernel filled for
// trace.Out. EchoBytes cuts each to what the kernel took or gave.
func EchoMems(row *systable.Syscall, c *trace.Call, dir trace.Dir) []*trace.Mem {
	var out []*trace.Mem
	for i := range c.Mem {
		if m := &c.Mem[i]; m.Dir == dir && IsEchoData(row, m) {
			out = append(out, m)
			if !isMmsg(row, m) {
				break
			}
		}
	}
	return out
}

// EchoBytes returns the bytes of m, one of EchoMems of completed call c,
// that the kernel took or gave: up to the return value, or for an entry
// of an mmsghdr array up to its msg_len; nil for an entry the call did
// not send (sendmmsg sent fewer messages than it was passed).
func EchoBytes(row *systable.Syscall, c *trace.Call, m *trace.Mem) []byte {
	data := m.Data
	if isMmsg(row, m) {
		l := c.MemOfEntry(m.Arg, trace.PartMsgLen, trace.Out, m.Entry)
		if l == nil || len(l.Data) < 4 {
			return nil
		}
		if n := binary.LittleEndian.Uint32(l.Data); uint64(len(data)) > uint64(n) {
			data = data[:n]
		}
		return data
	}
	if n := c.Ret; n >= 0 && int64(len(data)) > n {
		data = data[:n]
	}
	return data
}

// isMmsg reports whether m belongs to an array of struct mmsghdr.
func isMmsg(row *systable.Syscall, m *trace.Mem) bool {
	return int(m.Arg) < len(row.Args) && row.Args[m.Arg].Kind.IsMmsghdr()
}

// IsEchoData reports whether m is a call's data as EchoMems finds it.
func IsEchoData(row *systable.Syscall, m *trace.Mem) bool {
	switch {
	case m.Part == trace.PartIovData:
		return true
	case m.Part != trace.PartWhole || int(m.Arg) >= len(row.Args):
		return false
	}
	a := row.Args[m.Arg]
	return a.Struct == "" && (a.Kind == systable.InBuf && m.Dir == trace.In || a.Kind == systable.OutBuf && m.Dir == trace.Out)
}

// echoProtocolOf decides which echo protocol a socket speaks, once the
// trace has been read (the port it sends to is known then).
func echoProtocolOf(s *sockState) *systable.EchoProtocol {
	if s == nil || s.accepted {
		return nil
	}
	var port uint16
	if s.peer != nil && s.peer.ip.IsValid() {
		port = s.peer.ip.Port()
	}
	return systable.EchoProtocolFor(s.family, s.typ, s.protocol, port)
}

// findEchoes gives each call on a socket that speaks an echo protocol
// its EchoCall, following each socket's two streams in trace order.
func (b *builder) findEchoes() {
	type streams struct{ in, out systable.EchoState }
	pos := map[ResourceID]*streams{}
	for _, sc := range b.onSockets {
		c := sc.c
		id := b.g.info[sc.i].primary
		d := b.descs[id]
		if d == nil || d.sock == nil || d.sock.echo == nil {
			continue
		}
		row := b.tab.ByNr(int(c.Nr))
		e := &EchoCall{Proto: d.sock.echo, Socket: id, Makes: row.Made == systable.MadeSocket,
			Reports: row.Socket == systable.SocketReportsLocal || row.EffectsFor(c.Args)&systable.BindsAddress != 0}
		st := pos[id]
		if st == nil {
			st = &streams{}
			pos[id] = st
		}
		if c.Errno() == 0 && !c.NoReturn {
			for _, dir := range []trace.Dir{trace.In, trace.Out} {
				ms := EchoMems(row, c, dir)
				if len(ms) == 0 {
					continue
				}
				at := &st.in
				if dir == trace.Out {
					at = &st.out
				}
				e.Dir, e.At = dir, *at
				for _, m := range ms {
					_, *at = d.sock.echo.Spans(*at, EchoBytes(row, c, m))
				}
			}
		}
		if b.g.echo == nil {
			b.g.echo = map[uint64]*EchoCall{}
		}
		b.g.echo[c.Seq] = e
	}
}

// EchoOf says where the echoed fields lie in buffer m of recorded call a:
// the protocol and the stream position when m is the data a call on an
// echo protocol's socket sends or receives (align's EchoOf).
func (g *Graph) EchoOf(a *trace.Call, m *trace.Mem) (p *systable.EchoProtocol, at systable.EchoState, ok bool) {
	return echoOf(g.tab, g.echo, a, m)
}

// EchoOnly returns the graph's EchoOf alone: what it holds is the
// calls on echo protocols' sockets, not the graph, which the caller can
// then let go (diff).
func (g *Graph) EchoOnly() func(a *trace.Call, m *trace.Mem) (*systable.EchoProtocol, systable.EchoState, bool) {
	tab, echo := g.tab, g.echo
	return func(a *trace.Call, m *trace.Mem) (*systable.EchoProtocol, systable.EchoState, bool) {
		return echoOf(tab, echo, a, m)
	}
}

// echoOf is EchoOf with the echo calls of a graph.
func echoOf(tab *systable.Table, echo map[uint64]*EchoCall, a *trace.Call, m *trace.Mem) (*systable.EchoProtocol, systable.EchoState, bool) {
	e := echo[a.Seq]
	if e == nil || e.Dir == 0 || e.Dir != m.Dir || !IsEchoData(tab.ByNr(int(a.Nr)), m) {
		return nil, systable.EchoState{}, false
	}
	return e.Proto, e.At, true
}
