package systable

// Kind says what an argument register holds and, for pointers, how much
// user memory behind it the call reads or writes.
type Kind uint8

const (
	Int       Kind = iota + 1 // a plain integer (printed in decimal)
	Hex                       // an integer best printed in hex (addresses, masks, ioctl requests)
	Ptr                       // a pointer whose memory is not captured
	FD                        // a file descriptor
	DirFD                     // a directory fd for *at calls (AT_FDCWD prints by name)
	Path                      // a NUL-terminated path, read at entry
	String                    // a NUL-terminated string that is not a path (names, xattr names), read at entry
	Flags                     // a bit set, printed with Arg.Flags
	Enum                      // one value of Arg.Flags (a mode, an fcntl command, an ioctl request)
	Mode                      // file permission bits (octal)
	Signal                    // a signal number
	PID                       // a process or thread id
	InBuf                     // memory the call reads: length from Arg.Len
	OutBuf                    // memory the call writes: length from Arg.Len
	InOutBuf                  // memory read at entry and written at exit (pollfd, fd_set, socklen_t)
	StrArray                  // NULL-terminated array of string pointers (argv, envp)
	InIovec                   // struct iovec array the call reads; count from Arg.Len
	OutIovec                  // struct iovec array the call fills; total bounded by the return value
	InMsghdr                  // struct msghdr the call reads (sendmsg)
	OutMsghdr                 // struct msghdr the call fills (recvmsg)
	// InMmsghdr is an array of struct mmsghdr whose messages the call
	// sends (sendmmsg): entries from Arg.Len's argument (vlen), each a
	// msghdr the call reads (name, iovec data, control) and a msg_len it
	// writes; the return value is the number of messages sent.
	InMmsghdr
	// OutMmsghdr is an array of struct mmsghdr the call fills (recvmmsg):
	// vlen entries from Arg.Len's argument, the first return-value many
	// of them filled (name, iovec data up to msg_len, control, msg_len).
	OutMmsghdr
)

// IsMmsghdr reports whether k is an array of struct mmsghdr.
func (k Kind) IsMmsghdr() bool { return k == InMmsghdr || k == OutMmsghdr }

// LenFrom says where the length of a buffer argument comes from.
type LenFrom uint8

const (
	LenFixed     LenFrom = iota + 1 // Arg.Size bytes
	LenArg                          // the value of argument Arg.LenArg, times Arg.Size (Size 0 means 1)
	LenRet                          // the return value, times Arg.Size (Size 0 means 1); nothing on error
	LenArgPtr                       // a socklen_t that argument Arg.LenArg points to (value-result, read after the call)
	LenMinArgRet                    // min(argument Arg.LenArg, return value): recv-style calls reporting the full length
	LenIoctl                        // decided by the ioctl request in argument 1, see Table.Ioctl
	LenFdSet                        // an fd_set sized by the nfds in argument Arg: ((nfds+63)/64)*8 bytes
	LenFcntl                        // decided by the fcntl command in argument 1, see FcntlSize
	LenPrctl                        // decided by the prctl option in argument 0, see PrctlSize
)

// Len describes the length of a buffer argument.
type Len struct {
	From LenFrom
	Arg  uint8 // index of the length argument for LenArg, LenArgPtr, LenMinArgRet; of the capacity argument for a Bounded LenRet
	Size uint32
	// Bounded says, for LenRet, that argument Arg holds the buffer's
	// capacity (in units of Size, 0 meaning 1): the most the call may
	// write, which replay must not exceed when it writes recorded data
	// into a live buffer.
	Bounded bool
}

// Arg describes one argument register.
type Arg struct {
	Name  string
	Kind  Kind
	Flags *FlagSet // for Flags and Enum
	Len   Len      // for buffer kinds
	// Struct names the C type behind a buffer, for printing ("struct stat").
	Struct string
	// Int32 says the argument's C type is 32 bits wide (int, unsigned
	// int, pid_t, uid_t, mode_t): only the low 32 bits of the register
	// count. Print an Int as int32(uint32(reg)) and match Flags and Enum
	// values against uint64(uint32(reg)); negative enum values (such as
	// RUSAGE_CHILDREN) are listed in that 32-bit form.
	Int32 bool
	// Volatile marks an output argument whose content differs between
	// any two runs by nature (the time left of a select's timeout, a
	// struct rusage): comparisons leave it out.
	Volatile bool
	// Holds says what the argument's memory means beyond its C type
	// (a path, a wait status, the environment); 0 when nothing more.
	Holds Holds
	// WrittenFD marks the fd argument, of a call passing two, whose file
	// the call writes (sendfile's out_fd, splice's fd_out).
	WrittenFD bool
	// ContentOnly marks an fd argument of which the call needs only what
	// a copy of the file behind it gives: its bytes, size and metadata
	// (read, pread, readv, mmap, fstat, lseek, sendfile's in_fd; the
	// dirfd of newfstatat and statx when their path is empty, as
	// glibc's fstat calls them), or nothing at all of it (close). An fd
	// on a stand-in holding the
	// recorded content serves it as well as the real file would, so the
	// call does not need the open that made the fd to run for real
	// (depgraph's Edge.ContentOnly).
	ContentOnly bool
}

