/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * The few kernel types record.bpf.c needs, instead of a generated
 * vmlinux.h. Structs carry preserve_access_index: clang records each
 * field access as a CO-RE relocation, and the loader rewrites the offsets
 * to the running kernel's layout (from /sys/kernel/btf/vmlinux), so only
 * the fields used are declared, in any order.
 */
#ifndef ENVBISECT_KERNEL_H
#define ENVBISECT_KERNEL_H

typedef unsigned char __u8;
typedef signed char __s8;
typedef unsigned short __u16;
typedef short __s16;
typedef unsigned int __u32;
typedef int __s32;
typedef unsigned long long __u64;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true 1
#define false 0

/* From the uapi linux/bpf.h. */
enum {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_RINGBUF = 27,
};
enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
};
enum {
	BPF_F_NO_PREALLOC = 1U << 0,
};
enum {
	BPF_RB_NO_WAKEUP = 1ULL << 0,
	BPF_RB_FORCE_WAKEUP = 1ULL << 1,
};
enum {
	BPF_RB_AVAIL_DATA = 0,
};

struct bpf_raw_tracepoint_args {
	__u64 args[0];
};

/* x86-64 registers as the syscall entry code saves them. */
struct pt_regs {
	unsigned long r10;
	unsigned long r9;
	unsigned long r8;
	unsigned long ax;
	unsigned long cx;
	unsigned long dx;
	unsigned long si;
	unsigned long di;
} __attribute__((preserve_access_index));

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	atomic_t live;
} __attribute__((preserve_access_index));

struct mm_struct {
	unsigned long arg_start;
	unsigned long arg_end;
	unsigned long env_start;
	unsigned long env_end;
} __attribute__((preserve_access_index));

/* x86: thread_info is the first member of task_struct (THREAD_INFO_IN_TASK). */
struct thread_info {
	__u32 status;
} __attribute__((preserve_access_index));

/* arch/x86/include/asm/thread_info.h: the current system call came in
 * through the i386 ABI (int 0x80, sysenter, a 32-bit syscall). Set at
 * entry, cleared on the way back to user mode; what the kernel's own
 * syscall_get_arch (seccomp, audit) reads. A #define, not in BTF. */
#define TS_COMPAT 0x0002

struct task_struct {
	struct thread_info thread_info;
	int pid;
	int tgid;
	int exit_code;
	struct signal_struct *signal;
	struct mm_struct *mm;
} __attribute__((preserve_access_index));

struct linux_binprm {
	const char *filename;
	unsigned long exec; /* AT_EXECFN: the file name on the new stack */
	unsigned int secureexec : 1; /* the exec changes privileges (AT_SECURE) */
} __attribute__((preserve_access_index));

#endif
