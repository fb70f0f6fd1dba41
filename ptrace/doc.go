// Package ptrace is envbisect's ptrace engine: it seizes a command that
// package launch started, follows every process and thread it creates,
// and turns each system call into a trace.Call with the user memory the
// syscall table says it reads and writes. Recording is a run of this
// engine in which nothing is replayed and everything is captured; a
// semi-replay run is the same stop loop with a Replayer deciding about
// every call. Registers, memory reads and writes, capture, injection and
// write-back live here; starting, joining, watching and /proc live in
// launch, which the eBPF recorder shares.
//
// # Starting the target
//
// The command is started through launch's re-exec helper (launch.Start),
// which waits on its configuration pipe before the exec. The engine
// PTRACE_SEIZEs the helper's main thread, then asks for the seccomp
// filter (Command.TraceAllBut) and releases it: the helper turns address
// randomisation off, installs the filter on that thread only, and execs
// the target. The filter returns SECCOMP_RET_ALLOW for the calls the
// syscall table marks NoStop and SECCOMP_RET_TRACE for all others, so the
// tracee stops only for calls worth recording. A call made through
// another ABI (i386: a 32-bit program, int 0x80) returns SECCOMP_RET_TRAP
// instead (launch's nativeOnly): its SIGSYS stop names the architecture
// in si_arch, and the engine ends the run with a CompatError naming the
// process (compat_linux.go) rather than read its i386 number and
// registers as an x86-64 call; an exec into a 32-bit program is refused
// at its exec stop (cs is the 32-bit code segment), and the fallback mode
// asks PTRACE_GET_SYSCALL_INFO for each entry's architecture. At every
// exec stop launch.UnhonouredPrivilege compares the new image's set-id
// bits and file capabilities with the credentials the process got, and a
// privilege withheld (ptrace without CAP_SYS_PTRACE, no_new_privs) is
// warned about once per binary. The seize can land while
// the helper is still in its own execve of envbisect (a vfork parent is
// released before the exec event); that exec is recognised by the
// helper's environment marker (launch.HelperMarker) and not recorded.
// The start events are read from /proc at the command's first exec stop
// (launch.ReadStartEvents).
//
// # The stop loop
//
// Every ptrace request is made from one goroutine locked to one OS thread
// for the whole session (ptrace ties a tracee to the thread that attached
// it). The loop waits with wait4(-1, __WALL) and dispatches on the stop:
//
//   - seccomp stop (PTRACE_EVENT_SECCOMP): a call is entering. The tracer
//     reads nothing: it notes the time and resumes with PTRACE_SYSCALL, so
//     that the next stop of that thread is the call's exit.
//   - syscall-exit stop (SIGTRAP|0x80): one PTRACE_GETREGS gives the call's
//     number (orig_rax), its arguments (x86-64 keeps the argument registers
//     across the call) and its result; one vectored process_vm_readv then
//     copies every string and buffer the table names, what the call read
//     (still in place) and what it wrote. The fd and cwd tables are
//     updated (the fd table is a systable.FDTable, changed as
//     systable.FDChangeOf says; an exec rereads it from /proc), and the thread resumes with PTRACE_CONT, running untouched
//     until its next traced call.
//   - PTRACE_EVENT_EXIT: a thread is about to die with its registers
//     intact; the call it is in (exit, exit_group, or one it was killed
//     in) is recorded as not returning.
//   - clone, fork, vfork and exec events: bookkeeping of processes and
//     threads; new tasks are auto-attached by the kernel. At an exec the
//     new image's path, argv and envp are read from its initial stack
//     (the old address space, where execve's arguments were, is gone).
//   - group stops (PTRACE_EVENT_STOP) are left in place with PTRACE_LISTEN;
//     signal-delivery stops re-inject the signal.
//
// While a session runs, SIGCHLD is ignored (rt_sigaction SIG_IGN, restored
// afterwards): otherwise every stop would deliver one to the Go runtime,
// which costs about as much as the rest of the stop. Traced children are
// not auto-reaped under SIG_IGN, so the loop still sees every exit.
//
// Where seccomp filters are unavailable the loop falls back to
// PTRACE_SYSCALL on every call (two stops each, the entry told by
// rax == -ENOSYS) and drops the NoStop calls itself, so a trace holds the
// same calls either way.
//
// Tracees are seized with PTRACE_O_EXITKILL: if envbisect dies, every
// traced process is killed by the kernel; none is ever left behind. When
// the loop fails, every task is SIGKILLed and then resumed at each stop
// until it is reaped (killEverything): a SIGKILLed tracee still makes its
// PTRACE_EVENT_EXIT stop, and one in that stop leaves it only when
// resumed, so waiting alone would wait forever.
//
// # Threads killed under the tracer
//
// A stop wait4 reports is the tracer's model of the thread until it
// resumes it, but a SIGKILL (the command killing a child, exit_group or
// an exec in another thread, a process group killed) wakes a thread out
// of any ptrace stop between two requests. Under load the tracer thread
// is preempted there often enough to matter. The thread then runs to its
// PTRACE_EVENT_EXIT stop, and the next request fails with ESRCH on the
// way, or meets that other stop: PTRACE_LISTEN answers EIO (the issue's
// "trace PID: input/output error"), PTRACE_GETEVENTMSG answers the exit
// code instead of a new tid. So (stopcheck_linux.go): a handler whose
// request fails with ESRCH or EIO is asked whether its thread is dying
// (PTRACE_GETSIGINFO names its exit stop, /proc shows a SIGKILL pending
// or the task gone; a thread still running gets a moment to show it),
// and if so the loop goes on, wait4 reporting its exit stop and death
// next; the event message of a clone, fork, vfork or exec is trusted
// only when PTRACE_GETSIGINFO still shows that event stop after it was
// read (else a fork's or vfork's child, which lives on, is the one child
// of the parent in /proc the tracer does not follow; after an exec by a
// thread other than the leader, the threads whose tid is gone from /proc
// are forgotten, none of them to be reported again). Any other failure ends the run with an error naming the
// request, the stop and the thread ("trace pid 123 thread 125:
// PTRACE_LISTEN at group-stop (SIGSTOP): input/output error").
//
// A new task's stops can come before its parent's creation event, and
// when the parent is killed inside clone the event never comes (a thread
// with a fatal signal pending makes no event stop). Such a task's stops
// are kept until its creation is seen (early_linux.go); its exit stop is
// let go at once, or it would hold its thread group, a zombie leader the
// command waits for, and the run would never end. A task that died
// before its creation event is adopted dead.
//
// # CPU placement
//
// By default the tracer thread and the command share one CPU (Config.CPU:
// the helper pins the command before its exec, so everything it starts
// inherits it, and launch.PinTracer pins the tracer thread), and
// envbisect's other threads, which encode and compress the trace, use the
// remaining CPUs. A stop then costs a context switch instead of a
// cross-CPU wake-up, several times cheaper on the 2-vCPU VMs this was
// measured on (docs/performance.md). Commands that compute in parallel
// can turn it off.
//
// # Semi-replay runs
//
// With Config.Replayer set, a run is a semi-replay run (package replay
// decides; this package carries it out). At every call's seccomp stop the
// tracer takes the registers, reads the paths the call names, resolves
// its Path and asks the Replayer (replay_linux.go):
//   - Execute: resumed with PTRACE_SYSCALL; at the exit the live results
//     are captured as a recording would hold them and handed back.
//   - Skip: orig_rax is set to -1 and rax to the recorded result at the
//     seccomp stop, the recorded out-memory is written into the live
//     buffers (at the live addresses, never past their live capacity:
//     systable's Arg.Capacity), and the thread is resumed with PTRACE_CONT:
//     the kernel returns rax without running the call, and no exit stop
//     follows. An array of struct mmsghdr (sendmmsg, recvmmsg) gets each
//     recorded entry's msg_len and messages at the live entry's address
//     (systable's MsgLayout), and a count of messages no larger than the
//     live vlen. A skipped call that made an fd becomes memfd_create instead
//     (a stand-in on the number the program will hold). Where the recorded
//     call opened a file the trace keeps (Call.Obj, Config.Serve), the
//     stand-in is made sealable and executable (MFD_ALLOW_SEALING,
//     MFD_EXEC unless the kernel refuses it) and filled by
//     serve.Store.Fill at the exit stop, before placeFD moves it: the
//     program's executed reads and mmaps see the good file
//     (serve_linux.go).
//     A call that ran with its live result shown (Execute) and returned 0
//     or failed on a stand-in is told to a Replayer that is a
//     StandInObserver (standin_linux.go: the fd's memfd name, read from
//     /proc for such calls only, against what the program believes the
//     fd is), with the stand-in's size: replay taints the run.
//   - Overwrite: runs, then at its exit stop the recorded results replace
//     the live ones, and the fd it made is made to agree with the
//     recording (placeFD).
//
// Calls the tracer makes a thread perform besides its own (a stand-in
// memfd_create after an open that failed live, filled like a skipped
// call's, dup3 and close to move an fd to its recorded number) are injected at the thread's exit stop
// (inject_linux.go): the instruction pointer is wound back over the
// syscall instruction, the registers set for the new call, and the
// thread run to that call's exit, then given its own registers back.
//
// A replayed exec (systable's ServesImage) cannot be skipped: the
// program expects to become the recorded image. Where Config.Serve holds
// that image (trace.Call.Obj; for a #! script, its interpreter), the
// thread runs it (serveexec_linux.go): at the exec's entry the call
// becomes memfd_create(the image's path, MFD_CLOEXEC|MFD_ALLOW_SEALING|
// MFD_EXEC); at that call's exit the Store fills and seals the memfd,
// the instruction pointer is wound back over the syscall instruction and
// the registers set for execveat(memfd, "", live argv, live envp,
// AT_EMPTY_PATH). The thread then makes the exec itself; its entry stop
// is not asked of the Replayer again, and its exec event names the
// recorded image. The new image gets the live call's argv and
// environment: they are what the program does, computed here (gcc
// names the temporary file that cc1 writes and as reads in both execs'
// argv; the recorded name is another run's), and a served exec changes
// only what the program sees, the image. For a #! script the recorded
// image is its interpreter, and the argv is the recorded interpreter,
// its argument and the script's path (what the kernel put in front when
// it was recorded; execargv.go tells them apart), then the live
// argv[1:]: those first entries are written below the stack
// (stackScratch), and a signal that comes meanwhile is held back and
// raised after the exec (its handler's frame would overwrite them). What it cannot keep: /proc/self/exe names
// the memfd ("/memfd:/usr/bin/tool (deleted)"), and AT_EXECFN is
// "/dev/fd/N"; the ELF interpreter the image names (PT_INTERP, ld.so) is
// loaded by the kernel from this machine's path, while the libraries
// ld.so then opens are openat calls, replayed and served like any. Where
// the image is not stored, or any step fails (no memfd, the recorded
// image does not start here), the live call runs instead, with a warning.
//
// # Creations made in a scratch area
//
// A creation (systable's CreatedPathArg: mkdir, an open with O_CREAT,
// rename's target, symlink ...) that the Replayer lets run and overwrite
// (Overwrite; package replay does so for every replayed creation the
// recording made) and that fails live where the recording succeeded,
// with an error saying it cannot happen here (EROFS, EACCES, ENOENT of a
// parent ...), is made again by the thread at its exit stop, injected,
// with the created path rewritten into the run's scratch directory
// (create_linux.go). The scratch directory is made on first need through
// /proc/PID/root, so in the command's own view of the file system:
// /tmp/envbisect-scratch-PID-RANDOM (launch.ScratchBases), which in a
// sandbox is on the run's scratch tmpfs and goes with it, and otherwise
// is removed when the run ends (scratchdir_linux.go). A command that
// lists /tmp during the run sees it (docs/security.md). A redirect (the created path, absolute as the program names it,
// to its scratch path) is kept for the whole traced tree; at the entry
// of every later call that runs (redirect_linux.go), each path argument
// (resolved against its dirfd or the working directory) that lies under
// a redirect is rewritten: the scratch path, absolute, is written below the thread's
// stack (stackScratch) and the argument register points at it. The call
// (trace.Call) keeps the program's paths, so matching and the fd and cwd
// tables see what the program believes; names /proc gives back (an fd's
// target, a cwd) are mapped back from the scratch area. A RedirectObserver
// Replayer hears of each redirect. A copy_file_range into a redirected
// file that fails with EXDEV is done again with sendfile (systable's
// Copies column), and an executed rename or link of a scratch object to
// a path outside the scratch area, which fails with EXDEV, is made
// within it (moveExit). Not done inside a container (Config.Join): a
// warning.
//
// The run's trace.Watch is enforced by a launch.Watcher alongside the
// loop: it kills every traced process at the run's deadline (Alive,
// Timeout) and runs a check command while the command is up, which the
// loop reaps like any child and hands back to the watcher.
//
// # Joining a container
//
// With Config.Join the helper is born inside the target's pid namespace
// and cgroup and enters its other namespaces and root itself (see package
// launch); the engine stays on the host and seizes it there like any
// helper. A joined command's Path is left empty: the helper looks Argv[0]
// up inside the target.
//
// # Running as docker exec would
//
// Join.Exec, the target's exec spec (trace.ExecSpec), is applied by the
// helper just before its exec (becomeTarget, execspec_linux.go), per
// thread with raw system calls, in runc's order: resource limits (with
// the umask and replayed limits); no_new_privs; the seccomp filters
// when no_new_privs is not set (installing them needs CAP_SYS_ADMIN,
// which the command's sets may lack); the bounding set; setgroups,
// setresgid, setresuid with PR_SET_KEEPCAPS; capset and the ambient
// set; the LSM label on exec; the filters last under no_new_privs. The
// helper's calls after a filter is in go through it, as runc's do; they
// are not recorded.
//
// The filters are the target's, copied by CopySeccompFilters
// (PTRACE_SECCOMP_GET_FILTER on a seized and interrupted target, then
// detached). Installed as they are, a call they deny with an errno would
// never stop the tracer: SECCOMP_RET_ERRNO outranks SECCOMP_RET_TRACE.
// So under the seccomp fast path they are rewritten (tracedPrograms,
// seccompprog.go): RET_ERRNO|e becomes RET_TRACE|deniedTag|e, and our
// tracing filter is chained into the oldest of them (each RET_ALLOW
// jumps to it), which keeps the number of filters docker exec gives. For
// results of one action the kernel returns the data of the newest
// filter, so the tag wins over our plain trace. At a tagged stop
// (denied_linux.go) the tracer skips the call with -e and records it; in
// a semi-replay run the Replayer decides as for any call, and executing
// it means denying it. Without our filter (PTRACE_SYSCALL fallback, the
// eBPF recorder) the filters are installed as they are: PTRACE_SYSCALL
// stops before seccomp runs, so denied calls are seen there too.
//
// # Files of the good environment
//
// With Config.Files set in a recording, the exit stop of every successful
// call that systable says made a readable fd on a file at its path
// (OpensForReading: open, openat, openat2 neither write-only nor O_PATH)
// and of every successful exec goes through a fileKeeper
// (keepfiles_linux.go): a stat of /proc/TID/fd/N (or /proc/PID/exe)
// tells a regular file and its (device, inode, size, mtime); a file seen
// before in the recording gets its ID again, a new one the next ID and
// is opened O_RDONLY|O_CLOEXEC through that link from the tracer, fstat'ed
// and handed to the FileSink, which reads it on its own goroutine. The
// call's Obj is the ID. An exec's Obj is the file it named, reached
// through /proc/PID/root: the new image, or for a "#!" script the script,
// whose interpreter (the image) is kept too; the image's ELF interpreter
// (PT_INTERP, read from the opened image) is kept as well. No call names
// those two. The tracer thread pays a stat
// per such call and an open, fstat and readlink per distinct file.
//
// When the FileSink is also a StatedFilter, a successful call that
// answers with a path's stat (systable's StatsPath) hands the regular
// file it stat'ed (keepstated_linux.go; reached through /proc/TID/root,
// known by the stat the call returned, statbuf_linux.go, and stat'ed by
// the tracer only when the trace holds no such buffer) to the sink too,
// when the filter wants it: asked once per distinct file, with the path
// resolved from its directory's resolution (an O_PATH descriptor and
// readlink, once per directory, kept until a recorded call creates,
// removes or renames a path, chroots, mounts or changes namespaces) when
// the call did not follow a link at the file, else from the file's own
// (the file is opened for reading only when wanted); a file it declines
// is not asked about again. The call gets no Obj.
//
// # Addresses taken here
//
// In a semi-replay run (addrs_linux.go), an overwritten bind whose live
// call failed with EADDRINUSE or EACCES where the recording bound binds
// again, injected at its exit stop, to the same address with port 0 (a
// unix socket autobinds), and getsockname tells where. From then on, a
// call that runs and passes a destination the recorded bind accepts
// (connect, sendto, sendmsg's msg_name) gets the live address, written
// below the stack with stackScratch and passed in its argument
// registers, which its exit stop puts back; an address a call that ran
// reports (getsockname, getpeername, accept, recvfrom, recvmsg) that is
// the live one is shown as the recorded one. RunResult.AddrRedirects lists
// the redirected binds. With none, the only cost is a length check.
//
// # Answering runs
//
// With Config.Answering a run records and replays nothing: the helper's
// filter stops only the calls Answering.Stop names (launch's TraceOnly;
// a materialized run's: systable's KernelNames, uname) and lets every
// other call run at native speed. At such a call's exit stop the call is
// captured as a recording would hold it, the Answerer changes its
// out-memory (answer_linux.go: the release and version of a struct
// new_utsname), and the engine writes that back into the program's
// buffer, never past its capacity, before the Observer hears of it.
// Forks, clones and execs still stop the tracer (ptrace events), so the
// whole tree is followed; nothing else does. In the PTRACE_SYSCALL
// fallback every call stops, and only those of the set are followed to
// their exit.
//
// # Identities
//
// Processes and threads get logical numbers in the order the tracer learns
// of them (1 is the command itself), and processes also a lineage (parent,
// index among its children), so the same command recorded twice names its
// tasks alike. Each call gets a global sequence number when it completes,
// and a per-thread one.
package ptrace
