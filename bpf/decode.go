//go:build amd64

package bpf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/envbisect/envbisect/trace"
)

// errCorrupt: a ring record that does not parse. The program writes only
// well-formed records, so this means a mismatch between the program and
// this decoder.
var errCorrupt = errors.New("malformed eBPF record")

// Decode turns one record as Probe.ReadRaw returns it into a Record. It
// copies what it keeps.
func Decode(raw []byte) (Record, error) {
	r, err := decode(raw)
	if err != nil {
		return Record{}, fmt.Errorf("eBPF recorder: %w", err)
	}
	return r, nil
}

// decode turns one ring record into a Record. It copies what it keeps:
// raw is reused by the next read.
func decode(raw []byte) (Record, error) {
	if len(raw) < 4 {
		return Record{}, fmt.Errorf("%w: %d bytes", errCorrupt, len(raw))
	}
	switch typ := recordRecType(binary.LittleEndian.Uint32(raw)); typ {
	case recordRecTypeREC_CALL:
		c, err := decodeCall(raw)
		return Record{Call: c}, err
	case recordRecTypeREC_CHUNK:
		c, err := decodeChunk(raw)
		return Record{Chunk: c}, err
	case recordRecTypeREC_FORK:
		r, ok := load[recordForkRec](raw)
		if !ok {
			return Record{}, short("fork", raw)
		}
		return Record{Fork: &Fork{
			ParentTID: r.ParentTid, ParentTGID: r.ParentTgid,
			ChildTID: r.ChildTid, ChildTGID: r.ChildTgid,
			Thread: r.Flags&uint32(recordForkFlagsFORK_THREAD) != 0,
			Time:   time.Duration(r.Time),
		}}, nil
	case recordRecTypeREC_EXEC:
		r, ok := load[recordExecRec](raw)
		hdr := int(unsafe.Sizeof(r))
		if !ok || len(raw) < hdr+int(r.Len) {
			return Record{}, short("exec", raw)
		}
		name := raw[hdr : hdr+int(r.Len)]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		return Record{Exec: &Exec{
			TID: r.Tid, TGID: r.Tgid, OldTID: r.OldTid,
			Filename: string(name), Time: time.Duration(r.Time),
			Secure: r.Flags&uint32(recordExecFlagsEXEC_SECURE) != 0,
		}}, nil
	case recordRecTypeREC_EXIT:
		r, ok := load[recordExitRec](raw)
		if !ok {
			return Record{}, short("exit", raw)
		}
		return Record{Exit: &Exit{
			TID: r.Tid, TGID: r.Tgid, Code: r.Code,
			GroupDead: r.Flags&uint32(recordExitFlagsEXIT_GROUP_DEAD) != 0,
			Time:      time.Duration(r.Time),
		}}, nil
	default:
		return Record{}, fmt.Errorf("%w: unknown type %d", errCorrupt, typ)
	}
}

func decodeCall(raw []byte) (*Call, error) {
	r, ok := load[recordCallRec](raw)
	hdr := int(unsafe.Sizeof(r))
	bufSize := int(unsafe.Sizeof(recordBufRec{}))
	if !ok || int(r.Nbufs) > maxBufs || len(raw) < hdr+int(r.Nbufs)*bufSize {
		return nil, short("call", raw)
	}
	c := &Call{
		TID: r.Tid, TGID: r.Tgid, TSeq: r.Tseq, Nr: r.Nr, Args: r.Args, Ret: r.Ret,
		NoReturn: r.Flags&uint8(recordCallFlagsCALL_NO_RETURN) != 0,
		Compat:   r.Flags&uint8(recordCallFlagsCALL_COMPAT) != 0,
		Enter:    time.Duration(r.Enter), Exit: time.Duration(r.Exit),
	}
	if r.Nbufs > 0 {
		c.Bufs = make([]Buf, r.Nbufs)
	}
	for i := range c.Bufs {
		b, _ := load[recordBufRec](raw[hdr+i*bufSize:])
		part, ok := tracePart(recordPart(b.Part))
		if !ok {
			return nil, fmt.Errorf("%w: call buffer part %d", errCorrupt, b.Part)
		}
		dir := uint8(DirIn)
		if recordDir(b.Dir) == recordDirDIR_OUT {
			dir = DirOut
		}
		c.Bufs[i] = Buf{
			Arg: b.Arg, Part: uint8(part), Dir: dir, Addr: b.Addr, Len: b.Len, Want: b.Want,
			Fault:     b.Flags&uint8(recordBufFlagsBUF_FAULT) != 0,
			Truncated: b.Flags&uint8(recordBufFlagsBUF_TRUNCATED) != 0 || b.Len > uint64(b.Want),
		}
	}
	return c, nil
}

func decodeChunk(raw []byte) (*Chunk, error) {
	r, ok := load[recordChunkRec](raw)
	hdr := int(unsafe.Sizeof(r))
	if !ok || int(r.Len) > chunkSize || len(raw) < hdr+int(r.Len) {
		return nil, short("chunk", raw)
	}
	c := &Chunk{
		TID: r.Tid, TSeq: r.Tseq, Buf: r.Buf, Off: r.Off,
		Fault: r.Flags&uint8(recordChunkFlagsCHUNK_FAULT) != 0,
	}
	if r.Len > 0 {
		c.Data = append([]byte(nil), raw[hdr:hdr+int(r.Len)]...)
	}
	return c, nil
}

// tracePart maps the program's part numbers to trace.Part.
func tracePart(p recordPart) (trace.Part, bool) {
	switch p {
	case recordPartPART_WHOLE:
		return trace.PartWhole, true
	case recordPartPART_IOV_DATA:
		return trace.PartIovData, true
	case recordPartPART_NAME:
		return trace.PartName, true
	case recordPartPART_CONTROL:
		return trace.PartControl, true
	case recordPartPART_STRINGS:
		return trace.PartStrings, true
	}
	return 0, false
}

func short(what string, raw []byte) error {
	return fmt.Errorf("%w: %s record of %d bytes", errCorrupt, what, len(raw))
}

// load copies the start of raw into a T, one of the generated wire
// structs, whose layout bpf2go took from the program's BTF. Copying into
// a fresh value keeps the alignment right whatever raw's is.
func load[T any](raw []byte) (T, bool) {
	var v T
	n := int(unsafe.Sizeof(v))
	if len(raw) < n {
		return v, false
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), n), raw)
	return v, true
}
