/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/* Small helpers every part of the recorder uses. */
#ifndef ENVBISECT_HELPERS_H
#define ENVBISECT_HELPERS_H

#include "maps.h"

/* x = min(x, max) in a way that clang cannot fold away, so that the
 * verifier sees the bound on the register it checks. */
#define CLAMP(x, max)                   \
	({                              \
		barrier_var(x);         \
		if ((x) > (max))        \
			(x) = (max);    \
	})

static __always_inline __u64 min64(__u64 a, __u64 b) { return a < b ? a : b; }

static __always_inline struct scratch *scratch_get(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	return bpf_map_lookup_elem(&scratch, &cpu);
}

enum lost_kind { LOST_CALLS, LOST_CHUNKS, LOST_PROCS };

static __always_inline void count_lost(enum lost_kind kind)
{
	__u32 zero = 0;
	struct lost *l = bpf_map_lookup_elem(&lost, &zero);
	if (!l)
		return;
	if (kind == LOST_CALLS)
		l->calls++;
	else if (kind == LOST_CHUNKS)
		l->chunks++;
	else
		l->procs++;
}

/* No wakeup per record: the reader polls. Only a ring filling up wakes it. */
static __always_inline __u64 output_flags(void)
{
	if (bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline bool recorded(void)
{
	if (filter == FILTER_CGROUP)
		return bpf_get_current_cgroup_id() == cgroup_id;
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	return bpf_map_lookup_elem(&tracked, &tgid) != 0;
}

/* Argument i as the kernel reads it (systable.Syscall.Value). */
static __always_inline __u64 arg_value(struct scratch *s, __u32 i)
{
	if (i >= 6)
		return 0;
	__u64 v = s->st.args[i];
	if (s->desc.args[i].flags & ARG_INT32)
		v = (__u32)v;
	return v;
}

#endif
