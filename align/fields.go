package align

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/systable"
)

var le = binary.LittleEndian

// fieldKind says how a decoded field is compared.
type fieldKind uint8

const (
	plain    fieldKind = iota // compared as text
	volatile                  // differs between any two runs; compared only with AllFields
	pidField                  // a kernel pid or tid, compared through the process match
)

// field is one decoded field of a struct.
type field struct {
	name string
	val  string
	kind fieldKind
	pid  int64 // for pidField
}

// decoder turns the bytes of one struct (or array of structs) into
// fields; nil when the bytes do not fit.
type decoder func(l *layout, b []byte) []field

// layout holds the structs whose layout depends on the traced
// architecture, from the syscall table.
type layout struct {
	stat systable.Struct
}

// layoutOf returns the layout of arch, or nil when it is not known.
func layoutOf(arch string) *layout {
	st, ok := systable.StatStruct(arch)
	if !ok {
		return nil
	}
	return &layout{stat: st}
}

// decoders are the structs compared field by field, by their kind in the
// syscall table's struct layouts. Types not listed are compared byte by
// byte.
var decoders = map[systable.StructKind]decoder{
	systable.StructStat:       statFields,
	systable.StructStatx:      statxFields,
	systable.StructStatfs:     statfsFields,
	systable.StructSockaddr:   sockaddrFields,
	systable.StructSigaction:  sigactionFields,
	systable.StructStack:      stackFields,
	systable.StructPollfd:     arrayOf(systable.StructOf("struct pollfd"), pollfdFields),
	systable.StructEpollEvent: arrayOf(systable.StructOf("struct epoll_event"), epollFields),
	systable.StructFDPair:     fdPairFields,
	systable.StructSiginfo:    siginfoFields,
	systable.StructUtsname:    utsnameFields,
	systable.StructRlimit:     rlimitFields,
	systable.StructTimespec:   timeFields,
	systable.StructTimeval:    timeFields,
	systable.StructItimerspec: timeFields,
	systable.StructItimerval:  timeFields,
	systable.StructTimes:      timeFields,
	systable.StructInt:        intFields,
	systable.StructUint:       uintFields,
	systable.StructLong:       longFields,
}

// valueField is the name of the one field of a plain integer; the text
// output prints such a field without its name.
const valueField = ""

func intFields(_ *layout, b []byte) []field {
	if len(b) != 4 {
		return nil
	}
	return []field{{name: valueField, val: strconv.Itoa(int(int32(le.Uint32(b))))}}
}

func uintFields(_ *layout, b []byte) []field {
	if len(b) != 4 {
		return nil
	}
	return []field{{name: valueField, val: strconv.FormatUint(uint64(le.Uint32(b)), 10)}}
}

func longFields(_ *layout, b []byte) []field {
	if len(b) != 8 {
		return nil
	}
	return []field{{name: valueField, val: strconv.FormatInt(int64(le.Uint64(b)), 10)}}
}

// wstatusFields decodes the status wait4 stores: how a child ended.
func wstatusFields(_ *layout, b []byte) []field {
	if len(b) != 4 {
		return nil
	}
	st := le.Uint32(b)
	var v string
	switch sig := st & 0x7f; {
	case sig == 0:
		v = "exited with " + strconv.Itoa(int(st>>8&0xff))
	case sig == 0x7f:
		v = "stopped by signal " + strconv.Itoa(int(st>>8&0xff))
	default:
		v = "killed by signal " + strconv.Itoa(int(sig))
		if st&0x80 != 0 {
			v += " (core dumped)"
		}
	}
	return []field{{name: valueField, val: v}}
}

// decoderFor returns the decoder of a C type name as the syscall table
// writes it ("struct stat", "struct pollfd[]", "int[2]").
func decoderFor(st string) decoder {
	if st == "" {
		return nil
	}
	t := systable.StructOf(st)
	if d := decoders[t.Is]; d != nil {
		return d
	}
	if t.Is == systable.StructPlain && len(t.Fields) > 0 {
		return plainFields(t)
	}
	return nil
}

