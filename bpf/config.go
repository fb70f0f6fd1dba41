//go:build amd64

package bpf

import (
	"fmt"

	"github.com/envbisect/envbisect/systable"
)

// The program's bounds, from record.bpf.c.
const (
	nrMax     = uint32(recordLimitsNR_MAX)
	maxBufs   = int(recordLimitsMAX_BUFS)
	chunkSize = int(recordLimitsCHUNK_SIZE)
	strMax    = int(recordLimitsSTR_MAX)
	bufferMax = uint32(recordLimitsBUFFER_MAX)
)

// programDesc turns a SyscallDesc into the program's descs map value.
func programDesc(nr uint32, d SyscallDesc) (recordSyscallDesc, error) {
	var out recordSyscallDesc
	if nr >= nrMax {
		return out, fmt.Errorf("syscall %d: the program describes numbers below %d only", nr, nrMax)
	}
	if n := bufsOf(d); n > maxBufs {
		return out, fmt.Errorf("syscall %d: up to %d buffers, the program carries %d per call", nr, n, maxBufs)
	}
	if d.Skip {
		out.Flags |= uint32(recordDescFlagsDESC_SKIP)
	}
	if d.AtEntry {
		out.Flags |= uint32(recordDescFlagsDESC_AT_ENTRY)
	}
	if d.NoReturn {
		out.Flags |= uint32(recordDescFlagsDESC_NO_RETURN)
	}
	for i, a := range d.Args {
		p := &out.Args[i]
		if a.Int32 {
			p.Flags |= uint8(recordArgFlagsARG_INT32)
		}
		if a.Kind == 0 {
			continue
		}
		kind, ok := programKind(systable.Kind(a.Kind))
		if !ok {
			return out, fmt.Errorf("syscall %d argument %d: kind %d is not a kind of captured memory", nr, i, a.Kind)
		}
		from, ok := programLen(systable.LenFrom(a.LenFrom))
		if !ok && needsLen(systable.Kind(a.Kind)) {
			return out, fmt.Errorf("syscall %d argument %d: length source %d unknown", nr, i, a.LenFrom)
		}
		if a.LenArg >= 6 {
			return out, fmt.Errorf("syscall %d argument %d: length argument %d out of range", nr, i, a.LenArg)
		}
		p.Kind, p.LenFrom, p.LenArg, p.Size = uint8(kind), uint8(from), a.LenArg, a.Size
	}
	return out, nil
}

// bufsOf is how many Buf descriptors a call made with d can produce at
// most: a msghdr gives up to three (name, data, control).
func bufsOf(d SyscallDesc) int {
	n := 0
	for _, a := range d.Args {
		switch systable.Kind(a.Kind) {
		case 0:
		case systable.InMsghdr, systable.OutMsghdr:
			n += 3
		default:
			n++
		}
	}
	return n
}

func programKind(k systable.Kind) (recordArgKind, bool) {
	switch k {
	case systable.Path:
		return recordArgKindKIND_PATH, true
	case systable.String:
		return recordArgKindKIND_STRING, true
	case systable.InBuf:
		return recordArgKindKIND_IN_BUF, true
	case systable.OutBuf:
		return recordArgKindKIND_OUT_BUF, true
	case systable.InOutBuf:
		return recordArgKindKIND_INOUT_BUF, true
	case systable.StrArray:
		return recordArgKindKIND_STR_ARRAY, true
	case systable.InIovec:
		return recordArgKindKIND_IN_IOVEC, true
	case systable.OutIovec:
		return recordArgKindKIND_OUT_IOVEC, true
	case systable.InMsghdr:
		return recordArgKindKIND_IN_MSGHDR, true
	case systable.OutMsghdr:
		return recordArgKindKIND_OUT_MSGHDR, true
	}
	return 0, false
}

// needsLen: the kinds whose length the descriptor gives (strings, string
// arrays and msghdrs carry their own).
func needsLen(k systable.Kind) bool {
	switch k {
	case systable.InBuf, systable.OutBuf, systable.InOutBuf, systable.InIovec, systable.OutIovec:
		return true
	}
	return false
}

func programLen(l systable.LenFrom) (recordLenFrom, bool) {
	switch l {
	case systable.LenFixed:
		return recordLenFromLEN_FIXED, true
	case systable.LenArg:
		return recordLenFromLEN_ARG, true
	case systable.LenRet:
		return recordLenFromLEN_RET, true
	case systable.LenArgPtr:
		return recordLenFromLEN_ARG_PTR, true
	case systable.LenMinArgRet:
		return recordLenFromLEN_MIN_ARG_RET, true
	case systable.LenFdSet:
		return recordLenFromLEN_FDSET, true
	case systable.LenIoctl:
		return recordLenFromLEN_IOCTL, true
	case systable.LenFcntl:
		return recordLenFromLEN_FCNTL, true
	case systable.LenPrctl:
		return recordLenFromLEN_PRCTL, true
	}
	return recordLenFromLEN_NONE, false
}

// requestKeys is the requests map's content: each request of the three
// families, keyed by its class in the high half and its 32-bit value in
// the low half.
func requestKeys(o *Options) (map[uint64]recordSizeDir, error) {
	out := make(map[uint64]recordSizeDir, len(o.Ioctls)+len(o.Fcntls)+len(o.Prctls))
	for _, fam := range []struct {
		class recordReqClass
		name  string
		m     map[uint64]SizeDir
	}{
		{recordReqClassREQ_IOCTL, "ioctl", o.Ioctls},
		{recordReqClassREQ_FCNTL, "fcntl", o.Fcntls},
		{recordReqClassREQ_PRCTL, "prctl", o.Prctls},
	} {
		for req, sd := range fam.m {
			if sd.Dir&^(DirIn|DirOut) != 0 || sd.Dir == 0 {
				return nil, fmt.Errorf("%s request %#x: direction %d is not DirIn, DirOut or both", fam.name, req, sd.Dir)
			}
			var dir uint32
			if sd.Dir&DirIn != 0 {
				dir |= uint32(recordDirDIR_IN)
			}
			if sd.Dir&DirOut != 0 {
				dir |= uint32(recordDirDIR_OUT)
			}
			out[uint64(fam.class)<<32|uint64(uint32(req))] = recordSizeDir{Size: sd.Size, Dir: dir}
		}
	}
	return out, nil
}
