/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Planning and measuring a call's capture: the Buf descriptors of its
 * buffers, from the descs and requests maps alone, with the rules of
 * tracer/capture.go, and the lengths of iovec data and string arrays.
 */
#ifndef ENVBISECT_PLAN_H
#define ENVBISECT_PLAN_H

#include "helpers.h"

/* ---- Planning: the descriptors of a call's buffers. ---- */

static __always_inline struct buf_rec *buf_add(struct scratch *s, __u32 arg, __u32 part, __u32 dir,
					       __u64 addr, __u32 *jp)
{
	__u32 j = s->call.rec.nbufs;
	if (j >= MAX_BUFS)
		return 0;
	struct buf_rec *b = &s->call.bufs[j];
	b->addr = addr;
	b->len = 0;
	b->want = 0;
	b->arg = arg;
	b->part = part;
	b->dir = dir;
	b->flags = 0;
	struct src *src = &s->src[j];
	src->type = SRC_NONE;
	src->addr = 0;
	src->count = 0;
	src->limit = 0;
	s->call.rec.nbufs = j + 1;
	*jp = j;
	return b;
}

/* A buffer of known length n at addr. */
static __always_inline void plan_flat(struct scratch *s, __u32 arg, __u32 part, __u32 dir, __u64 addr,
				      __u64 n)
{
	__u32 j;
	struct buf_rec *b = buf_add(s, arg, part, dir, addr, &j);
	if (!b)
		return;
	__u64 want = min64(n, s->st.cap);
	b->len = n;
	b->want = want;
	if (want < n)
		b->flags |= BUF_TRUNCATED;
	if (want > 0 && j < MAX_BUFS) {
		s->src[j].type = SRC_FLAT;
		s->src[j].addr = addr;
		s->src[j].count = want;
		s->st.send = 1;
	}
}

/* A NUL-terminated string at from (the argument's address is addr): its
 * length is measured here, its bytes (without the NUL) are sent like a
 * flat buffer. */
static __always_inline void plan_string(struct scratch *s, __u32 arg, __u64 addr, __u64 from)
{
	__u32 j;
	struct buf_rec *b = buf_add(s, arg, PART_WHOLE, DIR_IN, addr, &j);
	if (!b)
		return;
	long r = bpf_probe_read_user_str(s->data, STR_MAX + 1, (void *)from);
	if (r <= 0) {
		b->flags |= BUF_FAULT;
		return;
	}
	/* No NUL in the first STR_MAX bytes: cut there, as the ptrace backend
	 * does (so also a string of exactly STR_MAX bytes). */
	__u64 n = r - 1;
	if (r > STR_MAX) {
		n = STR_MAX;
		b->flags |= BUF_TRUNCATED;
	}
	b->len = n;
	b->want = n;
	if (n > 0 && j < MAX_BUFS) {
		s->src[j].type = SRC_FLAT;
		s->src[j].addr = from;
		s->src[j].count = n;
		s->st.send = 1;
	}
}

/* An iovec array: its length is measured later (measure_step). */
static __always_inline void plan_iovec(struct scratch *s, __u32 arg, __u32 dir, __u64 addr, __u64 count,
				       __u64 limit)
{
	__u32 j;
	struct buf_rec *b = buf_add(s, arg, PART_IOV_DATA, dir, addr, &j);
	if (!b || j >= MAX_BUFS)
		return;
	s->src[j].type = SRC_IOVEC;
	s->src[j].addr = addr;
	s->src[j].count = min64(count, IOV_MAX);
	s->src[j].limit = limit;
	s->st.measure = 1;
	s->st.send = 1;
}

static __always_inline void plan_str_array(struct scratch *s, __u32 arg, __u64 addr)
{
	__u32 j;
	struct buf_rec *b = buf_add(s, arg, PART_STRINGS, DIR_IN, addr, &j);
	if (!b || j >= MAX_BUFS)
		return;
	s->src[j].type = SRC_STR_ARRAY;
	s->src[j].addr = addr;
	s->st.measure = 1;
	s->st.send = 1;
}

