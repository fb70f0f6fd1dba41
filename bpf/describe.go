package bpf

import "github.com/envbisect/envbisect/systable"

// DescribeTable derives, from the syscall table's rows, everything the
// eBPF program needs to know about system calls: per syscall number what
// to capture behind each argument, and the size and direction of the
// memory behind each ioctl request, fcntl command and prctl option that
// the table sizes. Nothing about a particular call is written in the
// program or here: the rows are the only source.
//
//   - A NoStop row is skipped (Skip), as the ptrace backend's seccomp
//     filter lets it through.
//   - A row that execs an image (systable.ExecsImage) is captured at
//     entry (AtEntry): its memory is gone by the exit.
//   - A row that ends its thread (systable.EndsThread) never returns
//     (NoReturn) and is emitted at entry.
//
// The request maps are keyed by the request's 32-bit value (the kernel
// takes ioctl's request, fcntl's command and prctl's option as int), and
// enumerate the values of the request argument's flag set: every request
// the table can name.
func DescribeTable(tab *systable.Table) (syscalls map[uint32]SyscallDesc, ioctls, fcntls, prctls map[uint64]SizeDir) {
	syscalls = make(map[uint32]SyscallDesc)
	ioctls = make(map[uint64]SizeDir)
	fcntls = make(map[uint64]SizeDir)
	prctls = make(map[uint64]SizeDir)
	for _, row := range tab.All() {
		d := SyscallDesc{
			Skip:     row.NoStop,
			AtEntry:  row.Effects&systable.ExecsImage != 0,
			NoReturn: row.Effects&systable.EndsThread != 0,
		}
		for i := range row.Args {
			if i >= len(d.Args) {
				break
			}
			a := &row.Args[i]
			d.Args[i].Int32 = a.Int32
			if !captured(a.Kind) {
				continue
			}
			d.Args[i].Kind = uint8(a.Kind)
			d.Args[i].LenFrom = uint8(a.Len.From)
			d.Args[i].LenArg = a.Len.Arg
			d.Args[i].Size = a.Len.Size
			for _, req := range requestValues(row, a) {
				switch a.Len.From {
				case systable.LenIoctl:
					if io, ok := tab.Ioctl(req); ok && io.Size > 0 {
						ioctls[uint64(uint32(req))] = SizeDir{Size: io.Size, Dir: dirOf(io.Dir)}
					}
				case systable.LenFcntl:
					if n, dir := systable.FcntlSize(req); n > 0 {
						fcntls[uint64(uint32(req))] = SizeDir{Size: n, Dir: dirOf(dir)}
					}
				case systable.LenPrctl:
					if n, dir := systable.PrctlSize(req); n > 0 {
						prctls[uint64(uint32(req))] = SizeDir{Size: n, Dir: dirOf(dir)}
					}
				}
			}
		}
		syscalls[uint32(row.Nr)] = d
	}
	return syscalls, ioctls, fcntls, prctls
}

// captured reports whether the program reads user memory behind an
// argument of kind k.
func captured(k systable.Kind) bool {
	switch k {
	case systable.Path, systable.String, systable.InBuf, systable.OutBuf, systable.InOutBuf,
		systable.StrArray, systable.InIovec, systable.OutIovec, systable.InMsghdr, systable.OutMsghdr:
		return true
	}
	return false
}

// requestValues lists the values the request argument of a buffer sized
// by its request (LenIoctl, LenFcntl, LenPrctl) can be named with.
func requestValues(row *systable.Syscall, a *systable.Arg) []uint64 {
	switch a.Len.From {
	case systable.LenIoctl, systable.LenFcntl, systable.LenPrctl:
	default:
		return nil
	}
	if int(a.Len.Arg) >= len(row.Args) || row.Args[a.Len.Arg].Flags == nil {
		return nil
	}
	fs := row.Args[a.Len.Arg].Flags
	out := make([]uint64, 0, len(fs.Enum))
	for _, v := range fs.Enum {
		out = append(out, v.Value)
	}
	return out
}

// dirOf turns the Kind systable gives a request's memory into SizeDir's
// direction bits.
func dirOf(k systable.Kind) uint8 {
	switch k {
	case systable.InBuf:
		return DirIn
	case systable.OutBuf:
		return DirOut
	default:
		return DirIn | DirOut
	}
}
