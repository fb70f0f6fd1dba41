package standin_test

import (
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/dnsmsg"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/standin"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// inNetwork runs f on a thread moved into the network namespace at path
// (as the run's sandbox joins it); the thread ends with f.
func inNetwork(t *testing.T, path string, f func()) {
	t.Helper()
	done := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends here
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err == nil {
			err = unix.Setns(fd, unix.CLONE_NEWNET)
			unix.Close(fd)
		}
		if err == nil {
			f()
		}
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// talk connects to addr, sends req, and returns all it reads until the
// other side closes.
func talk(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Errorf("dial %s: %v", addr, err)
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write([]byte(req))
	b, _ := io.ReadAll(c)
	return string(b)
}

var httpPeer = envobj.Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:18080"), Proto: "tcp", Conns: []envobj.Conn{{Turns: []envobj.Turn{
	{Sent: true, Data: []byte("GET /artifact HTTP/1.0\r\n\r\n")}, {Data: []byte("HTTP/1.0 200 OK\r\n\r\nrelease 1.2\n")},
}}}}

// A TCP peer in place: the command's request, the one the good run
// sent, gets the recorded answer and the connection is closed; a
// request that differs gets nothing, and Close says so; a connection
// more than the good run made too. Connections made in parallel each
// get the recorded one whose request they send, whatever order they are
// accepted in.
func TestTCPStandIn(t *testing.T) {
	testutil.Require(t, testutil.Root)
	for _, tc := range []struct {
		name, req, want, problem string
		conns                    int
	}{
		{"the recorded request", "GET /artifact HTTP/1.0\r\n\r\n", "HTTP/1.0 200 OK\r\n\r\nrelease 1.2\n", "", 1},
		{"another request", "GET /other HTTP/1.0\r\n\r\n", "", `the command sent "GET /other HTTP/1.0\r\n\r\n" where the good run sent "GET /artifact HTTP/1.0\r\n\r\n"`, 1},
		{"a connection more", "GET /artifact HTTP/1.0\r\n\r\n", "HTTP/1.0 200 OK\r\n\r\nrelease 1.2\n", "the command made more connections than the good run's 1", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := standin.Start([]envobj.Peer{httpPeer}, []bool{true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			inNetwork(t, n.Path(), func() {
				for range tc.conns {
					got = append(got, talk(t, httpPeer.AddrPort.String(), tc.req))
				}
			})
			problems := n.Close()
			if got[0] != tc.want {
				t.Errorf("answer %q; want %q", got[0], tc.want)
			}
			if tc.problem == "" && len(problems) > 0 || tc.problem != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.problem)) {
				t.Errorf("problems %q; want %q", problems, tc.problem)
			}
		})
	}
}

// Two connections at once, the second request sent first: each gets its
// own recorded answer.
func TestTCPStandInParallel(t *testing.T) {
	testutil.Require(t, testutil.Root)
	p := httpPeer
	p.Conns = []envobj.Conn{
		{Turns: []envobj.Turn{{Sent: true, Data: []byte("GET /a\n")}, {Data: []byte("A\n")}}},
		{Turns: []envobj.Turn{{Sent: true, Data: []byte("GET /b\n")}, {Data: []byte("B\n")}}},
	}
	n, err := standin.Start([]envobj.Peer{p}, []bool{true})
	if err != nil {
		t.Fatal(err)
	}
	var a, b string
	inNetwork(t, n.Path(), func() {
		b = talk(t, p.AddrPort.String(), "GET /b\n")
		a = talk(t, p.AddrPort.String(), "GET /a\n")
	})
	if problems := n.Close(); len(problems) > 0 {
		t.Errorf("problems %q; want none", problems)
	}
	if a != "A\n" || b != "B\n" {
		t.Errorf("answers %q, %q; want \"A\\n\", \"B\\n\"", a, b)
	}
}

// A peer not in place is relayed to the real one, a listener of this
// test's in envbisect's own namespace, and its answer comes back.
func TestTCPRelay(t *testing.T) {
	testutil.Require(t, testutil.Root)
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		b := make([]byte, 5)
		io.ReadFull(c, b)
		c.Write([]byte("live answer to " + string(b)))
		c.Close()
	}()
	p := httpPeer
	p.AddrPort = netip.MustParseAddrPort(l.Addr().String())
	n, err := standin.Start([]envobj.Peer{p}, []bool{false})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	inNetwork(t, n.Path(), func() { got = talk(t, p.AddrPort.String(), "hello") })
	if problems := n.Close(); len(problems) > 0 {
		t.Errorf("problems %q; want none", problems)
	}
	if got != "live answer to hello" {
		t.Errorf("relayed answer %q; want the live peer's", got)
	}
}

// dnsMsg is a query (rcode < 0) or a response with an A record.
func dnsMsg(t *testing.T, id uint16, name string, typ dnsmessage.Type, rcode int, addr ...byte) []byte {
	t.Helper()
	n := dnsmessage.MustNewName(name)
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: id, Response: rcode >= 0, RCode: dnsmessage.RCode(max(rcode, 0))})
	b.StartQuestions()
	b.Question(dnsmessage.Question{Name: n, Type: typ, Class: dnsmessage.ClassINET})
	if len(addr) == 4 {
		b.StartAnswers()
		b.AResource(dnsmessage.ResourceHeader{Name: n, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: [4]byte(addr)})
	}
	out, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A DNS peer in place answers by question, with the live query id; a
// question the good run did not ask gets no answer, and Close says so.
func TestDNSStandIn(t *testing.T) {
	testutil.Require(t, testutil.Root)
	p := envobj.Peer{AddrPort: netip.MustParseAddrPort("127.0.0.1:53"), Proto: "udp", DNS: true, Conns: []envobj.Conn{{Turns: []envobj.Turn{
		{Sent: true, Data: dnsMsg(t, 7, "artifacts.internal.", dnsmessage.TypeA, -1)},
		{Data: dnsMsg(t, 7, "artifacts.internal.", dnsmessage.TypeA, 0, 10, 1, 2, 3)},
	}}}}
	n, err := standin.Start([]envobj.Peer{p}, []bool{true})
	if err != nil {
		t.Fatal(err)
	}
	var answer []byte
	var other error
	inNetwork(t, n.Path(), func() {
		c, err := net.Dial("udp", "127.0.0.1:53")
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		c.Write(dnsMsg(t, 0x4242, "artifacts.internal.", dnsmessage.TypeA, -1))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		b := make([]byte, 512)
		k, err := c.Read(b)
		if err != nil {
			t.Error(err)
			return
		}
		answer = b[:k]
		c.Write(dnsMsg(t, 0x4343, "other.internal.", dnsmessage.TypeA, -1))
		c.SetReadDeadline(time.Now().Add(time.Second))
		_, other = c.Read(b)
	})
	problems := n.Close()
	m, err := dnsmsg.Parse(answer)
	if err != nil || binary.BigEndian.Uint16(answer) != 0x4242 || m.Answer.String() != "A 10.1.2.3" {
		t.Errorf("answer %+v (%v); want id 0x4242 and A 10.1.2.3", m, err)
	}
	if !os.IsTimeout(other) {
		t.Errorf("the question not asked: %v; want no answer", other)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "asked other.internal A, which the good run did not ask") {
		t.Errorf("problems %q; want the question the good run did not ask", problems)
	}
}