/* A struct msghdr: its name, iovec data and control buffers. */
static __always_inline void plan_msghdr(struct scratch *s, __u32 arg, __u32 dir, __u64 addr, __u64 limit)
{
	if (bpf_probe_read_user(&s->msg, sizeof(s->msg), (void *)addr)) {
		__u32 j;
		struct buf_rec *b = buf_add(s, arg, PART_WHOLE, dir, addr, &j);
		if (b)
			b->flags |= BUF_FAULT;
		return;
	}
	__u64 name = s->msg.name, namelen = s->msg.namelen;
	__u64 iov = s->msg.iov, iovlen = s->msg.iovlen;
	__u64 ctl = s->msg.control, ctllen = s->msg.controllen;
	if (name && namelen)
		plan_flat(s, arg, PART_NAME, dir, name, min64(namelen, SOCKADDR_MAX));
	if (iov)
		plan_iovec(s, arg, dir, iov, iovlen, limit);
	if (ctl && ctllen)
		plan_flat(s, arg, PART_CONTROL, dir, ctl, min64(ctllen, CONTROL_MAX));
}

/* In, out and in-out buffers, with their length from wherever the
 * descriptor says (tracer/capture.go's length). */
static __always_inline void plan_buf(struct scratch *s, __u32 i, struct arg_desc *a, __u64 addr)
{
	__u32 kind = a->kind;
	__u32 out = s->st.out;
	__s64 ret = s->st.ret;
	__u64 size = a->size ? a->size : 1;
	__u32 la = a->len_arg;
	__u64 n = 0, key = 0;

	if (kind != KIND_IN_BUF && !out)
		return;
	switch (a->len_from) {
	case LEN_FIXED:
		n = a->size;
		break;
	case LEN_ARG:
		n = arg_value(s, la) * size;
		break;
	case LEN_RET:
		if (ret < 0)
			return;
		n = (__u64)ret * size;
		break;
	case LEN_MIN_ARG_RET:
		if (ret < 0)
			return;
		n = min64((__u64)ret, arg_value(s, la));
		break;
	case LEN_ARG_PTR: {
		__u64 p = la < 6 ? s->st.args[la & 7] : 0;
		__u32 v;
		if (!p || bpf_probe_read_user(&v, sizeof(v), (void *)p))
			return;
		n = min64(v, VALUE_RESULT_MAX);
		break;
	}
	case LEN_FDSET: {
		__u64 nfds = arg_value(s, la);
		if (nfds > FDSET_NFDS_MAX)
			return;
		n = (nfds + 63) / 64 * 8;
		break;
	}
	case LEN_IOCTL:
		key = (__u64)REQ_IOCTL << 32;
		break;
	case LEN_FCNTL:
		key = (__u64)REQ_FCNTL << 32;
		break;
	case LEN_PRCTL:
		key = (__u64)REQ_PRCTL << 32;
		break;
	default:
		return;
	}
	if (key) {
		key |= (__u32)(la < 6 ? s->st.args[la & 7] : 0);
		struct size_dir *sd = bpf_map_lookup_elem(&requests, &key);
		if (!sd || !sd->size)
			return;
		n = sd->size;
		kind = (sd->dir & DIR_OUT) ? KIND_OUT_BUF : KIND_IN_BUF;
	}
	__u32 dir = DIR_OUT;
	if (kind == KIND_IN_BUF)
		dir = DIR_IN;
	else if (!out)
		return;
	plan_flat(s, i, PART_WHOLE, dir, addr, n);
}

