package trace

// Call is one system call made by a traced thread.
type Call struct {
	Seq    uint64    `cbor:"1,keyasint"`           // global order, 1-based: the number every report uses
	Proc   uint32    `cbor:"2,keyasint"`           // logical process, see ProcEvent
	Thread uint32    `cbor:"3,keyasint"`           // logical thread, see ProcEvent
	TSeq   uint64    `cbor:"4,keyasint"`           // order within the thread, 1-based
	PID    int32     `cbor:"5,keyasint,omitempty"` // kernel tgid at record time
	TID    int32     `cbor:"6,keyasint,omitempty"` // kernel tid at record time
	Nr     uint32    `cbor:"7,keyasint"`           // syscall number for the header's Arch
	Args   [6]uint64 `cbor:"8,keyasint"`           // raw argument registers at entry
	// Ret is the raw return register. Values in [-4095, -1] are -errno.
	Ret   int64 `cbor:"9,keyasint"`
	Enter int64 `cbor:"11,keyasint"` // ns since Header.Started
	Exit  int64 `cbor:"12,keyasint"` // ns since Header.Started, 0 with NoReturn
	// Path is the absolute path the call names (its first path argument,
	// resolved against the cwd or dirfd), or the path its fd argument
	// refers to ("pipe:[123]", "socket:[456]" for anonymous objects).
	Path string `cbor:"13,keyasint,omitempty"`
	// Path2 is the second path of two-path calls (rename, link, symlink).
	Path2 string `cbor:"14,keyasint,omitempty"`
	// Mem holds the user memory the call read (In, captured at entry) and
	// wrote (Out, captured at exit), as the syscall table describes.
	Mem []Mem `cbor:"15,keyasint,omitempty"`
	// Gap counts the calls of this thread that were lost just before
	// this one: the eBPF recorder's ring buffer was full. Those calls are
	// not in the trace.
	Gap uint64 `cbor:"16,keyasint,omitempty"`
	// NoReturn is set when the call never returned to the thread (exit,
	// exit_group, a successful execve seen from a thread that vanished, a
	// thread killed mid-call). Ret is then meaningless. (It sits with
	// Denied, out of its key's order, so that the two share a word: a
	// Call is 208 bytes, not 216 rounded up to 224, and a million of them
	// are held by call-level locate.)
	NoReturn bool `cbor:"10,keyasint,omitempty"`
	// Denied is set when the process's own seccomp filter answered the
	// call with its errno (Ret): the call never ran.
	Denied bool `cbor:"17,keyasint,omitempty"`
	// Obj is the FileObject the call gave the program or ran: the
	// regular file a successful open, openat, openat2 or creat opened
	// for reading, the image a successful execve or execveat ran. 0:
	// none (v1 traces, other calls, files record did not keep).
	Obj uint32 `cbor:"18,keyasint,omitempty"`
	// Dirs are the parent directories of Path and Path2 that no earlier
	// call of the trace named a path under, as record found them after
	// the call (deepest last): for the explanation of a call denied
	// here. Empty in traces written before they were recorded.
	Dirs []DirStat `cbor:"19,keyasint,omitempty"`
}

// Incomplete reports whether part of the call's recorded memory was lost
// on the way to the trace (Mem flagged Lost): its results cannot be
// replayed. Memory cut on purpose (Truncated, Excluded) is not lost.
func (c *Call) Incomplete() bool {
	for i := range c.Mem {
		if c.Mem[i].Flag&Lost != 0 {
			return true
		}
	}
	return false
}

// Errno returns the error number the call failed with, or 0.
func (c *Call) Errno() int {
	if c.NoReturn || c.Ret >= 0 || c.Ret < -4095 {
		return 0
	}
	return int(-c.Ret)
}

// Restarted reports whether the call was interrupted by a signal with
// one of the kernel's internal restart codes (ERESTARTSYS, ERESTARTNOINTR,
// ERESTARTNOHAND, ERESTART_RESTARTBLOCK, 512 to 516): the kernel either
// restarts the call or turns the code into EINTR, and the program never
// sees it. Such a result must not be replayed.
func (c *Call) Restarted() bool { return c.Ret <= -512 && c.Ret >= -516 }

// MemOf returns the captured memory of argument arg and part p, or nil.
// An argument the kernel reads and writes (an InOutBuf) has a Mem of
// each direction; MemOf returns the first, MemOfDir the one asked for.
func (c *Call) MemOf(arg uint8, p Part) *Mem { return c.MemOfDir(arg, p, 0) }

// MemOfEntry returns the memory of part p of entry entry of an mmsghdr
// array argument arg, captured in direction dir (0: either), or nil.
func (c *Call) MemOfEntry(arg uint8, p Part, dir Dir, entry uint32) *Mem {
	for i := range c.Mem {
		if m := &c.Mem[i]; m.Arg == arg && m.Part == p && m.Entry == entry && (dir == 0 || m.Dir == dir) {
			return m
		}
	}
	return nil
}

// MemOfDir returns the memory of argument arg and part p captured in
// direction dir (0: either), or nil: the one place that finds a call's
// captured memory for an argument.
func (c *Call) MemOfDir(arg uint8, p Part, dir Dir) *Mem {
	for i := range c.Mem {
		if m := &c.Mem[i]; m.Arg == arg && m.Part == p && (dir == 0 || m.Dir == dir) {
			return m
		}
	}
	return nil
}
