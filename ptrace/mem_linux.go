package ptrace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pageSize is the granularity at which reads stop at unmapped memory.
const pageSize = 4096

// memReader reads a stopped tracee's memory with process_vm_readv. It
// keeps one scratch buffer; callers copy what they keep.
type memReader struct {
	pid int
}

// read copies n bytes at addr. It returns what could be read before the
// first unreadable page and an error if that is less than n.
func (m memReader) read(addr uint64, n int) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	buf := make([]byte, n)
	got, err := m.readInto(addr, buf)
	return buf[:got], err
}

func (m memReader) readInto(addr uint64, buf []byte) (int, error) {
	n, err := m.readv(addr, buf)
	if err == nil && n == len(buf) {
		return n, nil
	}
	if n < 0 {
		n = 0
	}
	// A partial read stops at the first unreadable page; retry page by page
	// from there so we keep every readable byte.
	for n < len(buf) {
		a := addr + uint64(n)
		chunk := int(pageSize - a%pageSize)
		if chunk > len(buf)-n {
			chunk = len(buf) - n
		}
		k, err := m.readv(a, buf[n:n+chunk])
		if err != nil || k <= 0 {
			if err == nil {
				err = unix.EFAULT
			}
			return n, err
		}
		n += k
	}
	return n, nil
}

// readv is one process_vm_readv of len(buf) bytes at addr. It does not
// block, so it is a raw system call (see ptrace).
func (m memReader) readv(addr uint64, buf []byte) (int, error) {
	local := unix.Iovec{Base: &buf[0], Len: uint64(len(buf))}
	remote := unix.RemoteIovec{Base: uintptr(addr), Len: len(buf)}
	n, _, e := unix.RawSyscall6(unix.SYS_PROCESS_VM_READV, uintptr(m.pid),
		uintptr(unsafe.Pointer(&local)), 1, uintptr(unsafe.Pointer(&remote)), 1, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// readBatch reads several regions with one process_vm_readv into buf,
// one after the other. It fails unless every byte was read; the caller
// then reads them one by one.
func (m memReader) readBatch(addrs []uint64, lens []int, buf []byte) error {
	var localArr [8]unix.Iovec
	var remoteArr [8]unix.RemoteIovec
	local, remote := localArr[:0], remoteArr[:0]
	if len(addrs) > len(localArr) {
		if len(addrs) > maxIovecs {
			return unix.EINVAL
		}
		local = make([]unix.Iovec, 0, len(addrs))
		remote = make([]unix.RemoteIovec, 0, len(addrs))
	}
	off := 0
	for i, a := range addrs {
		if lens[i] == 0 {
			continue
		}
		local = append(local, unix.Iovec{Base: &buf[off], Len: uint64(lens[i])})
		remote = append(remote, unix.RemoteIovec{Base: uintptr(a), Len: lens[i]})
		off += lens[i]
	}
	if len(local) == 0 {
		return nil
	}
	n, _, e := unix.RawSyscall6(unix.SYS_PROCESS_VM_READV, uintptr(m.pid),
		uintptr(unsafe.Pointer(&local[0])), uintptr(len(local)),
		uintptr(unsafe.Pointer(&remote[0])), uintptr(len(remote)), 0)
	if e != 0 {
		return e
	}
	if int(n) != off {
		return unix.EFAULT
	}
	return nil
}

// errNoTerminator is returned when a string is longer than the limit.
var errNoTerminator = errors.New("string longer than the capture limit")

// readString reads a NUL-terminated string of at most limit bytes,
// without the NUL. It reads page by page so it never faults on the page
// after the string.
func (m memReader) readString(addr uint64, limit int) ([]byte, error) {
	if addr == 0 {
		return nil, unix.EFAULT
	}
	var out []byte
	var page [pageSize]byte
	for len(out) < limit {
		chunk := int(pageSize - addr%pageSize)
		n, err := m.readInto(addr, page[:chunk])
		if i := bytes.IndexByte(page[:n], 0); i >= 0 {
			return append(out, page[:i]...), nil
		}
		out = append(out, page[:n]...)
		if err != nil {
			return out, err
		}
		addr += uint64(chunk)
	}
	return out[:limit], errNoTerminator
}

// readWord reads one little-endian 64-bit word.
func (m memReader) readWord(addr uint64) (uint64, error) {
	var b [8]byte
	if _, err := m.readInto(addr, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// readU32 reads one little-endian 32-bit value (socklen_t, int).
func (m memReader) readU32(addr uint64) (uint32, error) {
	var b [4]byte
	if _, err := m.readInto(addr, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// write copies b into the tracee at addr with process_vm_writev. Only
// memory the tracee may write is written: a read-only page fails.
func (m memReader) write(addr uint64, b []byte) error {
	for len(b) > 0 {
		local := unix.Iovec{Base: &b[0], Len: uint64(len(b))}
		remote := unix.RemoteIovec{Base: uintptr(addr), Len: len(b)}
		n, _, e := unix.RawSyscall6(unix.SYS_PROCESS_VM_WRITEV, uintptr(m.pid),
			uintptr(unsafe.Pointer(&local)), 1, uintptr(unsafe.Pointer(&remote)), 1, 0)
		if e != 0 {
			return e
		}
		if n == 0 {
			return unix.EFAULT
		}
		b, addr = b[n:], addr+uint64(n)
	}
	return nil
}
