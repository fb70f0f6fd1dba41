/*
 * measure — runs one command for tools/bench and reports what wait4 says
 * about it, from a process small enough not to distort the figures.
 *
 * Usage: measure CMD [ARGS...]     (fd 3 must be open for writing)
 *
 * A child started directly by the Go harness inherits the harness's memory
 * until its exec (Go spawns with CLONE_VM|CLONE_VFORK), and the kernel
 * keeps that memory's high-water mark in the child's ru_maxrss: a 3 MiB
 * program would show the harness's 8 MiB. measure forks from a tiny C
 * process instead. It writes on fd 3
 *   "pid PID\n"                         when the child has started, then
 *   "done MAXRSS_KIB STATUS WALL_NS\n"  when wait4 has reaped it,
 * where STATUS is the exit code, or 128+N when a signal N killed it, and
 * WALL_NS is the time from just before fork to the reaping (monotonic
 * clock). measure exits with STATUS too (127 when CMD cannot be executed).
 * The child does not inherit fd 3.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: measure CMD [ARGS...]   (reports on fd 3)\n");
		return 2;
	}
	if (fcntl(3, F_SETFD, FD_CLOEXEC) < 0) {
		perror("measure: fd 3");
		return 2;
	}
	long long start = now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "measure: exec %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	dprintf(3, "pid %d\n", (int)pid);

	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("measure: wait4");
			return 1;
		}
	}
	long long wall = now_ns() - start;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	dprintf(3, "done %ld %d %lld\n", ru.ru_maxrss, code, wall);
	return code;
}
