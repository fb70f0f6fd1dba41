package envobj

import (
	"bytes"
	"fmt"
	"net/netip"
	"strings"

	"github.com/envbisect/envbisect/dnsmsg"
)

// KindPeer is the kind of the start item (StartValue.Kind) that holds one
// peer the command talked to (Peer): not a path but a server, put in
// place by a stand-in at its address in a network namespace of the run's
// own (package standin). One item per peer.
const KindPeer = "peer"

// MaxConversation is the most bytes of one peer's recorded conversation
// (both directions, every connection) a stand-in replays; a peer that
// said more is not an object a run puts in place.
const MaxConversation = 4 << 20

// Peer is a server outside the command's process tree that the good run
// connected or sent to over IP (a TCP service, a DNS resolver), with the
// conversation the recording holds: what the command sent and what the
// peer answered, in order, per connection.
type Peer struct {
	// AddrPort is the peer's address: "127.0.0.1:8000", "127.0.0.1:53".
	AddrPort netip.AddrPort `json:"address"`
	// Proto is "tcp" or "udp".
	Proto string `json:"proto"`
	// FirstSeq is the recorded call that first reached it (its connect,
	// or a send to it).
	FirstSeq uint64 `json:"first_seq,omitempty"`
	// DNS: its messages are DNS messages (a resolver: port 53, or every
	// datagram one dnsmsg reads); a stand-in answers each query by its
	// question, with the live query id.
	DNS bool `json:"dns,omitempty"`
	// Conns are the recorded connections in the order the command made
	// them (over UDP, one per socket). The report leaves them out.
	Conns []Conn `json:"conversation,omitempty"`
	// Here are, for a DNS peer, what it answers here to the good run's
	// questions as inspection asked them (one query each); nil when not
	// asked.
	Here []DNSAnswer `json:"here,omitempty"`
	// Why is set when a run cannot put it in place (Materializable).
	Why string `json:"why,omitempty"`
	// Good are, for a DNS peer, the good run's answers (GoodDNS);
	// Request and Answer the first lines of the command's first request
	// and of the peer's first answer, when text: what the report says of
	// the conversation, which it leaves out (Shown).
	Good    []DNSAnswer `json:"good,omitempty"`
	Request string      `json:"request,omitempty"`
	Answer  string      `json:"answer,omitempty"`
}

// Shown is the peer as the report shows it: what its conversation says
// (Good, Request, Answer), without the conversation's bytes.
func (p *Peer) Shown() *Peer {
	s := *p
	if len(p.Conns) > 0 {
		s.Good = p.GoodDNS()
		s.Request, s.Answer = p.firstExchange()
	}
	s.Conns = nil
	return &s
}

// Conn is one recorded connection (or UDP socket) to a peer.
type Conn struct {
	Turns []Turn `json:"turns"`
}

// Turn is what one side said: over TCP the bytes one side sent before
// the other spoke, over UDP one datagram.
type Turn struct {
	// Sent: the command sent it; else the peer answered it.
	Sent bool   `json:"sent,omitempty"`
	Data []byte `json:"data"`
}

// DNSAnswer is one question and its answer (dnsmsg's words).
type DNSAnswer struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// String is the peer and its protocol: "127.0.0.1:53/udp".
func (p *Peer) String() string { return p.AddrPort.String() + "/" + p.Proto }

// Size is the bytes of its recorded conversation.
func (p *Peer) Size() int {
	n := 0
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			n += len(t.Data)
		}
	}
	return n
}

// Materializable reports whether a stand-in can answer for the peer: a
// loopback address (a run's network namespace has its loopback
// interface, and 127.0.0.0/8 and ::1 are on it), TCP, or DNS over UDP,
// not TLS, a conversation the trace holds that has an answer, and not
// more than MaxConversation.
func (p *Peer) Materializable() (bool, string) {
	switch {
	case p.Why != "":
		return false, p.Why
	case !p.AddrPort.Addr().Unmap().IsLoopback():
		return false, "a stand-in listens on the run's loopback interface only"
	case p.Proto == "udp" && !p.DNS:
		return false, "a stand-in answers datagrams for DNS only"
	case p.Proto == "tcp" && p.DNS:
		return false, "a stand-in does not answer DNS over TCP (its messages' ids are echoed)"
	case p.tls():
		return false, "its conversation is TLS, whose handshake differs in every run (random nonces): no recorded reply answers it"
	case p.Size() > MaxConversation:
		return false, fmt.Sprintf("its conversation is %d bytes, more than a stand-in replays (%d)", p.Size(), MaxConversation)
	}
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			if !t.Sent {
				return true, ""
			}
		}
	}
	return false, "the trace holds no answer of it"
}

