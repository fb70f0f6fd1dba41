package depgraph

import (
	"net/netip"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// sockState is what the trace shows of a socket.
type sockState struct {
	family, typ      uint64 // socket's domain and type (without SOCK_NONBLOCK|SOCK_CLOEXEC)
	protocol         int64  // socket's protocol argument
	echo             *systable.EchoProtocol
	local, peer      *sockAddr
	bound, listening bool
	accepted         bool
	listener         *desc    // accepted: the listening socket
	dns              *dnsSock // a socket to a DNS server (dns.go)
}

// sockAddr is a decoded struct sockaddr.
type sockAddr struct {
	family uint16
	ip     netip.AddrPort // AF_INET, AF_INET6
	unix   string         // AF_UNIX: the path, "@name" for an abstract name, "" unnamed
	sa     systable.Sockaddr
}

// decodeSockaddr decodes the address families the tracker can match
// (AF_INET, AF_INET6, AF_UNIX); others keep only their family. nil for
// fewer than two bytes.
func decodeSockaddr(b []byte) *sockAddr {
	sa, ok := systable.DecodeSockaddr(b)
	if !ok {
		return nil
	}
	return &sockAddr{family: sa.Family, ip: sa.IP, unix: sa.UnixName(), sa: sa}
}

// String prints the address: "127.0.0.1:5432", "[::1]:80",
// "/run/mpd.sock", "@abstract", or the family's name.
func (a *sockAddr) String() string {
	if a == nil {
		return "unknown address"
	}
	return a.sa.String()
}

// accepts reports whether a socket bound to a receives what is sent or
// connected to t (systable.Sockaddr.Accepts).
func (a *sockAddr) accepts(t *sockAddr) bool {
	return a != nil && t != nil && a.sa.Accepts(t.sa)
}

// sockaddrMem returns the socket address a call passes (dir In: bind,
// connect, sendto, sendmsg's msg_name) or receives (dir Out: accept).
func sockaddrMem(row *systable.Syscall, c *trace.Call, dir trace.Dir) []byte {
	for i, a := range row.Args {
		var m *trace.Mem
		switch {
		case systable.StructOf(a.Struct).Is == systable.StructSockaddr:
			m = c.MemOfDir(uint8(i), trace.PartWhole, dir)
		case (a.Kind == systable.InMsghdr || a.Kind == systable.InMmsghdr) && dir == trace.In:
			m = c.MemOfDir(uint8(i), trace.PartName, trace.In) // sendmmsg: its first message's
		}
		if m != nil {
			return m.Data
		}
	}
	return nil
}

// defineSockets records the addresses a call gives its socket: bind's
// local address (kept also when bind failed, to name the socket), the
// peer of connect, sendto or sendmsg (also for a connect in progress or
// refused), listen, and the port getsockname reports for a bind to port
// 0.
func (b *builder) defineSockets(x *callCtx) {
	if len(x.used) == 0 || x.used[0].s.d.sock == nil {
		return
	}
	s := x.used[0].s.d.sock
	switch {
	case x.eff&systable.BindsAddress != 0:
		if a := decodeSockaddr(sockaddrMem(x.row, x.c, trace.In)); a != nil {
			s.local = a
			s.bound = s.bound || x.ok
		}
	case x.eff&systable.ConnectsAddress != 0:
		if s.peer == nil {
			s.peer = decodeSockaddr(sockaddrMem(x.row, x.c, trace.In))
		}
	case x.row.Socket == systable.SocketListens && x.ok:
		s.listening = true
	case x.row.Socket == systable.SocketReportsLocal && x.ok:
		// The port the kernel chose for a bind to port 0 (or a connect).
		if a := decodeSockaddr(sockaddrMem(x.row, x.c, trace.Out)); a != nil && (s.local == nil || s.local.ip.Port() == 0 && a.ip.IsValid()) {
			s.local = a
		}
	}
}

// classifySockets decides whose each socket is: a connection to an
// address a traced socket is bound to is internal, other connections
// environment; a connection a traced server accepted is internal when a
// traced socket connected to the listener's address, else input (a
// client outside the trace); the rest (listeners, netlink) environment.
//
// With a traced and an untraced client on one listener, all of its
// accepted connections are taken as internal: the trace does not say
// which connection came from whom. Both classes execute by default.
func (b *builder) classifySockets() {
	var bound, connected []*sockAddr
	for _, d := range b.sockets {
		if l := d.sock.listener; l != nil && l.sock.local != nil {
			d.sock.local = l.sock.local // the listener's address as last known (getsockname after accept)
		}
	}
	for _, d := range b.sockets {
		if d.sock.bound {
			bound = append(bound, d.sock.local)
		}
		if d.sock.peer != nil && !d.sock.accepted {
			connected = append(connected, d.sock.peer)
		}
	}
	reaches := func(from *sockAddr, to []*sockAddr, fromBound bool) bool {
		for _, t := range to {
			if fromBound && from.accepts(t) || !fromBound && t.accepts(from) {
				return true
			}
		}
		return false
	}
	for _, d := range b.sockets {
		s, r := d.sock, d.res
		r.Class = Environment
		switch {
		case s.accepted:
			r.Class = Input
			if s.local != nil && reaches(s.local, connected, true) {
				r.Class = Internal
			}
		case s.peer != nil && reaches(s.peer, bound, false):
			r.Class = Internal
		}
		m := r.setMore()
		m.local, m.peer = addrText(s.local), addrText(s.peer)
		if s.echo = echoProtocolOf(s); s.echo != nil {
			m.echo = s.echo.Name
		}
		r.setMore().name = sockName(d)
	}
}

func addrText(a *sockAddr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// proto names a socket's protocol for people: tcp, udp, unix, or its
// family and type.
func proto(s *sockState) string {
	fam := s.family
	for _, a := range []*sockAddr{s.local, s.peer} {
		if fam == 0 && a != nil {
			fam = uint64(a.family)
		}
	}
	switch {
	case fam == unix.AF_UNIX:
		return "unix"
	case (fam == unix.AF_INET || fam == unix.AF_INET6) && s.typ == unix.SOCK_STREAM:
		return "tcp"
	case (fam == unix.AF_INET || fam == unix.AF_INET6) && s.typ == unix.SOCK_DGRAM:
		return "udp"
	case fam == 0:
		return "socket"
	}
	return systable.SocketFamilies.Format(fam) + " " + systable.SocketTypes.Format(s.typ)
}

// sockName is a socket resource's name, once the trace has been read.
func sockName(d *desc) string {
	s := d.sock
	name := proto(s)
	switch {
	case s.accepted && s.peer != nil:
		name += " " + s.peer.String() + " accepted on " + s.local.String()
	case s.accepted:
		name += " accepted on " + s.local.String()
	case s.peer != nil && s.local != nil:
		name += " " + s.local.String() + " -> " + s.peer.String()
	case s.peer != nil:
		name += " -> " + s.peer.String()
	case s.local != nil:
		name += " on " + s.local.String()
	}
	return name + " (#" + strconv.FormatUint(d.created, 10) + ")"
}

// sockGroup is the group a socket's calls go in.
func sockGroup(d *desc) (GroupKind, string) {
	s := d.sock
	p := proto(s)
	switch {
	case s.dns != nil && len(s.dns.questions) > 0:
		return GroupDNS, dnsGroupName(s.dns.questions)
	case s.accepted:
		return GroupAccepted, p + " " + s.local.String()
	case s.peer != nil:
		return GroupConnection, p + " " + s.peer.String()
	case s.local != nil:
		return GroupListener, p + " " + s.local.String()
	}
	return GroupSocket, p
}
