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
	var r Record
	var s scratch
	if err := s.decode(raw, &r); err != nil {
		return Record{}, err
	}
	// Nothing of s may be shared with the next record.
	switch {
	case r.Call != nil:
		c := *r.Call
		c.Bufs = append([]Buf(nil), c.Bufs...)
		r.Call = &c
	case r.Chunk != nil:
		c := *r.Chunk
		c.Data = append([]byte(nil), c.Data...)
		r.Chunk = &c
	}
	return r, nil
}

// Decoder decodes records as ReadBatch does, into storage it reuses: a
// resident recorder that routes records, and its client that reads
// them, allocate nothing for calls and chunks. The zero value is ready.
type Decoder struct{ s scratch }

// Decode fills r from raw. r.Call (with its Bufs) and r.Chunk (with its
// Data) alias d and raw: valid until the next Decode and until raw is
// reused; copy what you keep. Fork, exec and exit records are allocated.
func (d *Decoder) Decode(raw []byte, r *Record) error {
	if err := d.s.decode(raw, r); err != nil {
		return fmt.Errorf("eBPF recorder: %w", err)
	}
	return nil
}

// scratch holds the decoded call or chunk of ReadBatch, reused from one
// record to the next, so that decoding the records of calls allocates
// nothing.
type scratch struct {
	call  Call
	chunk Chunk
	bufs  [maxBufs]Buf
}

// decode fills r from raw. A call or chunk is decoded into s: r.Call's
// Bufs and r.Chunk's Data alias s and raw, valid until the next decode
// and the next read. Fork, exec and exit records are rare and allocated.
func (s *scratch) decode(raw []byte, r *Record) error {
	*r = Record{}
	if len(raw) < 4 {
		return fmt.Errorf("%w: %d bytes", errCorrupt, len(raw))
	}
	switch typ := recordRecType(binary.LittleEndian.Uint32(raw)); typ {
	case recordRecTypeREC_CALL:
		if err := s.decodeCall(raw); err != nil {
			return err
		}
		r.Call = &s.call
	case recordRecTypeREC_CHUNK:
		if err := decodeChunk(raw, &s.chunk); err != nil {
			return err
		}
		r.Chunk = &s.chunk
	case recordRecTypeREC_FORK:
		f, ok := load[recordForkRec](raw)
		if !ok {
			return short("fork", raw)
		}
		r.Fork = &Fork{
			ParentTID: f.ParentTid, ParentTGID: f.ParentTgid,
			ChildTID: f.ChildTid, ChildTGID: f.ChildTgid,
			Thread: f.Flags&uint32(recordForkFlagsFORK_THREAD) != 0,
			Time:   time.Duration(f.Time),
		}
	case recordRecTypeREC_EXEC:
		e, ok := load[recordExecRec](raw)
		hdr := int(unsafe.Sizeof(e))
		if !ok || len(raw) < hdr+int(e.Len) {
			return short("exec", raw)
		}
		name := raw[hdr : hdr+int(e.Len)]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		r.Exec = &Exec{
			TID: e.Tid, TGID: e.Tgid, OldTID: e.OldTid,
			Filename: string(name), Time: time.Duration(e.Time),
			Secure: e.Flags&uint32(recordExecFlagsEXEC_SECURE) != 0,
		}
	case recordRecTypeREC_EXIT:
		x, ok := load[recordExitRec](raw)
		if !ok {
			return short("exit", raw)
		}
		r.Exit = &Exit{
			TID: x.Tid, TGID: x.Tgid, Code: x.Code,
			GroupDead: x.Flags&uint32(recordExitFlagsEXIT_GROUP_DEAD) != 0,
			Time:      time.Duration(x.Time),
		}
	default:
		return fmt.Errorf("%w: unknown type %d", errCorrupt, typ)
	}
	return nil
}

// decodeCall decodes a call record into s.call, its buffers into s.bufs.
func (s *scratch) decodeCall(raw []byte) error {
	r, ok := load[recordCallRec](raw)
	hdr := int(unsafe.Sizeof(r))
	bufSize := int(unsafe.Sizeof(recordBufRec{}))
	if !ok || int(r.Nbufs) > maxBufs || len(raw) < hdr+int(r.Nbufs)*bufSize {
		return short("call", raw)
	}
	s.call = Call{
		TID: r.Tid, TGID: r.Tgid, TSeq: r.Tseq, Nr: r.Nr, Args: r.Args, Ret: r.Ret,
		NoReturn: r.Flags&uint8(recordCallFlagsCALL_NO_RETURN) != 0,
		Compat:   r.Flags&uint8(recordCallFlagsCALL_COMPAT) != 0,
		Enter:    time.Duration(r.Enter), Exit: time.Duration(r.Exit),
		Bufs: s.bufs[:r.Nbufs],
	}
	for i := range s.call.Bufs {
		b, _ := load[recordBufRec](raw[hdr+i*bufSize:])
		part, ok := tracePart(recordPart(b.Part))
		if !ok {
			return fmt.Errorf("%w: call buffer part %d", errCorrupt, b.Part)
		}
		dir := uint8(DirIn)
		if recordDir(b.Dir) == recordDirDIR_OUT {
			dir = DirOut
		}
		s.call.Bufs[i] = Buf{
			Arg: b.Arg, Part: uint8(part), Dir: dir, Addr: b.Addr, Len: b.Len, Want: b.Want,
			Fault:     b.Flags&uint8(recordBufFlagsBUF_FAULT) != 0,
			Truncated: b.Flags&uint8(recordBufFlagsBUF_TRUNCATED) != 0 || b.Len > uint64(b.Want),
		}
	}
	return nil
}

// decodeChunk decodes a chunk record into c; c.Data aliases raw.
func decodeChunk(raw []byte, c *Chunk) error {
	r, ok := load[recordChunkRec](raw)
	hdr := int(unsafe.Sizeof(r))
	if !ok || int(r.Len) > chunkSize || len(raw) < hdr+int(r.Len) {
		return short("chunk", raw)
	}
	*c = Chunk{
		TID: r.Tid, TSeq: r.Tseq, Buf: r.Buf, Off: r.Off,
		Fault: r.Flags&uint8(recordChunkFlagsCHUNK_FAULT) != 0,
	}
	if r.Len > 0 {
		c.Data = raw[hdr : hdr+int(r.Len)]
	}
	return nil
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