// tls reports whether the command's first bytes to a TCP peer are a TLS
// handshake record (content type 22, protocol major version 3).
func (p *Peer) tls() bool {
	for _, c := range p.Conns {
		if len(c.Turns) > 0 && c.Turns[0].Sent && len(c.Turns[0].Data) >= 3 {
			d := c.Turns[0].Data
			return p.Proto == "tcp" && d[0] == 0x16 && d[1] == 0x03 && d[2] <= 0x04
		}
	}
	return false
}

// GoodDNS returns the good run's DNS answers, one per question, in the
// order they were asked (the first answer to a question asked again);
// Good when the conversation was left out (Shown).
func (p *Peer) GoodDNS() []DNSAnswer {
	if len(p.Conns) == 0 {
		return p.Good
	}
	var out []DNSAnswer
	seen := map[string]bool{}
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			if t.Sent {
				continue
			}
			m, err := dnsmsg.Parse(t.Data)
			if err != nil || !m.Response || seen[m.Question.String()] {
				continue
			}
			seen[m.Question.String()] = true
			out = append(out, DNSAnswer{Question: m.Question.String(), Answer: m.Answer.String()})
		}
	}
	return out
}

// Says is what differs, both sides: "127.0.0.1:53/udp answers NXDOMAIN
// for artifacts.internal A here; the good run got A 10.1.2.3"; for a TCP
// peer, the good run's answer to its first request, by their first
// lines: `peer 127.0.0.1:8000/tcp answers differently here; the good run
// got "HTTP/1.0 200 OK" to "GET /artifact HTTP/1.1"`.
func (p *Peer) Says() string {
	if p.DNS {
		var parts []string
		here := map[string]string{}
		for _, h := range p.Here {
			here[h.Question] = h.Answer
		}
		for _, g := range p.GoodDNS() {
			h, ok := here[g.Question]
			switch {
			case ok && h == g.Answer:
				continue
			case ok:
				parts = append(parts, fmt.Sprintf("%s answers %s for %s here; the good run got %s", p, h, g.Question, g.Answer))
			default:
				parts = append(parts, fmt.Sprintf("%s answers %s differently here; the good run got %s", p, g.Question, g.Answer))
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "; ")
		}
	}
	req, resp := p.firstExchange()
	if resp == "" {
		return fmt.Sprintf("peer %s answers differently here than in the good run", p)
	}
	if req == "" {
		return fmt.Sprintf("peer %s answers differently here; the good run got %q", p, resp)
	}
	return fmt.Sprintf("peer %s answers differently here; the good run got %q to %q", p, resp, req)
}

// Fix returns what a user does here: make the peer answer as in the
// good run, named by what it answered.
func (p *Peer) Fix() []FixStep {
	if p.DNS {
		var out []FixStep
		here := map[string]string{}
		for _, h := range p.Here {
			here[h.Question] = h.Answer
		}
		for _, g := range p.GoodDNS() {
			if h, ok := here[g.Question]; ok && h == g.Answer {
				continue
			}
			out = append(out, FixStep{Text: fmt.Sprintf("make the resolver at %s answer %s with %s, as the good run's did "+
				"(a record in its zone, or /etc/resolv.conf naming the good run's resolver)", p, g.Question, g.Answer)})
		}
		if len(out) > 0 {
			return out
		}
	}
	req, resp := p.firstExchange()
	what := fmt.Sprintf("make the service at %s answer as in the good run", p)
	if resp != "" && req != "" {
		what += fmt.Sprintf(" (%q to %q)", resp, req)
	} else if resp != "" {
		what += fmt.Sprintf(" (%q)", resp)
	}
	return []FixStep{{Text: what + ": the service this machine runs there, its content or its version differs"}}
}

// PeerNote is what a fix that restores a peer says the validating run
// did differently from its steps.
const PeerNote = "the run that validated it did not change the peer: it gave the command a network namespace of its own " +
	"in which a stand-in at the peer's address answered the good run's recorded conversation, and relayed every other " +
	"recorded peer to this machine's"

// firstExchange is the first line of the command's first request and of
// the peer's first answer, when they are text; "" where not.
func (p *Peer) firstExchange() (req, resp string) {
	if len(p.Conns) == 0 {
		return p.Request, p.Answer
	}
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			switch {
			case t.Sent && req == "" && resp == "":
				req = firstLine(t.Data)
			case !t.Sent && resp == "":
				resp = firstLine(t.Data)
			}
		}
		if resp != "" {
			return req, resp
		}
	}
	return req, resp
}

// firstLine is b's first line when it is printable text, at most 80
// bytes; "" otherwise.
func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	if len(b) > 80 {
		b = b[:80]
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return ""
		}
	}
	return string(b)
}
