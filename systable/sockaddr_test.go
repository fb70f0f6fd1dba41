package systable

import (
	"encoding/binary"
	"net/netip"
	"testing"
)

// inet builds the struct sockaddr of an IPv4 or IPv6 address and port.
func inet(ap string) []byte {
	a := netip.MustParseAddrPort(ap)
	if a.Addr().Is4() {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint16(b, AFInet)
		binary.BigEndian.PutUint16(b[2:], a.Port())
		ip := a.Addr().As4()
		copy(b[4:], ip[:])
		return b
	}
	b := make([]byte, 28)
	binary.LittleEndian.PutUint16(b, AFInet6)
	binary.BigEndian.PutUint16(b[2:], a.Port())
	ip := a.Addr().As16()
	copy(b[8:], ip[:])
	return b
}

// unixAddr builds a struct sockaddr_un; a name starting with "@" is
// abstract.
func unixAddr(name string) []byte {
	b := binary.LittleEndian.AppendUint16(nil, AFUnix)
	if name != "" && name[0] == '@' {
		return append(append(b, 0), name[1:]...)
	}
	return append(append(b, name...), 0)
}

func decoded(t *testing.T, b []byte) Sockaddr {
	t.Helper()
	a, ok := DecodeSockaddr(b)
	if !ok {
		t.Fatalf("DecodeSockaddr(%x) failed", b)
	}
	return a
}

func TestSockaddrAccepts(t *testing.T) {
	for _, c := range []struct {
		name        string
		bound, dest []byte
		want        bool
	}{
		{"same address", inet("127.0.0.1:8080"), inet("127.0.0.1:8080"), true},
		{"another port", inet("127.0.0.1:8080"), inet("127.0.0.1:8081"), false},
		{"another address", inet("127.0.0.1:8080"), inet("127.0.0.2:8080"), false},
		{"IPv4 wildcard takes loopback", inet("0.0.0.0:8080"), inet("127.0.0.1:8080"), true},
		{"IPv4 wildcard not IPv6 loopback", inet("0.0.0.0:8080"), inet("[::1]:8080"), false},
		{"IPv6 wildcard takes IPv4 loopback", inet("[::]:8080"), inet("127.0.0.1:8080"), true},
		{"wildcard not another host", inet("0.0.0.0:8080"), inet("10.1.2.3:8080"), false},
		{"port 0 takes nothing", inet("127.0.0.1:0"), inet("127.0.0.1:0"), false},
		{"unix path", unixAddr("/run/x.sock"), unixAddr("/run/x.sock"), true},
		{"unix other path", unixAddr("/run/x.sock"), unixAddr("/run/y.sock"), false},
		{"abstract", unixAddr("@x"), unixAddr("@x"), true},
		{"unix and inet", unixAddr("/run/x.sock"), inet("127.0.0.1:8080"), false},
	} {
		if got := decoded(t, c.bound).Accepts(decoded(t, c.dest)); got != c.want {
			t.Errorf("%s: Accepts = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestSockaddrStringAndPort(t *testing.T) {
	for _, c := range []struct {
		raw  []byte
		want string
	}{
		{inet("127.0.0.1:8080"), "127.0.0.1:8080"},
		{inet("[::1]:53"), "[::1]:53"},
		{unixAddr("/run/mpd.sock"), "/run/mpd.sock"},
		{unixAddr("@abc"), "@abc"},
		{unixAddr("")[:2], "unnamed"},
	} {
		if got := decoded(t, c.raw).String(); got != c.want {
			t.Errorf("String(%x) = %q, want %q", c.raw, got, c.want)
		}
	}
	moved, ok := WithPort(inet("[::1]:53"), 4242)
	if !ok || decoded(t, moved).String() != "[::1]:4242" || len(moved) != 28 {
		t.Errorf("WithPort([::1]:53, 4242) = %x, %v", moved, ok)
	}
	if _, ok := WithPort(unixAddr("/x"), 1); ok {
		t.Errorf("WithPort of a unix address succeeded")
	}
}

func TestAddressArg(t *testing.T) {
	tab := amd64Table(t)
	for _, c := range []struct {
		call    string
		out     bool
		wantArg int
	}{
		{"bind", false, 1},
		{"connect", false, 1},
		{"sendto", false, 4},
		{"getsockname", true, 1},
		{"accept4", true, 1},
		{"recvfrom", true, 4},
		{"sendmsg", false, -1}, // the address is in its msghdr
		{"listen", false, -1},
	} {
		row, ok := tab.ByName(c.call)
		if !ok {
			t.Fatalf("no row %s", c.call)
		}
		if got := row.AddressArg(c.out); got != c.wantArg {
			t.Errorf("%s.AddressArg(%v) = %d, want %d", c.call, c.out, got, c.wantArg)
		}
	}
}
