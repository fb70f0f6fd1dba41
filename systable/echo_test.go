package systable

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// nlmsg builds one netlink message: header (len, type, flags, seq, pid)
// and payload, padded to 4 bytes.
func nlmsg(typ uint16, seq, pid uint32, payload []byte) []byte {
	n := 16 + len(payload)
	b := make([]byte, (n+3)/4*4)
	binary.LittleEndian.PutUint32(b, uint32(n))
	binary.LittleEndian.PutUint16(b[4:], typ)
	binary.LittleEndian.PutUint32(b[8:], seq)
	binary.LittleEndian.PutUint32(b[12:], pid)
	copy(b[16:], payload)
	return b
}

// dnsQuery builds a DNS query for name's A record with id.
func dnsQuery(id uint16, name string) []byte {
	b := []byte{byte(id >> 8), byte(id), 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}
	for _, l := range []string{name} {
		b = append(b, byte(len(l)))
		b = append(b, l...)
	}
	return append(b, 0, 0, 1, 0, 1)
}

func proto(t *testing.T, name string) *EchoProtocol {
	t.Helper()
	for i := range echoProtocols {
		if echoProtocols[i].Name == name {
			return &echoProtocols[i]
		}
	}
	t.Fatalf("no echo protocol %s", name)
	return nil
}

func TestEchoProtocolFor(t *testing.T) {
	cases := []struct {
		name        string
		family, typ uint64
		proto       int64
		port        uint16
		want        string
	}{
		{"netlink route", unix.AF_NETLINK, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE, 0, "netlink"},
		{"netlink any protocol", unix.AF_NETLINK, unix.SOCK_DGRAM, unix.NETLINK_AUDIT, 0, "netlink"},
		{"dns udp", unix.AF_INET, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK, 0, 53, "dns-udp"},
		{"dns udp6", unix.AF_INET6, unix.SOCK_DGRAM, unix.IPPROTO_UDP, 53, "dns-udp"},
		{"dns tcp", unix.AF_INET, unix.SOCK_STREAM, 0, 53, "dns-tcp"},
		{"udp elsewhere", unix.AF_INET, unix.SOCK_DGRAM, 0, 123, ""},
		{"unix", unix.AF_UNIX, unix.SOCK_STREAM, 0, 53, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if p := EchoProtocolFor(c.family, c.typ, c.proto, c.port); p != nil {
				got = p.Name
			}
			if got != c.want {
				t.Errorf("EchoProtocolFor = %q, want %q", got, c.want)
			}
		})
	}
}

// The netlink offsets are those of struct nlmsghdr, a second source.
func TestEchoNetlinkOffsets(t *testing.T) {
	var h unix.NlMsghdr
	p := proto(t, "netlink")
	want := map[string]uintptr{"nlmsg_seq": unsafe.Offsetof(h.Seq), "nlmsg_pid": unsafe.Offsetof(h.Pid)}
	for _, f := range p.Fields {
		if uintptr(f.Offset) != want[f.Name] || f.Width != 4 {
			t.Errorf("%s at %d width %d, want %d width 4", f.Name, f.Offset, f.Width, want[f.Name])
		}
	}
	if p.LenOffset != int(unsafe.Offsetof(h.Len)) || p.MinLen != unix.SizeofNlMsghdr || p.Align != unix.NLMSG_ALIGNTO {
		t.Errorf("framing %+v, want nlmsghdr's", p)
	}
}

