package ptrace

import (
	"encoding/binary"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// mmsgArray reads the struct mmsghdr array at addr, n entries at most
// (the kernel's limit, systable.MaxMmsg), as one block.
func (cp *capturer) mmsgArray(m memory, addr, n uint64) ([]byte, error) {
	n = min(n, systable.MaxMmsg)
	return m.read(addr, int(n)*cp.table.Msg().MmsghdrSize)
}

// mmsgIn captures what sendmmsg reads of its array at addr: each of the
// vlen entries' msghdr pieces (name, data, control), tagged with the
// entry's index. A fault leaves one Mem saying so.
func (cp *capturer) mmsgIn(m memory, arg uint8, addr, vlen uint64) []trace.Mem {
	raw, err := cp.mmsgArray(m, addr, vlen)
	if err != nil {
		return []trace.Mem{{Arg: arg, Dir: trace.In, Addr: addr, Flag: trace.Fault}}
	}
	stride := cp.table.Msg().MmsghdrSize
	var out []trace.Mem
	for k := 0; (k+1)*stride <= len(raw); k++ {
		for _, p := range cp.msghdrPieces(m, arg, trace.In, raw[k*stride:], ^uint64(0)) {
			p.Entry = uint32(k)
			out = append(out, p)
		}
	}
	return out
}

// mmsgOut captures what sendmmsg or recvmmsg wrote into its array at
// addr, for the first done entries (its return value): each entry's
// msg_len (PartMsgLen) and, when the call fills the messages (recvmmsg,
// fill), the msghdr pieces it received, data up to msg_len.
func (cp *capturer) mmsgOut(m memory, arg uint8, addr, done uint64, fill bool) []trace.Mem {
	raw, err := cp.mmsgArray(m, addr, done)
	if err != nil {
		return []trace.Mem{{Arg: arg, Dir: trace.Out, Addr: addr, Flag: trace.Fault}}
	}
	l := cp.table.Msg()
	var out []trace.Mem
	for k := 0; (k+1)*l.MmsghdrSize <= len(raw); k++ {
		e := raw[k*l.MmsghdrSize : (k+1)*l.MmsghdrSize]
		lenAt := addr + uint64(k*l.MmsghdrSize+l.MsgLen)
		msgLen := e[l.MsgLen : l.MsgLen+4 : l.MsgLen+4]
		if fill {
			for _, p := range cp.msghdrPieces(m, arg, trace.Out, e, uint64(binary.LittleEndian.Uint32(msgLen))) {
				p.Entry = uint32(k)
				out = append(out, p)
			}
		}
		out = append(out, trace.Mem{Arg: arg, Part: trace.PartMsgLen, Dir: trace.Out, Addr: lenAt, Len: 4,
			Data: append([]byte(nil), msgLen...), Entry: uint32(k)})
	}
	return out
}
