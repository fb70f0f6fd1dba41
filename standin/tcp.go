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
// closed: each replays the next recorded connection when replay is
// set, or is relayed to the real peer.
func (n *Network) serveTCP(ln net.Listener, p *envobj.Peer, replay bool) {
	var mu sync.Mutex
	next := 0
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		if !replay {
			n.goServe(func() { n.relayTCP(c, p) })
			continue
		}
		mu.Lock()
		i := next
		next++
		mu.Unlock()
		if i >= len(p.Conns) {
			n.problem("%s: the command made connection %d, the good run made %d", p, i+1, len(p.Conns))
			c.Close()
			continue
		}
		n.goServe(func() { n.replayTCP(c, p, i) })
	}
}

// replayTCP answers connection c with recorded connection i of p.
func (n *Network) replayTCP(c net.Conn, p *envobj.Peer, i int) {
	defer c.Close()
	for _, t := range p.Conns[i].Turns {
		if !t.Sent {
			if _, err := c.Write(t.Data); err != nil {
				return
			}
			continue
		}
		got := make([]byte, 0, len(t.Data))
		buf := make([]byte, 32<<10)
		for len(got) < len(t.Data) {
			c.SetReadDeadline(time.Now().Add(turnWait))
			k, err := c.Read(buf[:min(len(buf), len(t.Data)-len(got))])
			got = append(got, buf[:k]...)
			if !bytes.HasPrefix(t.Data, got) {
				n.problem("%s: the command sent %q where the good run sent %q", p, firstDiff(got, t.Data), firstDiff(t.Data, got))
				return
			}
			if err != nil {
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
