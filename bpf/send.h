/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Sending a call's buffers: a bpf_loop state machine that copies each one
 * from user memory into the per-CPU chunk and sends it as Chunk records.
 */
#ifndef ENVBISECT_SEND_H
#define ENVBISECT_SEND_H

#include "helpers.h"

/* ---- Sending: chunk records of every buffer. ---- */

/* Sends the bytes waiting in data as one chunk of buffer j. */
static __always_inline void flush(struct scratch *s, __u32 j)
{
	__u32 pos = s->w.pos;
	__u32 fault = s->w.fault;
	if (!pos && !fault)
		return;
	CLAMP(pos, CHUNK_SIZE);
	s->chunk.type = REC_CHUNK;
	s->chunk.tid = s->call.rec.tid;
	s->chunk.tseq = s->call.rec.tseq;
	s->chunk.off = s->w.emitted - pos;
	s->chunk.len = pos;
	s->chunk.buf = j;
	s->chunk.flags = fault ? CHUNK_FAULT : 0;
	if (fault && j < MAX_BUFS)
		s->call.bufs[j].flags |= BUF_FAULT;
	if (bpf_ringbuf_output(&rb, &s->chunk, sizeof(struct chunk_rec) + pos, output_flags()))
		count_lost(LOST_CHUNKS);
	s->w.pos = 0;
	s->w.fault = 0;
}

/* Reads n bytes at addr into data+pos and returns how many it could: on a
 * fault, the readable pages before it, as the ptrace backend keeps them. */
static __always_inline __u64 read_user(struct scratch *s, __u32 pos, __u64 n, __u64 addr)
{
	CLAMP(pos, CHUNK_SIZE - 1);
	CLAMP(n, CHUNK_SIZE);
	if (!bpf_probe_read_user(&s->data[pos], n, (void *)addr))
		return n;
	__u64 got = 0;
	for (int p = 0; p < CHUNK_SIZE / PAGE_SIZE + 1; p++) {
		if (got >= n)
			break;
		__u64 a = addr + got;
		__u64 k = PAGE_SIZE - (a & (PAGE_SIZE - 1));
		if (k > n - got)
			k = n - got;
		CLAMP(k, PAGE_SIZE);
		__u64 off = (pos + got) & (2 * CHUNK_SIZE - 1);
		if (bpf_probe_read_user(&s->data[off], k, (void *)a))
			break;
		got += k;
	}
	return got;
}

/* Appends the next piece of the current region to the chunk being filled. */
static __always_inline void append_piece(struct scratch *s, __u32 j)
{
	if (s->w.pos >= CHUNK_SIZE)
		flush(s, j);
	__u32 pos = s->w.pos;
	__u64 n = min64(s->w.left, CHUNK_SIZE - pos);
	__u64 got = read_user(s, pos, n, s->w.addr);
	s->w.pos = pos + got;
	s->w.emitted += got;
	s->w.addr += n;
	s->w.left -= n;
	if (got < n) {
		/* A flat buffer ends at a fault; an iovec array goes on with
		 * its next element, as the ptrace backend does. */
		s->w.fault = 1;
		s->w.left = 0;
		flush(s, j);
		return;
	}
	if (s->w.pos >= CHUNK_SIZE)
		flush(s, j);
}

static long emit_step(__u32 step, void *unused)
{
	struct scratch *s = scratch_get();
	if (!s)
		return 1;
	__u32 j = s->w.j;
	if (j >= s->call.rec.nbufs || j >= MAX_BUFS)
		return 1;
	struct src *src = &s->src[j];
	if (!s->w.started) {
		s->w.started = 1;
		s->w.k = 0;
		s->w.seen = 0;
		s->w.emitted = 0;
		s->w.pos = 0;
		s->w.fault = 0;
		s->w.left = 0;
		if (src->type == SRC_FLAT) {
			s->w.addr = src->addr;
			s->w.left = src->count;
		}
	}
	if (s->w.left) {
		append_piece(s, j);
		return 0;
	}
	__u64 k = s->w.k;
	if (src->type == SRC_IOVEC) {
		struct iovec_raw v;
		if (k >= src->count || s->w.seen >= src->limit || s->w.emitted >= s->st.cap)
			goto done;
		if (bpf_probe_read_user(&v, sizeof(v), (void *)(src->addr + k * sizeof(v)))) {
			s->w.fault = 1;
			goto done;
		}
		s->w.k = k + 1;
		__u64 n = min64(v.len, src->limit - s->w.seen);
		s->w.seen += n;
		s->w.addr = v.base;
		s->w.left = min64(n, s->st.cap - s->w.emitted);
		return 0;
	}
	if (src->type == SRC_STR_ARRAY) {
		__u64 p = 0;
		if (k >= STR_ARRAY_MAX)
			goto done;
		if (bpf_probe_read_user(&p, sizeof(p), (void *)(src->addr + k * 8))) {
			s->w.fault = 1;
			goto done;
		}
		if (!p)
			goto done;
		s->w.k = k + 1;
		if (s->w.pos > CHUNK_SIZE - (STR_MAX + 1))
			flush(s, j);
		__u32 pos = s->w.pos;
		CLAMP(pos, CHUNK_SIZE - (STR_MAX + 1));
		long r = bpf_probe_read_user_str(&s->data[pos], STR_MAX + 1, (void *)p);
		if (r <= 0) {
			s->data[pos] = 0;
			r = 1;
		}
		s->w.pos = pos + r;
		s->w.emitted += r;
		return 0;
	}
done:
	flush(s, j);
	next_buf(s);
	return 0;
}

#endif
