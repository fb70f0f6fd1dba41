package systable

import (
	"bytes"
	"strings"
)

// Struct layouts: one table of the C types behind buffer arguments, with
// their size and fields (offset, size, kind, volatility), that show,
// diff and the dependency tracker all decode from. Layouts that differ
// between architectures (struct stat) are per architecture and chosen
// by the trace's, not by the one this binary runs on.

// StructKind says what a C type is for the stages that treat it
// specially; StructPlain for the rest.
type StructKind uint8

const (
	StructPlain      StructKind = iota
	StructStat                  // struct stat: per architecture, see StatStruct
	StructStatx                 // struct statx
	StructStatfs                // struct statfs
	StructSockaddr              // a socket address of any family, see DecodeSockaddr
	StructDirent64              // records of getdents64, see Dirents
	StructDirent                // records of getdents, see Dirents
	StructFdSet                 // a bitmap of fds (select)
	StructPollfd                // struct pollfd (an array of them)
	StructFDPair                // int[2]: the two fds of pipe and socketpair
	StructOpenHow               // struct open_how of openat2
	StructEpollEvent            // struct epoll_event
	StructSigaction             // the kernel's struct sigaction
	StructStack                 // stack_t
	StructSiginfo               // siginfo_t
	StructRlimit                // struct rlimit, rlimit64
	StructUtsname               // struct new_utsname
	StructTimespec              // struct timespec, __kernel_timespec
	StructTimeval               // struct timeval
	StructItimerspec            // struct itimerspec: two timespecs
	StructItimerval             // struct itimerval: two timevals
	StructTimes                 // other structs of times (rusage, tms, timex, ...): volatile as a whole
	StructInt                   // a C int
	StructUint                  // a 32-bit unsigned integer (unsigned int, socklen_t, uid_t, gid_t)
	StructPidT                  // pid_t
	StructLong                  // a 64-bit integer (long, unsigned long, off_t, loff_t, size_t)
)

// IsTime reports whether the kind holds times only.
func (k StructKind) IsTime() bool {
	switch k {
	case StructTimespec, StructTimeval, StructItimerspec, StructItimerval, StructTimes:
		return true
	}
	return false
}

// FieldKind says how a field's bytes are read and printed.
type FieldKind uint8

const (
	FieldUint   FieldKind = iota + 1 // unsigned little-endian integer
	FieldInt                         // signed little-endian integer
	FieldHex                         // an integer best printed in hex (masks, flags, addresses, device numbers)
	FieldMode                        // file type and permission bits
	FieldFD                          // an fd number
	FieldPID                         // a pid
	FieldPort                        // a big-endian port
	FieldString                      // a NUL-padded string of Size bytes
)

// Field is one member of a struct.
type Field struct {
	Name string
	Off  int
	Size int // in bytes: 2, 4 or 8 for integers
	Kind FieldKind
	// Volatile: the value differs between any two runs by nature (an
	// inode number, a time, an address); comparisons leave it out.
	Volatile bool
	// Judged: volatile, yet programs decide by it: a file's modification
	// time, which make, test -nt and find -newer compare. A report of how
	// a struct differs names it beside the stable members.
	Judged bool
	// Epoch: the value is seconds since the Unix epoch, printed as a date
	// in reports.
	Epoch bool
}

// Struct is the layout of one C type.
type Struct struct {
	Name   string // without "struct " and without an array suffix
	Is     StructKind
	Size   int // 0 when records vary in size or the layout is per architecture
	Fields []Field
}

// Field returns the field called name. It panics when there is none:
// field names are constants of the caller's code.
func (s *Struct) Field(name string) Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	panic("systable: struct " + s.Name + " has no field " + name)
}

// Uint reads field f of b as an unsigned integer of f.Size bytes.
func (f Field) Uint(b []byte) uint64 {
	switch f.Size {
	case 2:
		return uint64(le.Uint16(b[f.Off:]))
	case 4:
		return uint64(le.Uint32(b[f.Off:]))
	case 8:
		return le.Uint64(b[f.Off:])
	}
	return 0
}

// Int reads field f of b as a signed integer of f.Size bytes.
func (f Field) Int(b []byte) int64 {
	switch f.Size {
	case 2:
		return int64(int16(le.Uint16(b[f.Off:])))
	case 4:
		return int64(int32(le.Uint32(b[f.Off:])))
	}
	return int64(f.Uint(b))
}

// Str reads field f of b as a NUL-padded string of f.Size bytes
// (FieldString): the bytes before the first NUL.
func (f Field) Str(b []byte) string {
	v := b[f.Off : f.Off+f.Size]
	if i := bytes.IndexByte(v, 0); i >= 0 {
		v = v[:i]
	}
	return string(v)
}

// StructName returns a C type name as the table's rows write it ("struct
// stat", "struct pollfd[]", "int[2]") without "struct " and, for arrays
// of unspecified length, without the brackets; array reports whether
// there was an array suffix. "int[2]" keeps its length: it is one type.
func StructName(ctype string) (name string, array bool) {
	n := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ctype), "struct "))
	if _, ok := structsByName[n]; ok {
		return n, false
	}
	if i := strings.IndexByte(n, '['); i > 0 {
		return strings.TrimSpace(n[:i]), true
	}
	return n, false
}