// plainFields decodes a struct of the table with no decoder of its own
// field by field, as the layout says (a pid field compares as a pid).
func plainFields(st systable.Struct) decoder {
	return func(_ *layout, b []byte) []field {
		if len(b) < st.Size {
			return nil
		}
		out := make([]field, 0, len(st.Fields))
		for _, f := range st.Fields {
			if f.Kind == systable.FieldPID {
				pid := f.Int(b)
				out = append(out, field{name: f.Name, kind: pidField, pid: pid, val: strconv.FormatInt(pid, 10)})
				continue
			}
			out = append(out, tf(&st, f.Name, b))
		}
		return out
	}
}

// kindOf is how a field of the table's layouts is compared.
func kindOf(f systable.Field) fieldKind {
	switch {
	case f.Volatile:
		return volatile
	case f.Kind == systable.FieldPID:
		return pidField
	}
	return plain
}

// tf decodes field name of st from b as a decimal (FieldInt: signed) or
// hex (FieldHex) number, compared as the table says.
func tf(st *systable.Struct, name string, b []byte) field {
	f := st.Field(name)
	k := kindOf(f)
	switch f.Kind {
	case systable.FieldHex:
		return hexField(f.Name, f.Uint(b), k)
	case systable.FieldInt:
		return field{name: f.Name, val: strconv.FormatInt(f.Int(b), 10), kind: k}
	}
	return field{name: f.Name, val: strconv.FormatUint(f.Uint(b), 10), kind: k}
}

func u64(name string, b []byte, off int, k fieldKind) field {
	return field{name: name, val: strconv.FormatUint(le.Uint64(b[off:]), 10), kind: k}
}

func u32(name string, b []byte, off int, k fieldKind) field {
	return field{name: name, val: strconv.FormatUint(uint64(le.Uint32(b[off:])), 10), kind: k}
}

func hexField(name string, v uint64, k fieldKind) field {
	return field{name: name, val: "0x" + strconv.FormatUint(v, 16), kind: k}
}

func statFields(l *layout, b []byte) []field {
	if l == nil || len(b) < l.stat.Size {
		return nil
	}
	st := &l.stat
	return []field{
		{name: "st_mode", val: modeString(uint32(st.Field("st_mode").Uint(b)))},
		tf(st, "st_size", b),
		tf(st, "st_uid", b),
		tf(st, "st_gid", b),
		tf(st, "st_nlink", b),
		tf(st, "st_rdev", b),
		tf(st, "st_dev", b),
		tf(st, "st_ino", b),
		tf(st, "st_blksize", b),
		tf(st, "st_blocks", b),
		tf(st, "st_atime", b),
		tf(st, "st_mtime", b),
		tf(st, "st_ctime", b),
	}
}

// statxFields decodes struct statx (the same on every architecture).
func statxFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct statx")
	if len(b) < st.Size {
		return nil
	}
	dev := func(name, major, minor string, k fieldKind) field {
		return field{name: name, val: fmt.Sprintf("%d:%d", st.Field(major).Uint(b), st.Field(minor).Uint(b)), kind: k}
	}
	return []field{
		{name: "stx_mode", val: modeString(uint32(st.Field("stx_mode").Uint(b)))},
		tf(&st, "stx_size", b),
		tf(&st, "stx_uid", b),
		tf(&st, "stx_gid", b),
		tf(&st, "stx_nlink", b),
		dev("stx_rdev", "stx_rdev_major", "stx_rdev_minor", plain),
		tf(&st, "stx_attributes", b),
		tf(&st, "stx_mask", b),
		tf(&st, "stx_blksize", b),
		tf(&st, "stx_ino", b),
		tf(&st, "stx_blocks", b),
		tf(&st, "stx_atime", b),
		tf(&st, "stx_btime", b),
		tf(&st, "stx_ctime", b),
		tf(&st, "stx_mtime", b),
		dev("stx_dev", "stx_dev_major", "stx_dev_minor", volatile),
		tf(&st, "stx_mnt_id", b),
	}
}

