package bpf

import "time"

// FilterKind says which tasks a Probe records.
type FilterKind uint8

const (
	// FilterTree records the processes added with Probe.Track and every
	// process and thread they create afterwards (followed at
	// sched_process_fork).
	FilterTree FilterKind = 1
	// FilterCgroup records every task whose cgroup v2 id is Filter.Cgroup
	// (a container's cgroup), including processes already running.
	FilterCgroup FilterKind = 2
)

// Filter selects the tasks a Probe records.
type Filter struct {
	Kind   FilterKind
	Cgroup uint64 // FilterCgroup: the cgroup v2 id (the inode number of its directory)
}

// Options configures a Probe.
type Options struct {
	Filter Filter
	// RingSize is the ring buffer's size in bytes: a power of two, at
	// least one page. 0: DefaultRingSize(runtime.NumCPU()).
	RingSize int
	// MaxCapture is the most bytes captured of one buffer; longer
	// buffers are captured up to it and marked truncated. Strings and
	// string arrays are not limited by it (as in the ptrace backend). 0:
	// DefaultMaxCapture.
	MaxCapture uint32
	// Syscalls describes, per syscall number, what to capture; built from
	// the syscall table (see DescribeTable). Calls without an entry are
	// recorded with their registers only.
	Syscalls map[uint32]SyscallDesc
	// Ioctls, Fcntls and Prctls give the size and direction of the
	// argument behind an ioctl request, fcntl command and prctl option.
	Ioctls, Fcntls, Prctls map[uint64]SizeDir
	// Poll is how often Read looks into the ring buffer when nothing woke
	// it: the program wakes the reader only when the ring is a quarter
	// full, so this bounds how late a record is read. 0: DefaultPoll.
	Poll time.Duration
}

// Defaults.
const (
	DefaultMaxCapture = 64 << 10
	DefaultPoll       = 5 * time.Millisecond
)

// The ring's default size follows the rate at which it can fill: every
// CPU running a traced task writes into it, and the reader empties it
// every DefaultPoll, sooner when a quarter full wakes it. Measured on a
// 2-vCPU VM at a load average of 20 (ReaderStats.PeakFill), the fullest
// an 8 MiB ring got was 2.5 MiB for a call-dense program (cloop: 600,000
// calls, 190 MB through the ring) and 1.3 MiB for 20 python3 starts; a
// dd of 64 KiB blocks at 150 MB/s overflows it, as it overflowed the
// 64 MiB ring this replaced, which cost 128 MiB of the recorder's
// memory. What does not fit is lost and counted, whatever the size.
const (
	RingPerCPU     = 4 << 20
	MinDefaultRing = 8 << 20
	MaxDefaultRing = 64 << 20
)

// DefaultRingSize is the ring size of a recording that asks for none on
// a machine whose traced tasks can run on cpus CPUs: RingPerCPU each,
// rounded up to a power of two, between MinDefaultRing and
// MaxDefaultRing. The ring's pages are mapped twice in the reader (to
// read records across its end), so its share of the recorder's memory is
// up to twice this.
func DefaultRingSize(cpus int) int {
	n := MinDefaultRing
	for n < cpus*RingPerCPU && n < MaxDefaultRing {
		n *= 2
	}
	return n
}

// SizeDir is the size of a struct argument and whether the call reads it
// (DirIn), writes it (DirOut) or both (DirIn|DirOut).
type SizeDir struct {
	Size uint32
	Dir  uint8
}

// Directions, as trace.Dir.
const (
	DirIn  = 1
	DirOut = 2
)

// SyscallDesc is one syscall table row as the eBPF program uses it.
type SyscallDesc struct {
	Skip bool // NoStop: never recorded (as the ptrace backend's seccomp filter lets it through)
	// AtEntry: the call replaces the image (execve, execveat), so its
	// memory is gone by the exit: when it succeeds, its buffers are
	// captured before, at the exec event, from the new image (its Path
	// arguments from AT_EXECFN, its string arrays from the argument and
	// environment areas), as the ptrace backend captures them. When it
	// fails they are captured at its exit like any call's.
	AtEntry bool
	// NoReturn: the call never returns (exit, exit_group): emitted at entry.
	NoReturn bool
	Args     [6]ArgDesc
}

