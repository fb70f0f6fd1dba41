/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * The maps, the load-time configuration, and the per-thread and per-CPU
 * state the programs keep.
 */
#ifndef ENVBISECT_MAPS_H
#define ENVBISECT_MAPS_H

#include "wire.h"

/* The state of one recorded thread, from its first call to its exit. */
struct thread {
	__u64 tseq;
	__u64 enter;
	__u64 args[6];
	__u32 nr;
	__u32 tid; /* the tid at entry: a non-leader's execve changes it */
	__u8 active;
	__u8 entry_bufs;  /* the call's buffers were captured before its exit (exec) */
	__u8 entry_nbufs; /* ... and that many descriptors wait in entry_bufs */
	__u8 compat;      /* a Compat record was sent for this thread */
	__u8 _pad[4];
};

struct entry_bufs {
	struct buf_rec bufs[MAX_BUFS];
};


/* Set at load (CollectionSpec.Variables). */
volatile const __u32 filter = FILTER_TREE;
volatile const __u64 cgroup_id = 0;
volatile const __u32 max_capture = 65536;
volatile const __u64 wakeup_bytes = 1 << 20;
volatile const __u32 exit_has_group_dead = 1;


/* Per-CPU work space (an ARRAY indexed by CPU: it is larger than a
 * PERCPU_ARRAY value may be). */
enum src_type { SRC_NONE = 0, SRC_FLAT, SRC_IOVEC, SRC_STR_ARRAY };

struct src {
	__u64 addr;  /* data, iovec array or pointer array */
	__u64 count; /* FLAT: bytes to send; IOVEC: iovecs */
	__u64 limit; /* IOVEC: the bytes the kernel used at most */
	__u32 type;  /* enum src_type */
	__u32 _pad;
};

/* Where the measuring and sending loops are. */
struct walk {
	__u64 addr;    /* the current piece */
	__u64 left;    /* its bytes not yet sent */
	__u64 k;       /* next iovec or string pointer */
	__u64 seen;    /* bytes the kernel used so far (iovecs), or measured */
	__u64 emitted; /* bytes sent of this buffer, including pos */
	__u32 j;       /* current buffer */
	__u32 pos;     /* bytes waiting in data */
	__u32 started;
	__u32 fault;
};

/* The call being captured. */
struct state {
	__u64 args[8];
	__s64 ret;
	__u64 cap;	/* bytes kept per buffer */
	__u32 out;	/* capture what the call wrote */
	__u32 nargs;	/* arguments up to the last one with memory to capture */
	__u32 measure;	/* some buffer needs measuring (iovecs, string arrays) */
	__u32 send;	/* some buffer has bytes to send */
};

struct call_out {
	struct call_rec rec;
	struct buf_rec bufs[MAX_BUFS];
};

struct exec_out {
	struct exec_rec rec;
	char filename[STR_MAX];
};

struct iovec_raw {
	__u64 base;
	__u64 len;
};

struct msghdr_raw {
	__u64 name;
	__u32 namelen;
	__u32 _pad;
	__u64 iov;
	__u64 iovlen;
	__u64 control;
	__u64 controllen;
	__u32 flags;
	__u32 _pad2;
};



/* Where capture_image finds a new image's strings. */
struct image {
	__u64 execfn;
	__u64 area[2][2]; /* [argv, envp][start, end) */
	__u32 arrays;	  /* string arrays planned so far */
	__u32 _pad;
};

struct scratch {
	struct chunk_rec chunk; /* data must follow it directly */
	__u8 data[2 * CHUNK_SIZE + PAGE_SIZE];
	struct call_out call;
	struct src src[MAX_BUFS];
	struct state st;
	struct walk w;
	struct syscall_desc desc;
	struct iovec_raw iov[IOV_BATCH];
	struct msghdr_raw msg;
	struct exec_out exec;
	struct image img;
	struct abi abi;
};


struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24); /* Options.RingSize */
} rb SEC(".maps");

/* FilterTree: the thread groups recorded. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32); /* tid */
	__type(value, struct thread);
} threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32); /* tid */
	__type(value, struct entry_bufs);
} entry_bufs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_MAX);
	__type(key, __u32);
	__type(value, struct syscall_desc);
} descs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64); /* enum req_class << 32 | request */
	__type(value, struct size_dir);
} requests SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of possible CPUs, set at load */
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lost);
} lost SEC(".maps");

#endif
