package envdiff

import (
	"net/netip"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// BoundAddresses returns the IP addresses the good run bound (a
// successful call of a row that BindsAddress, its address decoded from
// the sockaddr it passed), with their protocol from the call that made
// the socket (systable's MadeSocket: SOCK_STREAM is tcp, SOCK_DGRAM udp)
// and the first call that bound each: the addresses the command needs
// free. Only loopback and wildcard addresses count, IPv4 or IPv6 (an
// address of another interface names this host's network, which a run
// cannot give it), and not port 0 (the kernel picks a free one). Each
// address and protocol once, in the order they were first bound.
func BoundAddresses(tr *tracefile.Trace, table *systable.Table) []envobj.Address {
	b := newBinds(table)
	for i := range tr.Events {
		b.add(&tr.Events[i])
	}
	return b.out
}

// binds gathers BoundAddresses one event at a time, so that a streaming
// Inspector reads them as the trace goes by (Inspector.Bound).
type binds struct {
	table  *systable.Table
	protos map[string]string // socket:[inode] -> tcp, udp
	seen   map[string]bool
	out    []envobj.Address
}

func newBinds(table *systable.Table) *binds {
	return &binds{table: table, protos: map[string]string{}, seen: map[string]bool{}}
}

// add takes the recorded event ev.
func (b *binds) add(ev *trace.Event) {
	c := ev.Call
	if c == nil || c.Denied || c.NoReturn || c.Ret < 0 {
		return
	}
	row := b.table.ByNr(int(c.Nr))
	if row == nil || row.Unknown {
		return
	}
	if row.Made == systable.MadeSocket {
		if p := socketProto(row, c); p != "" && c.Path != "" {
			b.protos[c.Path] = p
		}
		return
	}
	if row.EffectsFor(c.Args)&systable.BindsAddress == 0 || c.Errno() != 0 {
		return
	}
	ap, ok := boundAddr(row, c)
	if !ok {
		return
	}
	a := envobj.Address{AddrPort: ap, Proto: b.protos[c.Path], BoundAt: c.Seq}
	if k := a.String(); !b.seen[k] {
		b.seen[k] = true
		b.out = append(b.out, a)
	}
}

// boundAddr is the IP address bind call c passed, when it is one the
// command needs free here: loopback or wildcard, port not 0.
func boundAddr(row *systable.Syscall, c *trace.Call) (netip.AddrPort, bool) {
	arg := row.AddressArg(false)
	if arg < 0 {
		return netip.AddrPort{}, false
	}
	m := c.MemOfDir(uint8(arg), trace.PartWhole, trace.In)
	if m == nil {
		return netip.AddrPort{}, false
	}
	sa, ok := systable.DecodeSockaddr(m.Data)
	if !ok || !sa.IP.IsValid() || sa.IP.Port() == 0 {
		return netip.AddrPort{}, false
	}
	if ip := sa.IP.Addr().Unmap(); !ip.IsLoopback() && !ip.IsUnspecified() {
		return netip.AddrPort{}, false
	}
	return sa.IP, true
}

// socketProto is "tcp" or "udp" for a call that made an IP socket of
// that type (its type argument, the one whose flags are the socket
// types); "" for any other.
func socketProto(row *systable.Syscall, c *trace.Call) string {
	for i, a := range row.Args {
		if a.Flags != systable.SocketTypes || i >= len(c.Args) {
			continue
		}
		switch uint32(c.Args[i]) & sockTypeMask {
		case unix.SOCK_STREAM:
			return "tcp"
		case unix.SOCK_DGRAM:
			return "udp"
		}
	}
	return ""
}

// sockTypeMask keeps a socket's type without SOCK_NONBLOCK and
// SOCK_CLOEXEC.
const sockTypeMask = 0xf

// HolderFunc finds the process that holds an address for a protocol
// here ("" for either): launch.AddressHolderOf in the network namespace
// the runs are made in. It returns pid 0 and no error when no socket
// holds the address (it is free), and an error when a socket does but
// its process is not found.
type HolderFunc func(ap netip.AddrPort, proto string) (pid int, exe string, err error)

// HeldAddresses returns those of bound (BoundAddresses) that a process
// holds here, as holder finds it, each with its holder: the addresses
// whose bind would fail with EADDRINUSE. An address no socket holds is
// free, and left out; one held by a socket whose process envbisect
// cannot see is kept, with why.
func HeldAddresses(bound []envobj.Address, holder HolderFunc) []envobj.Address {
	var out []envobj.Address
	for _, a := range bound {
		pid, exe, err := holder(a.AddrPort, a.Proto)
		switch {
		case err == nil && pid == 0:
			continue
		case err == nil:
			a.PID, a.Exe = pid, exe
		default:
			a.HolderWhy = err.Error()
		}
		out = append(out, a)
	}
	return out
}
