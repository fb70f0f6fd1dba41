package render

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/envbisect/envbisect/systable"
)

var le = binary.LittleEndian

// decodeStruct decodes the memory of a buffer whose C type the table
// names, or returns nil when the type is not one decoded here or data does
// not fit it. Types are matched by their kind in the table's struct
// layouts ("struct stat", "stat"); an array type ("struct timespec[2]",
// "struct pollfd[]") decodes every element.
func (d *decoder) decodeStruct(name string, b []byte) value {
	_, array := systable.StructName(name)
	kind := systable.StructOf(name).Is
	e, ok := structDecoders[kind]
	switch {
	case !ok && kind == systable.StructSockaddr:
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

// sizeOf is the size of a struct of the table's layouts.
func sizeOf(ctype string) func(*decoder) int { return fixedSize(systable.StructOf(ctype).Size) }

var (
	int32Decoder = structDecoder{size: fixedSize(4), list: true, dec: func(_ *decoder, b []byte) value { return num(int32(le.Uint32(b))) }}
	int64Decoder = structDecoder{size: fixedSize(8), list: true, dec: func(_ *decoder, b []byte) value { return num(int64(le.Uint64(b))) }}
)

// structDecoders are the C types decoded, by their kind in the table's
// struct layouts.
var structDecoders = map[systable.StructKind]structDecoder{
	systable.StructStat: {size: func(d *decoder) int {
		if d.layout == nil {
			return 0
		}
		return d.layout.stat.Size
	}, dec: (*decoder).stat},
	systable.StructStatx:      {size: sizeOf("struct statx"), dec: func(_ *decoder, b []byte) value { return statx(b) }},
	systable.StructTimespec:   {size: sizeOf("struct timespec"), dec: func(_ *decoder, b []byte) value { return timespec(b, "tv_nsec") }},
	systable.StructTimeval:    {size: sizeOf("struct timeval"), dec: func(_ *decoder, b []byte) value { return timespec(b, "tv_usec") }},
	systable.StructItimerspec: {size: sizeOf("struct itimerspec"), dec: func(_ *decoder, b []byte) value { return pair(b, "it_interval", "it_value", "tv_nsec") }},
	systable.StructItimerval:  {size: sizeOf("struct itimerval"), dec: func(_ *decoder, b []byte) value { return pair(b, "it_interval", "it_value", "tv_usec") }},
	systable.StructRlimit:     {size: sizeOf("struct rlimit"), dec: func(_ *decoder, b []byte) value { return rlimit(b) }},
	systable.StructUtsname:    {size: sizeOf("struct new_utsname"), dec: func(_ *decoder, b []byte) value { return utsname(b) }},
	systable.StructDirent64:   {dec: func(_ *decoder, b []byte) value { return dirents64(b) }},
	systable.StructPollfd:     {size: sizeOf("struct pollfd"), dec: func(_ *decoder, b []byte) value { return pollfd(b) }},
	systable.StructOpenHow:    {size: sizeOf("struct open_how"), dec: func(_ *decoder, b []byte) value { return openHow(b) }},
	systable.StructInt:        int32Decoder,
	systable.StructFDPair:     int32Decoder,
	systable.StructUint:       int32Decoder,
	systable.StructPidT:       int32Decoder,
	systable.StructLong:       int64Decoder,
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
	st := systable.StructOf("struct pollfd")
	return object{
		{name: "fd", v: num(int32(st.Field("fd").Int(b)))},
		{name: "events", v: ev(uint16(st.Field("events").Uint(b)))},
		{name: "revents", v: ev(uint16(st.Field("revents").Uint(b)))},
	}
}

// openHow decodes struct open_how of openat2.
func openHow(b []byte) value {
	st := systable.StructOf("struct open_how")
	flags := systable.OpenFlags.Format(st.Field("flags").Uint(b))
	mode := formatMode(st.Field("mode").Uint(b))
	resolve := systable.ResolveFlags.Format(st.Field("resolve").Uint(b))
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
	if d.layout == nil || len(b) < d.layout.stat.Size {
		return nil
	}
	l := &d.layout.stat
	u := func(name string) uint64 { return l.Field(name).Uint(b) }
	mode := formatMode(u("st_mode"))
	o := object{
		{name: "st_dev", v: num(u("st_dev")), only: jsonOnly},
		{name: "st_ino", v: num(u("st_ino")), only: jsonOnly},
		{name: "st_mode", v: lit{mode, mode}},
		{name: "st_nlink", v: num(u("st_nlink")), only: jsonOnly},
		{name: "st_uid", v: num(uint32(u("st_uid"))), only: jsonOnly},
		{name: "st_gid", v: num(uint32(u("st_gid"))), only: jsonOnly},
	}
	if rdev := u("st_rdev"); rdev != 0 {
		o = append(o, field{name: "st_rdev", v: makedev(rdev)})
	} else {
		o = append(o, field{name: "st_size", v: num(int64(u("st_size")))})
	}
	o = append(o,
		field{name: "st_blocks", v: num(int64(u("st_blocks"))), only: jsonOnly},
		field{name: "st_mtime", v: num(int64(u("st_mtime"))), only: jsonOnly},
		field{name: "st_mtime_nsec", v: num(u("st_mtime_nsec")), only: jsonOnly},
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
	st := systable.StructOf("struct statx")
	if len(b) < st.Size {
		return nil
	}
	u := func(name string) uint64 { return st.Field(name).Uint(b) }
	mode := formatMode(u("stx_mode"))
	return object{
		{name: "stx_mask", v: lit{hex(u("stx_mask")), uint32(u("stx_mask"))}, only: jsonOnly},
		{name: "stx_mode", v: lit{mode, mode}},
		{name: "stx_size", v: num(u("stx_size"))},
		{name: "stx_nlink", v: num(uint32(u("stx_nlink"))), only: jsonOnly},
		{name: "stx_uid", v: num(uint32(u("stx_uid"))), only: jsonOnly},
		{name: "stx_gid", v: num(uint32(u("stx_gid"))), only: jsonOnly},
		{name: "stx_ino", v: num(u("stx_ino")), only: jsonOnly},
		{name: "stx_mtime", v: num(int64(u("stx_mtime"))), only: jsonOnly},
		etc,
	}
}

// timespec decodes struct timespec or struct timeval (frac names the
// second member).
func timespec(b []byte, frac string) value {
	ts := systable.StructOf("struct timespec") // struct timeval has the same layout
	if len(b) < ts.Size {
		return nil
	}
	return object{
		{name: "tv_sec", v: num(ts.Field("tv_sec").Int(b))},
		{name: frac, v: num(ts.Fields[1].Int(b))},
	}
}

// rlimit decodes struct rlimit and struct rlimit64.
func rlimit(b []byte) value {
	st := systable.StructOf("struct rlimit")
	if len(b) < st.Size {
		return nil
	}
	lim := func(v uint64) lit {
		if v == ^uint64(0) {
			return lit{"RLIM64_INFINITY", v}
		}
		return num(v)
	}
	return object{
		{name: "rlim_cur", v: lim(st.Field("rlim_cur").Uint(b))},
		{name: "rlim_max", v: lim(st.Field("rlim_max").Uint(b))},
	}
}

// utsname decodes struct new_utsname: six 65-byte strings.
func utsname(b []byte) value {
	st := systable.StructOf("struct new_utsname")
	if len(b) < st.Size {
		return nil
	}
	s := func(i int) value { f := st.Fields[i]; return str{b: cstring(b[f.Off : f.Off+f.Size]), cut: true} }
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
	ents, ok := systable.Dirents(b, true)
	if !ok {
		return nil
	}
	var l list
	for _, e := range ents {
		tname, ok := direntTypes[e.Type]
		if !ok {
			tname = strconv.Itoa(int(e.Type))
		}
		l = append(l, object{
			{name: "d_ino", v: num(e.Ino)},
			{name: "d_off", v: num(e.Off), only: jsonOnly},
			{name: "d_reclen", v: num(e.Reclen), only: jsonOnly},
			{name: "d_type", v: lit{tname, tname}},
			{name: "d_name", v: str{b: cstring(e.Name)}},
		})
	}
	if l == nil {
		return list{}
	}
	return l
}

// sockaddr decodes a socket address: AF_INET, AF_INET6, AF_UNIX and
// AF_NETLINK by their members, other families as their raw sa_data.
func (d *decoder) sockaddr(b []byte) value {
	sa, ok := systable.DecodeSockaddr(b)
	if !ok {
		return nil
	}
	fname, ok := addressFamilies[sa.Family]
	if !ok {
		fname = strconv.Itoa(int(sa.Family))
	}
	o := object{{name: "sa_family", v: lit{fname, fname}}}
	port := func(v uint16) lit { return lit{fmt.Sprintf("htons(%d)", v), v} }
	switch {
	case sa.Family == systable.AFInet && sa.IP.IsValid():
		a := sa.IP.Addr().String()
		return append(o,
			field{name: "sin_port", v: port(sa.IP.Port())},
			field{name: "sin_addr", v: lit{`inet_addr("` + a + `")`, a}})
	case sa.Family == systable.AFInet6 && sa.IP.IsValid():
		a := sa.IP.Addr().String()
		o = append(o,
			field{name: "sin6_port", v: port(sa.IP.Port())},
			field{name: "sin6_flowinfo", v: lit{fmt.Sprintf("htonl(%d)", sa.FlowInfo), sa.FlowInfo}},
			field{name: "sin6_addr", v: lit{`inet_pton(AF_INET6, "` + a + `", &sin6_addr)`, a}, bare: true})
		if sa.HasScope {
			o = append(o, field{name: "sin6_scope_id", v: num(sa.ScopeID)})
		}
		return o
	case sa.Family == systable.AFUnix:
		p := sa.Data
		switch {
		case len(p) == 0:
			return o
		case p[0] == 0: // abstract: the name is every byte after the NUL
			return append(o, field{name: "sun_path", v: lit{"@" + Quote(p[1:], 0), "@" + string(p[1:])}})
		}
		return append(o, field{name: "sun_path", v: str{b: cstring(p)}})
	case sa.IsNetlink:
		g := sa.NetlinkGroups
		return append(o,
			field{name: "nl_pid", v: num(sa.NetlinkPID)},
			field{name: "nl_groups", v: lit{fmt.Sprintf("%08x", g), g}})
	case sa.Family == 0:
		return o
	}
	return append(o, field{name: "sa_data", v: str{b: sa.Data}})
}
