package render

import (
	"strconv"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// fakeRows is a small syscall table written by the tests, so that they
// do not depend on the real table's contents.
type fakeRows map[int]*systable.Syscall

func (f fakeRows) ByNr(nr int) *systable.Syscall {
	if r, ok := f[nr]; ok {
		return r
	}
	return &systable.Syscall{Nr: nr, Name: "syscall_" + strconv.Itoa(nr), Unknown: true}
}

func (f fakeRows) Ioctl(req uint64) (systable.Ioctl, bool) {
	if req == 0x5401 {
		return systable.Ioctl{Name: "TCGETS", Size: 60, Dir: systable.OutBuf}, true
	}
	return systable.Ioctl{}, false
}

var openFlags = &systable.FlagSet{
	Name: "open flags", Mask: 3,
	Enum: []systable.FlagValue{{Name: "O_RDONLY", Value: 0}, {Name: "O_WRONLY", Value: 1}, {Name: "O_RDWR", Value: 2}},
	Bits: []systable.FlagValue{{Name: "O_CREAT", Value: 0o100}, {Name: "O_TRUNC", Value: 0o1000}, {Name: "O_CLOEXEC", Value: 0o2000000}},
}

var atFlags = &systable.FlagSet{Name: "at flags", Bits: []systable.FlagValue{{Name: "AT_SYMLINK_NOFOLLOW", Value: 0x100}, {Name: "AT_EMPTY_PATH", Value: 0x1000}}}

// Numbers are amd64's.
const (
	nrRead       = 0
	nrWrite      = 1
	nrMmap       = 9
	nrIoctl      = 16
	nrWritev     = 20
	nrConnect    = 42
	nrAccept     = 43
	nrExecve     = 59
	nrKill       = 62
	nrUname      = 63
	nrUmask      = 95
	nrGetdents64 = 217
	nrExitGroup  = 231
	nrOpenat     = 257
	nrNewfstatat = 262
	nrPipe2      = 293
	nrPrlimit64  = 302
)

var testRows = fakeRows{
	nrRead: {Nr: nrRead, Name: "read", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "buf", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenRet}}, {Name: "count", Kind: systable.Int}},
		Ret: systable.Int, Effects: systable.UsesFD},
	nrWrite: {Nr: nrWrite, Name: "write", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "buf", Kind: systable.InBuf, Len: systable.Len{From: systable.LenArg, Arg: 2}}, {Name: "count", Kind: systable.Int}},
		Ret: systable.Int, Effects: systable.UsesFD},
	nrMmap: {Nr: nrMmap, Name: "mmap", Args: []systable.Arg{{Name: "addr", Kind: systable.Ptr}, {Name: "length", Kind: systable.Int},
		{Name: "prot", Kind: systable.Hex}, {Name: "flags", Kind: systable.Hex}, {Name: "fd", Kind: systable.FD}, {Name: "offset", Kind: systable.Hex}},
		Ret: systable.Hex, Effects: systable.MapsMemory},
	nrIoctl: {Nr: nrIoctl, Name: "ioctl", Args: []systable.Arg{{Name: "fd", Kind: systable.FD}, {Name: "request", Kind: systable.Enum},
		{Name: "arg", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenIoctl}}}, Ret: systable.Int, Effects: systable.UsesFD},
	nrWritev: {Nr: nrWritev, Name: "writev", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "iov", Kind: systable.InIovec, Len: systable.Len{From: systable.LenArg, Arg: 2}}, {Name: "iovcnt", Kind: systable.Int}},
		Ret: systable.Int, Effects: systable.UsesFD},
	nrConnect: {Nr: nrConnect, Name: "connect", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "addr", Kind: systable.InBuf, Len: systable.Len{From: systable.LenArg, Arg: 2}, Struct: "struct sockaddr"},
		{Name: "addrlen", Kind: systable.Int}}, Ret: systable.Int, Effects: systable.UsesFD | systable.ConnectsAddress},
	nrAccept: {Nr: nrAccept, Name: "accept", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "addr", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenArgPtr, Arg: 2}, Struct: "struct sockaddr"},
		{Name: "addrlen", Kind: systable.InOutBuf, Len: systable.Len{From: systable.LenFixed, Size: 4}, Struct: "socklen_t"}},
		Ret: systable.FD, Effects: systable.UsesFD | systable.CreatesFD | systable.AcceptsConn},
	nrExecve: {Nr: nrExecve, Name: "execve", Args: []systable.Arg{{Name: "filename", Kind: systable.Path},
		{Name: "argv", Kind: systable.StrArray}, {Name: "envp", Kind: systable.StrArray, Holds: systable.HoldsEnviron}}, Ret: systable.Int, Effects: systable.ExecsImage},
	nrKill: {Nr: nrKill, Name: "kill", Args: []systable.Arg{{Name: "pid", Kind: systable.PID}, {Name: "sig", Kind: systable.Signal}},
		Ret: systable.Int, Effects: systable.SignalsProcess},
	nrUname: {Nr: nrUname, Name: "uname", Args: []systable.Arg{{Name: "buf", Kind: systable.OutBuf,
		Len: systable.Len{From: systable.LenFixed, Size: 390}, Struct: "struct new_utsname"}}, Ret: systable.Int},
	nrUmask: {Nr: nrUmask, Name: "umask", Args: []systable.Arg{{Name: "mask", Kind: systable.Mode}}, Ret: systable.Int},
	nrGetdents64: {Nr: nrGetdents64, Name: "getdents64", Args: []systable.Arg{{Name: "fd", Kind: systable.FD},
		{Name: "dirp", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenRet}, Struct: "struct linux_dirent64"},
		{Name: "count", Kind: systable.Int}}, Ret: systable.Int, Effects: systable.UsesFD},
	nrExitGroup: {Nr: nrExitGroup, Name: "exit_group", Args: []systable.Arg{{Name: "status", Kind: systable.Int}},
		Ret: systable.Int, Effects: systable.EndsThread},
	nrOpenat: {Nr: nrOpenat, Name: "openat", Args: []systable.Arg{{Name: "dirfd", Kind: systable.DirFD},
		{Name: "pathname", Kind: systable.Path}, {Name: "flags", Kind: systable.Flags, Flags: openFlags}, {Name: "mode", Kind: systable.Mode}},
		Ret: systable.FD, Effects: systable.CreatesFD | systable.NamesPath},
	nrNewfstatat: {Nr: nrNewfstatat, Name: "newfstatat", Args: []systable.Arg{{Name: "dirfd", Kind: systable.DirFD},
		{Name: "pathname", Kind: systable.Path},
		{Name: "statbuf", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenFixed, Size: 144}, Struct: "struct stat"},
		{Name: "flags", Kind: systable.Flags, Flags: atFlags}}, Ret: systable.Int, Effects: systable.NamesPath},
	nrPipe2: {Nr: nrPipe2, Name: "pipe2", Args: []systable.Arg{{Name: "pipefd", Kind: systable.OutBuf,
		Len: systable.Len{From: systable.LenFixed, Size: 8}, Struct: "int[2]"}, {Name: "flags", Kind: systable.Flags, Flags: openFlags}},
		Ret: systable.Int, Effects: systable.CreatesFDPair},
	nrPrlimit64: {Nr: nrPrlimit64, Name: "prlimit64", Args: []systable.Arg{{Name: "pid", Kind: systable.PID},
		{Name: "resource", Kind: systable.Int},
		{Name: "new_limit", Kind: systable.InBuf, Len: systable.Len{From: systable.LenFixed, Size: 16}, Struct: "struct rlimit64"},
		{Name: "old_limit", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenFixed, Size: 16}, Struct: "struct rlimit64"}},
		Ret: systable.Int, Effects: systable.ChangesLimits},
}

// call builds a call of process 1, thread 1.
func call(nr uint32, ret int64, args ...uint64) *trace.Call {
	c := &trace.Call{Seq: 1, Proc: 1, Thread: 1, TSeq: 1, PID: 100, TID: 100, Nr: nr, Ret: ret}
	copy(c.Args[:], args)
	return c
}

// withMem adds captured memory to c.
func withMem(c *trace.Call, mems ...trace.Mem) *trace.Call {
	c.Mem = append(c.Mem, mems...)
	return c
}

// in and out are captured buffers of argument arg holding data.
func in(arg uint8, data string) trace.Mem {
	return trace.Mem{Arg: arg, Dir: trace.In, Len: uint64(len(data)), Data: []byte(data)}
}

func out(arg uint8, data string) trace.Mem {
	return trace.Mem{Arg: arg, Dir: trace.Out, Len: uint64(len(data)), Data: []byte(data)}
}

// part sets the Part of m.
func part(m trace.Mem, p trace.Part) trace.Mem {
	m.Part = p
	return m
}
