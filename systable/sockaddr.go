package systable

import (
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
