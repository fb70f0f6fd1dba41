package tracetest

import (
	"encoding/binary"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// NlMsg builds one netlink message (struct nlmsghdr and payload, padded
// to 4 bytes).
func NlMsg(typ uint16, seq, pid uint32, payload string) []byte {
	n := unix.SizeofNlMsghdr + len(payload)
	b := make([]byte, (n+3)/4*4)
	binary.LittleEndian.PutUint32(b, uint32(n))
	binary.LittleEndian.PutUint16(b[4:], typ)
	binary.LittleEndian.PutUint32(b[8:], seq)
	binary.LittleEndian.PutUint32(b[12:], pid)
	copy(b[16:], payload)
	return b
}

// NlDump builds a multi-message netlink reply: one RTM_NEWLINK message
// per payload, then NLMSG_DONE, each with seq and pid.
func NlDump(seq, pid uint32, payloads ...string) []byte {
	var b []byte
	for _, p := range payloads {
		b = append(b, NlMsg(unix.RTM_NEWLINK, seq, pid, p)...)
	}
	return append(b, NlMsg(unix.NLMSG_DONE, seq, pid, "\x00\x00\x00\x00")...)
}

// SockaddrNL builds a struct sockaddr_nl with port id pid.
func SockaddrNL(pid uint32) []byte {
	b := make([]byte, unix.SizeofSockaddrNetlink)
	binary.LittleEndian.PutUint16(b, unix.AF_NETLINK)
	binary.LittleEndian.PutUint32(b[4:], pid)
	return b
}

// Sockaddr4 builds a struct sockaddr_in.
func Sockaddr4(a [4]byte, port uint16) []byte {
	b := make([]byte, unix.SizeofSockaddrInet4)
	binary.LittleEndian.PutUint16(b, unix.AF_INET)
	binary.BigEndian.PutUint16(b[2:], port)
	copy(b[4:], a[:])
	return b
}

// DNSQuery builds a DNS query with id for name's A record.
func DNSQuery(id uint16, name string) []byte {
	b := []byte{byte(id >> 8), byte(id), 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, byte(len(name))}
	b = append(b, name...)
	return append(b, 0, 0, 1, 0, 1)
}

// DNSAnswer builds the answer to DNSQuery(id, name): rcode 0 and one A
// record, or rcode 3 (NXDOMAIN) and none when a is nil.
func DNSAnswer(id uint16, name string, a []byte) []byte {
	b := DNSQuery(id, name)
	b[2], b[3] = 0x81, 0x80
	if a == nil {
		b[3] |= 3
		return b
	}
	b[7] = 1
	b = append(b, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
	return append(b, a...)
}

// TCPFrame puts DNS message m behind its 2-byte length.
func TCPFrame(m []byte) []byte {
	return append([]byte{byte(len(m) >> 8), byte(len(m))}, m...)
}

// IovData attaches the data of an iovec array or a msghdr's iovecs.
func IovData(arg uint8, dir trace.Dir, data []byte) Opt {
	return Mem(arg, trace.PartIovData, dir, data)
}
