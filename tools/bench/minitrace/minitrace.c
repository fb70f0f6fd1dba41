/*
 * minitrace — the smallest ptrace recorder that still follows a whole
 * process tree: the floor any recorder that takes two stops per system
 * call (entry and exit) can approach. tools/bench compiles it with
 * gcc -O2 and runs workloads under it next to envbisect and strace.
 *
 * Usage: minitrace [-c] CMD [ARGS...]
 *
 * The child asks to be traced (PTRACE_TRACEME), stops itself, and execs
 * CMD. The tracer sets PTRACE_O_TRACESYSGOOD, TRACEFORK, TRACEVFORK,
 * TRACECLONE, TRACEEXEC and EXITKILL, then for every stop of every tracee
 * (waitpid(-1, __WALL)) does PTRACE_GETREGS and resumes with
 * PTRACE_SYSCALL: nothing else — no memory reads, no decoding, no output.
 *
 * It exits with CMD's status (128+N if a signal N killed it, 127 if CMD
 * could not be executed) once every tracee is gone. With -c it prints on
 * stderr "minitrace: CALLS calls, STOPS syscall stops, PROCS processes";
 * CALLS counts syscall-entry stops (rax == -ENOSYS at the stop, the usual
 * x86-64 test), which is the number of system calls the tree made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __x86_64__
#error "minitrace reads x86-64 registers"
#endif

/* pid_max is at most 2^22 on 64-bit Linux: one byte of state per pid. */
#define PIDS (1 << 22)
static unsigned char started[PIDS]; /* 1 once a tracee's first SIGSTOP was eaten */

int main(int argc, char **argv)
{
	int count = 0;
	int a = 1;
	if (a < argc && strcmp(argv[a], "-c") == 0) {
		count = 1;
		a++;
	}
	if (a < argc && strcmp(argv[a], "--") == 0)
		a++;
	if (a >= argc) {
		fprintf(stderr, "usage: minitrace [-c] CMD [ARGS...]\n");
		return 2;
	}

	pid_t root = fork();
	if (root < 0) {
		perror("minitrace: fork");
		return 1;
	}
	if (root == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0) {
			perror("minitrace: PTRACE_TRACEME");
			_exit(127);
		}
		raise(SIGSTOP); /* let the parent set options before the exec */
		execvp(argv[a], argv + a);
		fprintf(stderr, "minitrace: exec %s: %s\n", argv[a], strerror(errno));
		_exit(127);
	}

	int status;
	if (waitpid(root, &status, __WALL) < 0 || !WIFSTOPPED(status)) {
		fprintf(stderr, "minitrace: child did not stop\n");
		return 1;
	}
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, root, 0, (void *)opts) < 0) {
		perror("minitrace: PTRACE_SETOPTIONS");
		kill(root, SIGKILL);
		return 1;
	}
	started[root] = 1;
	if (ptrace(PTRACE_SYSCALL, root, 0, 0) < 0) {
		perror("minitrace: PTRACE_SYSCALL");
		return 1;
	}

	unsigned long long calls = 0, stops = 0, procs = 1;
	int rootstatus = 1;
	struct user_regs_struct regs;
	for (;;) {
		pid_t pid = waitpid(-1, &status, __WALL);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break; /* every tracee is gone */
			perror("minitrace: waitpid");
			return 1;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			started[pid] = 0; /* the pid may be reused by a new tracee */
			if (pid == root)
				rootstatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		int sig = WSTOPSIG(status);
		int deliver = 0;
		if (sig == (SIGTRAP | 0x80)) {
			/* syscall-entry or -exit stop: the one thing a recorder must look at */
			stops++;
			if (ptrace(PTRACE_GETREGS, pid, 0, &regs) == 0 && (long long)regs.rax == -ENOSYS)
				calls++;
		} else if (sig == SIGTRAP && (status >> 16) != 0) {
			/* fork, vfork, clone or exec event: the new tracee is attached already */
			int ev = status >> 16;
			if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK || ev == PTRACE_EVENT_CLONE)
				procs++;
		} else if (sig == SIGSTOP && !started[pid]) {
			/* a new tracee's first stop: eat the SIGSTOP the kernel sent it */
			started[pid] = 1;
		} else {
			deliver = sig; /* a real signal: pass it on */
		}
		if (ptrace(PTRACE_SYSCALL, pid, 0, (void *)(long)deliver) < 0 && errno != ESRCH) {
			perror("minitrace: PTRACE_SYSCALL");
		}
	}
	if (count)
		fprintf(stderr, "minitrace: %llu calls, %llu syscall stops, %llu processes\n", calls, stops, procs);
	return rootstatus;
}
