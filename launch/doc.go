// Package launch starts and watches the command of a run, for both
// recorders: the ptrace engine (package ptrace) seizes what it starts,
// the eBPF recorder (package ebpfrec) lets it run untraced. It owns the
// re-exec helper, joining a container or process, the watch (alive,
// check, timeout), the /proc readers and start items, CPU pinning, and
// the conventions both recorders share when they fill in a call (its
// paths, excluded contents). It knows nothing of ptrace stops, registers
// or tracee memory.
//
// # The re-exec helper
//
// A command is started through a helper: envbisect runs its own binary
// (/proc/self/exe) with ENVBISECT_HELPER set (HelperMarker). Every binary
// that starts commands, test binaries included, calls MaybeRunHelper
// first thing in main or TestMain; the package's init locks the helper's
// main thread, the one that will exec, when the marker is set. Start
// forks the helper, which blocks reading its configuration pipe: the
// caller does what it must while the command has not started (the ptrace
// engine seizes it, the eBPF recorder adds its pid to the probe) and then
// calls Release. The helper sets the CPU, umask and limits the Config
// asks for, the signal dispositions (signals_linux.go: the ones
// envbisect's caller gave it, read by package callersig before the Go
// runtime changed them, or Config.Signals; set last before the filters
// and the exec, so that neither the runtime of envbisect nor the
// helper's loses a SIG_IGN or a blocked signal on the way), turns address randomisation off with
// personality(ADDR_NO_RANDOMIZE) unless ASLR is set (on top of the
// persona it inherited: setarch's UNAME26 reaches the command), installs the
// seccomp filter of TraceAllBut, or TraceOnly's that stops only the calls
// it names, if asked (on its own thread only: its
// other Go threads must not stop; a call of another ABI than the native
// one traps, nativeOnly), and execs the command. An exec that
// fails is reported on a second, close-on-exec pipe ("127 exec ...":
// ExecError); a successful exec closes it, so the caller reads EOF.
//
// The command gets descriptors 0, 1 and 2 only, like docker exec, and
// those Config.KeepFDs names (--keep-fds), at the same numbers: Go's
// ForkExec closes nothing its caller inherited without close-on-exec, so
// spawnHelper lays the helper's descriptors out itself (the kept ones at
// their numbers, the numbers between closed, the helper's own pipes
// after the highest, their number in ENVBISECT_HELPER_FD), and the
// helper marks every other descriptor close-on-exec with
// close_range(CLOSE_RANGE_CLOEXEC) just before it installs its filters
// and execs (fds_linux.go). Nothing the helper or a recorder passes the
// command is a descriptor: replay's stand-ins are made in the command by
// the tracer after the exec.
//
// A sandbox's objects (sandbox.Spec.Objects, a materialized run) take
// their content from Config.Bundle, a sealed memfd that spawnHelper
// passes after the helper's pipes (helperConfig.BundleFD, with its
// index): the helper reads it while it puts the objects in place, then
// closes it, before it takes the command's identity and execs.
//
// ExecRefused tells an exec the kernel refused (the environment does not
// let the command start; a search counts it as a failing run) from a
// step before it that the helper could not take. OwnBounding is the
// bounding set every helper starts with: a run can give the command
// recorded capability sets within it, and no more.
//
// # Start items
//
// ReadStartEvents reads what a command inherits and no system call
// shows (argv, environment, auxv, cwd, umask, credentials, limits, uname,
// host name, personality, the signals it starts with ignored or blocked,
// the descriptors it starts with) from /proc, at
// the command's first exec stop
// (ptrace) or from the helper before its exec (Command.StartEvents, which
// adds what the helper will set). InheritedStart gives the items a run
// can set as envbisect would pass them on, to compare with a trace's. Its
// open-files limit is the command's, not envbisect's: the Go runtime
// raises its own soft RLIMIT_NOFILE at start and restores the original
// only in the children it starts, so commandNofile (nofile_linux.go) reads
// it from a child stopped at its exec (PTRACE_TRACEME), then kills it.
// CommandCreds gives the ids a command starts with here (the exec spec's
// or envbisect's own), for the explanation of a denied call. LimitReach
// (limitreach_linux.go) says how much of a recorded resource limit a
// run's helper can set, before any run: setrlimit raises a hard limit
// only with CAP_SYS_RESOURCE (which the helper, root re-executing
// envbisect, has when envbisect's effective or, as root, bounding set
// does), and RLIMIT_NOFILE's never above fs.nr_open; what it cannot set
// is reported with the reason, never attempted and refused in a run.
//
// # Who holds an address
//
// AddressHolder finds the process that holds an IP address in a network
// namespace now: the socket bound to its port on an overlapping address
// in /proc/PID/net/{tcp,tcp6,udp,udp6} (TCP: listening; AddressHolderOf
// looks at one protocol's tables), its inode, and the process with an fd
// on socket:[inode] under /proc/*/fd. locate names it in the explanation
// of a bind that failed with EADDRINUSE, and its object search makes an
// address the good run bound and a process holds here a candidate.
// Parsing recorded items back (trace.ParseLimit, trace.ParseUmask) is
// plain data and lives in package trace.
//
// # The watch
//
// A Watcher enforces a trace.Watch for the recorder's wait loop, from a
// goroutine of its own: at Timeout it kills the command; at Alive, if
// the command still runs, it runs the check command and then kills the
// command. The loop tells it which processes live (Add, Remove) and hands
// it the status of children that are not the command's (Exited): the
// check is envbisect's child and the loop's wait reaps it. Stop fills in
// what it saw in a trace.RunResult.
//
// The rules that end a run are the same for both recorders and for
// locate's runs, and written once here: ForwardInterrupts passes the
// first signal on, sends SIGTERM to the command (and its process group)
// InterruptGrace later and has every process killed as long again after,
// or at a second signal; LeftRunningMessage is the warning for processes
// the command left running when its exit ended the run
// (trace.Watch.EndWithRoot); CompatError refuses a run that makes system
// calls through another ABI (i386), which neither recorder can decode.
//
// RunUntraced is that loop without a recorder (untraced_linux.go): the
// command of a materialized run runs without ptrace and without
// envbisect's seccomp filter, and the Tree (tree_linux.go), which the
// eBPF recorder shares, finds its processes in /proc.
//
// A check made after the command exits is its caller's (package
// verdict, from replay). For a sandboxed run, Config.View receives the
// command's mount namespace, opened at its exec (in an untraced run,
// which has no exec stop, the helper sends it over a socket once it is in
// its sandbox), which keeps the run's
// view of the file system after its last process is gone, and InView
// runs the check from a thread that entered it (view_linux.go), so the
// check reads what the command wrote in its sandbox.
//
// # Joining a container
//
// With Config.Join the command runs inside another process's namespaces
// (mount, pid, net, uts, ipc, cgroup) and root, like docker exec, while
// envbisect stays on the host (join*_linux.go). Two constraints shape it:
// a pid namespace can only be entered for one's children (setns of a pid
// namespace sets pid_for_children), and envbisect is dynamically linked
// (cgo, through the net package), so the helper binary must be loaded
// from the host's root, not from a container that may have no libc or
// another one. So the work is split in two:
//
//   - spawnHelper opens /proc/PID/ns/* and /proc/PID/root first (keeping
//     only the namespaces that differ from ours: same inode, same
//     namespace), then forks the helper from a goroutine locked to a
//     thread of its own that has entered the target's pid namespace. That
//     thread is never unlocked: it exits with its goroutine rather than
//     return to the scheduler in a foreign namespace. The helper is cloned
//     straight into the target's cgroup v2 directory when Join.CgroupDir
//     is set (CLONE_INTO_CGROUP), and is given the other descriptors.
//     Its parent thread exits; the kernel hands the helper to another
//     thread of envbisect, and any thread, the ptrace engine's locked one
//     included, can wait4 for it and PTRACE_SEIZE it (same thread group).
//   - the helper, first thing, on its locked main thread (the one that
//     execs): unshare(CLONE_FS), because Go's threads share one fs_struct
//     and setns of a mount namespace refuses a shared one; setns into the
//     cgroup, ipc, uts, net and, last, mount namespaces; fchdir to the
//     target's root and chroot("."); chdir to the working directory
//     inside. It then says "joined" on its error pipe, and spawnHelper
//     returns only after that, so /proc shows the helper inside from the
//     start. Its other threads stay on the host and die at the exec.
//
// A target in another user namespace (a rootless container) cannot be
// joined: setns of a user namespace requires a single-threaded caller,
// which a Go program never is (ErrForeignUserNS); nor can a time
// namespace (a warning). A joined command's Path is left empty: the
// helper looks Argv[0] up in the PATH of the command's environment,
// inside the target's root. The start events' host name is the target's
// (read by a throwaway thread that enters its uts namespace).
//
// # CPU placement
//
// DefaultCPU picks the CPU a run shares between the command (pinned by
// the helper before its exec) and the tracer thread (PinTracer), which
// makes a ptrace stop a context switch instead of a cross-CPU wake-up
// (see package ptrace and docs/performance.md). PinTracer keeps
// envbisect's other threads on the other CPUs; SpreadLater gives them
// every CPU back once the run is over (record: file contents still being
// compressed). The start events say how the command was placed (a
// trace.StartCPUs event from Config.CPU: pinned to that CPU, or the CPUs
// it inherited), so that replay and locate can place their runs alike
// and keep a CPU set of envbisect's own making out of the search
// (trace.Placement, replay's WithPlacement).
//
// # Where envbisect writes
//
// Nothing envbisect writes is where the command can see it while it
// runs. places.go lists every place envbisect writes because of a run
// (record's content cache, the scratch of a semi-replay run, the
// sandbox's tmpfs, memfds, the partial trace, locate's logs), how each
// keeps that rule or why it cannot, and chooses the ones that are
// envbisect's to choose: ContentCacheDir (read during a recording,
// written after the command exits) and ScratchBases.
package launch
