package align

import (
	"encoding/binary"
	"fmt"
	"net/netip"
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

// layout holds the offsets of the structs whose layout depends on the
// traced architecture.
type layout struct {
	statSize                                   int
	dev, ino, mode, nlink, nlinkSize, uid, gid int
	rdev, size, blksize, blocks, atime, mtime  int
	ctime                                      int
}

// layoutOf returns the layout of arch, or nil when it is not known.
func layoutOf(arch string) *layout {
	sl, ok := systable.StatLayoutOf(arch)
	if !ok {
		return nil
	}
	return &layout{statSize: sl.Size, dev: sl.Dev, ino: sl.Ino, mode: sl.Mode, nlink: sl.Nlink,
		nlinkSize: sl.NlinkSize, uid: sl.UID, gid: sl.GID, rdev: sl.Rdev, size: sl.FileSize,
		blksize: sl.Blksize, blocks: sl.Blocks, atime: sl.Atime, mtime: sl.Mtime, ctime: sl.Ctime}
}

// decoders are the structs compared field by field, by C type name
// without "struct " and without an array suffix. Types not listed are
// compared byte by byte.
var decoders = map[string]decoder{
	"stat":              statFields,
	"statx":             statxFields,
	"statfs":            statfsFields,
	"sockaddr":          sockaddrFields,
	"sigaction":         sigactionFields,
	"stack_t":           stackFields,
	"pollfd":            arrayOf(8, pollfdFields),
	"epoll_event":       arrayOf(12, epollFields),
	"int[2]":            fdPairFields,
	"siginfo_t":         siginfoFields,
	"new_utsname":       utsnameFields,
	"rlimit":            rlimitFields,
	"timespec":          timeFields,
	"__kernel_timespec": timeFields,
	"timeval":           timeFields,
	"timezone":          timeFields,
	"time_t":            timeFields,
	"itimerspec":        timeFields,
	"itimerval":         timeFields,
	"rusage":            timeFields,
	"tms":               timeFields,
	"sysinfo":           timeFields,
	"timex":             timeFields,
	"int":               intFields,
	"unsigned int":      uintFields,
	"socklen_t":         uintFields,
	"uid_t":             uintFields,
	"gid_t":             uintFields,
	"long":              longFields,
	"loff_t":            longFields,
	"off_t":             longFields,
	"size_t":            longFields,
	"unsigned long":     longFields,
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
	n := strings.TrimPrefix(strings.TrimSpace(st), "struct ")
	if d, ok := decoders[n]; ok {
		return d
	}
	if i := strings.IndexByte(n, '['); i > 0 {
		return decoders[strings.TrimSpace(n[:i])]
	}
	return nil
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
	if l == nil || len(b) < l.statSize {
		return nil
	}
	nlink := uint64(le.Uint32(b[l.nlink:]))
	if l.nlinkSize == 8 {
		nlink = le.Uint64(b[l.nlink:])
	}
	return []field{
		{name: "st_mode", val: modeString(le.Uint32(b[l.mode:]))},
		{name: "st_size", val: strconv.FormatInt(int64(le.Uint64(b[l.size:])), 10)},
		{name: "st_uid", val: strconv.FormatUint(uint64(le.Uint32(b[l.uid:])), 10)},
		{name: "st_gid", val: strconv.FormatUint(uint64(le.Uint32(b[l.gid:])), 10)},
		{name: "st_nlink", val: strconv.FormatUint(nlink, 10)},
		hexField("st_rdev", le.Uint64(b[l.rdev:]), plain),
		hexField("st_dev", le.Uint64(b[l.dev:]), volatile),
		u64("st_ino", b, l.ino, volatile),
		u64("st_blksize", b, l.blksize, volatile),
		u64("st_blocks", b, l.blocks, volatile),
		u64("st_atime", b, l.atime, volatile),
		u64("st_mtime", b, l.mtime, volatile),
		u64("st_ctime", b, l.ctime, volatile),
	}
}

// statxFields decodes struct statx (the same on every architecture).
func statxFields(_ *layout, b []byte) []field {
	if len(b) < 0x100 {
		return nil
	}
	return []field{
		{name: "stx_mode", val: modeString(uint32(le.Uint16(b[28:])))},
		u64("stx_size", b, 40, plain),
		u32("stx_uid", b, 20, plain),
		u32("stx_gid", b, 24, plain),
		u32("stx_nlink", b, 16, plain),
		{name: "stx_rdev", val: fmt.Sprintf("%d:%d", le.Uint32(b[128:]), le.Uint32(b[132:]))},
		hexField("stx_attributes", le.Uint64(b[8:]), plain),
		hexField("stx_mask", uint64(le.Uint32(b[0:])), volatile),
		u32("stx_blksize", b, 4, volatile),
		u64("stx_ino", b, 32, volatile),
		u64("stx_blocks", b, 48, volatile),
		u64("stx_atime", b, 64, volatile),
		u64("stx_btime", b, 80, volatile),
		u64("stx_ctime", b, 96, volatile),
		u64("stx_mtime", b, 112, volatile),
		{name: "stx_dev", val: fmt.Sprintf("%d:%d", le.Uint32(b[136:]), le.Uint32(b[140:])), kind: volatile},
		u64("stx_mnt_id", b, 144, volatile),
	}
}

// statfsFields decodes struct statfs of x86-64 and arm64: the kind of
// file system is compared, its free space is not.
func statfsFields(_ *layout, b []byte) []field {
	if len(b) < 88 {
		return nil
	}
	return []field{
		hexField("f_type", le.Uint64(b[0:]), plain),
		u64("f_bsize", b, 8, plain),
		u64("f_namelen", b, 64, plain),
		hexField("f_flags", le.Uint64(b[80:]), plain),
		u64("f_blocks", b, 16, volatile),
		u64("f_bfree", b, 24, volatile),
		u64("f_bavail", b, 32, volatile),
		u64("f_files", b, 40, volatile),
		u64("f_ffree", b, 48, volatile),
		hexField("f_fsid", le.Uint64(b[56:]), volatile),
		u64("f_frsize", b, 72, volatile),
	}
}

// sockaddrFields decodes a socket address: family, address and, for
// unix sockets, the path. Ports are volatile: an address a call reports
// back (accept's peer, getsockname after binding port 0) carries a port
// the kernel picked.
func sockaddrFields(_ *layout, b []byte) []field {
	if len(b) < 2 {
		return nil
	}
	fam := le.Uint16(b)
	out := []field{{name: "sa_family", val: strconv.Itoa(int(fam))}}
	switch {
	case fam == 1: // AF_UNIX
		p := b[2:]
		if i := strings.IndexByte(string(p), 0); i > 0 {
			p = p[:i]
		}
		out = append(out, field{name: "sun_path", val: strconv.Quote(string(p))})
	case fam == 2 && len(b) >= 8: // AF_INET
		out = append(out,
			field{name: "sin_addr", val: netip.AddrFrom4([4]byte(b[4:8])).String()},
			field{name: "sin_port", val: strconv.Itoa(int(binary.BigEndian.Uint16(b[2:]))), kind: volatile})
	case fam == 10 && len(b) >= 24: // AF_INET6
		out = append(out,
			field{name: "sin6_addr", val: netip.AddrFrom16([16]byte(b[8:24])).String()},
			field{name: "sin6_port", val: strconv.Itoa(int(binary.BigEndian.Uint16(b[2:]))), kind: volatile})
	default:
		out = append(out, field{name: "sa_data", val: fmt.Sprintf("%x", b[2:])})
	}
	return out
}

// sigactionFields decodes the kernel's struct sigaction. A handler is an
// address: only whether it is SIG_DFL, SIG_IGN or a function is compared.
func sigactionFields(_ *layout, b []byte) []field {
	if len(b) < 32 {
		return nil
	}
	h := le.Uint64(b)
	handler := "function"
	switch h {
	case 0:
		handler = "SIG_DFL"
	case 1:
		handler = "SIG_IGN"
	}
	return []field{
		{name: "sa_handler", val: handler},
		hexField("sa_flags", le.Uint64(b[8:]), plain),
		hexField("sa_mask", le.Uint64(b[24:]), plain),
		hexField("sa_handler_addr", h, volatile),
		hexField("sa_restorer", le.Uint64(b[16:]), volatile),
	}
}

func stackFields(_ *layout, b []byte) []field {
	if len(b) < 24 {
		return nil
	}
	return []field{
		u32("ss_flags", b, 8, plain),
		hexField("ss_sp", le.Uint64(b), volatile),
		u64("ss_size", b, 16, volatile),
	}
}

// arrayOf decodes an array of fixed-size elements, naming each field
// with its index.
func arrayOf(size int, elem decoder) decoder {
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
	return []field{
		hexField("events", uint64(le.Uint16(b[4:])), plain),
		hexField("revents", uint64(le.Uint16(b[6:])), plain),
		u32("fd", b, 0, volatile),
	}
}

// epollFields: the data member is the program's own cookie (often a
// pointer or an fd number).
func epollFields(_ *layout, b []byte) []field {
	return []field{
		hexField("events", uint64(le.Uint32(b)), plain),
		hexField("data", le.Uint64(b[4:]), volatile),
	}
}

// fdPairFields: the two fds of pipe and socketpair.
func fdPairFields(_ *layout, b []byte) []field {
	if len(b) < 8 {
		return nil
	}
	return []field{u32("fd[0]", b, 0, volatile), u32("fd[1]", b, 4, volatile)}
}

// siginfoFields decodes the members of siginfo_t that say what happened;
// for SIGCHLD the child's pid and status.
func siginfoFields(_ *layout, b []byte) []field {
	if len(b) < 48 {
		return nil
	}
	signo := int32(le.Uint32(b))
	out := []field{
		{name: "si_signo", val: strconv.Itoa(int(signo))},
		{name: "si_errno", val: strconv.Itoa(int(int32(le.Uint32(b[4:]))))},
		{name: "si_code", val: strconv.Itoa(int(int32(le.Uint32(b[8:]))))},
	}
	if signo == 17 { // SIGCHLD
		out = append(out,
			field{name: "si_pid", kind: pidField, pid: int64(int32(le.Uint32(b[16:]))), val: strconv.Itoa(int(int32(le.Uint32(b[16:]))))},
			field{name: "si_status", val: strconv.Itoa(int(int32(le.Uint32(b[24:]))))},
			u64("si_utime", b, 32, volatile),
			u64("si_stime", b, 40, volatile))
	}
	return out
}

func utsnameFields(_ *layout, b []byte) []field {
	if len(b) < 6*65 {
		return nil
	}
	names := []string{"sysname", "nodename", "release", "version", "machine", "domainname"}
	out := make([]field, len(names))
	for i, n := range names {
		s := b[i*65 : (i+1)*65]
		if j := strings.IndexByte(string(s), 0); j >= 0 {
			s = s[:j]
		}
		out[i] = field{name: n, val: strconv.Quote(string(s))}
	}
	return out
}

func rlimitFields(_ *layout, b []byte) []field {
	if len(b) < 16 {
		return nil
	}
	lim := func(v uint64) string {
		if v == ^uint64(0) {
			return "RLIM64_INFINITY"
		}
		return strconv.FormatUint(v, 10)
	}
	return []field{{name: "rlim_cur", val: lim(le.Uint64(b))}, {name: "rlim_max", val: lim(le.Uint64(b[8:]))}}
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
	for len(b) > 0 {
		if len(b) < 19 {
			return nil, false
		}
		reclen := int(le.Uint16(b[16:]))
		if reclen < 19 || reclen > len(b) {
			return nil, false
		}
		var name []byte
		var typ byte
		if d64 {
			typ, name = b[18], b[19:reclen]
		} else {
			typ, name = b[reclen-1], b[18:reclen-1]
		}
		if i := strings.IndexByte(string(name), 0); i >= 0 {
			name = name[:i]
		}
		n := string(name)
		if typ == 4 { // DT_DIR
			n += "/"
		}
		names = append(names, n)
		b = b[reclen:]
	}
	return names, true
}
