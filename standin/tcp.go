package standin

import (
	"bytes"
	"io"
	"net"
	"sync"
	"time"

	"github.com/envbisect/envbisect/envobj"
)

// turnWait is how long a stand-in waits for the rest of the command's
// turn: a command that sends less than the good run did and then waits
// for an answer would otherwise wait for ever.
const turnWait = 30 * time.Second

// serveTCP accepts the command's connections to peer p until ln is
// closed: each replays a recorded connection when replay is set (the
// one whose first request it sends, claims), or is relayed to the real
// peer.
func (n *Network) serveTCP(ln net.Listener, p *envobj.Peer, replay bool) {
	cl := &claims{used: make([]bool, len(p.Conns))}
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		if !replay {
			n.goServe(func() { n.relayTCP(c, p) })
			continue
		}
		n.goServe(func() { n.replayTCP(c, p, cl) })
	}
}

// claims are the recorded connections of a peer that a connection of the
// run's has taken.
type claims struct {
	mu   sync.Mutex
	used []bool
}

// claim takes the first recorded connection not yet taken whose first
// turn agrees with first, the command's first bytes (any, for nil): so
// that connections made in parallel find theirs whatever order they
// were accepted in. -1 when none is left.
func (cl *claims) claim(p *envobj.Peer, first []byte) int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for i, c := range p.Conns {
		if cl.used[i] {
			continue
		}
		if first != nil && (len(c.Turns) == 0 || !c.Turns[0].Sent || !agree(c.Turns[0].Data, first)) {
			continue
		}
		cl.used[i] = true
		return i
	}
	return -1
}

// left is the first recorded connection not yet taken, -1 when none.
func (cl *claims) left() int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for i, u := range cl.used {
		if !u {
			return i
		}
	}
	return -1
}

// agree reports whether one of a and b begins with the other.
func agree(a, b []byte) bool { return bytes.HasPrefix(a, b) || bytes.HasPrefix(b, a) }

// clientFirst reports whether the command speaks first on every recorded
// connection of p (a request, not a banner).
func clientFirst(p *envobj.Peer) bool {
	for _, c := range p.Conns {
		if len(c.Turns) == 0 || !c.Turns[0].Sent {
			return false
		}
	}
	return true
}

// replayTCP answers connection c with a recorded connection of p.
func (n *Network) replayTCP(c net.Conn, p *envobj.Peer, cl *claims) {
	defer c.Close()
	buf := make([]byte, 32<<10)
	var pending []byte // what the command sent before its connection was chosen
	var first []byte
	if clientFirst(p) {
		c.SetReadDeadline(time.Now().Add(turnWait))
		k, err := c.Read(buf)
		if k == 0 {
			if err != nil && err != io.EOF {
				n.problem("%s: the command connected and sent nothing (%v) where the good run sent a request", p, err)
			}
			return
		}
		pending = append([]byte(nil), buf[:k]...)
		first = pending
	}
	i := cl.claim(p, first)
	if i < 0 {
		if j := cl.left(); j < 0 {
			n.problem("%s: the command made more connections than the good run's %d", p, len(p.Conns))
		} else {
			want := p.Conns[j].Turns[0].Data
			n.problem("%s: the command sent %q where the good run sent %q", p, firstDiff(first, want), firstDiff(want, first))
		}
		return
	}
	for _, t := range p.Conns[i].Turns {
		if !t.Sent {
			if _, err := c.Write(t.Data); err != nil {
				return
			}
			continue
		}
		got := pending
		pending = nil
		if len(got) > len(t.Data) {
			// More than this turn: the rest belongs to the next one.
			pending, got = got[len(t.Data):], got[:len(t.Data)]
		}
		for {
			if !bytes.HasPrefix(t.Data, got) {
				n.problem("%s: the command sent %q where the good run sent %q", p, firstDiff(got, t.Data), firstDiff(t.Data, got))
				return
			}
			if len(got) == len(t.Data) {
				break
			}
			c.SetReadDeadline(time.Now().Add(turnWait))
			k, err := c.Read(buf[:min(len(buf), len(t.Data)-len(got))])
			got = append(got, buf[:k]...)
			if err != nil && k == 0 {
				if err != io.EOF {
					n.problem("%s: the command sent %d of the %d bytes the good run sent before its answer, then %v", p, len(got), len(t.Data), err)
				}
				return // it closed: whatever it does next is its own
			}
		}
	}
	// The recording ends here: close the peer's side, and take what the
	// command still sends until it closes its own.
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(turnWait))
	io.Copy(io.Discard, c)
}

// relayTCP forwards connection c to p's real address, from envbisect's
// own network namespace.
func (n *Network) relayTCP(c net.Conn, p *envobj.Peer) {
	defer c.Close()
	up, err := net.DialTimeout("tcp", p.AddrPort.String(), 10*time.Second)
	if err != nil {
		return // as the command would have found it: not reachable
	}
	defer up.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		copyPlain(up, c)
		up.(*net.TCPConn).CloseWrite()
	}()
	copyPlain(c, up)
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	wg.Wait()
}

// copyPlain copies from r to w until EOF with read and write: not with
// splice(2), whose pipes net keeps in a pool of its own after the copy.
func copyPlain(w io.Writer, r io.Reader) {
	io.Copy(struct{ io.Writer }{w}, struct{ io.Reader }{r})
}

// firstDiff is a's bytes from where it first differs from b, at most 40.
func firstDiff(a, b []byte) []byte {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	// Back to the start of the line, for a person to read.
	if j := bytes.LastIndexByte(a[:i], '\n'); j >= 0 {
		i = j + 1
	} else {
		i = 0
	}
	a = a[i:]
	if len(a) > 40 {
		a = a[:40]
	}
	return a
}