// statfsFields decodes struct statfs of x86-64 and arm64: the kind of
// file system is compared, its free space is not.
func statfsFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct statfs")
	if len(b) < 88 {
		return nil
	}
	var out []field
	for _, n := range []string{"f_type", "f_bsize", "f_namelen", "f_flags", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree", "f_fsid", "f_frsize"} {
		out = append(out, tf(&st, n, b))
	}
	return out
}

// sockaddrFields decodes a socket address: family, address and, for
// unix sockets, the path. Ports are volatile: an address a call reports
// back (accept's peer, getsockname after binding port 0) carries a port
// the kernel picked.
func sockaddrFields(_ *layout, b []byte) []field {
	sa, ok := systable.DecodeSockaddr(b)
	if !ok {
		return nil
	}
	out := []field{{name: "sa_family", val: strconv.Itoa(int(sa.Family))}}
	switch {
	case sa.Family == systable.AFUnix:
		p := sa.Data
		if i := strings.IndexByte(string(p), 0); i > 0 {
			p = p[:i]
		}
		out = append(out, field{name: "sun_path", val: strconv.Quote(string(p))})
	case sa.Family == systable.AFInet && sa.IP.IsValid():
		out = append(out,
			field{name: "sin_addr", val: sa.IP.Addr().String()},
			field{name: "sin_port", val: strconv.Itoa(int(sa.IP.Port())), kind: volatile})
	case sa.Family == systable.AFInet6 && sa.IP.IsValid():
		out = append(out,
			field{name: "sin6_addr", val: sa.IP.Addr().String()},
			field{name: "sin6_port", val: strconv.Itoa(int(sa.IP.Port())), kind: volatile})
	case sa.IsNetlink:
		// The port id is the process's pid, or one the kernel picked.
		out = append(out,
			field{name: "nl_pid", val: strconv.Itoa(int(sa.NetlinkPID)), kind: volatile},
			field{name: "nl_groups", val: strconv.FormatUint(uint64(sa.NetlinkGroups), 10)})
	default:
		out = append(out, field{name: "sa_data", val: fmt.Sprintf("%x", sa.Data)})
	}
	return out
}

// sigactionFields decodes the kernel's struct sigaction. A handler is an
// address: only whether it is SIG_DFL, SIG_IGN or a function is compared.
func sigactionFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct sigaction")
	if len(b) < st.Size {
		return nil
	}
	h := st.Field("sa_handler").Uint(b)
	handler := "function"
	switch h {
	case 0:
		handler = "SIG_DFL"
	case 1:
		handler = "SIG_IGN"
	}
	return []field{
		{name: "sa_handler", val: handler},
		tf(&st, "sa_flags", b),
		tf(&st, "sa_mask", b),
		hexField("sa_handler_addr", h, volatile),
		tf(&st, "sa_restorer", b),
	}
}

func stackFields(_ *layout, b []byte) []field {
	st := systable.StructOf("stack_t")
	if len(b) < st.Size {
		return nil
	}
	return []field{tf(&st, "ss_flags", b), tf(&st, "ss_sp", b), tf(&st, "ss_size", b)}
}

// arrayOf decodes an array of fixed-size elements, naming each field
// with its index.
func arrayOf(st systable.Struct, elem decoder) decoder {
	size := st.Size
	return func(l *layout, b []byte) []field {
		if len(b)%size != 0 {
			return nil
		}
		var out []field
		for i := 0; i+size <= len(b); i += size {
			for _, f := range elem(l, b[i:i+size]) {
				f.name = fmt.Sprintf("[%d].%s", i/size, f.name)
				out = append(out, f)
			}
		}
		return out
	}
}

// pollfdFields: the fd is a number, compared through the calls that use
// it, not as a value.
func pollfdFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct pollfd")
	return []field{tf(&st, "events", b), tf(&st, "revents", b), tf(&st, "fd", b)}
}

