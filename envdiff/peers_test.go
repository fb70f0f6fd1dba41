package envdiff_test

import (
	"bufio"
	"fmt"
	"net"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
)

// The peers a real program talked to: a TCP service of this test's (a
// peer, outside the traced tree) with its conversation in order, two
// turns each way; not the server the program ran itself (its own
// address, bound), nor a connect that was refused. The streaming
// Inspector, given the events as locate's lean read does, finds the
// same conversation.
func TestPeers(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"))
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener here: %v", err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for _, answer := range []string{"hi\n", "bye\n"} {
			if _, err := r.ReadString('\n'); err != nil {
				return
			}
			c.Write([]byte(answer))
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	own := freePort(t)
	refused := freePort(t)
	tr := recordIn(t, t.TempDir(), fmt.Sprintf(`exec /usr/bin/python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", %[2]d)); s.listen()
o = socket.create_connection(("127.0.0.1", %[2]d)); o.sendall(b"to myself\n")
try:
    socket.create_connection(("127.0.0.1", %[3]d))
except OSError:
    pass
c = socket.create_connection(("127.0.0.1", %[1]d))
f = c.makefile("rb")
c.sendall(b"hello\n"); f.readline()
c.sendall(b"done\n"); f.readline()
'`, port, own, refused))
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	peers := envdiff.Peers(tr, tab)
	want := fmt.Sprintf("127.0.0.1:%d/tcp", port)
	if len(peers) != 1 || peers[0].String() != want {
		var got []string
		for _, p := range peers {
			got = append(got, p.String())
		}
		t.Fatalf("Peers = %q; want %s alone", got, want)
	}
	p := peers[0]
	wantTurns := []envobj.Turn{{Sent: true, Data: []byte("hello\n")}, {Data: []byte("hi\n")}, {Sent: true, Data: []byte("done\n")}, {Data: []byte("bye\n")}}
	if len(p.Conns) != 1 || !slices.EqualFunc(p.Conns[0].Turns, wantTurns, turnEqual) {
		t.Fatalf("conversation %+v; want one connection %+v", p.Conns, wantTurns)
	}
	if p.FirstSeq == 0 || p.DNS {
		t.Errorf("peer %+v: want its connect's call and not DNS", p)
	}
	if ok, why := p.Materializable(); !ok {
		t.Errorf("not materializable: %s", why)
	}

	in := envdiff.NewInspector(tab, tr.Header.Arch)
	used := envdiff.DataUsed(tab)
	for _, ev := range tr.Events {
		if c := ev.Call; c != nil {
			lean := *c
			lean.Mem = nil
			for _, m := range c.Mem {
				if used(c, &m) {
					lean.Mem = append(lean.Mem, m)
				}
			}
			ev.Call = &lean
		}
		in.Add(&ev)
	}
	if got := in.Peers(); len(got) != 1 || len(got[0].Conns) != 1 || !slices.EqualFunc(got[0].Conns[0].Turns, wantTurns, turnEqual) {
		t.Errorf("Inspector.Peers = %+v; want Peers' %+v", got, peers)
	}
}

func turnEqual(a, b envobj.Turn) bool { return a.Sent == b.Sent && string(a.Data) == string(b.Data) }
