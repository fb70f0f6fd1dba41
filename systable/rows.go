package systable

// Constructors that keep the per-architecture tables short, in the style
// of gVisor's makeSyscallInfo: one line per call reads like its C
// prototype. They are used only while a table is built.

// Argument constructors. Kinds that are 32-bit in C (fds, pids, signals,
// modes, int flags) set Arg.Int32.
func fd(name string) Arg    { return Arg{Name: name, Kind: FD, Int32: true} }
func dirfd(name string) Arg { return Arg{Name: name, Kind: DirFD, Int32: true} }
func path(name string) Arg  { return Arg{Name: name, Kind: Path} }
func str(name string) Arg   { return Arg{Name: name, Kind: String} }
func i64(name string) Arg   { return Arg{Name: name, Kind: Int} }
func i32(name string) Arg   { return Arg{Name: name, Kind: Int, Int32: true} }
func hex(name string) Arg   { return Arg{Name: name, Kind: Hex} }
func ptr(name string) Arg   { return Arg{Name: name, Kind: Ptr} }
func mode(name string) Arg  { return Arg{Name: name, Kind: Mode, Int32: true} }
func sig(name string) Arg   { return Arg{Name: name, Kind: Signal, Int32: true} }
func pid(name string) Arg   { return Arg{Name: name, Kind: PID, Int32: true} }
func argv(name string) Arg  { return Arg{Name: name, Kind: StrArray} }

// flg is a 32-bit flags argument, flg64 one the kernel takes as unsigned
// long, enm a 32-bit enum.
func flg(name string, fs *FlagSet) Arg   { return Arg{Name: name, Kind: Flags, Flags: fs, Int32: true} }
func flg64(name string, fs *FlagSet) Arg { return Arg{Name: name, Kind: Flags, Flags: fs} }
func enm(name string, fs *FlagSet) Arg   { return Arg{Name: name, Kind: Enum, Flags: fs, Int32: true} }

// Buffers.
func inb(name string, l Len, st string) Arg { return Arg{Name: name, Kind: InBuf, Len: l, Struct: st} }
func outb(name string, l Len, st string) Arg {
	return Arg{Name: name, Kind: OutBuf, Len: l, Struct: st}
}
func inoutb(name string, l Len, st string) Arg {
	return Arg{Name: name, Kind: InOutBuf, Len: l, Struct: st}
}
func iovIn(name string, count uint8) Arg {
	return Arg{Name: name, Kind: InIovec, Len: byArg(count), Struct: "struct iovec"}
}
func iovOut(name string, count uint8) Arg {
	return Arg{Name: name, Kind: OutIovec, Len: byArg(count), Struct: "struct iovec"}
}
func msgIn(name string) Arg  { return Arg{Name: name, Kind: InMsghdr, Struct: "struct msghdr"} }
func msgOut(name string) Arg { return Arg{Name: name, Kind: OutMsghdr, Struct: "struct msghdr"} }

// mmsgIn and mmsgOut are arrays of struct mmsghdr whose entry count is
// argument vlen (sendmmsg, recvmmsg).
func mmsgIn(name string, vlen uint8) Arg {
	return Arg{Name: name, Kind: InMmsghdr, Len: byArg(vlen), Struct: "struct mmsghdr[]"}
}
func mmsgOut(name string, vlen uint8) Arg {
	return Arg{Name: name, Kind: OutMmsghdr, Len: byArg(vlen), Struct: "struct mmsghdr[]"}
}

// Lengths.
func fixed(n uint32) Len              { return Len{From: LenFixed, Size: n} }
func byArg(i uint8) Len               { return Len{From: LenArg, Arg: i} }
func byArgN(i uint8, size uint32) Len { return Len{From: LenArg, Arg: i, Size: size} }
func byRet() Len                      { return Len{From: LenRet} }
func byRetN(size uint32) Len          { return Len{From: LenRet, Size: size} }

// byRetUpTo and byRetNUpTo are byRet and byRetN for a buffer whose
// capacity argument i bounds (read's count): replay writes no further.
func byRetUpTo(i uint8) Len { return Len{From: LenRet, Arg: i, Bounded: true} }
func byRetNUpTo(size uint32, i uint8) Len {
	return Len{From: LenRet, Size: size, Arg: i, Bounded: true}
}
func byArgPtr(i uint8) Len                { return Len{From: LenArgPtr, Arg: i} }
func byMinArgRet(i uint8) Len             { return Len{From: LenMinArgRet, Arg: i} }
func byFdSet(i uint8) Len                 { return Len{From: LenFdSet, Arg: i} }
func byRequest(from LenFrom, i uint8) Len { return Len{From: from, Arg: i} }

// sc is a detailed, replayable row.
func sc(nr int, name string, ret Kind, eff Effect, args ...Arg) Syscall {
	return Syscall{Nr: nr, Name: name, Args: args, Ret: ret, Effects: eff, Policy: Replayable}
}

// always makes a row run for real in every mode.
func (s Syscall) always() Syscall { s.Policy = AlwaysExecute; return s }

// nostop lets a row through the seccomp filter unrecorded; such a call
// also always executes.
func (s Syscall) nostop(why string) Syscall {
	s.NoStop, s.Why, s.Policy = true, why, AlwaysExecute
	return s
}

// when adds effects that depend on an argument's value.
func (s Syscall) when(c ...CondEffect) Syscall {
	s.Cond = append(append([]CondEffect(nil), s.Cond...), c...)
	return s
}

// also adds effects.
func (s Syscall) also(e Effect) Syscall { s.Effects |= e; return s }

// metadata marks a call that reports an object's attributes, not what it
// holds (Syscall.Metadata).
func (s Syscall) metadata() Syscall { s.Metadata = true; return s }

// unseen marks a call that reveals a limit of tracing (Unseen).
func (s Syscall) unseen(u Unseen) Syscall { s.Unseen = u; return s }

// readsData marks a call that reads a file's bytes from its first fd
// (Syscall.ReadsData).
func (s Syscall) readsData() Syscall { s.ReadsData = true; return s }

// makes names the object a path-less fd-making call makes.
func (s Syscall) makes(kind string, external bool) Syscall {
	s.Makes = &Object{Kind: kind, External: external}
	return s
}

// unknown is a row known by name and number only.
func unknown(nr int, name string) Syscall {
	return Syscall{Nr: nr, Name: name, Unknown: true, Policy: AlwaysExecute}
}

// ifBits is a CondEffect that holds when argument arg has any of mask's
// bits set; ifNonZero one that holds when it is not zero (a pointer that
// is passed).
func ifBits(arg uint8, mask uint64, e Effect) CondEffect {
	return CondEffect{Arg: arg, Mask: mask, Effect: e}
}
func ifNonZero(arg uint8, e Effect) CondEffect { return ifBits(arg, ^uint64(0), e) }
