package systable

import "encoding/binary"

// Echo fields. Some requests carry an id the program made up (a netlink
// dump's nlmsg_seq, taken from time(); a DNS query id, random) that the
// reply echoes and the program checks: a recorded reply carries the
// recorded id, which the program throws away. An EchoProtocol row says,
// as data, how to recognise a socket that speaks such a protocol, how its
// byte stream is cut into messages, and where in each message the echoed
// fields lie; align compares requests and replies without those bytes,
// and replay writes the live values into a replayed reply. The rows are
// in echo_protocols.go; this file is the mechanism they share.

// Framing says how a socket's data is cut into messages.
type Framing uint8

const (
	// FrameDatagram: each buffer a call sends or receives is one message
	// (a UDP datagram).
	FrameDatagram Framing = iota + 1
	// FrameLengthField: each buffer is a datagram holding one or more
	// messages, each starting with its own length (LenOffset, LenWidth,
	// the header included), the next one at that length rounded up to
	// Align (netlink's nlmsg_len and NLMSG_ALIGN).
	FrameLengthField
	// FramePrefix: a byte stream in which each message follows a length
	// prefix (LenWidth bytes, the prefix not included), messages cut
	// anywhere by the calls that send and receive them (DNS over TCP).
	FramePrefix
)

// EchoSource says where the value a reply must carry in an echoed field
// comes from.
type EchoSource uint8

const (
	// FromRequest: the reply carries what the request had in the same
	// field (nlmsg_seq, the DNS id).
	FromRequest EchoSource = iota + 1
	// FromLocalPort: the reply carries the socket's port id, as bind or
	// getsockname reported it to the program (netlink's nlmsg_pid, the
	// nl_pid of struct sockaddr_nl).
	FromLocalPort
)

// EchoField is one echoed field of each message.
type EchoField struct {
	Name   string
	Offset int // from the start of the message (after a FramePrefix length prefix)
	Width  int
	From   EchoSource
}

// EchoProtocol is a protocol whose replies echo fields of its requests.
// A socket speaks it when its family is one of Families, its type
// (without SOCK_NONBLOCK|SOCK_CLOEXEC) is Type (0: any), its protocol is
// Protocol (-1: any) and the port it sends to is Port (0: any).
type EchoProtocol struct {
	Name     string
	Families []uint16
	Type     uint64
	Protocol int64
	Port     uint16

	Framing   Framing
	LenOffset int  // FrameLengthField: where the length lies in a message
	LenWidth  int  // FrameLengthField, FramePrefix: its width, 2 or 4 bytes
	BigEndian bool // the length's byte order (netlink: the host's, little-endian here)
	Align     int  // FrameLengthField: messages start at multiples of it
	MinLen    int  // FrameLengthField: the shortest valid message (its header)

	Fields []EchoField

	// Messages says what the messages are, for the readers that decode
	// them (echo_messages.go); 0: nothing decodes them.
	Messages MessageFormat
}

// Speaks reports whether a socket of family, type typ (the socket
// call's argument; its flags are dropped here) and protocol proto that
// sends to port speaks p.
func (p *EchoProtocol) Speaks(family, typ uint64, proto int64, port uint16) bool {
	fam := false
	for _, f := range p.Families {
		fam = fam || uint64(f) == family
	}
	return fam && (p.Type == 0 || p.Type == typ&sockTypeMask) &&
		(p.Protocol < 0 || p.Protocol == proto) && (p.Port == 0 || p.Port == port)
}

// sockTypeMask keeps a socket type without SOCK_NONBLOCK and SOCK_CLOEXEC.
const sockTypeMask = 0xf

// EchoProtocolFor returns the protocol a socket speaks, or nil.
func EchoProtocolFor(family, typ uint64, proto int64, port uint16) *EchoProtocol {
	for i := range echoProtocols {
		if echoProtocols[i].Speaks(family, typ, proto, port) {
			return &echoProtocols[i]
		}
	}
	return nil
}

// EchoProtocols returns the table's protocols (a copy).
func EchoProtocols() []EchoProtocol { return append([]EchoProtocol(nil), echoProtocols...) }

// NeedsPort reports whether recognising p needs the port a socket sends
// to; without it (netlink) a socket is known by its socket call alone.
func (p *EchoProtocol) NeedsPort() bool { return p.Port != 0 }