// epollFields: the data member is the program's own cookie (often a
// pointer or an fd number).
func epollFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct epoll_event")
	return []field{tf(&st, "events", b), tf(&st, "data", b)}
}

// fdPairFields: the two fds of pipe and socketpair.
func fdPairFields(_ *layout, b []byte) []field {
	st := systable.StructOf("int[2]")
	if len(b) < st.Size {
		return nil
	}
	return []field{tf(&st, "fd[0]", b), tf(&st, "fd[1]", b)}
}

// siginfoFields decodes the members of siginfo_t that say what happened;
// for SIGCHLD the child's pid and status.
func siginfoFields(_ *layout, b []byte) []field {
	st := systable.StructOf("siginfo_t")
	if len(b) < 48 {
		return nil
	}
	signo := st.Field("si_signo").Int(b)
	out := []field{tf(&st, "si_signo", b), tf(&st, "si_errno", b), tf(&st, "si_code", b)}
	if signo == 17 { // SIGCHLD
		pid := st.Field("si_pid").Int(b)
		out = append(out,
			field{name: "si_pid", kind: pidField, pid: pid, val: strconv.Itoa(int(pid))},
			tf(&st, "si_status", b),
			tf(&st, "si_utime", b),
			tf(&st, "si_stime", b))
	}
	return out
}

func utsnameFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct new_utsname")
	if len(b) < st.Size {
		return nil
	}
	out := make([]field, len(st.Fields))
	for i, f := range st.Fields {
		s := b[f.Off : f.Off+f.Size]
		if j := strings.IndexByte(string(s), 0); j >= 0 {
			s = s[:j]
		}
		out[i] = field{name: f.Name, val: strconv.Quote(string(s))}
	}
	return out
}

func rlimitFields(_ *layout, b []byte) []field {
	st := systable.StructOf("struct rlimit")
	if len(b) < st.Size {
		return nil
	}
	lim := func(v uint64) string {
		if v == ^uint64(0) {
			return "RLIM64_INFINITY"
		}
		return strconv.FormatUint(v, 10)
	}
	return []field{{name: "rlim_cur", val: lim(st.Field("rlim_cur").Uint(b))}, {name: "rlim_max", val: lim(st.Field("rlim_max").Uint(b))}}
}

// timeFields: structs of times, compared only with AllFields.
func timeFields(_ *layout, b []byte) []field {
	return []field{{name: "time", val: fmt.Sprintf("%x", b), kind: volatile}}
}

// modeString prints a file mode as its type and permission bits:
// "S_IFREG|0644".
func modeString(m uint32) string {
	types := map[uint32]string{
		0o140000: "S_IFSOCK", 0o120000: "S_IFLNK", 0o100000: "S_IFREG", 0o060000: "S_IFBLK",
		0o040000: "S_IFDIR", 0o020000: "S_IFCHR", 0o010000: "S_IFIFO",
	}
	perm := "0" + strconv.FormatUint(uint64(m&0o7777), 8)
	if t, ok := types[m&0o170000]; ok {
		return t + "|" + perm
	}
	if m&0o170000 != 0 {
		return "0" + strconv.FormatUint(uint64(m), 8)
	}
	return perm
}

// dirEntries decodes the records getdents64 (d64) or getdents fills in:
// "name" with the entry's type, "name/" for directories. Inode numbers
// and offsets (hash cookies) are left out. ok is false when the bytes do
// not parse.
func dirEntries(b []byte, d64 bool) (names []string, ok bool) {
	ents, ok := systable.Dirents(b, d64)
	if !ok {
		return nil, false
	}
	for _, e := range ents {
		name := e.Name
		if i := strings.IndexByte(string(name), 0); i >= 0 {
			name = name[:i]
		}
		n := string(name)
		if e.Type == systable.DirentDT {
			n += "/"
		}
		names = append(names, n)
	}
	return names, true
}
