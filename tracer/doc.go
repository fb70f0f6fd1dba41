// Package tracer is envbisect's ptrace core: it starts a command under
// ptrace, follows every process and thread it creates, and turns each
// system call into a trace.Call with the user memory the syscall table
// says it reads and writes. Recording is a run of this core in which
// nothing is replayed and everything is captured; replay will reuse the
// same stop loop.
//
// # Starting the target
//
// The target is started through a re-exec helper: envbisect runs its own
// binary (/proc/self/exe) with ENVBISECT_HELPER set. The helper locks its
// main thread in init, waits until the tracer has PTRACE_SEIZEd that
// thread (the tracer then writes the helper's configuration to a pipe),
// turns address randomisation off with personality(ADDR_NO_RANDOMIZE),
// installs a seccomp filter on that thread only, and execs the target.
// The filter returns SECCOMP_RET_ALLOW for the calls the syscall table
// marks NoStop and SECCOMP_RET_TRACE for all others, so the tracee stops
// only for calls worth recording. An execve failure in the helper is sent
// back on a second pipe.
//
// # The stop loop
//
// Every ptrace request is made from one goroutine locked to one OS thread
// for the whole session (ptrace ties a tracee to the thread that attached
// it). The loop waits with wait4(-1, __WALL) and dispatches on the stop:
//
//   - seccomp stop (PTRACE_EVENT_SECCOMP): a call is entering. The tracer
//     reads the registers, captures the memory the call reads (paths,
//     write buffers, argv), and resumes with PTRACE_SYSCALL so that the
//     next stop of that thread is the call's exit.
//   - syscall-exit stop (SIGTRAP|0x80): the tracer reads the return value,
//     captures the memory the call wrote (read buffers, stat structs,
//     socket addresses), updates its fd and cwd tables and resumes with
//     PTRACE_CONT, so the thread runs untouched until its next traced call.
//   - clone, fork, vfork and exec events: bookkeeping of processes and
//     threads; new tasks are auto-attached by the kernel.
//   - group stops (PTRACE_EVENT_STOP) are left in place with PTRACE_LISTEN;
//     signal-delivery stops re-inject the signal.
//
// Calls that never return (exit, exit_group) are recorded at entry. Where
// seccomp filters are unavailable the loop falls back to PTRACE_SYSCALL
// on every call (two stops each) and ignores the NoStop calls itself, so a
// trace holds the same calls either way.
//
// Tracees are seized with PTRACE_O_EXITKILL: if envbisect dies, every
// traced process is killed by the kernel; none is ever left behind.
//
// # CPU placement
//
// By default the tracer thread and the command share one CPU (Config.CPU,
// set with the helper's sched_setaffinity before the exec, so everything
// the command starts inherits it), and envbisect's other threads, which
// encode and compress the trace, use the remaining CPUs. A stop then costs
// a context switch instead of a cross-CPU wake-up, several times cheaper
// on the 2-vCPU VMs this was measured on (docs/performance.md). Commands
// that compute in parallel can turn it off.
//
// # Identities
//
// Processes and threads get logical numbers in the order the tracer learns
// of them (1 is the command itself), and processes also a lineage (parent,
// index among its children), so the same command recorded twice names its
// tasks alike. Each call gets a global sequence number when it completes,
// and a per-thread one.
package tracer
