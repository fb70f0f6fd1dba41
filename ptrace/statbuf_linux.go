package ptrace

import (
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// statBuf reads a file's identity (device, inode, type, size, mtime) from
// the struct stat or struct statx a stat-family call returned to the
// command, laid out as systable says, so that the tracer thread need not
// stat the file again to know whether it has met it (keepStated: git
// status stats every file of its work tree, and each lstat through
// /proc/PID/root costs the stopped command a few µs).
type statBuf struct {
	ok                               bool // the layouts are known
	size, xSize                      int  // of struct stat, struct statx
	dev, ino, mode, fsize, sec, nsec systable.Field
	xMask, xMode, xIno, xSize2, xSec systable.Field
	xNsec, xMajor, xMinor            systable.Field
}

// statx's stx_mask bits a key needs (linux/stat.h): type, inode, size,
// mtime.
const statxKeyMask = 0x1 | 0x100 | 0x200 | 0x40

func newStatBuf() statBuf {
	lay, ok := systable.StatStruct(runtime.GOARCH)
	if !ok {
		return statBuf{}
	}
	x := systable.StructOf("struct statx")
	mtime := x.Field("stx_mtime")
	return statBuf{
		ok: true, size: lay.Size,
		dev: lay.Field("st_dev"), ino: lay.Field("st_ino"), mode: lay.Field("st_mode"),
		fsize: lay.Field("st_size"), sec: lay.Field("st_mtime"), nsec: lay.Field("st_mtime_nsec"),
		xSize: x.Size, xMask: x.Field("stx_mask"), xMode: x.Field("stx_mode"), xIno: x.Field("stx_ino"),
		xSize2: x.Field("stx_size"), xSec: mtime,
		xNsec:  systable.Field{Name: "stx_mtime.tv_nsec", Off: mtime.Off + 8, Size: 4, Kind: systable.FieldUint},
		xMajor: x.Field("stx_dev_major"), xMinor: x.Field("stx_dev_minor"),
	}
}

// decode fills st's Dev, Ino, Mode, Size and Mtim from the buffer c, a
// completed call of row, returned; false when c holds no whole buffer of
// a known layout (or a statx without those members), and the caller
// stats the file itself.
func (s *statBuf) decode(row *systable.Syscall, c *trace.Call, st *unix.Stat_t) bool {
	if !s.ok {
		return false
	}
	if i := row.StructArg(systable.StructStat); i >= 0 {
		m := c.MemOfDir(uint8(i), trace.PartWhole, trace.Out)
		if !whole(m, s.size) {
			return false
		}
		b := m.Data
		st.Dev, st.Ino, st.Mode = s.dev.Uint(b), s.ino.Uint(b), uint32(s.mode.Uint(b))
		st.Size = s.fsize.Int(b)
		st.Mtim = unix.Timespec{Sec: s.sec.Int(b), Nsec: s.nsec.Int(b)}
		return true
	}
	if i := row.StructArg(systable.StructStatx); i >= 0 {
		m := c.MemOfDir(uint8(i), trace.PartWhole, trace.Out)
		if !whole(m, s.xSize) {
			return false
		}
		b := m.Data
		if s.xMask.Uint(b)&statxKeyMask != statxKeyMask {
			return false
		}
		st.Dev = unix.Mkdev(uint32(s.xMajor.Uint(b)), uint32(s.xMinor.Uint(b)))
		st.Ino, st.Mode, st.Size = s.xIno.Uint(b), uint32(s.xMode.Uint(b)), int64(s.xSize2.Uint(b))
		st.Mtim = unix.Timespec{Sec: s.xSec.Int(b), Nsec: int64(s.xNsec.Uint(b))}
		return true
	}
	return false
}

// whole reports whether m holds n bytes the tracee's memory had: not
// excluded, faulted or cut short.
func whole(m *trace.Mem, n int) bool {
	return m != nil && m.Flag&(trace.Excluded|trace.Fault) == 0 && len(m.Data) >= n
}