static long plan_arg(__u32 i, void *unused)
{
	struct scratch *s = scratch_get();
	if (!s || i >= 6)
		return 1;
	struct arg_desc *a = &s->desc.args[i];
	__u64 addr = s->st.args[i];
	__u32 out = s->st.out;
	if (a->kind == KIND_NONE || !addr)
		return 0;
	switch (a->kind) {
	case KIND_PATH:
	case KIND_STRING:
		plan_string(s, i, addr, addr);
		break;
	case KIND_STR_ARRAY:
		plan_str_array(s, i, addr);
		break;
	case KIND_IN_IOVEC:
		plan_iovec(s, i, DIR_IN, addr, arg_value(s, a->len_arg), ~0ULL);
		break;
	case KIND_OUT_IOVEC:
		if (out)
			plan_iovec(s, i, DIR_OUT, addr, arg_value(s, a->len_arg), s->st.ret);
		break;
	case KIND_IN_MSGHDR:
		plan_msghdr(s, i, DIR_IN, addr, ~0ULL);
		break;
	case KIND_OUT_MSGHDR:
		if (out)
			plan_msghdr(s, i, DIR_OUT, addr, s->st.ret);
		break;
	case KIND_IN_BUF:
	case KIND_OUT_BUF:
	case KIND_INOUT_BUF:
		plan_buf(s, i, a, addr);
		break;
	}
	return 0;
}

/* ---- Measuring: the lengths of iovec data and string arrays. ---- */

static __always_inline void next_buf(struct scratch *s)
{
	s->w.j++;
	s->w.k = 0;
	s->w.seen = 0;
	s->w.started = 0;
}

static long measure_step(__u32 step, void *unused)
{
	struct scratch *s = scratch_get();
	if (!s)
		return 1;
	__u32 j = s->w.j;
	if (j >= s->call.rec.nbufs || j >= MAX_BUFS)
		return 1;
	struct src *src = &s->src[j];
	struct buf_rec *b = &s->call.bufs[j];
	__u64 k = s->w.k;

	if (src->type == SRC_IOVEC) {
		/* As the ptrace backend reads the whole array: any fault
		 * anywhere in it leaves the buffer empty. */
		if (k >= src->count) {
			__u64 want = min64(s->w.seen, s->st.cap);
			b->len = s->w.seen;
			b->want = want;
			if (want < b->len)
				b->flags |= BUF_TRUNCATED;
			next_buf(s);
			return 0;
		}
		__u64 n = min64(src->count - k, IOV_BATCH);
		CLAMP(n, IOV_BATCH);
		if (bpf_probe_read_user(s->iov, n * sizeof(struct iovec_raw),
					(void *)(src->addr + k * sizeof(struct iovec_raw)))) {
			b->flags |= BUF_FAULT;
			src->type = SRC_NONE;
			next_buf(s);
			return 0;
		}
		__u64 seen = s->w.seen, limit = src->limit;
		for (int m = 0; m < IOV_BATCH; m++) {
			if (m >= n)
				break;
			if (seen < limit)
				seen += min64(s->iov[m].len, limit - seen);
		}
		s->w.seen = seen;
		s->w.k = k + n;
		return 0;
	}
	if (src->type == SRC_STR_ARRAY) {
		__u64 p = 0;
		if (k >= STR_ARRAY_MAX)
			goto done;
		if (bpf_probe_read_user(&p, sizeof(p), (void *)(src->addr + k * 8))) {
			b->flags |= BUF_FAULT;
			goto done;
		}
		if (!p)
			goto done;
		long r = bpf_probe_read_user_str(s->data, STR_MAX + 1, (void *)p);
		if (r <= 0) {
			/* Like the ptrace backend: an unreadable string counts
			 * as empty, and the array as truncated. */
			r = 1;
			b->flags |= BUF_TRUNCATED;
		} else if (r > STR_MAX) {
			b->flags |= BUF_TRUNCATED;
		}
		s->w.seen += r;
		s->w.k = k + 1;
		return 0;
	done:
		b->len = s->w.seen;
		b->want = s->w.seen;
		next_buf(s);
		return 0;
	}
	next_buf(s);
	return 0;
}

#endif
