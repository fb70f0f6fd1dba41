package ptrace

import (
	"bytes"
	"encoding/binary"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// memory is what capture needs of a stopped tracee's address space.
type memory interface {
	read(addr uint64, n int) ([]byte, error)
	readString(addr uint64, limit int) ([]byte, error)
	readWord(addr uint64) (uint64, error)
	readU32(addr uint64) (uint32, error)
	// readBatch reads lens[i] bytes at addrs[i] for every i at once, into
	// buf one after the other, and fails unless it could read them all.
	readBatch(addrs []uint64, lens []int, buf []byte) error
}

// Capture limits that hold whatever the user asks for: they bound what a
// corrupt or hostile tracee can make the tracer allocate.
const (
	maxString   = 4096    // PATH_MAX; longer strings are truncated
	maxStrings  = 1 << 16 // argv/envp entries
	maxIovecs   = 1024    // IOV_MAX
	iovecSize   = 16
	sockaddrMax = 128 // sizeof(struct sockaddr_storage)
	// maxBuffer bounds one captured buffer: a length argument comes from
	// the program and may be garbage (a call that fails with EFAULT).
	maxBuffer = 256 << 20
)

// capturer copies the user memory a call reads and writes, as its table
// row describes.
type capturer struct {
	table *systable.Table
	max   uint64 // bytes kept per buffer; 0 = all
}

// capture copies what the call read (paths, strings, in-buffers, argv)
// and, with out set and a call that succeeded, what it wrote (read
// buffers, structs, addresses). It runs at the call's exit stop, where the
// argument registers are intact and the memory the call read is still in
// place; the kernel writes out-buffers only on success.
//
// Memory that is both read and written (a pollfd array, fd_sets, a
// socklen_t) is captured once, as the kernel left it.
func (cp *capturer) capture(m memory, row *systable.Syscall, c *trace.Call, out bool) {
	out = out && c.Ret >= 0
	// Strings and buffers of known length are read together at the end,
	// in one vectored read; arrays of pointers are followed as they come.
	var pendingArr [6]pendingRead
	pending := pendingArr[:0]
	for i := range row.Args {
		a := &row.Args[i]
		addr := c.Args[i]
		if addr == 0 {
			continue
		}
		switch a.Kind {
		case systable.Path, systable.String:
			pending = append(pending, pendingRead{mem: len(c.Mem), str: true})
			c.Mem = append(c.Mem, trace.Mem{Arg: uint8(i), Dir: trace.In, Addr: addr})
		case systable.StrArray:
			c.Mem = append(c.Mem, cp.strArray(m, uint8(i), addr))
		case systable.InIovec:
			c.Mem = append(c.Mem, cp.iovecs(m, uint8(i), trace.In, addr, row.Value(int(a.Len.Arg), c.Args), ^uint64(0)))
		case systable.InMsghdr:
			c.Mem = append(c.Mem, cp.msghdr(m, uint8(i), trace.In, addr, ^uint64(0))...)
		case systable.OutIovec:
			if out {
				c.Mem = append(c.Mem, cp.iovecs(m, uint8(i), trace.Out, addr, row.Value(int(a.Len.Arg), c.Args), uint64(c.Ret)))
			}
		case systable.OutMsghdr:
			if out {
				c.Mem = append(c.Mem, cp.msghdr(m, uint8(i), trace.Out, addr, uint64(c.Ret))...)
			}
		case systable.InMmsghdr:
			c.Mem = append(c.Mem, cp.mmsgIn(m, uint8(i), addr, row.Value(int(a.Len.Arg), c.Args))...)
			if out && c.Ret > 0 {
				c.Mem = append(c.Mem, cp.mmsgOut(m, uint8(i), addr, uint64(c.Ret), false)...)
			}
		case systable.OutMmsghdr:
			if out && c.Ret > 0 {
				c.Mem = append(c.Mem, cp.mmsgOut(m, uint8(i), addr, uint64(c.Ret), true)...)
			}
		case systable.InBuf, systable.OutBuf, systable.InOutBuf:
			if a.Kind != systable.InBuf && !out {
				continue
			}
			n, kind, ok := cp.length(m, row, a, c)
			if !ok {
				continue
			}
			dir := trace.Out
			if kind == systable.InBuf {
				dir = trace.In
			} else if !out {
				continue
			}
			mem := trace.Mem{Arg: uint8(i), Dir: dir, Addr: addr, Len: n}
			want := min(n, maxBuffer)
			if cp.max > 0 && want > cp.max {
				want = cp.max
			}
			if want < n {
				mem.Flag |= trace.Truncated
			}
			if want > 0 {
				pending = append(pending, pendingRead{mem: len(c.Mem), n: int(want)})
			}
			c.Mem = append(c.Mem, mem)
		}
	}
	cp.readPending(m, c, pending)
}

// pendingRead is a read capture puts off to batch it with the others.
type pendingRead struct {
	mem int  // index in Call.Mem
	n   int  // bytes, for a buffer
	str bool // a NUL-terminated string of unknown length
}

// stringProbe is how much of a string the batched read takes: paths are
// mostly shorter; a longer one is finished with readString.
const stringProbe = 256

// readPending fills in the deferred reads: with one process_vm_readv for
// all of them when that succeeds whole, else one by one, which finds the
// exact extent of a fault.
func (cp *capturer) readPending(m memory, c *trace.Call, pending []pendingRead) {
	if len(pending) > 1 {
		var addrArr [8]uint64
		var lenArr [8]int
		addrs, lens := addrArr[:0], lenArr[:0]
		total := 0
		for _, p := range pending {
			a, n := c.Mem[p.mem].Addr, p.n
			if p.str {
				// Up to the end of the page: reading past it could fault.
				n = min(stringProbe, int(pageSize-a%pageSize))
			}
			addrs, lens = append(addrs, a), append(lens, n)
			total += n
		}
		// Buffers first in one allocation that their Mems keep; the string
		// probes after them are copied out.
		buf := make([]byte, total)
		if m.readBatch(addrs, lens, buf) == nil {
			off := 0
			for i, p := range pending {
				chunk := buf[off : off+lens[i] : off+lens[i]]
				off += lens[i]
				mem := &c.Mem[p.mem]
				if !p.str {
					mem.Data = chunk
					continue
				}
				if j := bytes.IndexByte(chunk, 0); j >= 0 {
					mem.Data = append([]byte(nil), chunk[:j]...)
					mem.Len = uint64(j)
					continue
				}
				cp.readStringInto(m, mem) // longer than the probe
			}
			return
		}
	}
	for _, p := range pending {
		mem := &c.Mem[p.mem]
		if p.str {
			cp.readStringInto(m, mem)
			continue
		}
		data, err := m.read(mem.Addr, p.n)
		mem.Data = data
		if err != nil {
			mem.Flag |= trace.Fault
		}
	}
}

// readStringInto reads the NUL-terminated string at mem.Addr.
func (cp *capturer) readStringInto(m memory, mem *trace.Mem) {
	s, err := m.readString(mem.Addr, maxString)
	mem.Data, mem.Len = s, uint64(len(s))
	if err == errNoTerminator {
		mem.Flag |= trace.Truncated
	} else if err != nil {
		mem.Flag |= trace.Fault
		mem.Data = nil
	}
}

// maxValueResult bounds lengths read from a value-result pointer, which
// at exit holds what the kernel had, possibly more than it wrote.
const maxValueResult = 1 << 16

// length works out how many bytes a buffer argument covers, and whether
// the memory is read (InBuf), written (OutBuf) or both, which for ioctl,
// fcntl and prctl the request decides.
func (cp *capturer) length(m memory, row *systable.Syscall, a *systable.Arg, c *trace.Call) (uint64, systable.Kind, bool) {
	size := uint64(a.Len.Size)
	if size == 0 {
		size = 1
	}
	kind := a.Kind
	switch a.Len.From {
	case systable.LenFixed:
		return uint64(a.Len.Size), kind, true
	case systable.LenArg:
		return row.Value(int(a.Len.Arg), c.Args) * size, kind, true
	case systable.LenRet:
		if c.Ret < 0 {
			return 0, kind, false
		}
		return uint64(c.Ret) * size, kind, true
	case systable.LenMinArgRet:
		if c.Ret < 0 {
			return 0, kind, false
		}
		return min(uint64(c.Ret), row.Value(int(a.Len.Arg), c.Args)), kind, true
	case systable.LenArgPtr:
		p := c.Args[a.Len.Arg]
		if p == 0 {
			return 0, kind, false
		}
		v, err := m.readU32(p)
		if err != nil {
			return 0, kind, false
		}
		return min(uint64(v), maxValueResult), kind, true
	case systable.LenFdSet:
		nfds := row.Value(int(a.Len.Arg), c.Args)
		if nfds > 1<<20 {
			return 0, kind, false
		}
		return (nfds + 63) / 64 * 8, kind, true
	case systable.LenIoctl:
		io, ok := cp.table.Ioctl(c.Args[1])
		if !ok || io.Size == 0 {
			return 0, kind, false
		}
		return uint64(io.Size), io.Dir, true
	case systable.LenFcntl:
		n, dir := systable.FcntlSize(c.Args[1])
		if n == 0 {
			return 0, kind, false
		}
		return uint64(n), dir, true
	case systable.LenPrctl:
		n, dir := systable.PrctlSize(c.Args[0])
		if n == 0 {
			return 0, kind, false
		}
		return uint64(n), dir, true
	}
	return 0, kind, false
}

// buffer copies n bytes at addr, keeping at most cp.max of them.
func (cp *capturer) buffer(m memory, arg uint8, part trace.Part, dir trace.Dir, addr, n uint64) trace.Mem {
	mem := trace.Mem{Arg: arg, Part: part, Dir: dir, Addr: addr, Len: n}
	want := n
	if cp.max > 0 && want > cp.max {
		want = cp.max
		mem.Flag |= trace.Truncated
	}
	if want == 0 {
		return mem
	}
	data, err := m.read(addr, int(want))
	mem.Data = data
	if err != nil {
		mem.Flag |= trace.Fault
	}
	return mem
}

// strArray captures a NULL-terminated array of strings (argv, envp) as
// the strings, each followed by a NUL.
func (cp *capturer) strArray(m memory, arg uint8, addr uint64) trace.Mem {
	mem := trace.Mem{Arg: arg, Part: trace.PartStrings, Dir: trace.In, Addr: addr}
	for i := 0; i < maxStrings; i++ {
		p, err := m.readWord(addr + uint64(i)*8)
		if err != nil {
			mem.Flag |= trace.Fault
			break
		}
		if p == 0 {
			break
		}
		s, err := m.readString(p, maxString)
		mem.Data = append(append(mem.Data, s...), 0)
		if err != nil {
			mem.Flag |= trace.Truncated
		}
	}
	mem.Len = uint64(len(mem.Data))
	return mem
}

// iovecs captures the data of an iovec array, concatenated, up to limit
// bytes (the return value for calls that fill them).
func (cp *capturer) iovecs(m memory, arg uint8, dir trace.Dir, addr, count, limit uint64) trace.Mem {
	mem := trace.Mem{Arg: arg, Part: trace.PartIovData, Dir: dir, Addr: addr}
	if count > maxIovecs {
		count = maxIovecs
	}
	raw, err := m.read(addr, int(count*iovecSize))
	if err != nil {
		mem.Flag |= trace.Fault
		return mem
	}
	var total uint64
	for i := 0; i+iovecSize <= len(raw) && total < limit; i += iovecSize {
		base := binary.LittleEndian.Uint64(raw[i:])
		n := min(binary.LittleEndian.Uint64(raw[i+8:]), limit-total)
		if n == 0 {
			continue
		}
		total += n
		keep := n
		limit := uint64(maxBuffer)
		if cp.max > 0 {
			limit = min(limit, cp.max)
		}
		if uint64(len(mem.Data))+keep > limit {
			keep = limit - uint64(len(mem.Data))
			mem.Flag |= trace.Truncated
		}
		if keep == 0 {
			continue
		}
		b, err := m.read(base, int(keep))
		mem.Data = append(mem.Data, b...)
		if err != nil {
			mem.Flag |= trace.Fault
		}
	}
	mem.Len = total
	return mem
}

// msghdr captures a struct msghdr's name, data and control buffers.
func (cp *capturer) msghdr(m memory, arg uint8, dir trace.Dir, addr, limit uint64) []trace.Mem {
	raw, err := m.read(addr, cp.table.Msg().MsghdrSize)
	if err != nil {
		return []trace.Mem{{Arg: arg, Dir: dir, Addr: addr, Flag: trace.Fault}}
	}
	return cp.msghdrPieces(m, arg, dir, raw, limit)
}

// msghdrPieces captures the buffers that raw, a struct msghdr as the
// tracee holds it, points to: its name (msg_namelen bytes), iovec data
// (up to limit bytes) and control (msg_controllen bytes).
func (cp *capturer) msghdrPieces(m memory, arg uint8, dir trace.Dir, raw []byte, limit uint64) []trace.Mem {
	l := cp.table.Msg()
	le := binary.LittleEndian
	name, nameLen := le.Uint64(raw[0:]), uint64(le.Uint32(raw[l.NameLen:]))
	iov, iovLen := le.Uint64(raw[l.Iov:]), le.Uint64(raw[l.IovLen:])
	ctl, ctlLen := le.Uint64(raw[l.Control:]), le.Uint64(raw[l.ControlLen:])
	var out []trace.Mem
	if name != 0 && nameLen > 0 {
		out = append(out, cp.buffer(m, arg, trace.PartName, dir, name, min(nameLen, sockaddrMax)))
	}
	if iov != 0 {
		out = append(out, cp.iovecs(m, arg, dir, iov, iovLen, limit))
	}
	if ctl != 0 && ctlLen > 0 {
		out = append(out, cp.buffer(m, arg, trace.PartControl, dir, ctl, min(ctlLen, 1<<16)))
	}
	return out
}

// capturePaths reads only the paths a call names: what a semi-replay run
// needs at a call's entry to match it (its key) and to resolve its Path.
// The rest is captured at the exit of the calls that run.
func (cp *capturer) capturePaths(m memory, row *systable.Syscall, c *trace.Call) {
	var pendingArr [6]pendingRead
	pending := pendingArr[:0]
	for i := range row.Args {
		if row.Args[i].Kind != systable.Path || c.Args[i] == 0 {
			continue
		}
		pending = append(pending, pendingRead{mem: len(c.Mem), str: true})
		c.Mem = append(c.Mem, trace.Mem{Arg: uint8(i), Dir: trace.In, Addr: c.Args[i]})
	}
	cp.readPending(m, c, pending)
}
