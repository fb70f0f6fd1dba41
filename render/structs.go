package render

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/systable"
)

var le = binary.LittleEndian

// decodeStruct decodes the memory of a buffer whose C type the table
// names, or returns nil when the type is not one decoded here or data does
// not fit it. Types are matched leniently ("struct stat", "stat"); an
// array type ("struct timespec[2]", "struct pollfd[]") decodes every
// element.
func (d *decoder) decodeStruct(name string, b []byte) value {
	n := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "struct "))
	array := false
	if i := strings.IndexByte(n, '['); i > 0 {
		n, array = strings.TrimSpace(n[:i]), true
	}
	e, ok := structDecoders[n]
	switch {
	case !ok && strings.HasPrefix(n, "sockaddr"):
		return d.sockaddr(b)
	case !ok:
		return nil
	case e.size == nil: // decodes the whole buffer itself
		return e.dec(d, b)
	}
	size := e.size(d)
	if size <= 0 || len(b) < size {
		return nil
	}
	if !array && !e.list {
		return e.dec(d, b[:size])
	}
	if len(b)%size != 0 {
		return nil
	}
	var l list
	for i := 0; i+size <= len(b); i += size {
		v := e.dec(d, b[i:i+size])
		if v == nil {
			return nil
		}
		l = append(l, v)
	}
	return l
}

// structDecoder decodes one C type.
type structDecoder struct {
	// size returns the size of one element; nil when dec takes the whole
	// buffer (records of varying size, addresses of varying length).
	size func(d *decoder) int
	dec  func(d *decoder, b []byte) value
	// list prints even a single element in brackets, as strace prints an
	// int a pointer argument points to: [16].
	list bool
}

func fixedSize(n int) func(*decoder) int { return func(*decoder) int { return n } }

var (
	int32Decoder = structDecoder{size: fixedSize(4), list: true, dec: func(_ *decoder, b []byte) value { return num(int32(le.Uint32(b))) }}
	int64Decoder = structDecoder{size: fixedSize(8), list: true, dec: func(_ *decoder, b []byte) value { return num(int64(le.Uint64(b))) }}
	tsDecoder    = structDecoder{size: fixedSize(16), dec: func(_ *decoder, b []byte) value { return timespec(b, "tv_nsec") }}
	tvDecoder    = structDecoder{size: fixedSize(16), dec: func(_ *decoder, b []byte) value { return timespec(b, "tv_usec") }}
)

// structDecoders are the C types decoded, by name without "struct ".
var structDecoders = map[string]structDecoder{
	"stat": {size: func(d *decoder) int {
		if d.layout == nil {
			return 0
		}
		return d.layout.stat.size
	}, dec: (*decoder).stat},
	"statx":             {size: fixedSize(0x100), dec: func(_ *decoder, b []byte) value { return statx(b) }},
	"timespec":          tsDecoder,
	"__kernel_timespec": tsDecoder,
	"timeval":           tvDecoder,
	"itimerspec":        {size: fixedSize(32), dec: func(_ *decoder, b []byte) value { return pair(b, "it_interval", "it_value", "tv_nsec") }},
	"itimerval":         {size: fixedSize(32), dec: func(_ *decoder, b []byte) value { return pair(b, "it_interval", "it_value", "tv_usec") }},
	"rlimit":            {size: fixedSize(16), dec: func(_ *decoder, b []byte) value { return rlimit(b) }},
	"rlimit64":          {size: fixedSize(16), dec: func(_ *decoder, b []byte) value { return rlimit(b) }},
	"new_utsname":       {size: fixedSize(6 * 65), dec: func(_ *decoder, b []byte) value { return utsname(b) }},
	"utsname":           {size: fixedSize(6 * 65), dec: func(_ *decoder, b []byte) value { return utsname(b) }},
	"linux_dirent64":    {dec: func(_ *decoder, b []byte) value { return dirents64(b) }},
	"pollfd":            {size: fixedSize(8), dec: func(_ *decoder, b []byte) value { return pollfd(b) }},
	"open_how":          {size: fixedSize(24), dec: func(_ *decoder, b []byte) value { return openHow(b) }},
	"int":               int32Decoder,
	"unsigned int":      int32Decoder,
	"socklen_t":         int32Decoder,
	"pid_t":             int32Decoder,
	"uid_t":             int32Decoder,
	"gid_t":             int32Decoder,
	"long":              int64Decoder,
	"unsigned long":     int64Decoder,
	"off_t":             int64Decoder,
	"loff_t":            int64Decoder,
	"size_t":            int64Decoder,
}

