package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// Sizes of the kernel structs x86-64 calls read and write.
const (
	statSize         = 144 // struct stat
	statxSize        = 256 // struct statx
	statfsSize       = 120 // struct statfs
	utsnameSize      = 390 // struct new_utsname
	sysinfoSize      = 112 // struct sysinfo
	timespecSize     = 16  // struct __kernel_timespec
	timevalSize      = 16  // struct __kernel_old_timeval
	timezoneSize     = 8   // struct timezone
	tmsSize          = 32  // struct tms
	rlimitSize       = 16  // struct rlimit64
	rusageSize       = 144 // struct rusage
	siginfoSize      = 128 // siginfo_t
	sigactionSize    = 32  // struct sigaction as the kernel takes it (handler, flags, restorer, mask)
	stackTSize       = 24  // stack_t
	itimervalSize    = 32  // struct itimerval
	itimerspecSize   = 32  // struct itimerspec
	pollfdSize       = 8   // struct pollfd
	epollEventSize   = 12  // struct epoll_event (packed on x86-64)
	sigeventSize     = 64  // struct sigevent
	mqAttrSize       = 64  // struct mq_attr
	timexSize        = 208 // struct __kernel_timex
	capHeaderSize    = 8   // struct __user_cap_header_struct
	capDataSize      = 24  // struct __user_cap_data_struct[2] (_LINUX_CAPABILITY_VERSION_3)
	ioUringParamSize = 120 // struct io_uring_params
	schedAttrSize    = 56  // struct sched_attr (SCHED_ATTR_SIZE_VER1)
	cachestatRange   = 16  // struct cachestat_range
	cachestatSize    = 40  // struct cachestat
	ustatSize        = 32  // struct ustat
	utimbufSize      = 16  // struct utimbuf
	intSize          = 4
	longSize         = 8
	intPairSize      = 8  // int[2]
	psel6SigSize     = 16 // pselect6's { const sigset_t *ss; size_t ss_len; }
)

// Effects shared by many rows.
const (
	pathEff    = NamesPath
	createEff  = NamesPath | CreatesPath
	removeEff  = NamesPath | RemovesPath
	renameEff  = NamesPath | RemovesPath | CreatesPath
	fdEff      = UsesFD
	writeEff   = UsesFD | ModifiesFile
	envEff     = ReadsEnvironment
	chattrEff  = NamesPath | ModifiesFile
	fchattrEff = UsesFD | ModifiesFile
)

// Why texts of the NoStop rows.
const (
	whyFutex    = "waits on or wakes a futex word in the process's own memory; the result says only whether a waiter was woken or the word changed, and replay always runs it"
	whySigmask  = "changes the calling thread's signal mask, which is process-internal state; always executed, and the old mask it returns was set by the program itself"
	whyMemAdv   = "gives the kernel paging advice or changes protections on the process's own mappings; always executed, and the mapping it acts on was recorded by mmap"
	whyThreadLS = "registers thread-local state with the kernel (robust futex list, rseq area) at an address of the program's own; always executed, result carries no environment content"
)