// Effect is a bit set of what a call does to the resources envbisect
// tracks. The recorder uses it to keep fd-to-path tables, depgraph to draw
// edges, replay to decide what must run for real.
type Effect uint64

const (
	CreatesFD        Effect = 1 << iota // the return value is a new fd
	CreatesFDPair                       // writes two new fds into an int[2] argument (pipe, socketpair)
	ClosesFD                            // closes its fd argument
	DupsFD                              // the return value (or newfd argument) becomes a copy of its fd argument
	UsesFD                              // acts on the open file behind its fd argument
	NamesPath                           // looks up a path
	CreatesPath                         // may create the path it names (O_CREAT, mkdir, mknod, link target)
	RemovesPath                         // removes the path it names (unlink, rmdir, rename source)
	ChangesCwd                          // chdir, fchdir
	CreatesProcess                      // fork, vfork, clone, clone3
	ExecsImage                          // execve, execveat
	EndsThread                          // exit, exit_group
	MapsMemory                          // mmap, munmap, mprotect, brk, mremap
	ChangesSignals                      // rt_sigaction, rt_sigprocmask, sigaltstack
	WaitsChild                          // wait4, waitid
	SignalsProcess                      // kill, tgkill, tkill
	BindsAddress                        // bind
	ConnectsAddress                     // connect
	AcceptsConn                         // accept, accept4
	ChangesFDFlags                      // fcntl F_SETFD/F_SETFL, ioctl FIOCLEX
	ReadsEnvironment                    // answer depends on the environment (time, uname, random, ids)
	ChangesCreds                        // setuid and friends
	ChangesLimits                       // setrlimit, prlimit64 with a new limit
	ModifiesFile                        // changes what a later read or stat of the file behind its fd or path sees: write, truncate, chmod, setxattr
	ChangesUmask                        // umask: later created files get their mode from it
	ChangesRoot                         // chroot, pivot_root: later absolute paths resolve against a new root
	ChangesMounts                       // mount, umount2, pivot_root: what a path names changes
	ChangesNamespace                    // unshare, setns: the process moves to other namespaces
	ChangesProcess                      // a process attribute later calls observe: process group, session, name, scheduling, personality
	ClosesFDRange                       // closes (or marks close-on-exec) every fd from its first to its last fd argument: close_range
	MovesOffset                         // moves the offset of the description behind its fd, or consumes what it reads from a stream: read, write, lseek, getdents64, recvmsg, accept (not pread/pwrite)
	ChangesFDState                      // changes the state of the description behind its fd beyond what other bits say: listen, epoll_ctl, flock, inotify_add_watch
	ActsOnDirectory                     // the path or fd it acts on is a directory: mkdir, rmdir, chdir, fchdir, getdents64
)

// Policy says how replay treats a call.
type Policy uint8

const (
	// Replayable calls may be skipped and have their recorded results
	// written back.
	Replayable Policy = iota + 1
	// AlwaysExecute calls run for real in every mode: memory management,
	// process and thread life, signal state, futexes, thread-local setup.
	AlwaysExecute
)