// pair decodes two timespecs or timevals (struct itimerspec, itimerval).
func pair(b []byte, first, second, frac string) value {
	return object{
		{name: first, v: timespec(b[0:16], frac)},
		{name: second, v: timespec(b[16:32], frac)},
	}
}

// pollfd decodes one struct pollfd.
func pollfd(b []byte) value {
	ev := func(v uint16) lit {
		s := systable.PollEvents.Format(uint64(v))
		if s == "0x0" {
			s = "0"
		}
		return lit{s, s}
	}
	return object{
		{name: "fd", v: num(int32(le.Uint32(b)))},
		{name: "events", v: ev(le.Uint16(b[4:]))},
		{name: "revents", v: ev(le.Uint16(b[6:]))},
	}
}

// openHow decodes struct open_how of openat2.
func openHow(b []byte) value {
	flags := systable.OpenFlags.Format(le.Uint64(b))
	mode := formatMode(le.Uint64(b[8:]))
	resolve := systable.ResolveFlags.Format(le.Uint64(b[16:]))
	if resolve == "0x0" {
		resolve = "0"
	}
	return object{
		{name: "flags", v: lit{flags, flags}},
		{name: "mode", v: lit{mode, mode}},
		{name: "resolve", v: lit{resolve, resolve}},
	}
}

// num is an integer in both forms.
func num[T int32 | int64 | uint16 | uint32 | uint64](v T) lit {
	return lit{fmt.Sprint(v), v}
}

// stat decodes struct stat by the trace architecture's layout.
func (d *decoder) stat(b []byte) value {
	if d.layout == nil || len(b) < d.layout.stat.size {
		return nil
	}
	l := &d.layout.stat
	mode := formatMode(uint64(le.Uint32(b[l.mode:])))
	nlink := uint64(le.Uint32(b[l.nlink:]))
	if l.nlinkSize == 8 {
		nlink = le.Uint64(b[l.nlink:])
	}
	o := object{
		{name: "st_dev", v: num(le.Uint64(b[l.dev:])), only: jsonOnly},
		{name: "st_ino", v: num(le.Uint64(b[l.ino:])), only: jsonOnly},
		{name: "st_mode", v: lit{mode, mode}},
		{name: "st_nlink", v: num(nlink), only: jsonOnly},
		{name: "st_uid", v: num(le.Uint32(b[l.uid:])), only: jsonOnly},
		{name: "st_gid", v: num(le.Uint32(b[l.gid:])), only: jsonOnly},
	}
	if rdev := le.Uint64(b[l.rdev:]); rdev != 0 {
		o = append(o, field{name: "st_rdev", v: makedev(rdev)})
	} else {
		o = append(o, field{name: "st_size", v: num(int64(le.Uint64(b[l.fileSize:])))})
	}
	o = append(o,
		field{name: "st_blocks", v: num(int64(le.Uint64(b[l.blocks:]))), only: jsonOnly},
		field{name: "st_mtime", v: num(int64(le.Uint64(b[l.mtimeSec:]))), only: jsonOnly},
		field{name: "st_mtime_nsec", v: num(le.Uint64(b[l.mtimeNsec:])), only: jsonOnly},
		etc)
	return o
}

// makedev prints a device number as makedev(0x1, 0x3).
func makedev(dev uint64) lit {
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	return lit{fmt.Sprintf("makedev(%#x, %#x)", major, minor), dev}
}

// statx decodes struct statx (the same on every architecture).
func statx(b []byte) value {
	if len(b) < 0x100 {
		return nil
	}
	mode := formatMode(uint64(le.Uint16(b[28:])))
	return object{
		{name: "stx_mask", v: lit{hex(uint64(le.Uint32(b[0:]))), le.Uint32(b[0:])}, only: jsonOnly},
		{name: "stx_mode", v: lit{mode, mode}},
		{name: "stx_size", v: num(le.Uint64(b[40:]))},
		{name: "stx_nlink", v: num(le.Uint32(b[16:])), only: jsonOnly},
		{name: "stx_uid", v: num(le.Uint32(b[20:])), only: jsonOnly},
		{name: "stx_gid", v: num(le.Uint32(b[24:])), only: jsonOnly},
		{name: "stx_ino", v: num(le.Uint64(b[32:])), only: jsonOnly},
		{name: "stx_mtime", v: num(int64(le.Uint64(b[112:]))), only: jsonOnly},
		etc,
	}
}

// timespec decodes struct timespec or struct timeval (frac names the
// second member).
func timespec(b []byte, frac string) value {
	if len(b) < 16 {
		return nil
	}
	return object{
		{name: "tv_sec", v: num(int64(le.Uint64(b[0:])))},
		{name: frac, v: num(int64(le.Uint64(b[8:])))},
	}
}