// StructOf returns the layout of a C type as the rows write it; a Struct
// of kind StructPlain and no fields for types the table does not lay
// out. For struct stat it returns only its kind: see StatStruct.
func StructOf(ctype string) Struct {
	n, _ := StructName(ctype)
	if s, ok := structsByName[n]; ok {
		return s
	}
	if strings.HasPrefix(n, "sockaddr") {
		return Struct{Name: n, Is: StructSockaddr}
	}
	return Struct{Name: n}
}

// StatStruct returns struct stat's layout on arch, as stat, fstat, lstat
// and newfstatat fill it. It covers every architecture a trace can come
// from, whichever this binary runs on.
func StatStruct(arch string) (Struct, bool) {
	t := func(name string, off int) Field {
		return Field{Name: name, Off: off, Size: 8, Kind: FieldInt, Volatile: true}
	}
	sec := func(name string, off int) Field { f := t(name, off); f.Epoch = true; return f }
	judged := func(f Field) Field { f.Judged = true; return f }
	common := func(size, mode, nlink, nlinkSize, uid, gid, rdev int) Struct {
		return Struct{Name: "stat", Is: StructStat, Size: size, Fields: []Field{
			{Name: "st_dev", Off: 0, Size: 8, Kind: FieldHex, Volatile: true},
			{Name: "st_ino", Off: 8, Size: 8, Kind: FieldUint, Volatile: true},
			{Name: "st_mode", Off: mode, Size: 4, Kind: FieldMode},
			{Name: "st_nlink", Off: nlink, Size: nlinkSize, Kind: FieldUint},
			{Name: "st_uid", Off: uid, Size: 4, Kind: FieldUint},
			{Name: "st_gid", Off: gid, Size: 4, Kind: FieldUint},
			{Name: "st_rdev", Off: rdev, Size: 8, Kind: FieldHex},
			{Name: "st_size", Off: 48, Size: 8, Kind: FieldInt},
			{Name: "st_blksize", Off: 56, Size: 8, Kind: FieldUint, Volatile: true},
			{Name: "st_blocks", Off: 64, Size: 8, Kind: FieldInt, Volatile: true},
			sec("st_atime", 72), t("st_atime_nsec", 80),
			judged(sec("st_mtime", 88)), judged(t("st_mtime_nsec", 96)),
			sec("st_ctime", 104), t("st_ctime_nsec", 112),
		}}
	}
	switch arch {
	case "amd64": // arch/x86/include/uapi/asm/stat.h
		return common(144, 24, 16, 8, 28, 32, 40), true
	case "arm64": // include/uapi/asm-generic/stat.h
		return common(128, 16, 20, 4, 24, 28, 32), true
	}
	return Struct{}, false
}

// The layouts that are the same on every 64-bit Linux architecture.
var structsByName = func() map[string]Struct {
	m := map[string]Struct{}
	for _, s := range structLayouts() {
		m[s.Name] = s
	}
	return m
}()