// A multi-message dump: every message's seq and pid are found, the
// payloads are not, and a truncated last message is left alone.
func TestEchoNetlinkMultiMessage(t *testing.T) {
	p := proto(t, "netlink")
	buf := append(nlmsg(unix.RTM_NEWLINK, 7, 99, []byte("lo\x00")), nlmsg(unix.RTM_NEWLINK, 7, 99, []byte("eth0\x00\x00"))...)
	buf = append(buf, nlmsg(unix.NLMSG_DONE, 7, 99, []byte{0, 0, 0, 0})...)
	spans, _ := p.Spans(EchoState{}, buf)
	if len(spans) != 6 {
		t.Fatalf("spans %+v, want 2 for each of 3 messages", spans)
	}
	for _, s := range spans {
		v := binary.LittleEndian.Uint32(buf[s.Off:])
		if want := map[int]uint32{0: 7, 1: 99}[s.Field]; v != want || s.Len != 4 {
			t.Errorf("span %+v holds %d, want %d", s, v, want)
		}
	}
	if spans[4].Msg != 2 || spans[4].Off != 20+24+8 {
		t.Errorf("third message's seq at %+v, want offset 52", spans[4])
	}
	other := append(nlmsg(unix.RTM_NEWLINK, 1234, 5, []byte("lo\x00")), nlmsg(unix.RTM_NEWLINK, 1234, 5, []byte("eth0\x00\x00"))...)
	other = append(other, nlmsg(unix.NLMSG_DONE, 1234, 5, []byte{0, 0, 0, 0})...)
	os, _ := p.Spans(EchoState{}, other)
	if string(MaskEcho(buf, spans)) != string(MaskEcho(other, os)) {
		t.Error("the two dumps differ in more than seq and pid")
	}
	diff := append(nlmsg(unix.RTM_NEWLINK, 1234, 5, []byte("lo\x00")), nlmsg(unix.RTM_NEWLINK, 1234, 5, []byte("eth1\x00\x00"))...)
	diff = append(diff, nlmsg(unix.NLMSG_DONE, 1234, 5, []byte{0, 0, 0, 0})...)
	ds, _ := p.Spans(EchoState{}, diff)
	if string(MaskEcho(buf, spans)) == string(MaskEcho(diff, ds)) {
		t.Error("an interface's other name was masked too")
	}
	cut, _ := p.Spans(EchoState{}, buf[:30])
	if len(cut) != 2 {
		t.Errorf("a buffer cut in the second message: spans %+v, want the first message's 2", cut)
	}
}

func TestEchoDNSUDP(t *testing.T) {
	p := proto(t, "dns-udp")
	a, b := dnsQuery(0x1234, "example"), dnsQuery(0xbeef, "example")
	sa, _ := p.Spans(EchoState{}, a)
	sb, _ := p.Spans(EchoState{}, b)
	if len(sa) != 1 || sa[0].Off != 0 || sa[0].Len != 2 {
		t.Fatalf("spans %+v, want the id at 0", sa)
	}
	if string(MaskEcho(a, sa)) != string(MaskEcho(b, sb)) {
		t.Error("queries differing in their id only are not the same")
	}
	c := dnsQuery(0xbeef, "elsewhere")
	sc, _ := p.Spans(EchoState{}, c)
	if string(MaskEcho(a, sa)) == string(MaskEcho(c, sc)) {
		t.Error("a query for another name is the same")
	}
}

// DNS over TCP: the id is found behind the length prefix, also when the
// reply is read as the prefix first and the message after (as glibc
// does) or one byte at a time, and in the second of two messages written
// at once.
func TestEchoDNSTCP(t *testing.T) {
	p := proto(t, "dns-tcp")
	q := dnsQuery(0x1234, "example")
	frame := append([]byte{0, byte(len(q))}, q...)
	two := append(append([]byte(nil), frame...), frame...)
	spans, st := p.Spans(EchoState{}, two)
	if len(spans) != 2 || spans[0].Off != 2 || spans[1].Off != len(frame)+2 || st != (EchoState{}) {
		t.Fatalf("spans %+v, state %+v: want the ids at 2 and %d", spans, st, len(frame)+2)
	}
	// The prefix, then the message.
	s1, st := p.Spans(EchoState{}, frame[:2])
	s2, st := p.Spans(st, frame[2:])
	if len(s1) != 0 || len(s2) != 1 || s2[0].Off != 0 || s2[0].Len != 2 || st != (EchoState{}) {
		t.Errorf("prefix then message: %+v %+v %+v", s1, s2, st)
	}
	// One byte at a time: the id's two bytes in two buffers.
	st = EchoState{}
	var got []int
	for i := range frame {
		var s []EchoSpan
		s, st = p.Spans(st, frame[i:i+1])
		for _, x := range s {
			got = append(got, i, x.At)
		}
	}
	if len(got) != 4 || got[0] != 2 || got[1] != 0 || got[2] != 3 || got[3] != 1 {
		t.Errorf("byte by byte: (buffer, byte of the id) %v, want [2 0 3 1]", got)
	}
}