// rlimit decodes struct rlimit and struct rlimit64.
func rlimit(b []byte) value {
	if len(b) < 16 {
		return nil
	}
	lim := func(v uint64) lit {
		if v == ^uint64(0) {
			return lit{"RLIM64_INFINITY", v}
		}
		return num(v)
	}
	return object{
		{name: "rlim_cur", v: lim(le.Uint64(b[0:]))},
		{name: "rlim_max", v: lim(le.Uint64(b[8:]))},
	}
}

// utsname decodes struct new_utsname: six 65-byte strings.
func utsname(b []byte) value {
	const n = 65
	if len(b) < 6*n {
		return nil
	}
	s := func(i int) value { return str{b: cstring(b[i*n : (i+1)*n]), cut: true} }
	return object{
		{name: "sysname", v: s(0)},
		{name: "nodename", v: s(1)},
		{name: "release", v: s(2)},
		{name: "version", v: s(3), only: jsonOnly},
		{name: "machine", v: s(4), only: jsonOnly},
		{name: "domainname", v: s(5), only: jsonOnly},
		etc,
	}
}

// dirents64 decodes the records getdents64 fills.
func dirents64(b []byte) value {
	var l list
	for len(b) > 0 {
		if len(b) < 19 {
			return nil
		}
		reclen := int(le.Uint16(b[16:]))
		if reclen < 19 || reclen > len(b) {
			return nil
		}
		typ := b[18]
		tname, ok := direntTypes[typ]
		if !ok {
			tname = strconv.Itoa(int(typ))
		}
		l = append(l, object{
			{name: "d_ino", v: num(le.Uint64(b[0:]))},
			{name: "d_off", v: num(int64(le.Uint64(b[8:]))), only: jsonOnly},
			{name: "d_reclen", v: num(uint16(reclen)), only: jsonOnly},
			{name: "d_type", v: lit{tname, tname}},
			{name: "d_name", v: str{b: cstring(b[19:reclen])}},
		})
		b = b[reclen:]
	}
	if l == nil {
		return list{}
	}
	return l
}

// sockaddr decodes a socket address: AF_INET, AF_INET6, AF_UNIX and
// AF_NETLINK by their members, other families as their raw sa_data.
func (d *decoder) sockaddr(b []byte) value {
	if len(b) < 2 {
		return nil
	}
	fam := le.Uint16(b)
	fname, ok := addressFamilies[fam]
	if !ok {
		fname = strconv.Itoa(int(fam))
	}
	o := object{{name: "sa_family", v: lit{fname, fname}}}
	port := func(p []byte) lit {
		v := binary.BigEndian.Uint16(p)
		return lit{fmt.Sprintf("htons(%d)", v), v}
	}
	switch {
	case fam == 2 && len(b) >= 8: // AF_INET
		a := netip.AddrFrom4([4]byte(b[4:8])).String()
		return append(o,
			field{name: "sin_port", v: port(b[2:])},
			field{name: "sin_addr", v: lit{`inet_addr("` + a + `")`, a}})
	case fam == 10 && len(b) >= 24: // AF_INET6
		a := netip.AddrFrom16([16]byte(b[8:24])).String()
		flow := binary.BigEndian.Uint32(b[4:])
		o = append(o,
			field{name: "sin6_port", v: port(b[2:])},
			field{name: "sin6_flowinfo", v: lit{fmt.Sprintf("htonl(%d)", flow), flow}},
			field{name: "sin6_addr", v: lit{`inet_pton(AF_INET6, "` + a + `", &sin6_addr)`, a}, bare: true})
		if len(b) >= 28 {
			o = append(o, field{name: "sin6_scope_id", v: num(le.Uint32(b[24:]))})
		}
		return o
	case fam == 1: // AF_UNIX
		p := b[2:]
		switch {
		case len(p) == 0:
			return o
		case p[0] == 0: // abstract: the name is every byte after the NUL
			return append(o, field{name: "sun_path", v: lit{"@" + Quote(p[1:], 0), "@" + string(p[1:])}})
		}
		return append(o, field{name: "sun_path", v: str{b: cstring(p)}})
	case fam == 16 && len(b) >= 12: // AF_NETLINK
		g := le.Uint32(b[8:])
		return append(o,
			field{name: "nl_pid", v: num(int32(le.Uint32(b[4:])))},
			field{name: "nl_groups", v: lit{fmt.Sprintf("%08x", g), g}})
	case fam == 0:
		return o
	}
	return append(o, field{name: "sa_data", v: str{b: b[2:]}})
}
