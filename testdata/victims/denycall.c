/*
 * denycall: run a command under a seccomp filter that denies the system
 * calls named on the command line with EPERM, as a hardened service
 * manager or a container runtime's profile does.
 *
 *   denycall fchmodat,fchmod -- cmd args...
 *
 * The filter allows every other call (and every call of another
 * architecture). It is installed without no_new_privs when the caller
 * holds CAP_SYS_ADMIN (root), so set-user-ID programs keep working.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "denycall: unknown architecture"
#endif

struct named {
	const char *name;
	int nr;
};

static const struct named calls[] = {
#ifdef SYS_chmod
	{"chmod", SYS_chmod},
#endif
	{"fchmod", SYS_fchmod},
	{"fchmodat", SYS_fchmodat},
#ifdef SYS_fchmodat2
	{"fchmodat2", SYS_fchmodat2},
#else
	{"fchmodat2", 452},
#endif
	{"faccessat", SYS_faccessat},
	{"faccessat2", 439},
	{"fchown", SYS_fchown},
	{"fchownat", SYS_fchownat},
	{"utimensat", SYS_utimensat},
};

static int lookup(const char *name) {
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (strcmp(calls[i].name, name) == 0)
			return calls[i].nr;
	fprintf(stderr, "denycall: unknown system call %s\n", name);
	exit(2);
}

int main(int argc, char **argv) {
	if (argc < 4 || strcmp(argv[2], "--") != 0) {
		fprintf(stderr, "usage: denycall CALL[,CALL...] -- CMD [ARG...]\n");
		return 2;
	}
	int nrs[16], n = 0;
	for (char *s = strtok(argv[1], ","); s && n < 16; s = strtok(NULL, ","))
		nrs[n++] = lookup(s);

	struct sock_filter prog[4 + 2 * 16 + 1];
	int k = 0;
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++) {
		prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog fprog = {.len = (unsigned short)k, .filter = prog};

	if (geteuid() != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		perror("denycall: no_new_privs");
		return 2;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) {
		perror("denycall: seccomp");
		return 2;
	}
	execvp(argv[3], argv + 3);
	perror("denycall: exec");
	return 127;
}
