//go:build ignore

// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * The kernel side of envbisect's eBPF recorder: system calls with the user
 * memory they read and write, and process life (fork, exec, exit), into one
 * ring buffer. bpf/doc.go explains the mechanism. The record layouts are in
 * wire.h, the maps in maps.h, the capture in plan.h and send.h; here are
 * the programs and what they do with a call as a whole.
 *
 * What to capture behind each argument comes only from the descs and
 * requests maps, which Go fills from the syscall table at load: nothing
 * here knows any particular system call.
 */
#include "headers/kernel.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "wire.h"
#include "maps.h"
#include "helpers.h"
#include "plan.h"
#include "send.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* ---- Calls. ---- */

/* Fills the call record and capture state from the thread's saved entry. */
static __always_inline struct scratch *begin_call(struct thread *t, __s64 ret, __u64 exit, bool no_return)
{
	struct scratch *s = scratch_get();
	if (!s)
		return 0;
	__u32 nr = t->nr;
	s->call.rec.type = REC_CALL;
	s->call.rec.tid = t->tid;
	s->call.rec.tgid = bpf_get_current_pid_tgid() >> 32;
	s->call.rec.nr = nr;
	s->call.rec.tseq = t->tseq;
	s->call.rec.ret = ret;
	s->call.rec.enter = t->enter;
	s->call.rec.exit = exit;
	s->call.rec.flags = no_return ? CALL_NO_RETURN : 0;
	s->call.rec.nbufs = 0;
	for (int i = 0; i < 6; i++) {
		s->call.rec.args[i] = t->args[i];
		s->st.args[i] = t->args[i];
	}
	s->st.args[6] = 0;
	s->st.args[7] = 0;
	s->st.ret = ret;
	s->st.out = !no_return && ret >= 0;
	s->st.cap = min64(max_capture, BUFFER_MAX);
	s->st.nargs = 0;
	s->st.measure = 0;
	s->st.send = 0;

	struct syscall_desc *d = 0;
	if (nr < NR_MAX)
		d = bpf_map_lookup_elem(&descs, &nr);
	if (!d) {
		__builtin_memset(&s->desc, 0, sizeof(s->desc));
		return s;
	}
	s->desc = *d;
	for (int i = 0; i < 6; i++)
		if (s->desc.args[i].kind)
			s->st.nargs = i + 1;
	return s;
}

/* Works out the call's buffers and measures them. Most calls have few
 * arguments with memory, or none: the loops run only as far as needed. */
static __always_inline void plan(struct scratch *s)
{
	__u32 nargs = s->st.nargs;
	if (!nargs)
		return;
	CLAMP(nargs, 6);
	bpf_loop(nargs, plan_arg, 0, 0);
	if (!s->st.measure)
		return;
	s->w.j = 0;
	s->w.k = 0;
	s->w.seen = 0;
	s->w.started = 0;
	bpf_loop(STEPS_MAX, measure_step, 0, 0);
}

static __always_inline void emit_chunks(struct scratch *s)
{
	if (!s->st.send)
		return;
	s->w.j = 0;
	s->w.started = 0;
	s->w.pos = 0;
	s->w.fault = 0;
	bpf_loop(STEPS_MAX, emit_step, 0, 0);
}

static __always_inline int emit_call(struct scratch *s)
{
	__u32 n = s->call.rec.nbufs;
	CLAMP(n, MAX_BUFS);
	if (bpf_ringbuf_output(&rb, &s->call, sizeof(struct call_rec) + n * sizeof(struct buf_rec),
			       output_flags())) {
		count_lost(LOST_CALLS);
		return -1;
	}
	return 0;
}

/* Emits the call the thread is in: its record, then its buffers' chunks,
 * or the descriptors of what capture_image captured already. */
