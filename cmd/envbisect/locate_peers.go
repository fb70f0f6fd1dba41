package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/standin"
	"github.com/envbisect/envbisect/trace"
)

// peerSet is what the object search keeps of the peers the good run
// talked to (envdiff.Peers): all of them, since a run with a network of
// its own must relay those it does not put in place, and which start
// item (index into objectSearch.start) stands for which.
type peerSet struct {
	all    []envobj.Peer
	byItem map[int]int // start item -> index in all
}

// addPeers adds to the start items the object search tries one item per
// peer the good run talked to (a TCP service, a DNS resolver) that a
// stand-in can answer for (envobj.Peer.Materializable), found by
// inspection: every such peer of the recording, except a DNS resolver
// that answers every recorded question here as it did in the good run
// (asked once each, now: a DNS question changes nothing on the server).
// A TCP peer is not asked here (a request may change the server's
// state): it is a candidate whenever the recording holds its answer.
//
// Peers are items only when every peer the recording reached can be kept
// live in a run's stand-in network: on the host (not in a container,
// whose network a relay from envbisect's namespace is not), and on
// loopback addresses only (an address of another interface is not
// reachable from the run's namespace); otherwise a run with a peer in
// place would differ from this machine in more than that peer, and no
// peer is offered.
func (m *objectSearch) addPeers() {
	var peers []envobj.Peer
	if m.walked != nil {
		peers = m.walked.Peers()
	} else {
		peers = envdiff.Peers(m.t, m.rec.Table)
	}
	if len(peers) == 0 {
		return
	}
	if m.site.join != nil {
		m.note("the good run talked to %d peer(s); in a container, runs do not put peers in place (their relay would leave the container's network)", len(peers))
		return
	}
	for _, p := range peers {
		if !p.AddrPort.Addr().Unmap().IsLoopback() {
			m.note("the good run talked to %s, not on loopback: runs do not put peers in place (a run's own network reaches loopback only)", p.String())
			return
		}
	}
	m.peers = &peerSet{all: peers, byItem: map[int]int{}}
	for i := range peers {
		p := &peers[i]
		if ok, why := p.Materializable(); !ok {
			m.note("peer %s: not put in place: %s", p.String(), why)
			continue
		}
		if p.DNS {
			p.Here = askHere(p)
			if sameAnswers(p) {
				continue
			}
		}
		shown := p.Shown() // the report names the peer, not its bytes
		kind := trace.StartKind(envobj.KindPeer)
		name := p.String()
		good, here := "the good run's answers", "answers differently"
		d := align.StartDiff{Kind: kind, Name: name, A: &trace.StartEvent{Kind: kind, Name: name, Value: good},
			B: &trace.StartEvent{Kind: kind, Name: name, Value: here}}
		it := startItems([]align.StartDiff{d})[0]
		it.Peer = shown
		it.Text = shown.Says()
		m.peers.byItem[len(m.start)] = i
		m.start = append(append([]align.StartDiff(nil), m.start...), d)
		m.items = append(append([]render.StartItem(nil), m.items...), it)
	}
}

// note says something about the search on stderr, unless --quiet.
func (m *objectSearch) note(format string, args ...any) {
	if !m.o.quiet {
		fmt.Fprintf(m.s.err, "envbisect: "+format+"\n", args...)
	}
}

// peerNetwork starts the stand-in network of a run whose start items are
// chosen (indices into m.start) when the run needs a network of its own:
// a peer in place, or box.OwnNetwork for held addresses (then every
// recorded peer is relayed, so that the command still reaches them). Nil
// when the run needs none, or the recording reached no peer.
func (m *objectSearch) peerNetwork(chosen []int, box *sandbox.Spec) (*standin.Network, error) {
	if m.peers == nil {
		return nil, nil
	}
	inPlace := make([]bool, len(m.peers.all))
	any := false
	for _, i := range chosen {
		if p, ok := m.peers.byItem[i]; ok {
			inPlace[p], any = true, true
		}
	}
	if !any && !box.OwnNetwork {
		return nil, nil
	}
	n, err := standin.Start(m.peers.all, inPlace)
	if err != nil {
		return nil, fmt.Errorf("materialized run: %w", err)
	}
	box.NetNS = n.Path()
	return n, nil
}

// isPeerItem reports whether start item i is a peer's (addPeers).
func (m *objectSearch) isPeerItem(i int) bool {
	if m.peers == nil {
		return false
	}
	_, ok := m.peers.byItem[i]
	return ok
}