// Syscall is one row of the table.
type Syscall struct {
	Nr      int
	Name    string
	Args    []Arg
	Ret     Kind // Int, FD, PID, Hex (addresses)
	Effects Effect
	// Makes is the kind of object an fd-making call without a path makes
	// (eventfd, timerfd, inotify ...), nil for the others.
	Makes *Object
	// Cond lists effects that depend on an argument's value (O_CREAT,
	// F_DUPFD); EffectsFor combines them with Effects.
	Cond   []CondEffect
	Policy Policy
	// NoStop marks calls the seccomp filter lets through without stopping
	// the tracee: they carry no environment content. Why says why.
	NoStop bool
	Why    string
	// Unknown rows carry only a name and number: arguments are recorded
	// raw and nothing is decoded or captured.
	Unknown bool

	// The columns below are read by align, depgraph and render; see
	// columns.go.

	// VolatileRet: the return value differs between any two runs by
	// nature (a time, clock ticks, seconds left of an alarm).
	VolatileRet bool
	// VolatileOut: all of the call's output memory is time, randomness
	// or scheduling.
	VolatileOut bool
	// Routine: every thread makes this call alike (thread-local set-up,
	// futexes, its own ids), so it says nothing of what a thread does.
	Routine bool
	// Made is the kind of object a socket, epoll or fd-pair call makes.
	Made Made
	// Wait says how a wait call's first argument selects the child.
	Wait WaitBy
	// Socket is what a call does to its socket beyond its Effects.
	Socket SocketOp
	// Unmaps: the call removes the mappings in its address range
	// (munmap, and mremap's old range).
	Unmaps bool
	// Copies: the call copies file data from one fd to another within
	// the kernel, only between files of one file system (copy_file_range:
	// EXDEV otherwise); nil for the others.
	Copies *FileCopy
	// ServesImage: the call runs an image the trace may hold (execve,
	// execveat). Its Policy stays AlwaysExecute, but where the trace
	// stores the image the call ran (trace.Call.Obj) the call can be
	// replayed: the recorded image runs in place of whatever the path
	// names here (package serve, the ptrace engine). The argument that
	// is not the environment among its string arrays is the new image's
	// argv (ImageArgs).
	ServesImage bool
	// KernelNames: the call answers with the kernel's names, a struct
	// new_utsname in its out-buffer (uname). A materialized run that puts
	// the good run's kernel release in place (no namespace gives one)
	// has the seccomp filter stop these calls, and only these
	// (Table.KernelNames), and rewrites the release and version fields
	// of their answer.
	KernelNames bool
	// Metadata: the call reports attributes of a file or directory (its
	// stat, statx, statfs, access rights, a symbolic link's target, its
	// extended attributes), not what the program reads from it. A file
	// whose content differs shows it in its stat too (another size);
	// locate names the open or the read, and such a call only when
	// nothing the program reads from the object differs.
	Metadata bool
	// Generated: when the path the call creates may be a generated name
	// (mkstemp's O_CREAT|O_EXCL open, mkdtemp's mkdir), and of which kinds
	// its generated part is (generated.go; GeneratedIn). align matches
	// such a call by its name modulo that part.
	Generated []GeneratedName
	// ReadsData: the call reads the bytes of the file behind its first fd
	// into the program's memory, and a return of 0 means the end of the
	// file (read, pread64, readv, preadv, preadv2). replay reads it: a
	// live read of nothing from an empty stand-in taints the run.
	ReadsData bool
	// Unseen: what the call tells of a program that envbisect cannot
	// see or cannot do for it (io_uring's ring, a ptrace of its own);
	// record warns of it and locate's report lists it (columns.go).
	Unseen Unseen
	// TriesAgain: on a non-blocking fd the call answers EAGAIN while
	// nothing has arrived yet (read, readv, the recv calls, accept), and
	// programs poll and make it again: a live EAGAIN where the recording
	// got an answer is a matter of timing, and the retry is the call the
	// recorded one is compared with (package replay).
	TriesAgain bool
	// OnLink: when the path the call names ends in a symbolic link, the
	// call acts on the link itself, not on what it leads to (lstat,
	// readlink, lchown, the l*xattr calls, unlink, rmdir, rename). The
	// *at calls say so with AT_SYMLINK_NOFOLLOW in their flags instead:
	// FollowsLink combines both.
	OnLink bool
	// Placement: the call's answer is the set of CPUs the process may
	// run on (sched_getaffinity), which envbisect decides when it pins
	// the command (record, replay and locate --cpu). Where it pinned the
	// command in the recording or in a run, such an answer is its own
	// doing, not the environment's: replay gives the recorded answer in
	// every run then (trace.Placement.OwnDoing), so that no run fails
	// and no search names a call for it.
	Placement bool
}

// Object is a kind of kernel object that an fd refers to without a path.
type Object struct {
	Kind string // "eventfd", "timerfd", "inotify", ...
	// External: what it reports comes from outside the traced processes
	// (time, file system events, a message queue anyone may open), so it
	// is environment; otherwise it belongs to the process.
	External bool
}