static __always_inline void finish_call(struct thread *t, __u32 key, __s64 ret, __u64 exit, bool no_return)
{
	struct scratch *s = begin_call(t, ret, exit, no_return);
	if (!s)
		return;
	if (t->entry_bufs) {
		__u32 n = t->entry_nbufs;
		struct entry_bufs *eb = 0;
		if (n)
			eb = bpf_map_lookup_elem(&entry_bufs, &key);
		if (eb) {
			__builtin_memcpy(s->call.bufs, eb->bufs, sizeof(eb->bufs));
			CLAMP(n, MAX_BUFS);
			s->call.rec.nbufs = n;
			bpf_map_delete_elem(&entry_bufs, &key);
		}
		t->entry_bufs = 0;
		emit_call(s);
		return;
	}
	plan(s);
	if (emit_call(s))
		return;
	emit_chunks(s);
}

/* An exec'ing call's buffers, read from the new image at the exec event
 * (as the ptrace backend reads them): its Path arguments from AT_EXECFN,
 * its first and second string arrays from the argument and environment
 * areas the kernel just wrote to the new stack. The old image's memory is
 * gone by the call's exit, and at its entry the pages may not be present
 * (a forked child's string literals), which bpf_probe_read_user cannot fix. */
static long plan_image_arg(__u32 i, void *unused)
{
	struct scratch *s = scratch_get();
	if (!s || i >= 6)
		return 1;
	__u32 kind = s->desc.args[i].kind;
	__u64 addr = s->st.args[i];
	if (kind == KIND_PATH) {
		plan_string(s, i, addr, s->img.execfn);
	} else if (kind == KIND_STR_ARRAY && s->img.arrays < 2) {
		__u32 k = s->img.arrays & 1;
		__u64 start = s->img.area[k][0], end = s->img.area[k][1];
		__u64 n = end > start ? min64(end - start, BUFFER_MAX) : 0;
		__u32 j;
		struct buf_rec *b = buf_add(s, i, PART_STRINGS, DIR_IN, addr, &j);
		if (b && j < MAX_BUFS) {
			b->len = n;
			b->want = n;
			s->src[j].type = SRC_FLAT;
			s->src[j].addr = start;
			s->src[j].count = n;
			s->st.send = 1;
		}
		s->img.arrays++;
	}
	return 0;
}

/* Captures the buffers of the exec'ing call t is in, and keeps their
 * descriptors for its call record at exit. */
static __always_inline void capture_image(struct thread *t, __u32 key, struct task_struct *task,
					  struct linux_binprm *bprm)
{
	struct scratch *s = begin_call(t, 0, 0, true);
	if (!s)
		return;
	struct mm_struct *mm = BPF_CORE_READ(task, mm);
	s->img.execfn = BPF_CORE_READ(bprm, exec);
	s->img.area[0][0] = BPF_CORE_READ(mm, arg_start);
	s->img.area[0][1] = BPF_CORE_READ(mm, arg_end);
	s->img.area[1][0] = BPF_CORE_READ(mm, env_start);
	s->img.area[1][1] = BPF_CORE_READ(mm, env_end);
	s->img.arrays = 0;
	if (s->st.nargs)
		bpf_loop(s->st.nargs, plan_image_arg, 0, 0);
	emit_chunks(s);
	t->entry_bufs = 1;
	t->entry_nbufs = 0;
	if (!s->call.rec.nbufs)
		return;
	if (bpf_map_update_elem(&entry_bufs, &key, s->call.bufs, BPF_ANY)) {
		count_lost(LOST_CHUNKS);
		return;
	}
	t->entry_nbufs = s->call.rec.nbufs;
}

static const struct thread new_thread;

/* Whether the current system call came in through the i386 ABI: the
 * kernel's own answer (TS_COMPAT, which seccomp and audit read through
 * syscall_get_arch), right for a 32-bit program and for int 0x80 in a
 * 64-bit one alike. A kernel whose thread_info has no status (another
 * architecture) has no such calls. */
static __always_inline bool compat_call(void)
{
	if (!bpf_core_field_exists(struct thread_info, status))
		return false;
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	return BPF_CORE_READ(task, thread_info.status) & TS_COMPAT;
}

/* A call through the i386 ABI: its number and registers name another call
 * than the x86-64 one of that number, so it is neither captured nor
 * numbered. One Compat record per thread says that it came, with its
 * (i386) number; Go refuses the run. */
