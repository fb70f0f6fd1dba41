// Package bpf is the kernel side of envbisect's low-overhead recorder: eBPF
// programs that copy each system call of the recorded tasks, with the user
// memory it reads and writes, and the tasks' forks, execs and exits, into one
// ring buffer, and the Go that loads them and decodes what they send. The
// package ebpfrec assembles the records into a trace; this package knows
// nothing of traces.
//
// # Programs
//
// record.bpf.c holds five programs on raw tracepoints; wire.h the record
// layouts and descriptors it shares with Go, maps.h its maps and state,
// plan.h and send.h the capture, headers/kernel.h the few kernel types it
// reads (with CO-RE relocations, instead of a generated vmlinux.h). bpf2go
// compiles them into record_x86_bpfel.o, committed with its Go bindings;
// `make generate` rebuilds both, byte for byte. The programs:
//
//   - sys_enter: filters (below); an i386 call (TS_COMPAT, see Limits)
//     is sent as a Compat record and not saved; any other call's number,
//     its six argument registers (read from the struct pt_regs the tracepoint
//     passes, at CO-RE-relocated offsets), the time and the thread's next
//     sequence number (TSeq, from 1) are saved in the thread's entry of the
//     threads map. A NoStop (Skip) call is ignored entirely and takes no number. A
//     NoReturn call (exit, exit_group) is emitted here.
//   - sys_exit: emits the call in flight: its Call record, then one or more
//     Chunk records for each buffer.
//   - sched_process_fork: emits Fork; with FilterTree, a child process of a
//     tracked one becomes tracked.
//   - sched_process_exec: emits Exec (with the kernel's copy of the file
//     name). When a non-leader thread exec'd, its threads entry moves from
//     its old tid to the leader's, which it now has. The buffers of the
//     exec call itself (AtEntry calls: execve, execveat) are captured here,
//     from the new image, as the ptrace backend captures them: each Path
//     argument from AT_EXECFN, the first and second string arrays from the
//     argument and environment areas the kernel just wrote to the new
//     stack. Their chunks precede the Call record, which follows at
//     sys_exit. An exec that fails is captured at its exit like any call.
//   - sched_process_exit: a call still in flight (the thread was killed in
//     it) is emitted with NoReturn; then Exit, with task->exit_code and
//     group_dead (the tracepoint's argument from Linux 6.16, otherwise
//     task->signal->live read as zero). The thread's entries are deleted,
//     and with FilterTree a dead thread group is untracked.
//
// Nothing in the C knows a particular system call. What to capture comes
// from two maps Go fills at load from the syscall table (DescribeTable):
// descs, an array indexed by syscall number of per-argument descriptors
// (systable's Kind, LenFrom, length argument, size, and whether the
// argument is 32 bits wide), and requests, the size and direction of the
// memory behind each ioctl request, fcntl command and prctl option,
// keyed by family << 32 | request. C and Go share the record layouts and
// enums through BTF: bpf2go writes the C types into Go (recordCallRec,
// recordArgKind...), and Go maps systable's constants onto them by name.
//
// # Filters
//
// FilterTree records the thread groups in the tracked hash (Probe.Track,
// and every child process of a tracked one, added at fork). A thread that
// has a threads entry is recorded without another lookup. FilterCgroup
// records every task whose cgroup v2 id (bpf_get_current_cgroup_id) is the
// configured one. The filter, the cgroup id, the capture limit and the
// wakeup threshold are read-only globals set at load.
//
// # Capture
//
// At exit the program captures what ptrace/capture.go captures, by the
// same rules: nothing behind a NULL pointer; out-buffers only when the call
// returned >= 0; in-buffers even when it failed; memory the kernel both
// reads and writes (InOutBuf) once, as the kernel left it; strings up to
// 4096 bytes, their length without the NUL; iovec data concatenated (at
// most 1024 iovecs, an out-array bounded by the return value); a msghdr
// as its name (PartName, at most 128 bytes), iovec data (PartIovData) and
// control (PartControl, at most 64 KiB); string arrays (at most 65536
// strings of 4096 bytes) as each string and its NUL. Every buffer is kept
// up to Options.MaxCapture bytes (strings and string arrays are not
// limited by it, as in the ptrace backend); Buf.Len says how long it was.
//
// Capturing at exit has a second reason: bpf_probe_read_user cannot fault
// pages in, and at exit the kernel has just touched the memory the call
// read or wrote. A page that is not present reads as a fault (Buf.Fault
// or Chunk.Fault), with the readable pages before it kept, as the ptrace
// backend keeps them.
//
// A call's capture runs in three passes over a per-CPU work area (an
// ARRAY indexed by CPU, larger than a PERCPU_ARRAY value may be): plan
// (one bpf_loop step per argument: descriptors, string lengths, msghdr
// headers, lengths read through socklen_t pointers), measure (the lengths
// of iovec data and string arrays, which the Call record states before
// their bytes follow), and send (a bpf_loop state machine that copies each
// buffer with bpf_probe_read_user into a 16 KiB chunk and sends it with
// bpf_ringbuf_output, packing small pieces of one buffer into one chunk).
// Calls with nothing to capture skip the loops.
//
// # Records
//
// Every ring record starts with a u32 type. Little-endian, C layout:
//
//	Call  (1): type tid tgid nr u32, tseq u64, args [6]u64, ret s64,
//	           enter exit u64 (CLOCK_MONOTONIC ns), flags u8 (NoReturn, Compat),
//	           nbufs u8, pad [6]; then nbufs Bufs of
//	           addr len u64, want u32, arg part dir flags u8 (Fault, Truncated)
//	Chunk (2): type tid u32, tseq u64, off u32, len u16, buf flags u8
//	           (Fault); then len bytes
//	Fork  (3): type parent_tid parent_tgid child_tid child_tgid flags u32
//	           (Thread), time u64
//	Exec  (4): type tid tgid old_tid u32, time u64, len u32, flags u32
//	           (Secure: bprm->secureexec); then len bytes of file name
//	           with its NUL
//	Exit  (5): type tid tgid code u32, time u64, flags u32 (GroupDead), pad
//
// A chunk names its call by (tid, tseq) and its buffer by index in
// Call.Bufs. A call's chunks follow its Call record directly in its
// thread's order (the same program run sends them), each buffer's in
// order; those of an AtEntry call that succeeded (captured at the exec
// event) precede it. So a chunk belongs to the last Call record of its
// tid if that has its tseq, and otherwise to the next Call with its tid
// and tseq. The Call's TID is the tid at entry: after a non-leader's
// exec, its execve's Call (and chunks) carry its old tid, and its later
// calls the leader's, continuing its own TSeq: the Exec record (OldTID
// != TID) marks where the tid changes hands, after the old leader's Exit,
// so (tid, tseq) is unique only in stream order.
//
// # Loss
//
// The ring buffer is one BPF_MAP_TYPE_RINGBUF for all CPUs (so records of
// one CPU stay in order), Options.RingSize bytes. A failed output is
// counted in the per-CPU lost map (Probe.Lost sums it): a lost Call record
// sends none of its chunks; a lost chunk leaves its call's buffer short;
// a lost Fork, Exec or Exit counts as Procs. A call that cannot get a
// threads entry (the map holds 65536 threads) is a lost call. A gap in a
// thread's TSeq shows which calls are missing.
//
// # Wakeups
//
// Waking the reader for each record would cost the traced program an
// interprocessor wakeup per call. Records are sent with BPF_RB_NO_WAKEUP,
// except when the ring holds more than a quarter of its size
// (bpf_ringbuf_query BPF_RB_AVAIL_DATA): then BPF_RB_FORCE_WAKEUP. Read
// waits in epoll for at most Options.Poll (5 ms by default) before it looks
// into the ring again, so no record waits longer than that.
//
// # Limits and gaps
//
// x86-64 only (the registers, the syscall numbers below 1024). A 32-bit
// (ia32) system call is not decoded: sys_enter reads the task's
// thread_info.status (CO-RE; TS_COMPAT, set by the kernel's i386 entry
// and cleared on the way back to user mode, what syscall_get_arch reads)
// and sends the first such call of each thread as a Call record with
// CALL_COMPAT (and NoReturn, TSeq 0, no arguments, no buffers) instead
// of saving its entry; the Go side refuses the run. Memory that is not present when the program reads it is a fault
// where the ptrace backend would have paged it in: chiefly the argv of an
// exec that fails before the kernel reads its arguments. The threads map
// holds 65536 threads, tracked 65536 processes.
package bpf
