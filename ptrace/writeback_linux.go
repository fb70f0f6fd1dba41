package ptrace

import (
	"encoding/binary"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// writeBack writes the memory rec's call wrote (its out-buffers) into the
// live call's buffers, and returns the result the program is to see. The
// addresses are the live call's, not the recorded ones (the stack may
// sit elsewhere), and nothing is written past a live buffer's capacity:
// where the recorded data is longer, it is cut, and a result that counts
// bytes or elements is cut with it. Data the trace does not hold
// (--exclude-content, --max-capture, unreadable at record time) is not
// made up: what is missing stays as the live buffer had it.
func (s *session) writeBack(t *task, row *systable.Syscall, live, rec *trace.Call) int64 {
	ret := rec.Ret
	if rec.Ret < 0 || rec.NoReturn {
		return ret
	}
	m := memReader{pid: t.tid}
	for k := range rec.Mem {
		mem := &rec.Mem[k]
		if mem.Dir != trace.Out || int(mem.Arg) >= len(row.Args) || mem.Flag&(trace.Excluded|trace.Fault) != 0 {
			continue
		}
		i := mem.Arg
		a := &row.Args[i]
		dst := live.Args[i]
		if dst == 0 {
			continue
		}
		switch a.Kind {
		case systable.OutBuf, systable.InOutBuf:
			capN, ok := row.Capacity(int(i), live.Args, s.table)
			if a.Len.From == systable.LenArgPtr {
				capN, ok = t.replay.ptrCap[i], t.replay.ptrCapOK&(1<<i) != 0
			}
			if !ok {
				continue
			}
			data := mem.Data
			if uint64(len(data)) > capN {
				data = data[:capN]
				if a.Len.From == systable.LenRet {
					size := uint64(max(a.Len.Size, 1))
					ret = min(ret, int64(capN/size))
				}
			}
			m.write(dst, data)
		case systable.OutIovec:
			s.scatter(m, dst, row.Value(int(a.Len.Arg), live.Args), mem.Data)
		case systable.OutMsghdr:
			s.writeMsghdr(m, dst, mem)
		case systable.InMmsghdr, systable.OutMmsghdr:
			vlen := row.Value(int(a.Len.Arg), live.Args)
			if uint64(mem.Entry) >= min(vlen, systable.MaxMmsg) {
				continue // past the live array: the result is cut below
			}
			at := dst + uint64(mem.Entry)*uint64(s.table.Msg().MmsghdrSize)
			if mem.Part == trace.PartMsgLen {
				m.write(at+uint64(s.table.Msg().MsgLen), mem.Data)
				continue
			}
			s.writeMsghdr(m, at, mem)
		}
	}
	for i, a := range row.Args {
		if a.Kind.IsMmsghdr() && live.Args[i] != 0 {
			// The result counts messages: no more than the live array has.
			ret = min(ret, int64(min(row.Value(int(a.Len.Arg), live.Args), systable.MaxMmsg)))
		}
	}
	return ret
}

// scatter writes data across the live iovec array at addr (count
// entries), each up to its iov_len.
func (s *session) scatter(m memReader, addr, count uint64, data []byte) {
	if count > maxIovecs {
		count = maxIovecs
	}
	raw, err := m.read(addr, int(count*iovecSize))
	if err != nil {
		return
	}
	le := binary.LittleEndian
	for i := 0; i+iovecSize <= len(raw) && len(data) > 0; i += iovecSize {
		base, n := le.Uint64(raw[i:]), le.Uint64(raw[i+8:])
		n = min(n, uint64(len(data)))
		if n == 0 {
			continue
		}
		m.write(base, data[:n])
		data = data[n:]
	}
}

// writeMsghdr writes one recorded piece of a struct msghdr that recvmsg
// (or recvmmsg, for one entry of its array) filled (the sender's address, the data, the control messages) into the
// live msghdr's buffers, and the lengths the kernel would have set.
func (s *session) writeMsghdr(m memReader, addr uint64, mem *trace.Mem) {
	l := s.table.Msg()
	raw, err := m.read(addr, l.MsghdrSize)
	if err != nil {
		return
	}
	le := binary.LittleEndian
	switch mem.Part {
	case trace.PartName:
		name, capN := le.Uint64(raw[0:]), uint64(le.Uint32(raw[l.NameLen:]))
		if name == 0 {
			return
		}
		data := mem.Data[:min(uint64(len(mem.Data)), capN)]
		m.write(name, data)
		var n [4]byte
		le.PutUint32(n[:], uint32(len(data)))
		m.write(addr+uint64(l.NameLen), n[:])
	case trace.PartIovData:
		s.scatter(m, le.Uint64(raw[l.Iov:]), le.Uint64(raw[l.IovLen:]), mem.Data)
	case trace.PartControl:
		ctl, capN := le.Uint64(raw[l.Control:]), le.Uint64(raw[l.ControlLen:])
		if ctl == 0 {
			return
		}
		data := mem.Data[:min(uint64(len(mem.Data)), capN)]
		m.write(ctl, data)
		var n [8]byte
		le.PutUint64(n[:], uint64(len(data)))
		m.write(addr+uint64(l.ControlLen), n[:])
	}
}