static __always_inline void emit_compat(struct thread *t, __u32 tid, __u32 nr)
{
	if (t && t->compat)
		return;
	if (!t) {
		bpf_map_update_elem(&threads, &tid, &new_thread, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&threads, &tid);
		if (!t) {
			count_lost(LOST_CALLS);
			return;
		}
	}
	struct scratch *s = scratch_get();
	if (!s)
		return;
	s->call.rec.type = REC_CALL;
	s->call.rec.tid = tid;
	s->call.rec.tgid = bpf_get_current_pid_tgid() >> 32;
	s->call.rec.nr = nr;
	s->call.rec.tseq = 0;
	s->call.rec.ret = 0;
	s->call.rec.enter = bpf_ktime_get_ns();
	s->call.rec.exit = 0;
	s->call.rec.flags = CALL_COMPAT | CALL_NO_RETURN;
	s->call.rec.nbufs = 0;
	for (int i = 0; i < 6; i++)
		s->call.rec.args[i] = 0;
	if (!emit_call(s))
		t->compat = 1;
}

SEC("raw_tracepoint/sys_enter")
int sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	/* A thread already recorded has its entry: with FilterTree that one
	 * lookup is the filter. A task outside the cgroup is dropped before
	 * any lookup. */
	if (filter == FILTER_CGROUP && bpf_get_current_cgroup_id() != cgroup_id)
		return 0;
	__u32 tid = bpf_get_current_pid_tgid();
	struct thread *t = bpf_map_lookup_elem(&threads, &tid);
	if (!t && filter == FILTER_TREE && !recorded())
		return 0;

	long id = ctx->args[1];
	__u32 nr = id;
	if (compat_call()) {
		emit_compat(t, tid, nr);
		return 0;
	}
	__u32 flags = 0;
	if (id >= 0 && id < NR_MAX) {
		struct syscall_desc *d = bpf_map_lookup_elem(&descs, &nr);
		if (d)
			flags = d->flags;
	}
	if (flags & DESC_SKIP)
		return 0;

	if (!t) {
		bpf_map_update_elem(&threads, &tid, &new_thread, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&threads, &tid);
		if (!t) {
			count_lost(LOST_CALLS);
			return 0;
		}
	}
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	struct {
		__u64 r10, r9, r8, ax, cx, dx, si, di;
	} r;
	if (bpf_core_read(&r, sizeof(r), &regs->r10))
		__builtin_memset(&r, 0, sizeof(r));
	t->args[0] = r.di;
	t->args[1] = r.si;
	t->args[2] = r.dx;
	t->args[3] = r.r10;
	t->args[4] = r.r8;
	t->args[5] = r.r9;
	t->nr = nr;
	t->tid = tid;
	t->tseq++;
	t->enter = bpf_ktime_get_ns();
	t->active = 1;
	t->entry_bufs = 0;

	if (flags & DESC_NO_RETURN) {
		t->active = 0;
		finish_call(t, tid, 0, 0, true);
	}
	return 0;
}

SEC("raw_tracepoint/sys_exit")
int sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	if (filter == FILTER_CGROUP && bpf_get_current_cgroup_id() != cgroup_id)
		return 0;
	__u32 tid = bpf_get_current_pid_tgid();
	struct thread *t = bpf_map_lookup_elem(&threads, &tid);
	if (!t || !t->active)
		return 0;
	t->active = 0;
	finish_call(t, tid, ctx->args[1], bpf_ktime_get_ns(), false);
	return 0;
}