// askHere asks DNS peer p here each question the good run asked, once,
// with the recorded query (a new id), and returns what it answers ("no
// answer" after 2 seconds).
func askHere(p *envobj.Peer) []envobj.DNSAnswer {
	var out []envobj.DNSAnswer
	asked := map[string]bool{}
	for _, c := range p.Conns {
		for _, t := range c.Turns {
			q, err := dnsmsg.Parse(t.Data)
			if !t.Sent || err != nil || q.Response || asked[q.Question.String()] {
				continue
			}
			asked[q.Question.String()] = true
			out = append(out, envobj.DNSAnswer{Question: q.Question.String(), Answer: askOnce(p, t.Data)})
		}
	}
	return out
}

// askOnce sends query to p over UDP with a fresh id and returns its
// answer in dnsmsg's words, or why there is none.
func askOnce(p *envobj.Peer, query []byte) string {
	c, err := net.Dial("udp", p.AddrPort.String())
	if err != nil {
		return "no answer (" + err.Error() + ")"
	}
	defer c.Close()
	q := append([]byte(nil), query...)
	var id [2]byte
	rand.Read(id[:])
	copy(q, id[:])
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write(q); err != nil {
		return "no answer (" + err.Error() + ")"
	}
	buf := make([]byte, 64<<10)
	for {
		k, err := c.Read(buf)
		if err != nil {
			if strings.Contains(err.Error(), "refused") {
				return "no answer (nothing listens there)"
			}
			return "no answer"
		}
		a, err := dnsmsg.Parse(buf[:k])
		if err != nil || !a.Response || binary.BigEndian.Uint16(buf[:2]) != binary.BigEndian.Uint16(id[:]) {
			continue
		}
		return a.Answer.String()
	}
}

// sameAnswers reports whether DNS peer p answered every question here as
// in the good run.
func sameAnswers(p *envobj.Peer) bool {
	here := map[string]string{}
	for _, h := range p.Here {
		here[h.Question] = h.Answer
	}
	for _, g := range p.GoodDNS() {
		if here[g.Question] != g.Answer {
			return false
		}
	}
	return true
}

// locateInPhases is bisect.LocateObjects over the objects and start
// items, in two phases when the items hold TCP peers: first without
// them, and only when that search cannot make the command pass
// (still-fails, inconclusive) again with them. A TCP peer is a candidate
// by inspection without being asked here (addPeers), and a stand-in
// answers only the requests the good run sent: a conversation that
// differs in every run (a nonce, a timestamp the client sends) would make
// every run with it in place a skip, the everything-in-place run
// included, and hide a cause that is a file. When the first phase has
// nothing to search, the second is the only one.
func (m *objectSearch) locateInPhases(ctx context.Context, objs []envobj.Object, runner bisect.ObjectRunner, opts bisect.ObjectOptions) (*bisect.ObjectReport, error) {
	var tcp []int
	for i := range m.start {
		if p, ok := m.peerOf(i); ok && p.Proto == "tcp" {
			tcp = append(tcp, i)
		}
	}
	if len(tcp) == 0 || len(objs) == 0 && len(m.items) == len(tcp) {
		return bisect.LocateObjects(ctx, objs, m.items, runner, opts)
	}
	start, items, byItem := m.start, m.items, m.peers.byItem
	m.start, m.items, m.peers.byItem = nil, nil, map[int]int{}
	for i := range start {
		if slices.Contains(tcp, i) {
			continue
		}
		if p, ok := byItem[i]; ok {
			m.peers.byItem[len(m.start)] = p
		}
		m.start, m.items = append(m.start, start[i]), append(m.items, items[i])
	}
	first, err := bisect.LocateObjects(ctx, objs, m.items, runner, opts)
	if err != nil || first.Status != envobj.StillFails && first.Status != envobj.Inconclusive {
		return first, err
	}
	m.start, m.items, m.peers.byItem = start, items, byItem
	m.runBase = first.Runs + first.ConfirmRuns
	m.note("with every other object that differs here put in place the command still fails (%s): searching again with the %d peer(s) "+
		"it talked to over TCP put in place by stand-ins", first.Status, len(tcp))
	rep, err := bisect.LocateObjects(ctx, objs, m.items, runner, opts)
	if rep != nil {
		rep.Runs += first.Runs
		rep.ConfirmRuns += first.ConfirmRuns
		rep.Seconds += first.Seconds
	}
	return rep, err
}

// peerOf is the peer start item i stands for.
func (m *objectSearch) peerOf(i int) (envobj.Peer, bool) {
	if m.peers == nil {
		return envobj.Peer{}, false
	}
	p, ok := m.peers.byItem[i]
	if !ok {
		return envobj.Peer{}, false
	}
	return m.peers.all[p], true
}
