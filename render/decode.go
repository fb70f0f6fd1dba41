package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// atFDCWD is the dirfd that means "the current directory".
const atFDCWD = unix.AT_FDCWD

// args decodes the arguments of c by its row. Unknown rows and arguments
// of no known kind print raw, in hex.
func (d *decoder) args(c *trace.Call, row *systable.Syscall) []value {
	if row.Unknown {
		out := make([]value, len(c.Args))
		for i, v := range c.Args {
			out[i] = lit{hex(v), v}
		}
		return out
	}
	n := min(len(row.Args), len(c.Args))
	out := make([]value, n)
	for i := range n {
		out[i] = d.arg(c, &row.Args[i], i)
	}
	if n >= 2 && unusedMode(row.Args[n-2], row.Args[n-1], c.Args[n-2]) {
		out = out[:n-1]
	}
	return out
}

// unusedMode reports whether a last Mode argument after open flags is
// ignored by the kernel (no O_CREAT, no O_TMPFILE): strace leaves it out,
// and so does the text, and JSON for the same arguments.
func unusedMode(flags, mode systable.Arg, v uint64) bool {
	return systable.ModeIgnored(flags, mode, v)
}

// arg decodes argument i of c, described by a.
func (d *decoder) arg(c *trace.Call, a *systable.Arg, i int) value {
	v := c.Args[i]
	switch a.Kind {
	case systable.Int:
		return lit{strconv.FormatInt(int64(v), 10), int64(v)}
	case systable.Hex:
		return lit{hex(v), v}
	case systable.Ptr:
		if m := c.MemOfDir(uint8(i), trace.PartLen, 0); m != nil {
			return buf{m: m, addr: v, dec: d.decodeStruct("socklen_t", m.Data)}
		}
		return pointer(v)
	case systable.FD, systable.PID:
		n := int32(uint32(v))
		return lit{strconv.Itoa(int(n)), n}
	case systable.DirFD:
		n := int32(uint32(v))
		if n == atFDCWD {
			return lit{"AT_FDCWD", n}
		}
		return lit{strconv.Itoa(int(n)), n}
	case systable.Path, systable.String:
		m := c.MemOfDir(uint8(i), trace.PartWhole, trace.In)
		if m == nil || m.Flag&(trace.Fault|trace.Excluded) != 0 {
			return buf{m: m, addr: v}
		}
		return str{b: cstring(m.Data), cut: a.Kind == systable.String}
	case systable.Flags, systable.Enum:
		return d.flags(a, v)
	case systable.Mode:
		s := formatMode(v)
		return lit{s, s}
	case systable.Signal:
		return signal(int(int32(uint32(v))))
	case systable.InBuf:
		return d.buffer(c, a, i, trace.In)
	case systable.OutBuf:
		return d.buffer(c, a, i, trace.Out)
	case systable.InOutBuf:
		if c.MemOfDir(uint8(i), trace.PartWhole, trace.Out) != nil {
			return d.buffer(c, a, i, trace.Out)
		}
		return d.buffer(c, a, i, trace.In)
	case systable.StrArray:
		return strArray(c, a, i)
	case systable.InIovec:
		return buf{m: c.MemOfDir(uint8(i), trace.PartIovData, trace.In), addr: v, iov: true}
	case systable.OutIovec:
		return buf{m: c.MemOfDir(uint8(i), trace.PartIovData, trace.Out), addr: v, iov: true}
	case systable.InMsghdr:
		return d.msghdr(c, i, trace.In)
	case systable.OutMsghdr:
		return d.msghdr(c, i, trace.Out)
	case systable.InMmsghdr:
		return d.mmsghdrs(c, i, trace.In)
	case systable.OutMmsghdr:
		return d.mmsghdrs(c, i, trace.Out)
	}
	return lit{hex(v), v}
}

// flags formats a flag set or enum with its names; an enum without names
// may be an ioctl request the table knows.
func (d *decoder) flags(a *systable.Arg, v uint64) value {
	if a.Flags != nil {
		s := a.Flags.Format(v)
		if s == "0x0" {
			s = "0"
		}
		return lit{s, s}
	}
	if io, ok := d.tab.Ioctl(v); ok && io.Name != "" {
		return lit{io.Name, io.Name}
	}
	return lit{hex(v), v}
}

// buffer decodes the memory behind a buffer argument.
func (d *decoder) buffer(c *trace.Call, a *systable.Arg, i int, dir trace.Dir) value {
	b := buf{m: c.MemOfDir(uint8(i), trace.PartWhole, dir), addr: c.Args[i], st: a.Struct}
	if b.m == nil || b.m.Flag&(trace.Excluded|trace.Fault|trace.Truncated) != 0 || a.Struct == "" {
		return b
	}
	b.dec = d.decodeStruct(a.Struct, b.m.Data)
	b.sizeOf = b.dec == nil && systable.IsCStruct(a.Struct)
	return b
}

