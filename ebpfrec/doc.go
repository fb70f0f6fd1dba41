// Package ebpfrec is envbisect's eBPF recorder: `record --backend ebpf`.
// It records the same trace as the ptrace backends without stopping the
// command: the programs of package bpf copy each system call's registers
// and memory into a ring buffer from raw tracepoints, and this package
// turns that stream back into trace events.
//
// # Starting and following the command
//
// The command starts through the launcher's re-exec helper, untraced
// (launch.Start): the helper waits on its configuration pipe
// while its pid is added to the probe's set of tracked processes; the
// probe then follows every process and thread it creates, in the kernel,
// at sched_process_fork. envbisect makes itself a child subreaper, so
// that processes orphaned in the tree come back to it, and waits for
// them. When the last one has been reaped, the ring buffer is drained.
//
// # Where the records come from
//
// By default a recording loads a probe of its own (bpf.Load). With
// Options.Open it gets a Source instead: a session of the resident
// recorder (package recorder), which loaded the programs once, follows the
// command's helper when asked (Track, before the helper is released) and
// streams back the raw records of that tree, which this package decodes
// and assembles exactly as a probe's.
//
// # Ending a run
//
// The rules are the ptrace backend's, from the same code in package
// launch. The command's exit ends the run (trace.Watch.EndWithRoot):
// the tree's processes still alive, found in /proc (descendants of the
// command, and orphans reparented to envbisect), are listed by
// executable in RunResult.LeftRunning, SIGKILLed, and named in
// launch.LeftRunningMessage; with --wait-children (no EndWithRoot) the
// run lasts until the last is reaped. Signals go through
// launch.ForwardInterrupts: the first is passed on, SIGTERM follows
// InterruptGrace later, and every process is killed as long again
// after, or at a second signal; the assembler keeps what came, and the
// trace ends marked interrupted. Processes ended by the run (a timeout,
// an interrupt) are not reported as left running.
//
// # 32-bit system calls
//
// The probe cannot stop a call, so an i386 call (a 32-bit program, or
// int 0x80 in a 64-bit one) runs; the probe tells it by the task's
// TS_COMPAT at entry and sends it as a Compat record, never as the
// x86-64 call of its number (bpf.Call.Compat). TS_COMPAT, not the ELF
// class of the image, because int 0x80 in a 64-bit program is as
// wrong, and because it is what the kernel itself reads for seccomp and
// audit. The first such record refuses the run: the tree is killed and
// Run (or Observe) returns launch.CompatError, naming the process and,
// when its image is a 32-bit ELF, saying so, as the ptrace backend
// does; record then keeps no trace.
//
// # Assembling the stream
//
// A call arrives as one record at its exit (at its entry for exit and
// exit_group), followed by the chunks of its buffers; execve's buffers
// are read at its entry, so their chunks come first. The assembler keys
// chunks by thread and the thread's call number, and completes a call
// when its chunks are in, or when the thread's next record shows none
// are coming. Calls before the first exec of the command are the
// helper's and are dropped, as the ptrace backend drops them.
//
// Everything a ptrace stop would read from /proc while the tracee waits
// is worked out from the stream instead: processes and threads are
// numbered in creation order from the fork records, the fd and cwd tables
// that give calls their Path follow the calls' effects as the syscall
// table describes them, and only the names of anonymous objects (pipes,
// sockets) are read from /proc, best effort, while the process lives.
//
// # Losses
//
// The ring buffer has a fixed size, and a record that does not fit is
// dropped and counted by the program. A call record lost shows as a gap
// in the thread's call numbers (trace.Call.Gap); a chunk lost leaves its
// call's memory incomplete (trace.Lost), and such a call is never
// replayed. Both are summed in the trace's end frame (trace.Losses).
package ebpfrec