// EchoState is where a FramePrefix stream stands between two calls: how
// far into the current frame (length prefix and message) it is, and the
// prefix's bytes seen so far. The zero value is a stream's start; the
// other framings keep no state.
type EchoState struct {
	Off     int    // bytes of the current frame already passed
	Prefix  uint32 // the length prefix, once read (Off >= LenWidth)
	Partial [4]byte
}

// EchoSpan is where a piece of an echoed field lies in one buffer: Len
// bytes at Off of the buffer, which are bytes [At, At+Len) of field
// Field (an index into the protocol's Fields). A field is cut in two
// only by a FramePrefix stream read a few bytes at a time.
type EchoSpan struct {
	Off, Len int
	Field    int
	At       int
	// Msg counts the messages of the buffer (0: the first one that starts
	// in it or continues into it).
	Msg int
}

// Spans returns where the echoed fields lie in buf, a buffer of a call
// that finds the stream at st, and where the stream stands after it.
func (p *EchoProtocol) Spans(st EchoState, buf []byte) ([]EchoSpan, EchoState) {
	switch p.Framing {
	case FrameDatagram:
		return p.fieldSpans(nil, buf, 0, 0, 0), EchoState{}
	case FrameLengthField:
		return p.lengthFieldSpans(buf), EchoState{}
	case FramePrefix:
		return p.prefixSpans(st, buf)
	}
	return nil, st
}

// fieldSpans appends the spans of the fields of a message that starts
// at buffer offset start (negative: it began in an earlier buffer) and
// whose bytes up to end are in buf.
func (p *EchoProtocol) fieldSpans(out []EchoSpan, buf []byte, start, end, msg int) []EchoSpan {
	if end == 0 {
		end = len(buf)
	}
	for i, f := range p.Fields {
		lo, hi := max(start+f.Offset, 0), min(start+f.Offset+f.Width, end, len(buf))
		if lo < hi {
			out = append(out, EchoSpan{Off: lo, Len: hi - lo, Field: i, At: lo - (start + f.Offset), Msg: msg})
		}
	}
	return out
}

// lengthFieldSpans walks the messages of a datagram by their length
// field (netlink's nlmsg_len).
func (p *EchoProtocol) lengthFieldSpans(buf []byte) []EchoSpan {
	var out []EchoSpan
	for off, msg := 0, 0; off+p.MinLen <= len(buf); msg++ {
		n := int(p.uint(buf[off+p.LenOffset:]))
		if n < p.MinLen || off+n > len(buf) {
			break
		}
		out = p.fieldSpans(out, buf, off, off+n, msg)
		off += (n + p.Align - 1) / p.Align * p.Align
	}
	return out
}

// prefixSpans follows a length-prefixed stream through buf.
func (p *EchoProtocol) prefixSpans(st EchoState, buf []byte) ([]EchoSpan, EchoState) {
	var out []EchoSpan
	pos, msg := 0, 0
	for pos < len(buf) {
		if st.Off < p.LenWidth {
			n := min(p.LenWidth-st.Off, len(buf)-pos)
			copy(st.Partial[st.Off:], buf[pos:pos+n])
			st.Off += n
			pos += n
			if st.Off == p.LenWidth {
				st.Prefix = uint32(p.uint(st.Partial[:]))
			}
			continue
		}
		start := pos - (st.Off - p.LenWidth) // where the message began, relative to buf
		left := int(st.Prefix) - (st.Off - p.LenWidth)
		n := min(left, len(buf)-pos)
		out = p.fieldSpans(out, buf, start, pos+n, msg)
		st.Off += n
		pos += n
		if n == left {
			st, msg = EchoState{}, msg+1
		}
	}
	return out, st
}

// uint reads a length field of the protocol's width and byte order.
func (p *EchoProtocol) uint(b []byte) uint64 {
	var bo binary.ByteOrder = binary.LittleEndian
	if p.BigEndian {
		bo = binary.BigEndian
	}
	switch p.LenWidth {
	case 2:
		if len(b) >= 2 {
			return uint64(bo.Uint16(b))
		}
	case 4:
		if len(b) >= 4 {
			return uint64(bo.Uint32(b))
		}
	}
	return 0
}

// MaskEcho returns buf with the bytes of spans zeroed (a copy; buf itself
// when there are none), for comparing two buffers without their echoed
// fields.
func MaskEcho(buf []byte, spans []EchoSpan) []byte {
	if len(spans) == 0 {
		return buf
	}
	out := append([]byte(nil), buf...)
	for _, s := range spans {
		clear(out[s.Off : s.Off+s.Len])
	}
	return out
}
