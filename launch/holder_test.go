package launch

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"testing"
)

// TestProcNetAddr: /proc/net/tcp's addresses, IPv4 and IPv6 (the
// kernel's 32-bit words in little-endian order), and its port in hex.
func TestProcNetAddr(t *testing.T) {
	for in, want := range map[string]string{
		"0100007F:1F90":                         "127.0.0.1:8080",
		"00000000:0016":                         "0.0.0.0:22",
		"00000000000000000000000001000000:0050": "[::1]:80",
		"0000000000000000FFFF00000100007F:0035": "[::ffff:127.0.0.1]:53",
	} {
		got, ok := procNetAddr(in)
		if !ok || got.String() != want {
			t.Errorf("procNetAddr(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	if _, ok := procNetAddr("zz:1"); ok {
		t.Error("procNetAddr accepted a malformed address")
	}
}

// TestAddressHolderFindsListener: a TCP listener of this process is
// found as held by it, by its exact address and by the unspecified one
// on its port; a port nobody holds is not.
func TestAddressHolderFindsListener(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener here: %v", err)
	}
	defer l.Close()
	ap := l.Addr().(*net.TCPAddr).AddrPort()
	self, _ := os.Executable()
	for _, q := range []netip.AddrPort{ap, netip.AddrPortFrom(netip.IPv4Unspecified(), ap.Port())} {
		pid, exe, err := AddressHolder(q, 0)
		if err != nil || pid != os.Getpid() || exe != self {
			t.Errorf("AddressHolder(%s) = %d, %q, %v; want %d, %q", q, pid, exe, err, os.Getpid(), self)
		}
	}
	l.Close()
	if pid, _, err := AddressHolder(ap, 0); err == nil {
		t.Errorf("AddressHolder(%s) after close = pid %d, want an error", ap, pid)
	}
}

// TestAddressHolderOfProtocol: a TCP listener holds its address for
// "tcp" and "", not for "udp"; an unknown protocol is an error.
func TestAddressHolderOfProtocol(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener here: %v", err)
	}
	defer l.Close()
	ap := l.Addr().(*net.TCPAddr).AddrPort()
	for _, proto := range []string{"tcp", ""} {
		if pid, _, err := AddressHolderOf(ap, proto, 0); err != nil || pid != os.Getpid() {
			t.Errorf("AddressHolderOf(%s, %q) = %d, %v; want %d", ap, proto, pid, err, os.Getpid())
		}
	}
	if pid, _, err := AddressHolderOf(ap, "udp", 0); !errors.Is(err, ErrNotBound) {
		t.Errorf("AddressHolderOf(%s, udp) = pid %d, %v; want ErrNotBound (a TCP listener)", ap, pid, err)
	}
	if _, _, err := AddressHolderOf(ap, "sctp", 0); err == nil {
		t.Error("AddressHolderOf(sctp) gave no error")
	}
}