// amd64Rows returns the x86-64 rows: one for every number x/sys/unix
// names below 512 (512 and up are x32).
//
// Conventions the rows follow:
//   - A DirFD argument is the base of the Path argument after it.
//   - When a row names two paths (rename*, link*), RemovesPath applies to
//     the first and CreatesPath to the second; symlink's target is a
//     String (never looked up), its link path the one created.
//   - Effects that depend on an argument are in Cond: open creates its
//     path only with O_CREAT and truncates only with O_TRUNC, fcntl
//     duplicates an fd only for F_DUPFD and F_DUPFD_CLOEXEC.
//   - Policy: memory management, process and thread life, signal state,
//     futexes and thread-local setup AlwaysExecute, and so does every
//     call whose memory effects the row cannot describe (io_uring_enter);
//     the rest are Replayable. Unknown rows always execute. execve and
//     execveat always execute too, but serve their image (ServesImage):
//     where the trace stores the image they ran, they are replayed by
//     running it.
func amd64Rows() []Syscall {
	ioctlRows := amd64Ioctls()
	ioctlNames := amd64IoctlNames(ioctlRows)
	openConds := func(flagsArg uint8) []CondEffect {
		return []CondEffect{
			ifBits(flagsArg, amd64.O_CREAT, CreatesPath),
			ifBits(flagsArg, amd64.O_TRUNC, ModifiesFile),
		}
	}
	// A fresh name an open makes: O_CREAT|O_EXCL (mkstemp, tempfile,
	// mktemp, sem_open's sem.XXXXXX) may hold random characters or a pid;
	// O_CREAT alone (a shell's "> /tmp/out.$$") a pid.
	openNames := func(flagsArg uint8) []GeneratedName {
		return []GeneratedName{
			genIfFlags(flagsArg, amd64.O_CREAT|amd64.O_EXCL, GenRandom),
			genIfFlags(flagsArg, amd64.O_CREAT, GenPID),
		}
	}
	const newNS = amd64.CLONE_NEWNS | amd64.CLONE_NEWUTS | amd64.CLONE_NEWIPC | amd64.CLONE_NEWUSER |
		amd64.CLONE_NEWPID | amd64.CLONE_NEWNET | amd64.CLONE_NEWCGROUP
	sigset := func(name string, sizeArg uint8) Arg { return inb(name, byArg(sizeArg), "sigset_t") }
	oldSigset := func(name string, sizeArg uint8) Arg { return outb(name, byArg(sizeArg), "sigset_t") }
	stat := func(name string) Arg { return outb(name, fixed(statSize), "struct stat") }
	ts := func(name string) Arg { return inb(name, fixed(timespecSize), "struct timespec") }
	tsOut := func(name string) Arg { return outb(name, fixed(timespecSize), "struct timespec") }
	sockaddrIn := func(name string, lenArg uint8) Arg { return inb(name, byArg(lenArg), "struct sockaddr") }
	sockaddrOut := func(name string, lenPtrArg uint8) Arg {
		return outb(name, byArgPtr(lenPtrArg), "struct sockaddr")
	}
	socklen := func(name string) Arg { return inoutb(name, fixed(intSize), "socklen_t") }
	intOut := func(name string) Arg { return outb(name, fixed(intSize), "int") }

	return []Syscall{
		// Files: data.
		sc(0, "read", Int, fdEff, fd("fd"), outb("buf", byRetUpTo(2), ""), i64("count")).also(MovesOffset).contentOnly(0).readsData().triesAgain(),
		sc(1, "write", Int, writeEff, fd("fd"), inb("buf", byArg(2), ""), i64("count")).also(MovesOffset).holds(1, HoldsFileData),
		sc(2, "open", FD, CreatesFD|pathEff, path("pathname"), flg("flags", OpenFlags), mode("mode")).when(openConds(1)...).generates(openNames(1)...),
		sc(3, "close", Int, ClosesFD, fd("fd")).contentOnly(0),
		sc(4, "stat", Int, pathEff, path("pathname"), stat("statbuf")).metadata(),
		sc(5, "fstat", Int, fdEff, fd("fd"), stat("statbuf")).contentOnly(0).metadata(),
		sc(6, "lstat", Int, pathEff, path("pathname"), stat("statbuf")).metadata().onLink(),
		sc(7, "poll", Int, 0, inoutb("fds", byArgN(1, pollfdSize), "struct pollfd[]"), i32("nfds"), i32("timeout")),
		sc(8, "lseek", Int, fdEff, fd("fd"), i64("offset"), enm("whence", Whence)).also(MovesOffset).contentOnly(0),
		sc(9, "mmap", Hex, MapsMemory|UsesFD, hex("addr"), i64("length"), flg64("prot", Prot), flg64("flags", MapFlags), fd("fd"), i64("offset")).always().contentOnly(4),
		sc(10, "mprotect", Int, MapsMemory, hex("addr"), i64("len"), flg64("prot", Prot)).nostop(whyMemAdv),
		sc(11, "munmap", Int, MapsMemory, hex("addr"), i64("length")).always().unmaps(),
		sc(12, "brk", Hex, MapsMemory, hex("brk")).always(),
		sc(13, "rt_sigaction", Int, ChangesSignals, sig("signum"), inb("act", fixed(sigactionSize), "struct sigaction"), outb("oldact", fixed(sigactionSize), "struct sigaction"), i64("sigsetsize")).always(),
		sc(14, "rt_sigprocmask", Int, ChangesSignals, enm("how", SigprocmaskHow), sigset("set", 3), oldSigset("oldset", 3), i64("sigsetsize")).nostop(whySigmask),
		sc(15, "rt_sigreturn", Int, ChangesSignals).nostop("returns from a signal handler to the context the kernel saved on the program's own stack; nothing comes from outside the process"),
		sc(16, "ioctl", Int, fdEff, fd("fd"), enm("request", ioctlNames), inoutb("arg", byRequest(LenIoctl, 1), "")).when(amd64IoctlConds()...).makes("fd made by ioctl", true),
		sc(17, "pread64", Int, fdEff, fd("fd"), outb("buf", byRetUpTo(2), ""), i64("count"), i64("offset")).contentOnly(0).readsData(),
		sc(18, "pwrite64", Int, writeEff, fd("fd"), inb("buf", byArg(2), ""), i64("count"), i64("offset")).holds(1, HoldsFileData),
		sc(19, "readv", Int, fdEff, fd("fd"), iovOut("iov", 2), i32("iovcnt")).also(MovesOffset).contentOnly(0).readsData().triesAgain(),
		sc(20, "writev", Int, writeEff, fd("fd"), iovIn("iov", 2), i32("iovcnt")).also(MovesOffset),
		sc(21, "access", Int, pathEff, path("pathname"), enm("mode", AccessModes)).metadata(),
		sc(22, "pipe", Int, CreatesFDPair, outb("pipefd", fixed(intPairSize), "int[2]")).made(MadePipe),
		sc(23, "select", Int, 0, i32("nfds"), inoutb("readfds", byFdSet(0), "fd_set"), inoutb("writefds", byFdSet(0), "fd_set"), inoutb("exceptfds", byFdSet(0), "fd_set"), inoutb("timeout", fixed(timevalSize), "struct timeval")).volatileArgs(4),
		sc(24, "sched_yield", Int, 0).nostop("gives up the CPU; always returns 0"),
		sc(25, "mremap", Hex, MapsMemory, hex("old_address"), i64("old_size"), i64("new_size"), flg("flags", MremapFlags), hex("new_address")).always().unmaps(),
		sc(26, "msync", Int, MapsMemory, hex("addr"), i64("length"), flg("flags", MsyncFlags)).always(),
		sc(27, "mincore", Int, 0, hex("addr"), i64("length"), ptr("vec")).always(),
		sc(28, "madvise", Int, MapsMemory, hex("addr"), i64("length"), enm("advice", MadviseAdvice)).nostop(whyMemAdv),
		unknown(29, "shmget"),
		unknown(30, "shmat"),
		unknown(31, "shmctl"),
		sc(32, "dup", FD, UsesFD|DupsFD|CreatesFD, fd("oldfd")),
		sc(33, "dup2", FD, UsesFD|DupsFD|CreatesFD, fd("oldfd"), fd("newfd")),
		sc(34, "pause", Int, 0).always(),
		sc(35, "nanosleep", Int, 0, ts("req"), tsOut("rem")).always().volatileOut(), // sleeps pace a program against others: skipped, a script polls a server before it is up
		sc(36, "getitimer", Int, 0, enm("which", ItimerWhich), outb("curr_value", fixed(itimervalSize), "struct itimerval")).always().volatileOut(),
		sc(37, "alarm", Int, ChangesSignals, i32("seconds")).always().volatileRet().volatileOut(),
		sc(38, "setitimer", Int, ChangesSignals, enm("which", ItimerWhich), inb("new_value", fixed(itimervalSize), "struct itimerval"), outb("old_value", fixed(itimervalSize), "struct itimerval")).always().volatileOut(),
		sc(39, "getpid", PID, envEff).always().routine(), // pids stay live in replay: a replayed pid could name another process
		sc(40, "sendfile", Int, writeEff, fd("out_fd"), fd("in_fd"), inoutb("offset", fixed(longSize), "loff_t"), i64("count")).also(MovesOffset).writesFD(0).contentOnly(1),

		// Sockets.
		sc(41, "socket", FD, CreatesFD, enm("domain", SocketFamilies), flg("type", SocketTypes), i32("protocol")).made(MadeSocket),
		sc(42, "connect", Int, UsesFD|ConnectsAddress, fd("sockfd"), sockaddrIn("addr", 2), i32("addrlen")),
		sc(43, "accept", FD, UsesFD|CreatesFD|AcceptsConn, fd("sockfd"), sockaddrOut("addr", 2), socklen("addrlen")).also(MovesOffset).triesAgain(),
		sc(44, "sendto", Int, writeEff, fd("sockfd"), inb("buf", byArg(2), ""), i64("len"), flg("flags", MsgFlags), sockaddrIn("dest_addr", 5), i32("addrlen")).when(ifNonZero(4, ConnectsAddress)).also(MovesOffset),
		sc(45, "recvfrom", Int, fdEff, fd("sockfd"), outb("buf", byMinArgRet(2), ""), i64("len"), flg("flags", MsgFlags), sockaddrOut("src_addr", 5), socklen("addrlen")).also(MovesOffset).triesAgain(),
		sc(46, "sendmsg", Int, writeEff, fd("sockfd"), msgIn("msg"), flg("flags", MsgFlags)).also(MovesOffset),
		sc(47, "recvmsg", Int, fdEff, fd("sockfd"), msgOut("msg"), flg("flags", MsgFlags)).also(MovesOffset).triesAgain(),
		sc(48, "shutdown", Int, writeEff, fd("sockfd"), enm("how", ShutdownHow)),
		sc(49, "bind", Int, UsesFD|BindsAddress, fd("sockfd"), sockaddrIn("addr", 2), i32("addrlen")),
		sc(50, "listen", Int, fdEff, fd("sockfd"), i32("backlog")).also(ChangesFDState).socketOp(SocketListens),
		sc(51, "getsockname", Int, fdEff, fd("sockfd"), sockaddrOut("addr", 2), socklen("addrlen")).socketOp(SocketReportsLocal),
		sc(52, "getpeername", Int, fdEff, fd("sockfd"), sockaddrOut("addr", 2), socklen("addrlen")),
		sc(53, "socketpair", Int, CreatesFDPair, enm("domain", SocketFamilies), flg("type", SocketTypes), i32("protocol"), outb("sv", fixed(intPairSize), "int[2]")).made(MadeSocketPair),
		sc(54, "setsockopt", Int, writeEff, fd("sockfd"), enm("level", SockoptLevels), i32("optname"), inb("optval", byArg(4), ""), i32("optlen")),
		sc(55, "getsockopt", Int, fdEff, fd("sockfd"), enm("level", SockoptLevels), i32("optname"), outb("optval", byArgPtr(4), ""), socklen("optlen")),

		// Processes.
		sc(56, "clone", PID, CreatesProcess, flg64("flags", CloneFlags), hex("stack"), ptr("parent_tid"), ptr("child_tid"), hex("tls")).when(ifBits(0, newNS, ChangesNamespace)).always(),
		sc(57, "fork", PID, CreatesProcess).always(),
		sc(58, "vfork", PID, CreatesProcess).always(),
		sc(59, "execve", Int, ExecsImage|pathEff, path("pathname"), argv("argv"), argv("envp")).always().holds(2, HoldsEnviron).servesImage(),
		sc(60, "exit", Int, EndsThread, i32("status")).always(),
		sc(61, "wait4", PID, WaitsChild, pid("pid"), outb("wstatus", fixed(intSize), "int"), flg("options", WaitOptions), outb("rusage", fixed(rusageSize), "struct rusage")).always().volatileArgs(3).waitBy(WaitByPID).holds(1, HoldsWaitStatus),
		sc(62, "kill", Int, SignalsProcess, pid("pid"), sig("sig")).always(),
		sc(63, "uname", Int, envEff, outb("buf", fixed(utsnameSize), "struct new_utsname")).kernelNames(),
		unknown(64, "semget"),
		unknown(65, "semop"),
		unknown(66, "semctl"),
		unknown(67, "shmdt"),
		unknown(68, "msgget"),
		unknown(69, "msgsnd"),
		unknown(70, "msgrcv"),
		unknown(71, "msgctl"),

		// Files: fds and names.
		sc(72, "fcntl", Int, fdEff, fd("fd"), enm("cmd", FcntlCmds), inoutb("arg", byRequest(LenFcntl, 1), "")).when(fcntlConds()...),
		sc(73, "flock", Int, fdEff, fd("fd"), flg("operation", FlockOps)).also(ChangesFDState),
		sc(74, "fsync", Int, fdEff, fd("fd")),
		sc(75, "fdatasync", Int, fdEff, fd("fd")),
		sc(76, "truncate", Int, chattrEff, path("path"), i64("length")),
		sc(77, "ftruncate", Int, fchattrEff, fd("fd"), i64("length")),
		sc(78, "getdents", Int, fdEff, fd("fd"), outb("dirp", byRetUpTo(2), "struct linux_dirent"), i32("count")).also(MovesOffset).also(ActsOnDirectory),
		sc(79, "getcwd", Int, envEff, outb("buf", byRetUpTo(1), ""), i64("size")).holds(0, HoldsPath),
		sc(80, "chdir", Int, pathEff|ChangesCwd, path("path")).also(ActsOnDirectory),
		sc(81, "fchdir", Int, UsesFD|ChangesCwd, fd("fd")).also(ActsOnDirectory),
		sc(82, "rename", Int, renameEff, path("oldpath"), path("newpath")).onLink(),
		sc(83, "mkdir", Int, createEff, path("pathname"), mode("mode")).also(ActsOnDirectory).generates(genAlways(GenRandom | GenPID)),
		sc(84, "rmdir", Int, removeEff, path("pathname")).also(ActsOnDirectory).onLink(),
		sc(85, "creat", FD, CreatesFD|createEff|ModifiesFile, path("pathname"), mode("mode")).generates(genAlways(GenPID)),
		sc(86, "link", Int, createEff, path("oldpath"), path("newpath")),
		sc(87, "unlink", Int, removeEff, path("pathname")).onLink(),
		sc(88, "symlink", Int, createEff, str("target"), path("linkpath")),
		sc(89, "readlink", Int, pathEff, path("pathname"), outb("buf", byRetUpTo(2), ""), i64("bufsiz")).holds(1, HoldsPath).metadata().onLink(),
		sc(90, "chmod", Int, chattrEff, path("pathname"), mode("mode")),
		sc(91, "fchmod", Int, fchattrEff, fd("fd"), mode("mode")),
		sc(92, "chown", Int, chattrEff, path("pathname"), i32("owner"), i32("group")),
		sc(93, "fchown", Int, fchattrEff, fd("fd"), i32("owner"), i32("group")),
		sc(94, "lchown", Int, chattrEff, path("pathname"), i32("owner"), i32("group")).onLink(),
		sc(95, "umask", Mode, ChangesUmask|envEff, mode("mask")),

		// Time, limits, identity.
		sc(96, "gettimeofday", Int, envEff, outb("tv", fixed(timevalSize), "struct timeval"), outb("tz", fixed(timezoneSize), "struct timezone")).volatileOut(),
		sc(97, "getrlimit", Int, envEff, enm("resource", RlimitResources), outb("rlim", fixed(rlimitSize), "struct rlimit")),
		sc(98, "getrusage", Int, envEff, enm("who", RusageWho), outb("usage", fixed(rusageSize), "struct rusage")).volatileOut(),
		sc(99, "sysinfo", Int, envEff, outb("info", fixed(sysinfoSize), "struct sysinfo")).volatileOut(),
		sc(100, "times", Int, envEff, outb("buf", fixed(tmsSize), "struct tms")).volatileRet().volatileOut(),
		unknown(101, "ptrace").unseen(UnseenNestedTrace),
		sc(102, "getuid", Int, envEff),
		unknown(103, "syslog"),
		sc(104, "getgid", Int, envEff),
		sc(105, "setuid", Int, ChangesCreds, i32("uid")),
		sc(106, "setgid", Int, ChangesCreds, i32("gid")),
		sc(107, "geteuid", Int, envEff),
		sc(108, "getegid", Int, envEff),
		sc(109, "setpgid", Int, ChangesProcess, pid("pid"), pid("pgid")).always(), // process groups and sessions are pids: live, like getpid
		sc(110, "getppid", PID, envEff).always(),
		sc(111, "getpgrp", PID, envEff).always(),
		sc(112, "setsid", PID, ChangesProcess).always(),
		sc(113, "setreuid", Int, ChangesCreds, i32("ruid"), i32("euid")),
		sc(114, "setregid", Int, ChangesCreds, i32("rgid"), i32("egid")),
		sc(115, "getgroups", Int, envEff, i32("size"), outb("list", byRetNUpTo(intSize, 0), "gid_t[]")),
		sc(116, "setgroups", Int, ChangesCreds, i32("size"), inb("list", byArgN(0, intSize), "gid_t[]")),
		sc(117, "setresuid", Int, ChangesCreds, i32("ruid"), i32("euid"), i32("suid")),
		sc(118, "getresuid", Int, envEff, intOut("ruid"), intOut("euid"), intOut("suid")),
		sc(119, "setresgid", Int, ChangesCreds, i32("rgid"), i32("egid"), i32("sgid")),
		sc(120, "getresgid", Int, envEff, intOut("rgid"), intOut("egid"), intOut("sgid")),
		sc(121, "getpgid", PID, envEff, pid("pid")).always(),
		sc(122, "setfsuid", Int, ChangesCreds|envEff, i32("fsuid")),
		sc(123, "setfsgid", Int, ChangesCreds|envEff, i32("fsgid")),
		sc(124, "getsid", PID, envEff, pid("pid")).always(),
		sc(125, "capget", Int, envEff, inoutb("hdrp", fixed(capHeaderSize), "struct __user_cap_header_struct"), outb("datap", fixed(capDataSize), "struct __user_cap_data_struct[2]")),
		sc(126, "capset", Int, ChangesCreds, inb("hdrp", fixed(capHeaderSize), "struct __user_cap_header_struct"), inb("datap", fixed(capDataSize), "struct __user_cap_data_struct[2]")),

		// Signals.
		sc(127, "rt_sigpending", Int, 0, oldSigset("set", 1), i64("sigsetsize")).always(),
		sc(128, "rt_sigtimedwait", Signal, ChangesSignals, sigset("set", 3), outb("info", fixed(siginfoSize), "siginfo_t"), ts("timeout"), i64("sigsetsize")).always(),
		sc(129, "rt_sigqueueinfo", Int, SignalsProcess, pid("tgid"), sig("sig"), inb("info", fixed(siginfoSize), "siginfo_t")).always(),
		sc(130, "rt_sigsuspend", Int, ChangesSignals, sigset("mask", 1), i64("sigsetsize")).always(),
		sc(131, "sigaltstack", Int, ChangesSignals, inb("ss", fixed(stackTSize), "stack_t"), outb("old_ss", fixed(stackTSize), "stack_t")).always(),

		sc(132, "utime", Int, chattrEff, path("filename"), inb("times", fixed(utimbufSize), "struct utimbuf")),
		sc(133, "mknod", Int, createEff, path("pathname"), flg("mode", FileTypes), hex("dev")).generates(genAlways(GenRandom | GenPID)),
		unknown(134, "uselib"),
		sc(135, "personality", Int, ChangesProcess|envEff, hex("persona")),
		sc(136, "ustat", Int, envEff, hex("dev"), outb("ubuf", fixed(ustatSize), "struct ustat")),
		sc(137, "statfs", Int, pathEff, path("path"), outb("buf", fixed(statfsSize), "struct statfs")).metadata(),
		sc(138, "fstatfs", Int, fdEff, fd("fd"), outb("buf", fixed(statfsSize), "struct statfs")).metadata(),
		unknown(139, "sysfs"),

		// Scheduling.
		sc(140, "getpriority", Int, envEff, enm("which", PriorityWhich), i32("who")),
		sc(141, "setpriority", Int, ChangesProcess, enm("which", PriorityWhich), i32("who"), i32("prio")),
		sc(142, "sched_setparam", Int, ChangesProcess, pid("pid"), inb("param", fixed(intSize), "struct sched_param")),
		sc(143, "sched_getparam", Int, envEff, pid("pid"), outb("param", fixed(intSize), "struct sched_param")),
		sc(144, "sched_setscheduler", Int, ChangesProcess, pid("pid"), enm("policy", SchedPolicies), inb("param", fixed(intSize), "struct sched_param")),
		sc(145, "sched_getscheduler", Int, envEff, pid("pid")),
		sc(146, "sched_get_priority_max", Int, envEff, enm("policy", SchedPolicies)),
		sc(147, "sched_get_priority_min", Int, envEff, enm("policy", SchedPolicies)),
		sc(148, "sched_rr_get_interval", Int, envEff, pid("pid"), tsOut("tp")),

		// Memory locking.
		sc(149, "mlock", Int, 0, hex("addr"), i64("len")).always(),
		sc(150, "munlock", Int, 0, hex("addr"), i64("len")).always(),
		sc(151, "mlockall", Int, 0, flg("flags", MlockallFlags)).always(),
		sc(152, "munlockall", Int, 0).always(),
		unknown(153, "vhangup"),
		sc(154, "modify_ldt", Int, 0, i32("func"), ptr("ptr"), i64("bytecount")).always(),
		sc(155, "pivot_root", Int, pathEff|ChangesRoot|ChangesMounts, path("new_root"), path("put_old")),
		unknown(156, "_sysctl"),
		sc(157, "prctl", Int, 0, enm("option", PrctlOptions), inoutb("arg2", byRequest(LenPrctl, 0), ""), hex("arg3"), hex("arg4"), hex("arg5")).when(prctlConds()...),
		sc(158, "arch_prctl", Int, 0, enm("code", ArchPrctlCodes), hex("addr")).always().routine(),
		sc(159, "adjtimex", Int, envEff, inoutb("buf", fixed(timexSize), "struct timex")).volatileOut(),
		sc(160, "setrlimit", Int, ChangesLimits, enm("resource", RlimitResources), inb("rlim", fixed(rlimitSize), "struct rlimit")),
		sc(161, "chroot", Int, pathEff|ChangesRoot, path("path")),
		sc(162, "sync", Int, 0),
		unknown(163, "acct"),
		sc(164, "settimeofday", Int, 0, inb("tv", fixed(timevalSize), "struct timeval"), inb("tz", fixed(timezoneSize), "struct timezone")),
		sc(165, "mount", Int, pathEff|ChangesMounts, str("source"), path("target"), str("filesystemtype"), flg64("mountflags", MountFlags), ptr("data")),
		sc(166, "umount2", Int, pathEff|ChangesMounts, path("target"), flg("flags", UmountFlags)),
		unknown(167, "swapon"),
		unknown(168, "swapoff"),
		unknown(169, "reboot"),
		sc(170, "sethostname", Int, 0, inb("name", byArg(1), "char[]"), i64("len")),
		sc(171, "setdomainname", Int, 0, inb("name", byArg(1), "char[]"), i64("len")),
		unknown(172, "iopl"),
		unknown(173, "ioperm"),
		unknown(174, "create_module"),
		unknown(175, "init_module"),
		unknown(176, "delete_module"),
		unknown(177, "get_kernel_syms"),
		unknown(178, "query_module"),
		unknown(179, "quotactl"),
		unknown(180, "nfsservctl"),
		unknown(181, "getpmsg"),
		unknown(182, "putpmsg"),
		unknown(183, "afs_syscall"),
		unknown(184, "tuxcall"),
		unknown(185, "security"),
		sc(186, "gettid", PID, envEff).always().routine(),
		sc(187, "readahead", Int, fdEff, fd("fd"), i64("offset"), i64("count")).contentOnly(0),

		// Extended attributes. Sizes use LenMinArgRet: with size 0 the
		// call returns the size it needs and writes nothing.
		sc(188, "setxattr", Int, chattrEff, path("path"), str("name"), inb("value", byArg(3), ""), i64("size"), flg("flags", XattrFlags)),
		sc(189, "lsetxattr", Int, chattrEff, path("path"), str("name"), inb("value", byArg(3), ""), i64("size"), flg("flags", XattrFlags)).onLink(),
		sc(190, "fsetxattr", Int, fchattrEff, fd("fd"), str("name"), inb("value", byArg(3), ""), i64("size"), flg("flags", XattrFlags)),
		sc(191, "getxattr", Int, pathEff, path("path"), str("name"), outb("value", byMinArgRet(3), ""), i64("size")).metadata(),
		sc(192, "lgetxattr", Int, pathEff, path("path"), str("name"), outb("value", byMinArgRet(3), ""), i64("size")).metadata().onLink(),
		sc(193, "fgetxattr", Int, fdEff, fd("fd"), str("name"), outb("value", byMinArgRet(3), ""), i64("size")).metadata(),
		sc(194, "listxattr", Int, pathEff, path("path"), outb("list", byMinArgRet(2), ""), i64("size")).metadata(),
		sc(195, "llistxattr", Int, pathEff, path("path"), outb("list", byMinArgRet(2), ""), i64("size")).metadata().onLink(),
		sc(196, "flistxattr", Int, fdEff, fd("fd"), outb("list", byMinArgRet(2), ""), i64("size")).metadata(),
		sc(197, "removexattr", Int, chattrEff, path("path"), str("name")),
		sc(198, "lremovexattr", Int, chattrEff, path("path"), str("name")).onLink(),
		sc(199, "fremovexattr", Int, fchattrEff, fd("fd"), str("name")),

		sc(200, "tkill", Int, SignalsProcess, pid("tid"), sig("sig")).always(),
		sc(201, "time", Int, envEff, outb("tloc", fixed(longSize), "time_t")).volatileRet().volatileOut(),
		sc(202, "futex", Int, 0, ptr("uaddr"), flg("futex_op", FutexOps), i32("val"), ptr("timeout"), ptr("uaddr2"), i32("val3")).nostop(whyFutex).routine(),
		sc(203, "sched_setaffinity", Int, ChangesProcess, pid("pid"), i64("cpusetsize"), inb("mask", byArg(1), "cpu_set_t")),
		sc(204, "sched_getaffinity", Int, envEff, pid("pid"), i64("cpusetsize"), outb("mask", byRetUpTo(1), "cpu_set_t")).routine().placement(),
		sc(205, "set_thread_area", Int, 0, ptr("u_info")).always(),
		unknown(206, "io_setup"),
		unknown(207, "io_destroy"),
		unknown(208, "io_getevents"),
		unknown(209, "io_submit"),
		unknown(210, "io_cancel"),
		sc(211, "get_thread_area", Int, 0, ptr("u_info")).always(),
		unknown(212, "lookup_dcookie"),
		sc(213, "epoll_create", FD, CreatesFD, i32("size")).made(MadeEpoll),
		unknown(214, "epoll_ctl_old"),
		unknown(215, "epoll_wait_old"),
		unknown(216, "remap_file_pages"),
		sc(217, "getdents64", Int, fdEff, fd("fd"), outb("dirp", byRetUpTo(2), "struct linux_dirent64"), i32("count")).also(MovesOffset).also(ActsOnDirectory),
		sc(218, "set_tid_address", PID, 0, ptr("tidptr")).always().routine(),
		sc(219, "restart_syscall", Int, 0).nostop("resumes an interrupted call inside the kernel; the call it restarts was recorded when it began"),
		unknown(220, "semtimedop"),
		sc(221, "fadvise64", Int, fdEff, fd("fd"), i64("offset"), i64("len"), enm("advice", FadviseAdvice)).contentOnly(0),

		// POSIX timers deliver signals: always executed, like alarm.
		sc(222, "timer_create", Int, ChangesSignals, enm("clockid", ClockIDs), inb("sevp", fixed(sigeventSize), "struct sigevent"), outb("timerid", fixed(intSize), "timer_t")).always(),
		sc(223, "timer_settime", Int, ChangesSignals, i32("timerid"), flg("flags", TimerFlags), inb("new_value", fixed(itimerspecSize), "struct itimerspec"), outb("old_value", fixed(itimerspecSize), "struct itimerspec")).always().volatileArgs(3),
		sc(224, "timer_gettime", Int, 0, i32("timerid"), outb("curr_value", fixed(itimerspecSize), "struct itimerspec")).always().volatileOut(),
		sc(225, "timer_getoverrun", Int, 0, i32("timerid")).always(),
		sc(226, "timer_delete", Int, ChangesSignals, i32("timerid")).always(),

		// Clocks.
		sc(227, "clock_settime", Int, 0, enm("clockid", ClockIDs), ts("tp")),
		sc(228, "clock_gettime", Int, envEff, enm("clockid", ClockIDs), tsOut("tp")).volatileOut(),
		sc(229, "clock_getres", Int, envEff, enm("clockid", ClockIDs), tsOut("res")).volatileOut(),
		sc(230, "clock_nanosleep", Int, 0, enm("clockid", ClockIDs), flg("flags", TimerFlags), ts("request"), tsOut("remain")).always().volatileOut(),

		sc(231, "exit_group", Int, EndsThread, i32("status")).always(),
		sc(232, "epoll_wait", Int, fdEff, fd("epfd"), outb("events", byRetNUpTo(epollEventSize, 2), "struct epoll_event[]"), i32("maxevents"), i32("timeout")),
		sc(233, "epoll_ctl", Int, fdEff, fd("epfd"), enm("op", EpollCtlOps), fd("fd"), inb("event", fixed(epollEventSize), "struct epoll_event")).also(ChangesFDState),
		sc(234, "tgkill", Int, SignalsProcess, pid("tgid"), pid("tid"), sig("sig")).always(),
		sc(235, "utimes", Int, chattrEff, path("filename"), inb("times", fixed(2*timevalSize), "struct timeval[2]")),
		unknown(236, "vserver"),

		// NUMA memory policy: memory management, always executed.
		sc(237, "mbind", Int, MapsMemory, hex("addr"), i64("len"), flg("mode", MempolicyModes), inb("nodemask", byFdSet(4), "unsigned long[]"), i64("maxnode"), flg("flags", MbindFlags)).always(),
		sc(238, "set_mempolicy", Int, 0, flg("mode", MempolicyModes), inb("nodemask", byFdSet(2), "unsigned long[]"), i64("maxnode")).always(),
		sc(239, "get_mempolicy", Int, envEff, outb("mode", fixed(intSize), "int"), outb("nodemask", byFdSet(2), "unsigned long[]"), i64("maxnode"), hex("addr"), flg("flags", GetMempolicyFlags)).always(),

		// POSIX message queues: descriptors are fds, names are not paths.
		sc(240, "mq_open", FD, CreatesFD, str("name"), flg("oflag", OpenFlags), mode("mode"), inb("attr", fixed(mqAttrSize), "struct mq_attr")).makes("mqueue", true),
		sc(241, "mq_unlink", Int, 0, str("name")),
		sc(242, "mq_timedsend", Int, writeEff, fd("mqdes"), inb("msg_ptr", byArg(2), ""), i64("msg_len"), i32("msg_prio"), ts("abs_timeout")).also(MovesOffset),
		sc(243, "mq_timedreceive", Int, fdEff, fd("mqdes"), outb("msg_ptr", byRetUpTo(2), ""), i64("msg_len"), outb("msg_prio", fixed(intSize), "unsigned int"), ts("abs_timeout")).also(MovesOffset),
		sc(244, "mq_notify", Int, fdEff, fd("mqdes"), inb("sevp", fixed(sigeventSize), "struct sigevent")).also(ChangesFDState),
		sc(245, "mq_getsetattr", Int, fdEff, fd("mqdes"), inb("newattr", fixed(mqAttrSize), "struct mq_attr"), outb("oldattr", fixed(mqAttrSize), "struct mq_attr")).also(ChangesFDState),
		unknown(246, "kexec_load"),
		sc(247, "waitid", Int, WaitsChild, enm("idtype", IDTypes), i32("id"), outb("infop", fixed(siginfoSize), "siginfo_t"), flg("options", WaitidOptions), outb("rusage", fixed(rusageSize), "struct rusage")).always().volatileArgs(4).waitBy(WaitByIDType),
		unknown(248, "add_key"),
		unknown(249, "request_key"),
		unknown(250, "keyctl"),
		sc(251, "ioprio_set", Int, ChangesProcess, enm("which", IoprioWhich), i32("who"), i32("ioprio")),
		sc(252, "ioprio_get", Int, envEff, enm("which", IoprioWhich), i32("who")),

		// inotify.
		sc(253, "inotify_init", FD, CreatesFD).makes("inotify", true),
		sc(254, "inotify_add_watch", Int, UsesFD|pathEff, fd("fd"), path("pathname"), flg("mask", InotifyMask)).also(ChangesFDState),
		sc(255, "inotify_rm_watch", Int, fdEff, fd("fd"), i32("wd")).also(ChangesFDState),
		unknown(256, "migrate_pages"),

		// The *at family.
		sc(257, "openat", FD, CreatesFD|UsesFD|pathEff, dirfd("dirfd"), path("pathname"), flg("flags", OpenFlags), mode("mode")).when(openConds(2)...).generates(openNames(2)...),
		sc(258, "mkdirat", Int, UsesFD|createEff, dirfd("dirfd"), path("pathname"), mode("mode")).also(ActsOnDirectory).generates(genAlways(GenRandom | GenPID)),
		sc(259, "mknodat", Int, UsesFD|createEff, dirfd("dirfd"), path("pathname"), flg("mode", FileTypes), hex("dev")).generates(genAlways(GenRandom | GenPID)),
		sc(260, "fchownat", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), i32("owner"), i32("group"), flg("flags", AtFlags)),
		sc(261, "futimesat", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), inb("times", fixed(2*timevalSize), "struct timeval[2]")),
		sc(262, "newfstatat", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), stat("statbuf"), flg("flags", AtFlags)).contentOnly(0).metadata(),
		sc(263, "unlinkat", Int, UsesFD|removeEff, dirfd("dirfd"), path("pathname"), flg("flags", UnlinkatFlags)).onLink(),
		sc(264, "renameat", Int, UsesFD|renameEff, dirfd("olddirfd"), path("oldpath"), dirfd("newdirfd"), path("newpath")).onLink(),
		sc(265, "linkat", Int, UsesFD|createEff, dirfd("olddirfd"), path("oldpath"), dirfd("newdirfd"), path("newpath"), flg("flags", AtFlags)),
		sc(266, "symlinkat", Int, UsesFD|createEff, str("target"), dirfd("newdirfd"), path("linkpath")),
		sc(267, "readlinkat", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), outb("buf", byRetUpTo(3), ""), i64("bufsiz")).holds(2, HoldsPath).metadata().onLink(),
		sc(268, "fchmodat", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), mode("mode")),
		sc(269, "faccessat", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), enm("mode", AccessModes)).metadata(),
		sc(270, "pselect6", Int, 0, i32("nfds"), inoutb("readfds", byFdSet(0), "fd_set"), inoutb("writefds", byFdSet(0), "fd_set"), inoutb("exceptfds", byFdSet(0), "fd_set"), inoutb("timeout", fixed(timespecSize), "struct timespec"), inb("sigmask", fixed(psel6SigSize), "struct { const sigset_t *ss; size_t ss_len; }")).volatileArgs(4),
		sc(271, "ppoll", Int, 0, inoutb("fds", byArgN(1, pollfdSize), "struct pollfd[]"), i32("nfds"), inoutb("tmo_p", fixed(timespecSize), "struct timespec"), sigset("sigmask", 4), i64("sigsetsize")).volatileArgs(2),
		sc(272, "unshare", Int, 0, flg("flags", NamespaceFlags)).when(ifBits(0, newNS|amd64.CLONE_NEWTIME, ChangesNamespace)),
		sc(273, "set_robust_list", Int, 0, ptr("head"), i64("len")).nostop(whyThreadLS).routine(),
		sc(274, "get_robust_list", Int, 0, pid("pid"), outb("head_ptr", fixed(longSize), "struct robust_list_head *"), outb("len_ptr", fixed(longSize), "size_t")).always(),
		sc(275, "splice", Int, UsesFD|ModifiesFile, fd("fd_in"), inoutb("off_in", fixed(longSize), "loff_t"), fd("fd_out"), inoutb("off_out", fixed(longSize), "loff_t"), i64("len"), flg("flags", SpliceFlags)).also(MovesOffset).writesFD(2),
		sc(276, "tee", Int, UsesFD|ModifiesFile, fd("fd_in"), fd("fd_out"), i64("len"), flg("flags", SpliceFlags)).also(MovesOffset).writesFD(1),
		sc(277, "sync_file_range", Int, fdEff, fd("fd"), i64("offset"), i64("nbytes"), flg("flags", SyncFileRangeFlags)),
		unknown(278, "vmsplice"),
		unknown(279, "move_pages"),
		sc(280, "utimensat", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), inb("times", fixed(2*timespecSize), "struct timespec[2]"), flg("flags", AtFlags)),
		sc(281, "epoll_pwait", Int, fdEff, fd("epfd"), outb("events", byRetNUpTo(epollEventSize, 2), "struct epoll_event[]"), i32("maxevents"), i32("timeout"), sigset("sigmask", 5), i64("sigsetsize")),
		sc(282, "signalfd", FD, CreatesFD|UsesFD, fd("fd"), sigset("mask", 2), i64("sizemask")).also(ChangesFDState).makes("signalfd", false),
		sc(283, "timerfd_create", FD, CreatesFD, enm("clockid", ClockIDs), flg("flags", TimerfdFlags)).makes("timerfd", true),
		sc(284, "eventfd", FD, CreatesFD, i32("initval")).makes("eventfd", false),
		sc(285, "fallocate", Int, fchattrEff, fd("fd"), flg("mode", FallocateModes), i64("offset"), i64("len")),
		sc(286, "timerfd_settime", Int, fchattrEff, fd("fd"), flg("flags", TimerfdSettimeFlags), inb("new_value", fixed(itimerspecSize), "struct itimerspec"), outb("old_value", fixed(itimerspecSize), "struct itimerspec")).volatileArgs(3),
		sc(287, "timerfd_gettime", Int, fdEff, fd("fd"), outb("curr_value", fixed(itimerspecSize), "struct itimerspec")).volatileOut(),
		sc(288, "accept4", FD, UsesFD|CreatesFD|AcceptsConn, fd("sockfd"), sockaddrOut("addr", 2), socklen("addrlen"), flg("flags", SockFlags)).also(MovesOffset).triesAgain(),
		sc(289, "signalfd4", FD, CreatesFD|UsesFD, fd("fd"), sigset("mask", 2), i64("sizemask"), flg("flags", SignalfdFlags)).also(ChangesFDState).makes("signalfd", false),
		sc(290, "eventfd2", FD, CreatesFD, i32("initval"), flg("flags", EventfdFlags)).makes("eventfd", false),
		sc(291, "epoll_create1", FD, CreatesFD, flg("flags", EpollCreateFlags)).made(MadeEpoll),
		sc(292, "dup3", FD, UsesFD|DupsFD|CreatesFD, fd("oldfd"), fd("newfd"), flg("flags", CloexecFlags)),
		sc(293, "pipe2", Int, CreatesFDPair, outb("pipefd", fixed(intPairSize), "int[2]"), flg("flags", PipeFlags)).made(MadePipe),
		sc(294, "inotify_init1", FD, CreatesFD, flg("flags", InotifyInitFlags)).makes("inotify", true),
		sc(295, "preadv", Int, fdEff, fd("fd"), iovOut("iov", 2), i32("iovcnt"), i64("pos_l"), i64("pos_h")).contentOnly(0).readsData(),
		sc(296, "pwritev", Int, writeEff, fd("fd"), iovIn("iov", 2), i32("iovcnt"), i64("pos_l"), i64("pos_h")),
		sc(297, "rt_tgsigqueueinfo", Int, SignalsProcess, pid("tgid"), pid("tid"), sig("sig"), inb("info", fixed(siginfoSize), "siginfo_t")).always(),
		unknown(298, "perf_event_open"),
		// sendmmsg and recvmmsg: an array of struct mmsghdr, vlen entries,
		// each message's msghdr and msg_len; the return value counts
		// messages. recvmmsg writes the time left back into its timeout.
		sc(299, "recvmmsg", Int, fdEff, fd("sockfd"), mmsgOut("msgvec", 2), i32("vlen"), flg("flags", MsgFlags), inoutb("timeout", fixed(timespecSize), "struct timespec")).also(MovesOffset).volatileArgs(4).triesAgain(),
		sc(300, "fanotify_init", FD, CreatesFD, flg("flags", FanotifyInitFlags), flg("event_f_flags", OpenFlags)).makes("fanotify", true),
		sc(301, "fanotify_mark", Int, UsesFD|pathEff, fd("fanotify_fd"), flg("flags", FanotifyMarkFlags), hex("mask"), dirfd("dirfd"), path("pathname")).also(ChangesFDState),
		sc(302, "prlimit64", Int, envEff, pid("pid"), enm("resource", RlimitResources), inb("new_limit", fixed(rlimitSize), "struct rlimit"), outb("old_limit", fixed(rlimitSize), "struct rlimit")).when(ifNonZero(2, ChangesLimits)),
		unknown(303, "name_to_handle_at"),
		unknown(304, "open_by_handle_at"),
		sc(305, "clock_adjtime", Int, envEff, enm("clockid", ClockIDs), inoutb("buf", fixed(timexSize), "struct timex")).volatileOut(),
		sc(306, "syncfs", Int, fdEff, fd("fd")),
		sc(307, "sendmmsg", Int, writeEff, fd("sockfd"), mmsgIn("msgvec", 2), i32("vlen"), flg("flags", MsgFlags)).also(MovesOffset),
		sc(308, "setns", Int, UsesFD|ChangesNamespace, fd("fd"), flg("nstype", NamespaceFlags)),
		sc(309, "getcpu", Int, envEff, outb("cpu", fixed(intSize), "unsigned int"), outb("node", fixed(intSize), "unsigned int"), ptr("tcache")).volatileOut(),
		unknown(310, "process_vm_readv"),
		unknown(311, "process_vm_writev"),
		unknown(312, "kcmp"),
		unknown(313, "finit_module"),
		sc(314, "sched_setattr", Int, ChangesProcess, pid("pid"), inb("attr", fixed(schedAttrSize), "struct sched_attr"), i32("flags")),
		sc(315, "sched_getattr", Int, envEff, pid("pid"), outb("attr", byArg(2), "struct sched_attr"), i32("size"), i32("flags")),
		sc(316, "renameat2", Int, UsesFD|renameEff, dirfd("olddirfd"), path("oldpath"), dirfd("newdirfd"), path("newpath"), flg("flags", RenameFlags)).onLink(),
		unknown(317, "seccomp"),
		sc(318, "getrandom", Int, envEff, outb("buf", byRetUpTo(1), ""), i64("buflen"), flg("flags", GetrandomFlags)).volatileOut(),
		sc(319, "memfd_create", FD, CreatesFD, str("name"), flg("flags", MemfdFlags)).makes("memfd", false),
		unknown(320, "kexec_file_load"),
		unknown(321, "bpf"),
		sc(322, "execveat", Int, ExecsImage|UsesFD|pathEff, dirfd("dirfd"), path("pathname"), argv("argv"), argv("envp"), flg("flags", AtFlags)).always().holds(3, HoldsEnviron).servesImage(),
		sc(323, "userfaultfd", FD, CreatesFD, flg("flags", CloexecFlags)).makes("userfaultfd", false),
		sc(324, "membarrier", Int, 0, enm("cmd", MembarrierCmds), i32("flags"), i32("cpu_id")).nostop("orders memory accesses between the process's own threads; the commands it accepts depend only on the kernel version, which the trace header records"),
		sc(325, "mlock2", Int, 0, hex("addr"), i64("len"), flg("flags", MlockFlags)).always(),
		sc(326, "copy_file_range", Int, UsesFD|ModifiesFile, fd("fd_in"), inoutb("off_in", fixed(longSize), "loff_t"), fd("fd_out"), inoutb("off_out", fixed(longSize), "loff_t"), i64("len"), i32("flags")).also(MovesOffset).writesFD(2).copies(0, 1, 2, 3, 4).contentOnly(0),
		sc(327, "preadv2", Int, fdEff, fd("fd"), iovOut("iov", 2), i32("iovcnt"), i64("pos_l"), i64("pos_h"), flg("flags", RWFlags)).contentOnly(0).readsData(),
		sc(328, "pwritev2", Int, writeEff, fd("fd"), iovIn("iov", 2), i32("iovcnt"), i64("pos_l"), i64("pos_h"), flg("flags", RWFlags)),
		sc(329, "pkey_mprotect", Int, MapsMemory, hex("addr"), i64("len"), flg64("prot", Prot), i32("pkey")).always(),
		sc(330, "pkey_alloc", Int, 0, i32("flags"), i32("access_rights")).always(),
		sc(331, "pkey_free", Int, 0, i32("pkey")).always(),
		sc(332, "statx", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), flg("flags", StatxFlags), flg("mask", StatxMask), outb("statxbuf", fixed(statxSize), "struct statx")).contentOnly(0).metadata(),
		unknown(333, "io_pgetevents"),
		sc(334, "rseq", Int, 0, ptr("rseq"), i32("rseq_len"), i32("flags"), hex("sig")).nostop(whyThreadLS).routine(),
		unknown(335, "uretprobe"),
		unknown(336, "uprobe"),

		// 424 and up: numbers shared by every architecture.
		sc(424, "pidfd_send_signal", Int, UsesFD|SignalsProcess, fd("pidfd"), sig("sig"), inb("info", fixed(siginfoSize), "siginfo_t"), i32("flags")).always(),
		sc(425, "io_uring_setup", FD, CreatesFD, i32("entries"), inoutb("params", fixed(ioUringParamSize), "struct io_uring_params")).makes("io_uring", false).unseen(UnseenRingIO),
		// io_uring's requests and results travel through rings in
		// shared memory that no row can describe: always executed.
		sc(426, "io_uring_enter", Int, UsesFD, fd("fd"), i32("to_submit"), i32("min_complete"), hex("flags"), ptr("argp"), i64("argsz")).always().unseen(UnseenRingIO),
		sc(427, "io_uring_register", Int, UsesFD, fd("fd"), i32("opcode"), ptr("arg"), i32("nr_args")).always().unseen(UnseenRingIO),
		unknown(428, "open_tree"),
		unknown(429, "move_mount"),
		unknown(430, "fsopen"),
		unknown(431, "fsconfig"),
		unknown(432, "fsmount"),
		unknown(433, "fspick"),
		sc(434, "pidfd_open", FD, CreatesFD, pid("pid"), flg("flags", PidfdFlags)).makes("pidfd", false),
		sc(435, "clone3", PID, CreatesProcess, inb("cl_args", byArg(1), "struct clone_args"), i64("size")).always(),
		sc(436, "close_range", Int, ClosesFDRange, fd("first"), fd("last"), flg("flags", CloseRangeFlags)).when(ifBits(2, amd64.CLOSE_RANGE_CLOEXEC, ChangesFDFlags)),
		sc(437, "openat2", FD, CreatesFD|UsesFD|pathEff, dirfd("dirfd"), path("pathname"), inb("how", byArg(3), "struct open_how"), i64("size")),
		sc(438, "pidfd_getfd", FD, UsesFD|CreatesFD, fd("pidfd"), i32("targetfd"), i32("flags")).makes("fd taken by pidfd_getfd", true),
		sc(439, "faccessat2", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), enm("mode", AccessModes), flg("flags", FaccessatFlags)).metadata(),
		// process_madvise's iovecs name ranges of another process's
		// memory: nothing to capture here.
		sc(440, "process_madvise", Int, UsesFD, fd("pidfd"), ptr("iovec"), i64("vlen"), enm("advice", MadviseAdvice), i32("flags")).always(),
		sc(441, "epoll_pwait2", Int, fdEff, fd("epfd"), outb("events", byRetNUpTo(epollEventSize, 2), "struct epoll_event[]"), i32("maxevents"), ts("timeout"), sigset("sigmask", 5), i64("sigsetsize")),
		unknown(442, "mount_setattr"),
		unknown(443, "quotactl_fd"),
		unknown(444, "landlock_create_ruleset"),
		unknown(445, "landlock_add_rule"),
		unknown(446, "landlock_restrict_self"),
		sc(447, "memfd_secret", FD, CreatesFD, flg("flags", CloexecFlags)).makes("memfd_secret", false),
		sc(448, "process_mrelease", Int, UsesFD, fd("pidfd"), i32("flags")).always(),
		sc(449, "futex_waitv", Int, 0, ptr("waiters"), i32("nr_futexes"), i32("flags"), ptr("timeout"), enm("clockid", ClockIDs)).nostop(whyFutex),
		unknown(450, "set_mempolicy_home_node"),
		sc(451, "cachestat", Int, fdEff, fd("fd"), inb("cstat_range", fixed(cachestatRange), "struct cachestat_range"), outb("cstat", fixed(cachestatSize), "struct cachestat"), i32("flags")),
		sc(452, "fchmodat2", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), mode("mode"), flg("flags", AtFlags)),
		sc(453, "map_shadow_stack", Hex, MapsMemory, hex("addr"), i64("size"), i32("flags")).always(),
		sc(454, "futex_wake", Int, 0, ptr("uaddr"), hex("mask"), i32("nr"), i32("flags")).nostop(whyFutex),
		sc(455, "futex_wait", Int, 0, ptr("uaddr"), hex("val"), hex("mask"), i32("flags"), ptr("timeout"), enm("clockid", ClockIDs)).nostop(whyFutex),
		sc(456, "futex_requeue", Int, 0, ptr("waiters"), i32("flags"), i32("nr_wake"), i32("nr_requeue")).nostop(whyFutex),
		unknown(457, "statmount"),
		unknown(458, "listmount"),
		unknown(459, "lsm_get_self_attr"),
		unknown(460, "lsm_set_self_attr"),
		unknown(461, "lsm_list_modules"),
		sc(462, "mseal", Int, MapsMemory, hex("addr"), i64("len"), hex("flags")).always(),
		// setxattrat and getxattrat pass the value through a struct
		// xattr_args pointer that no row can describe.
		unknown(463, "setxattrat"),
		unknown(464, "getxattrat"),
		sc(465, "listxattrat", Int, UsesFD|pathEff, dirfd("dirfd"), path("pathname"), flg("at_flags", AtFlags), outb("list", byMinArgRet(4), ""), i64("size")),
		sc(466, "removexattrat", Int, UsesFD|chattrEff, dirfd("dirfd"), path("pathname"), flg("at_flags", AtFlags), str("name")),
		unknown(467, "open_tree_attr"),
		unknown(468, "file_getattr"),
		unknown(469, "file_setattr"),
		unknown(470, "listns"),
		unknown(471, "rseq_slice_yield"),
	}
}
