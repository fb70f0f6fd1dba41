/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * What record.bpf.c shares with Go: its bounds, the ring records (the wire
 * format bpf/decode.go reads) and the descriptors Go writes into the descs
 * and requests maps. bpf2go turns these types and enums into Go
 * (record_x86_bpfel.go); struct abi names the enums no other type uses.
 */
#ifndef ENVBISECT_WIRE_H
#define ENVBISECT_WIRE_H

/* Bounds. They match tracer/capture.go's limits where it has one. */
enum limits {
	CHUNK_SIZE = 16384,	  /* most data bytes in one chunk record */
	MAX_BUFS = 8,		  /* descriptors per call (a power of two) */
	STR_MAX = 4096,		  /* PATH_MAX: longer strings are cut (and marked truncated) */
	STR_ARRAY_MAX = 65536,	  /* argv/envp entries */
	IOV_MAX = 1024,		  /* iovecs per array */
	IOV_BATCH = 16,		  /* iovecs read at once while measuring */
	SOCKADDR_MAX = 128,	  /* sizeof(struct sockaddr_storage) */
	CONTROL_MAX = 65536,	  /* msg_control bytes */
	VALUE_RESULT_MAX = 65536, /* a length read from a socklen_t pointer */
	FDSET_NFDS_MAX = 1 << 20,
	BUFFER_MAX = 256 << 20,	  /* one buffer, whatever max_capture says */
	NR_MAX = 1024,		  /* syscall numbers the descs map holds */
	PAGE_SIZE = 4096,
	STEPS_MAX = 1 << 23,	  /* bpf_loop's own limit */
};

/* Wire format: the first u32 of every ring record is its type. */
enum rec_type {
	REC_CALL = 1,
	REC_CHUNK = 2,
	REC_FORK = 3,
	REC_EXEC = 4,
	REC_EXIT = 5,
};

enum call_flags { CALL_NO_RETURN = 1, CALL_COMPAT = 2 };
enum buf_flags { BUF_FAULT = 1, BUF_TRUNCATED = 2 };
enum chunk_flags { CHUNK_FAULT = 1 };
enum fork_flags { FORK_THREAD = 1 };
enum exit_flags { EXIT_GROUP_DEAD = 1 };
/* EXEC_SECURE: the exec changed the task's privileges (set-user-ID,
 * set-group-ID, file capabilities: the kernel's bprm->secureexec, what
 * AT_SECURE tells the new image). */
enum exec_flags { EXEC_SECURE = 1 };

/* Buf.dir and size_dir.dir: whether the call reads or writes the memory. */
enum dir { DIR_IN = 1, DIR_OUT = 2 };

/* Buf.part: which piece of an argument a buffer is. */
enum part {
	PART_WHOLE = 0,
	PART_IOV_DATA = 1,
	PART_NAME = 2,
	PART_CONTROL = 3,
	PART_STRINGS = 5,
};

/* A Call record; nbufs struct buf_rec follow it. */
struct call_rec {
	__u32 type;
	__u32 tid;
	__u32 tgid;
	__u32 nr;
	__u64 tseq;
	__u64 args[6];
	__s64 ret;
	__u64 enter;
	__u64 exit;
	__u8 flags;
	__u8 nbufs;
	__u8 _pad[6];
};

/* One captured region of a call. */
struct buf_rec {
	__u64 addr;
	__u64 len;  /* the region's length as the kernel used it */
	__u32 want; /* bytes sent in chunks */
	__u8 arg;
	__u8 part;
	__u8 dir;
	__u8 flags;
};

/* A Chunk record; len data bytes follow it. */
struct chunk_rec {
	__u32 type;
	__u32 tid;
	__u64 tseq;
	__u32 off;
	__u16 len;
	__u8 buf;
	__u8 flags;
};

struct fork_rec {
	__u32 type;
	__u32 parent_tid;
	__u32 parent_tgid;
	__u32 child_tid;
	__u32 child_tgid;
	__u32 flags;
	__u64 time;
};

/* An Exec record; len bytes of file name (with its NUL) follow it. */
struct exec_rec {
	__u32 type;
	__u32 tid;
	__u32 tgid;
	__u32 old_tid;
	__u64 time;
	__u32 len;
	__u32 flags;
};

struct exit_rec {
	__u32 type;
	__u32 tid;
	__u32 tgid;
	__u32 code;
	__u64 time;
	__u32 flags;
	__u32 _pad;
};

/* Configuration: the descs and requests maps, written by Go at load. */
enum arg_kind {
	KIND_NONE = 0,
	KIND_PATH,
	KIND_STRING,
	KIND_IN_BUF,
	KIND_OUT_BUF,
	KIND_INOUT_BUF,
	KIND_STR_ARRAY,
	KIND_IN_IOVEC,
	KIND_OUT_IOVEC,
	KIND_IN_MSGHDR,
	KIND_OUT_MSGHDR,
};

enum len_from {
	LEN_NONE = 0,
	LEN_FIXED,
	LEN_ARG,
	LEN_RET,
	LEN_ARG_PTR,
	LEN_MIN_ARG_RET,
	LEN_FDSET,
	LEN_IOCTL,
	LEN_FCNTL,
	LEN_PRCTL,
};

enum arg_flags { ARG_INT32 = 1 };
enum desc_flags { DESC_SKIP = 1, DESC_AT_ENTRY = 2, DESC_NO_RETURN = 4 };

/* The high half of a requests key says whose request the low half is. */
enum req_class { REQ_IOCTL = 1, REQ_FCNTL = 2, REQ_PRCTL = 3 };

enum filter_kind { FILTER_TREE = 1, FILTER_CGROUP = 2 };

struct arg_desc {
	__u8 kind;     /* enum arg_kind */
	__u8 len_from; /* enum len_from */
	__u8 len_arg;
	__u8 flags; /* enum arg_flags, of this argument */
	__u32 size;
};

struct syscall_desc {
	__u32 flags; /* enum desc_flags */
	__u32 _pad;
	struct arg_desc args[6];
};

struct size_dir {
	__u32 size;
	__u32 dir; /* enum dir bits */
};

struct lost {
	__u64 calls;
	__u64 chunks;
	__u64 procs;
};


/* Names the wire enums in BTF, so that bpf2go writes them into Go. */
struct abi {
	enum rec_type rec_type;
	enum call_flags call_flags;
	enum buf_flags buf_flags;
	enum chunk_flags chunk_flags;
	enum fork_flags fork_flags;
	enum exit_flags exit_flags;
	enum exec_flags exec_flags;
	enum dir dir;
	enum part part;
	enum arg_kind arg_kind;
	enum len_from len_from;
	enum arg_flags arg_flags;
	enum desc_flags desc_flags;
	enum req_class req_class;
	enum filter_kind filter_kind;
	enum limits limits;
	struct fork_rec fork;
	struct exit_rec exit;
};

#endif
