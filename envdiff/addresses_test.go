package envdiff_test

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
)

// freePort returns a TCP and UDP port free on loopback now.
func freePort(t *testing.T) uint16 {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Skipf("no TCP listener here: %v", err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if u, err := net.ListenPacket("udp6", fmt.Sprintf("[::]:%d", p)); err == nil {
			u.Close()
			return uint16(p)
		}
	}
	t.Skip("no port free for both TCP and UDP")
	return 0
}

// The addresses a real program bound: a TCP listener on loopback and a
// UDP socket on the IPv6 wildcard, each with its protocol from the
// socket call and the call that bound it, once; not a bind to port 0,
// nor a connect. Held: a listener of this test on the TCP address is
// found with its pid; the UDP address, free, is left out.
func TestBoundAndHeldAddresses(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"))
	port := freePort(t)
	tr := recordIn(t, t.TempDir(), fmt.Sprintf(`exec /usr/bin/python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", %[1]d)); s.listen()
t = socket.socket(); t.bind(("127.0.0.1", 0))
c = socket.socket(); c.connect(("127.0.0.1", %[1]d))
u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.bind(("::", %[1]d))
s.close(); s = socket.socket(); s.bind(("127.0.0.1", %[1]d))
'`, port))
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	bound := envdiff.BoundAddresses(tr, tab)
	var got []string
	for _, a := range bound {
		got = append(got, a.String())
		if a.BoundAt == 0 {
			t.Errorf("%s: no bind call", a)
		}
	}
	want := []string{fmt.Sprintf("127.0.0.1:%d/tcp", port), fmt.Sprintf("[::]:%d/udp", port)}
	if !slices.Equal(got, want) {
		t.Fatalf("BoundAddresses = %q, want %q", got, want)
	}
	// The streaming Inspector, given the events as locate's lean read
	// does (each call's buffers but those DataUsed keeps), finds the same.
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
	if !slices.Equal(in.Bound(), bound) {
		t.Errorf("Inspector.Bound = %v, want BoundAddresses' %v", in.Bound(), bound)
	}

	l, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Skipf("port %d taken since: %v", port, err)
	}
	defer l.Close()
	holder := func(ap netip.AddrPort, proto string) (int, string, error) {
		pid, exe, err := launch.AddressHolderOf(ap, proto, 0)
		if errorsIsNotBound(err) {
			return 0, "", nil
		}
		return pid, exe, err
	}
	held := envdiff.HeldAddresses(bound, holder)
	self, _ := os.Executable()
	if len(held) != 1 || held[0].String() != want[0] || held[0].PID != os.Getpid() || held[0].Exe != self {
		t.Fatalf("HeldAddresses = %+v; want %s held by this test (pid %d, %s)", held, want[0], os.Getpid(), self)
	}
}

// A socket whose holder cannot be named is still held, with why.
func TestHeldAddressesUnnamedHolder(t *testing.T) {
	bound := []envobj.Address{{AddrPort: netip.MustParseAddrPort("127.0.0.1:8080"), Proto: "tcp"}}
	held := envdiff.HeldAddresses(bound, func(netip.AddrPort, string) (int, string, error) {
		return 0, "", fmt.Errorf("socket 77 is held by no process this one can see")
	})
	if len(held) != 1 || held[0].PID != 0 || held[0].HolderWhy == "" {
		t.Fatalf("HeldAddresses = %+v; want the address, its holder unnamed, with why", held)
	}
}

func errorsIsNotBound(err error) bool { return err != nil && errors.Is(err, launch.ErrNotBound) }