// ArgDesc says what to capture behind one argument: a copy of systable's
// Kind and Len for that argument, as numbers (see systable.Kind,
// systable.LenFrom). Kind 0 captures nothing.
type ArgDesc struct {
	Kind    uint8  // systable.Kind of the pointer kinds; 0 for none
	LenFrom uint8  // systable.LenFrom
	LenArg  uint8  // systable.Len.Arg
	Size    uint32 // systable.Len.Size
	// Int32: this argument's C type is 32 bits wide (systable.Arg.Int32),
	// so a length taken from it uses only the register's low half, as
	// systable.Syscall.Value does.
	Int32 bool
}

// Record is one decoded ring buffer record: exactly one field is set.
type Record struct {
	Call  *Call
	Chunk *Chunk
	Fork  *Fork
	Exec  *Exec
	Exit  *Exit
}

// Call is one system call, emitted at its exit (at entry for NoReturn
// calls). The chunks of its buffers follow it, or precede it for AtEntry
// calls that succeed; Bufs says how many bytes of each to expect. A call in flight when
// its thread exits (killed in a blocking call) is emitted at the exit, with
// NoReturn set and only what it read captured.
type Call struct {
	TID, TGID uint32
	// TSeq numbers the thread's recorded calls from 1, assigned at entry:
	// a gap means calls were lost.
	TSeq     uint64
	Nr       uint32
	Args     [6]uint64
	Ret      int64
	NoReturn bool
	// Compat: the call came in through the i386 ABI (the task's
	// TS_COMPAT): Nr is its i386 number, and nothing else is filled in
	// (no arguments, TSeq 0, not captured). The probe sends one per
	// thread.
	Compat bool
	Enter  time.Duration // CLOCK_MONOTONIC (bpf_ktime_get_ns)
	Exit   time.Duration // 0 with NoReturn
	Bufs   []Buf
}

// Buf describes one captured region of a call.
type Buf struct {
	Arg  uint8
	Part uint8  // trace.Part
	Dir  uint8  // DirIn or DirOut
	Addr uint64 // user address
	Len  uint64 // the region's length as the kernel used it
	// Want is how many bytes of it are sent in chunks (min(Len,
	// MaxCapture)); Len > Want means truncated. Strings: Len is the
	// string's length as read (without the NUL).
	Want  uint32
	Fault bool // the memory could not be read
	// Truncated: not all of it was captured. Set when Len > Want, and
	// also for a string longer than 4096 bytes (Len = Want = 4096, as the
	// ptrace backend reports it) and a string array with such a string
	// or an unreadable one (kept as an empty string).
	Truncated bool
}

// Chunk is a piece of a buffer's bytes.
type Chunk struct {
	TID  uint32
	TSeq uint64
	Buf  uint8  // index in Call.Bufs
	Off  uint32 // offset in the buffer
	Data []byte
	// Fault: reading the memory failed within this chunk; Data holds the
	// bytes before the fault (possibly none). A flat buffer ends there; an
	// iovec array goes on with its next element right after those bytes,
	// as the ptrace backend concatenates them. The buffer's Mem gets
	// trace.Fault. Chunks of one buffer are sent in order.
	Fault bool
}

// Fork: a task created another (sched_process_fork). Thread is set when
// the child shares the parent's thread group.
type Fork struct {
	ParentTID, ParentTGID uint32
	ChildTID, ChildTGID   uint32
	Thread                bool
	Time                  time.Duration
}

// Exec: a task replaced its image (sched_process_exec). OldTID is the tid
// that called execve (a non-leader thread takes the leader's tid).
type Exec struct {
	TID, TGID, OldTID uint32
	Filename          string
	Time              time.Duration
	// Secure: the exec changed the task's privileges (a set-user-ID,
	// set-group-ID or file-capability program: the kernel's
	// bprm->secureexec, AT_SECURE).
	Secure bool
}

// Exit: a task exited (sched_process_exit). Code is the wait status as
// the kernel keeps it (task->exit_code); GroupDead is set for the last
// task of its thread group.
type Exit struct {
	TID, TGID uint32
	Code      uint32
	GroupDead bool
	Time      time.Duration
}

// Lost counts what the program could not deliver.
type Lost struct {
	Calls  uint64 // call records dropped (the ring buffer was full)
	Chunks uint64 // chunk records dropped: their calls' buffers are incomplete
	Procs  uint64 // fork, exec, exit records dropped
}