func structLayouts() []Struct {
	u := func(name string, off, size int) Field {
		return Field{Name: name, Off: off, Size: size, Kind: FieldUint}
	}
	v := func(f Field) Field { f.Volatile = true; return f }
	sec := func(f Field) Field { f.Epoch = true; return f }
	judged := func(f Field) Field { f.Judged = true; return f }
	h := func(name string, off, size int) Field { return Field{Name: name, Off: off, Size: size, Kind: FieldHex} }
	i := func(name string, off, size int) Field { return Field{Name: name, Off: off, Size: size, Kind: FieldInt} }
	times := func(name string, is StructKind, size int) Struct { return Struct{Name: name, Is: is, Size: size} }
	tv := func(name string, is StructKind, frac string) Struct {
		return Struct{Name: name, Is: is, Size: 16, Fields: []Field{v(i("tv_sec", 0, 8)), v(i(frac, 8, 8))}}
	}
	scalar := func(name string, is StructKind, size int) Struct { return Struct{Name: name, Is: is, Size: size} }
	return []Struct{
		{Name: "stat", Is: StructStat},
		{Name: "statx", Is: StructStatx, Size: 0x100, Fields: []Field{
			v(h("stx_mask", 0, 4)), v(u("stx_blksize", 4, 4)), h("stx_attributes", 8, 8),
			u("stx_nlink", 16, 4), u("stx_uid", 20, 4), u("stx_gid", 24, 4),
			{Name: "stx_mode", Off: 28, Size: 2, Kind: FieldMode},
			v(u("stx_ino", 32, 8)), u("stx_size", 40, 8), v(u("stx_blocks", 48, 8)),
			sec(v(i("stx_atime", 64, 8))), sec(v(i("stx_btime", 80, 8))), sec(v(i("stx_ctime", 96, 8))),
			judged(sec(v(i("stx_mtime", 112, 8)))),
			u("stx_rdev_major", 128, 4), u("stx_rdev_minor", 132, 4),
			v(u("stx_dev_major", 136, 4)), v(u("stx_dev_minor", 140, 4)), v(u("stx_mnt_id", 144, 8)),
		}},
		{Name: "statfs", Is: StructStatfs, Size: 120, Fields: []Field{
			h("f_type", 0, 8), u("f_bsize", 8, 8), v(u("f_blocks", 16, 8)), v(u("f_bfree", 24, 8)),
			v(u("f_bavail", 32, 8)), v(u("f_files", 40, 8)), v(u("f_ffree", 48, 8)), v(h("f_fsid", 56, 8)),
			u("f_namelen", 64, 8), v(u("f_frsize", 72, 8)), h("f_flags", 80, 8),
		}},
		{Name: "sigaction", Is: StructSigaction, Size: 32, Fields: []Field{
			v(h("sa_handler", 0, 8)), h("sa_flags", 8, 8), v(h("sa_restorer", 16, 8)), h("sa_mask", 24, 8),
		}},
		{Name: "stack_t", Is: StructStack, Size: 24, Fields: []Field{
			v(h("ss_sp", 0, 8)), u("ss_flags", 8, 4), v(u("ss_size", 16, 8)),
		}},
		{Name: "pollfd", Is: StructPollfd, Size: 8, Fields: []Field{
			{Name: "fd", Off: 0, Size: 4, Kind: FieldFD, Volatile: true}, h("events", 4, 2), h("revents", 6, 2),
		}},
		{Name: "epoll_event", Is: StructEpollEvent, Size: 12, Fields: []Field{
			h("events", 0, 4), v(h("data", 4, 8)),
		}},
		{Name: "int[2]", Is: StructFDPair, Size: 8, Fields: []Field{
			{Name: "fd[0]", Off: 0, Size: 4, Kind: FieldFD, Volatile: true},
			{Name: "fd[1]", Off: 4, Size: 4, Kind: FieldFD, Volatile: true},
		}},
		{Name: "siginfo_t", Is: StructSiginfo, Size: 128, Fields: []Field{
			i("si_signo", 0, 4), i("si_errno", 4, 4), i("si_code", 8, 4),
			{Name: "si_pid", Off: 16, Size: 4, Kind: FieldPID}, i("si_status", 24, 4),
			v(u("si_utime", 32, 8)), v(u("si_stime", 40, 8)),
		}},
		{Name: "__user_cap_header_struct", Is: StructPlain, Size: 8, Fields: []Field{
			h("version", 0, 4), {Name: "pid", Off: 4, Size: 4, Kind: FieldPID},
		}},
		{Name: "rlimit", Is: StructRlimit, Size: 16, Fields: []Field{u("rlim_cur", 0, 8), u("rlim_max", 8, 8)}},
		{Name: "rlimit64", Is: StructRlimit, Size: 16, Fields: []Field{u("rlim_cur", 0, 8), u("rlim_max", 8, 8)}},
		{Name: "new_utsname", Is: StructUtsname, Size: 6 * 65, Fields: utsnameFields()},
		{Name: "utsname", Is: StructUtsname, Size: 6 * 65, Fields: utsnameFields()},
		{Name: "open_how", Is: StructOpenHow, Size: 24, Fields: []Field{h("flags", 0, 8), u("mode", 8, 8), h("resolve", 16, 8)}},
		{Name: "linux_dirent64", Is: StructDirent64},
		{Name: "linux_dirent", Is: StructDirent},
		{Name: "fd_set", Is: StructFdSet},
		tv("timespec", StructTimespec, "tv_nsec"), tv("__kernel_timespec", StructTimespec, "tv_nsec"),
		tv("timeval", StructTimeval, "tv_usec"), times("itimerspec", StructItimerspec, 32),
		times("itimerval", StructItimerval, 32), times("timezone", StructTimes, 8),
		times("time_t", StructTimes, 8), times("rusage", StructTimes, 144), times("tms", StructTimes, 32),
		times("sysinfo", StructTimes, 112), times("timex", StructTimes, 208),
		scalar("int", StructInt, 4), scalar("unsigned int", StructUint, 4), scalar("socklen_t", StructUint, 4),
		scalar("uid_t", StructUint, 4), scalar("gid_t", StructUint, 4), scalar("pid_t", StructPidT, 4),
		scalar("long", StructLong, 8), scalar("unsigned long", StructLong, 8), scalar("off_t", StructLong, 8),
		scalar("loff_t", StructLong, 8), scalar("size_t", StructLong, 8),
	}
}

// utsnameFields are the six 65-byte strings of struct new_utsname.
func utsnameFields() []Field {
	names := []string{"sysname", "nodename", "release", "version", "machine", "domainname"}
	out := make([]Field, len(names))
	for i, n := range names {
		out[i] = Field{Name: n, Off: i * 65, Size: 65, Kind: FieldString}
	}
	return out
}

// IsCStruct reports whether a C type name as the rows write it is a
// struct ("struct stat"), which show prints by its size when it does not
// decode it.
func IsCStruct(ctype string) bool { return strings.HasPrefix(ctype, "struct ") }
