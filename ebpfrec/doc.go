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
// that processes orphaned in the tree come back to it, and waits for all
// of them. When the last one has been reaped, the ring buffer is drained.
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
