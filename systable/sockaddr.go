package systable

import (
	"bytes"
	"encoding/binary"
	"net/netip"
)

// le is the byte order of every architecture the table describes.
var le = binary.LittleEndian

// Address families DecodeSockaddr knows.
const (
	AFUnix    = 1
	AFInet    = 2
	AFInet6   = 10
	AFNetlink = 16
)

// Sockaddr is a decoded socket address. Only the members its family and
// length provide are set.
type Sockaddr struct {
	Family uint16
	// Data is every byte after the family: sa_data, or sun_path of an
	// AF_UNIX address (starting with a NUL for an abstract one).
	Data []byte
	// IP is the address and port of AF_INET (8 bytes or more) and
	// AF_INET6 (24 bytes or more); not valid otherwise.
	IP netip.AddrPort
	// FlowInfo, and ScopeID when HasScope, of AF_INET6.
	FlowInfo uint32
	ScopeID  uint32
	HasScope bool
	// NetlinkPID and NetlinkGroups of AF_NETLINK (12 bytes or more),
	// when IsNetlink.
	NetlinkPID    int32
	NetlinkGroups uint32
	IsNetlink     bool
}

// DecodeSockaddr decodes the socket address in b; ok is false for fewer
// than two bytes.
func DecodeSockaddr(b []byte) (a Sockaddr, ok bool) {
	if len(b) < 2 {
		return Sockaddr{}, false
	}
	a = Sockaddr{Family: le.Uint16(b), Data: b[2:]}
	switch {
	case a.Family == AFInet && len(b) >= 8:
		a.IP = netip.AddrPortFrom(netip.AddrFrom4([4]byte(b[4:8])), binary.BigEndian.Uint16(b[2:]))
	case a.Family == AFInet6 && len(b) >= 24:
		a.IP = netip.AddrPortFrom(netip.AddrFrom16([16]byte(b[8:24])), binary.BigEndian.Uint16(b[2:]))
		a.FlowInfo = binary.BigEndian.Uint32(b[4:])
		if len(b) >= 28 {
			a.ScopeID, a.HasScope = le.Uint32(b[24:]), true
		}
	case a.Family == AFNetlink && len(b) >= 12:
		a.NetlinkPID, a.NetlinkGroups, a.IsNetlink = int32(le.Uint32(b[4:])), le.Uint32(b[8:]), true
	}
	return a, true
}

// UnixName returns an AF_UNIX address's name: its path, "@name" for an
// abstract one, "" for an unnamed socket or another family.
func (a Sockaddr) UnixName() string {
	p := a.Data
	switch {
	case a.Family != AFUnix || len(p) == 0:
		return ""
	case p[0] == 0:
		return "@" + string(bytes.TrimRight(p[1:], "\x00"))
	}
	if i := bytes.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	return string(p)
}

// Accepts reports whether a socket bound to a receives what is sent or
// connected to t: the same unix name, or the same port at the same
// address, a wildcard bind taking loopback and wildcard destinations
// ("::" takes IPv4 too, "0.0.0.0" only IPv4). A wildcard bind is not
// taken to accept the host's other addresses: a trace does not say what
// they are.
func (a Sockaddr) Accepts(t Sockaddr) bool {
	switch {
	case a.Family == AFUnix || t.Family == AFUnix:
		return a.Family == t.Family && a.UnixName() != "" && a.UnixName() == t.UnixName()
	case !a.IP.IsValid() || !t.IP.IsValid() || a.IP.Port() == 0 || a.IP.Port() != t.IP.Port():
		return false
	}
	ba, ta := a.IP.Addr().Unmap(), t.IP.Addr().Unmap()
	if ba == ta {
		return true
	}
	if !ba.IsUnspecified() || !(ta.IsLoopback() || ta.IsUnspecified()) {
		return false
	}
	return ba.Is6() || ta.Is4()
}

// WithPort returns a copy of raw, an AF_INET or AF_INET6 address, with
// its port set to port; ok is false for other families or a short raw.
func WithPort(raw []byte, port uint16) (out []byte, ok bool) {
	a, ok := DecodeSockaddr(raw)
	if !ok || !a.IP.IsValid() {
		return nil, false
	}
	out = append([]byte(nil), raw...)
	binary.BigEndian.PutUint16(out[2:], port)
	return out, true
}

// String prints the address: "127.0.0.1:5432", "[::1]:80",
// "/run/mpd.sock", "@abstract", "unnamed" for an unnamed unix socket, or
// the family's name.
func (a Sockaddr) String() string {
	switch {
	case a.IP.IsValid():
		return a.IP.String()
	case a.Family == AFUnix && a.UnixName() != "":
		return a.UnixName()
	case a.Family == AFUnix:
		return "unnamed"
	}
	return SocketFamilies.Format(uint64(a.Family))
}

// AddressArg returns the index of the argument in which a call passes a
// socket address to the kernel (out false: bind's, connect's, sendto's
// destination) or gets one back (out true: accept's peer, getsockname's,
// recvfrom's source); -1 when it has none. A msghdr's name is not an
// argument of its own: see InMsghdr and OutMsghdr.
func (s *Syscall) AddressArg(out bool) int {
	kind := InBuf
	if out {
		kind = OutBuf
	}
	for i, a := range s.Args {
		if a.Kind == kind && StructOf(a.Struct).Is == StructSockaddr {
			return i
		}
	}
	return -1
}
