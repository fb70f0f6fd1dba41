//go:build amd64

package bpf

import (
	"errors"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/envbisect/envbisect/trace"
)

// wire lays out v as the program writes it, followed by tail.
func wire[T any](v T, tail ...[]byte) []byte {
	out := slices.Clone(unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v)))
	for _, b := range tail {
		out = append(out, b...)
	}
	return out
}

func callRecord(bufs ...recordBufRec) []byte {
	c := recordCallRec{
		Type: uint32(recordRecTypeREC_CALL), Tid: 11, Tgid: 10, Nr: 0, Tseq: 7,
		Args: [6]uint64{3, 0x1000, 100}, Ret: 42, Enter: 1000, Exit: 2000,
		Nbufs: uint8(len(bufs)),
	}
	var tail [][]byte
	for _, b := range bufs {
		tail = append(tail, wire(b))
	}
	return wire(c, tail...)
}

func TestDecode(t *testing.T) {
	bufs := []recordBufRec{
		{Addr: 0x1000, Len: 42, Want: 42, Arg: 1, Part: uint8(recordPartPART_WHOLE), Dir: uint8(recordDirDIR_OUT)},
		{Addr: 0x2000, Len: 1000, Want: 100, Arg: 1, Part: uint8(recordPartPART_IOV_DATA), Dir: uint8(recordDirDIR_IN), Flags: uint8(recordBufFlagsBUF_FAULT)},
		{Addr: 0x3000, Len: 4096, Want: 4096, Arg: 0, Part: uint8(recordPartPART_STRINGS), Dir: uint8(recordDirDIR_IN), Flags: uint8(recordBufFlagsBUF_TRUNCATED)},
	}
	r, err := decode(callRecord(bufs...))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Call
	if c == nil || c.TID != 11 || c.TGID != 10 || c.TSeq != 7 || c.Ret != 42 || c.Args[2] != 100 ||
		c.Enter != 1000*time.Nanosecond || c.Exit != 2000*time.Nanosecond || c.NoReturn || len(c.Bufs) != 3 {
		t.Fatalf("call %+v", c)
	}
	want := []Buf{
		{Arg: 1, Part: uint8(trace.PartWhole), Dir: DirOut, Addr: 0x1000, Len: 42, Want: 42},
		{Arg: 1, Part: uint8(trace.PartIovData), Dir: DirIn, Addr: 0x2000, Len: 1000, Want: 100, Fault: true, Truncated: true},
		{Arg: 0, Part: uint8(trace.PartStrings), Dir: DirIn, Addr: 0x3000, Len: 4096, Want: 4096, Truncated: true},
	}
	if !slices.Equal(c.Bufs, want) {
		t.Errorf("bufs\n%+v\nwant\n%+v", c.Bufs, want)
	}

	raw := wire(recordChunkRec{Type: uint32(recordRecTypeREC_CHUNK), Tid: 11, Tseq: 7, Off: 16384, Len: 5, Buf: 2, Flags: uint8(recordChunkFlagsCHUNK_FAULT)}, []byte("hello"))
	r, err = decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-1] = '!' // the record must not share the ring's bytes
	if ch := r.Chunk; ch == nil || ch.TID != 11 || ch.TSeq != 7 || ch.Off != 16384 || ch.Buf != 2 || !ch.Fault || string(ch.Data) != "hello" {
		t.Errorf("chunk %+v", r.Chunk)
	}

	r, err = decode(wire(recordForkRec{Type: uint32(recordRecTypeREC_FORK), ParentTid: 1, ParentTgid: 1, ChildTid: 2, ChildTgid: 1, Flags: uint32(recordForkFlagsFORK_THREAD), Time: 5}))
	if err != nil || r.Fork == nil || *r.Fork != (Fork{ParentTID: 1, ParentTGID: 1, ChildTID: 2, ChildTGID: 1, Thread: true, Time: 5}) {
		t.Errorf("fork %+v, %v", r.Fork, err)
	}
	r, err = decode(wire(recordExecRec{Type: uint32(recordRecTypeREC_EXEC), Tid: 1, Tgid: 1, OldTid: 3, Time: 6, Len: 10}, []byte("/bin/true\x00")))
	if err != nil || r.Exec == nil || *r.Exec != (Exec{TID: 1, TGID: 1, OldTID: 3, Filename: "/bin/true", Time: 6}) {
		t.Errorf("exec %+v, %v", r.Exec, err)
	}
	r, err = decode(wire(recordExecRec{Type: uint32(recordRecTypeREC_EXEC), Tid: 2, Tgid: 2, OldTid: 2, Len: 10,
		Flags: uint32(recordExecFlagsEXEC_SECURE)}, []byte("/bin/chage")))
	if err != nil || r.Exec == nil || !r.Exec.Secure {
		t.Errorf("exec of a program that changed privileges %+v, %v: want Secure", r.Exec, err)
	}
	r, err = decode(wire(recordExitRec{Type: uint32(recordRecTypeREC_EXIT), Tid: 2, Tgid: 1, Code: 3 << 8, Time: 7, Flags: uint32(recordExitFlagsEXIT_GROUP_DEAD)}))
	if err != nil || r.Exit == nil || *r.Exit != (Exit{TID: 2, TGID: 1, Code: 3 << 8, GroupDead: true, Time: 7}) {
		t.Errorf("exit %+v, %v", r.Exit, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	call := callRecord(recordBufRec{Len: 1, Want: 1})
	tooMany := wire(recordCallRec{Type: uint32(recordRecTypeREC_CALL), Nbufs: uint8(maxBufs + 1)}, make([]byte, 24*(maxBufs+1)))
	badPart := callRecord(recordBufRec{Part: 9})
	for name, raw := range map[string][]byte{
		"empty":          nil,
		"unknown type":   {9, 0, 0, 0},
		"short call":     call[:len(call)-1],
		"too many bufs":  tooMany,
		"unknown part":   badPart,
		"short chunk":    wire(recordChunkRec{Type: uint32(recordRecTypeREC_CHUNK), Len: 4}, []byte("abc")),
		"chunk too long": wire(recordChunkRec{Type: uint32(recordRecTypeREC_CHUNK), Len: uint16(chunkSize + 1)}, make([]byte, chunkSize+1)),
		"short exec":     wire(recordExecRec{Type: uint32(recordRecTypeREC_EXEC), Len: 10}, []byte("/bin")),
		"short fork":     wire(recordForkRec{Type: uint32(recordRecTypeREC_FORK)})[:8],
		"short exit":     wire(recordExitRec{Type: uint32(recordRecTypeREC_EXIT)})[:8],
	} {
		if _, err := decode(raw); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: %v, want errCorrupt", name, err)
		}
	}
}

// FuzzDecode: no input makes the decoder panic.
func FuzzDecode(f *testing.F) {
	f.Add(callRecord(recordBufRec{Len: 1, Want: 1}))
	f.Add(wire(recordChunkRec{Type: uint32(recordRecTypeREC_CHUNK), Len: 3}, []byte("abc")))
	f.Add(wire(recordExecRec{Type: uint32(recordRecTypeREC_EXEC), Len: 4}, []byte("/bin")))
	f.Add(wire(recordForkRec{Type: uint32(recordRecTypeREC_FORK)}))
	f.Add(wire(recordExitRec{Type: uint32(recordRecTypeREC_EXIT)}))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := decode(raw)
		if err == nil && r.Call == nil && r.Chunk == nil && r.Fork == nil && r.Exec == nil && r.Exit == nil {
			t.Errorf("no error and no record")
		}
	})
}
