package replay

import (
	"bytes"
	"encoding/binary"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Echo fields in a run. On a socket that speaks an echo protocol
// (depgraph's Graph.Echo), a live request matches its recorded call when
// it differs in the echoed fields only; the engine then remembers, per
// field, which live value stands for which recorded one, and writes the
// live values into the recorded replies it replays. The exchange stays
// whole: a socket whose socket call was replayed (a stand-in) replays its
// requests and replies; a live socket tells the program its live port id
// (getsockname runs); a reply follows its request (replayed when the
// request was, live when it went to the kernel); after a request the
// recording did not make (another question), the socket's calls run.

// echoSocket is what a run knows of one recorded socket of an echo
// protocol.
type echoSocket struct {
	standIn  bool // its socket call was replayed: a memfd stands in
	replayed bool // its last request was replayed, so are its replies
	diverged bool // a request differed in more than the echoed fields
	// live maps, per field of the protocol, a recorded value to the value
	// the program sent or was told in this run.
	live []map[string][]byte
}

func (e *engine) echoSocket(ec *depgraph.EchoCall) *echoSocket {
	if e.echoes == nil {
		e.echoes = map[depgraph.ResourceID]*echoSocket{}
	}
	s := e.echoes[ec.Socket]
	if s == nil {
		s = &echoSocket{live: make([]map[string][]byte, len(ec.Proto.Fields))}
		for i := range s.live {
			s.live[i] = map[string][]byte{}
		}
		e.echoes[ec.Socket] = s
	}
	return s
}

// echoDecide adjusts the decision about live call c, matched to recorded
// call rc, when rc is on a socket of an echo protocol: see above. It
// returns the verb, the recorded call to replay (a copy of rc whose reply
// carries the live values) and why, when that is not the plan's.
func (e *engine) echoDecide(row *systable.Syscall, c, rc *trace.Call, verb ptrace.Verb, why string) (ptrace.Verb, *trace.Call, string) {
	ec := e.rec.Graph.Echo(rc.Seq)
	if ec == nil {
		return verb, rc, why
	}
	s := e.echoSocket(ec)
	switch {
	case ec.Makes:
		s.standIn = verb == ptrace.Skip
		return verb, rc, why
	case s.diverged:
		return ptrace.Execute, rc, "execute (after another request)"
	case ec.Reports && ec.Dir == 0 && !s.standIn && verb == ptrace.Skip:
		// A live socket's port id is what the kernel's replies carry: the
		// program must be told the live one (echoExit learns it).
		return ptrace.Execute, rc, "execute (the socket is live: its port id)"
	case ec.Dir == trace.In:
		// A call may carry several requests (sendmmsg): each is matched
		// to the recorded one at its place.
		live, recd := depgraph.EchoMems(row, c, trace.In), depgraph.EchoMems(e.tab.ByNr(int(rc.Nr)), rc, trace.In)
		if len(live) == 0 || len(live) != len(recd) {
			s.diverged = true
			return ptrace.Execute, rc, "execute (other request)"
		}
		for k := range live {
			if !sameRequest(ec, live[k].Data, recd[k].Data) {
				s.diverged = true
				return ptrace.Execute, rc, "execute (other request)"
			}
		}
		if s.standIn && verb != ptrace.Skip {
			verb, why = ptrace.Skip, "replay (the socket is a stand-in)"
		}
		s.replayed = verb == ptrace.Skip
		if s.replayed {
			for k := range live {
				s.learn(ec, recd[k].Data, live[k].Data)
			}
		}
		return verb, rc, why
	case ec.Dir == trace.Out:
		if !s.replayed && !(s.standIn && verb == ptrace.Skip) {
			if verb != ptrace.Execute {
				why = "execute (its request ran)"
			}
			return ptrace.Execute, rc, why
		}
		if verb != ptrace.Skip {
			why = "replay (its request was replayed)"
		}
		return ptrace.Skip, s.reply(ec, e.tab.ByNr(int(rc.Nr)), rc), why
	}
	return verb, rc, why
}

// echoExit learns the port id the kernel reported to an executed
// getsockname or bind on an echo protocol's socket: the value replies
// carry in FromLocalPort fields.
func (e *engine) echoExit(c *trace.Call, d ptrace.Decision) {
	if d.Rec == nil || d.Verb != ptrace.Execute {
		return
	}
	ec := e.rec.Graph.Echo(d.Rec.Seq)
	if ec == nil || !ec.Reports || c.Errno() != 0 {
		return
	}
	row := e.tab.ByNr(int(c.Nr))
	recd, okR := localPortID(row, d.Rec)
	live, okL := localPortID(row, c)
	if !okR || !okL {
		return
	}
	s := e.echoSocket(ec)
	for i, f := range ec.Proto.Fields {
		if f.From == systable.FromLocalPort && f.Width == len(recd) {
			s.live[i][string(recd)] = live
		}
	}
}

// localPortID returns the netlink port id (nl_pid, 4 bytes as a message
// carries it) in the socket address a call reports or binds.
func localPortID(row *systable.Syscall, c *trace.Call) ([]byte, bool) {
	for i := range c.Mem {
		m := &c.Mem[i]
		if int(m.Arg) >= len(row.Args) || systable.StructOf(row.Args[m.Arg].Struct).Is != systable.StructSockaddr {
			continue
		}
		sa, ok := systable.DecodeSockaddr(m.Data)
		if !ok || !sa.IsNetlink || sa.NetlinkPID == 0 {
			continue
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(sa.NetlinkPID)), true
	}
	return nil, false
}

// sameRequest reports whether a live request asks what the recorded one
// did, its echoed fields left out.
func sameRequest(ec *depgraph.EchoCall, live, recd []byte) bool {
	return bytes.Equal(systable.MaskEcho(live, ec.Spans(live)), systable.MaskEcho(recd, ec.Spans(recd)))
}

// learn remembers the live values of a request's echoed fields.
func (s *echoSocket) learn(ec *depgraph.EchoCall, recd, live []byte) {
	rs, ls := ec.Spans(recd), ec.Spans(live)
	for i := range min(len(rs), len(ls)) {
		r, l := rs[i], ls[i]
		f := ec.Proto.Fields[r.Field]
		if f.From != systable.FromRequest || r.Len != f.Width || l.Len != f.Width || r.Field != l.Field {
			continue
		}
		s.live[r.Field][string(recd[r.Off:r.Off+r.Len])] = append([]byte(nil), live[l.Off:l.Off+l.Len]...)
	}
}

// reply returns recorded reply rc with the live values in its echoed
// fields, in each message it received (recvmmsg receives several): a
// copy, or rc itself when nothing changes.
func (s *echoSocket) reply(ec *depgraph.EchoCall, row *systable.Syscall, rc *trace.Call) *trace.Call {
	var cp *trace.Call
	for _, m := range depgraph.EchoMems(row, rc, trace.Out) {
		data := s.withLive(ec, m.Data)
		if data == nil {
			continue
		}
		if cp == nil {
			c := *rc
			c.Mem = append([]trace.Mem(nil), rc.Mem...)
			cp = &c
		}
		for i := range cp.Mem {
			if &rc.Mem[i] == m {
				cp.Mem[i].Data = data
			}
		}
	}
	if cp == nil {
		return rc
	}
	return cp
}

// withLive returns a copy of recorded message buf with the live values
// in its echoed fields, nil when none changes.
func (s *echoSocket) withLive(ec *depgraph.EchoCall, buf []byte) []byte {
	var data []byte
	for _, sp := range ec.Spans(buf) {
		f := ec.Proto.Fields[sp.Field]
		if sp.Len != f.Width {
			continue
		}
		v, ok := s.live[sp.Field][string(buf[sp.Off:sp.Off+sp.Len])]
		if !ok {
			continue
		}
		if data == nil {
			data = append([]byte(nil), buf...)
		}
		copy(data[sp.Off:], v)
	}
	return data
}