SEC("raw_tracepoint/sched_process_fork")
int sched_process_fork(struct bpf_raw_tracepoint_args *ctx)
{
	if (!recorded())
		return 0;
	struct task_struct *parent = (struct task_struct *)ctx->args[0];
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	struct fork_rec rec = {
		.type = REC_FORK,
		.parent_tid = BPF_CORE_READ(parent, pid),
		.parent_tgid = BPF_CORE_READ(parent, tgid),
		.child_tid = BPF_CORE_READ(child, pid),
		.child_tgid = BPF_CORE_READ(child, tgid),
		.time = bpf_ktime_get_ns(),
	};
	if (rec.child_tgid == rec.parent_tgid) {
		rec.flags = FORK_THREAD;
	} else if (filter == FILTER_TREE) {
		__u8 one = 1;
		bpf_map_update_elem(&tracked, &rec.child_tgid, &one, BPF_ANY);
	}
	if (bpf_ringbuf_output(&rb, &rec, sizeof(rec), output_flags()))
		count_lost(LOST_PROCS);
	return 0;
}

SEC("raw_tracepoint/sched_process_exec")
int sched_process_exec(struct bpf_raw_tracepoint_args *ctx)
{
	if (!recorded())
		return 0;
	struct task_struct *task = (struct task_struct *)ctx->args[0];
	__u32 old_tid = ctx->args[1];
	struct linux_binprm *bprm = (struct linux_binprm *)ctx->args[2];
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid;

	if (old_tid != tid) {
		/* A non-leader thread exec'd and took the leader's tid: its
		 * state (sequence, the execve in flight) moves with it. */
		struct thread *t = bpf_map_lookup_elem(&threads, &old_tid);
		if (t) {
			bpf_map_update_elem(&threads, &tid, t, BPF_ANY);
			bpf_map_delete_elem(&threads, &old_tid);
		}
	}
	struct thread *t = bpf_map_lookup_elem(&threads, &tid);
	if (t && t->active && t->nr < NR_MAX) {
		__u32 nr = t->nr;
		struct syscall_desc *d = bpf_map_lookup_elem(&descs, &nr);
		if (d && (d->flags & DESC_AT_ENTRY))
			capture_image(t, tid, task, bprm);
	}

	struct scratch *s = scratch_get();
	if (!s)
		return 0;
	s->exec.rec.type = REC_EXEC;
	s->exec.rec.tid = tid;
	s->exec.rec.tgid = pid_tgid >> 32;
	s->exec.rec.old_tid = old_tid;
	s->exec.rec.time = bpf_ktime_get_ns();
	s->exec.rec.flags = BPF_CORE_READ_BITFIELD_PROBED(bprm, secureexec) ? EXEC_SECURE : 0;
	const char *filename = BPF_CORE_READ(bprm, filename);
	long n = bpf_probe_read_kernel_str(s->exec.filename, STR_MAX, filename);
	if (n < 0)
		n = 0;
	CLAMP(n, STR_MAX);
	s->exec.rec.len = n;
	if (bpf_ringbuf_output(&rb, &s->exec, sizeof(struct exec_rec) + n, output_flags()))
		count_lost(LOST_PROCS);
	return 0;
}

SEC("raw_tracepoint/sched_process_exit")
int sched_process_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *task = (struct task_struct *)ctx->args[0];
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = pid_tgid, tgid = pid_tgid >> 32;

	struct thread *t = bpf_map_lookup_elem(&threads, &tid);
	if (t) {
		if (t->active) {
			/* Killed inside a call, or exiting in it: the call never
			 * returns. */
			t->active = 0;
			finish_call(t, tid, 0, 0, true);
		}
		if (t->entry_bufs)
			bpf_map_delete_elem(&entry_bufs, &tid);
		bpf_map_delete_elem(&threads, &tid);
	}
	if (!recorded())
		return 0;

	bool group_dead;
	if (exit_has_group_dead)
		group_dead = ctx->args[1] & 1;
	else
		group_dead = BPF_CORE_READ(task, signal, live.counter) == 0;

	struct exit_rec rec = {
		.type = REC_EXIT,
		.tid = tid,
		.tgid = tgid,
		.code = BPF_CORE_READ(task, exit_code),
		.time = bpf_ktime_get_ns(),
		.flags = group_dead ? EXIT_GROUP_DEAD : 0,
	};
	if (bpf_ringbuf_output(&rb, &rec, sizeof(rec), output_flags()))
		count_lost(LOST_PROCS);
	if (group_dead && filter == FILTER_TREE)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}