// msghdr decodes the pieces of a struct msghdr the recorder captured.
func (d *decoder) msghdr(c *trace.Call, i int, dir trace.Dir) value {
	if o := d.msghdrEntry(c, i, dir, 0); o != nil {
		return o
	}
	return pointer(c.Args[i])
}

// msghdrEntry decodes the pieces of the msghdr of entry k (0 for a lone
// msghdr); nil when none was captured.
func (d *decoder) msghdrEntry(c *trace.Call, i int, dir trace.Dir, k uint32) object {
	var o object
	if m := c.MemOfEntry(uint8(i), trace.PartName, dir, k); m != nil {
		b := buf{m: m, st: "struct sockaddr"}
		if m.Flag&(trace.Excluded|trace.Fault|trace.Truncated) == 0 {
			b.dec = d.sockaddr(m.Data)
		}
		o = append(o, field{name: "msg_name", v: b})
	}
	if m := c.MemOfEntry(uint8(i), trace.PartIovData, dir, k); m != nil {
		o = append(o, field{name: "msg_iov", v: buf{m: m, iov: true}})
	}
	if m := c.MemOfEntry(uint8(i), trace.PartControl, dir, k); m != nil {
		o = append(o, field{name: "msg_control", v: buf{m: m, sizeOf: m.Flag&(trace.Excluded|trace.Fault) == 0}})
	}
	return o
}

// mmsghdrs decodes an array of struct mmsghdr (sendmmsg, recvmmsg) as
// a list of its captured entries, each {msg_hdr={...}, msg_len=N}: the
// messages are in direction dir, msg_len is what the kernel wrote.
func (d *decoder) mmsghdrs(c *trace.Call, i int, dir trace.Dir) value {
	n := -1
	for k := range c.Mem {
		if m := &c.Mem[k]; int(m.Arg) == i {
			n = max(n, int(m.Entry))
		}
	}
	if n < 0 {
		return pointer(c.Args[i])
	}
	l := make(list, 0, n+1)
	for k := 0; k <= n; k++ {
		var o object
		if h := d.msghdrEntry(c, i, dir, uint32(k)); h != nil {
			o = append(o, field{name: "msg_hdr", v: h})
		}
		if m := c.MemOfEntry(uint8(i), trace.PartMsgLen, trace.Out, uint32(k)); m != nil && len(m.Data) >= 4 {
			v := binary.LittleEndian.Uint32(m.Data)
			o = append(o, field{name: "msg_len", v: lit{strconv.FormatUint(uint64(v), 10), v}})
		}
		l = append(l, o)
	}
	return l
}

// strArray decodes a NULL-terminated array of strings (argv, envp). The
// environment prints as strace does, as its address and count; JSON has
// every string.
func strArray(c *trace.Call, a *systable.Arg, i int) value {
	m := c.MemOfDir(uint8(i), trace.PartStrings, trace.In)
	if m == nil || m.Flag&(trace.Excluded|trace.Fault) != 0 {
		return buf{m: m, addr: c.Args[i]}
	}
	data := m.Data
	var items []string
	for len(data) > 0 {
		s, rest, _ := bytes.Cut(data, []byte{0})
		items = append(items, string(s))
		data = rest
	}
	return strs{items: items, addr: c.Args[i], count: a.Holds == systable.HoldsEnviron, more: m.Flag&trace.Truncated != 0}
}

// strs is a decoded string array.
type strs struct {
	items []string
	addr  uint64
	count bool // print as "0x... /* N vars */"
	more  bool // the capture was truncated: more strings may follow
}

func (s strs) text(lim int) string {
	if s.count {
		plus := ""
		if s.more {
			plus = "+"
		}
		return fmt.Sprintf("%s /* %d%s vars */", hex(s.addr), len(s.items), plus)
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, it := range s.items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote([]byte(it), lim))
	}
	if s.more {
		b.WriteString(", ...")
	}
	b.WriteByte(']')
	return b.String()
}

func (s strs) json(lim int) any {
	out := make([]string, len(s.items))
	for i, it := range s.items {
		if lim > 0 && len(it) > lim {
			it = it[:lim]
		}
		out[i] = it
	}
	return out
}

// ret decodes the return value of c.
func ret(c *trace.Call, row *systable.Syscall) value {
	if c.NoReturn {
		return lit{"?", nil}
	}
	if e := c.Errno(); e != 0 {
		return lit{"-1 " + ErrnoText(e), c.Ret}
	}
	switch row.Ret {
	case systable.Hex:
		return lit{hex(uint64(c.Ret)), c.Ret}
	case systable.Mode:
		return lit{formatMode(uint64(c.Ret)), c.Ret}
	}
	return lit{strconv.FormatInt(c.Ret, 10), c.Ret}
}
