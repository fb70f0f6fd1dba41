/*
 * forkexecpipe — a two-process tree joined by a pipe, for tests of process
 * following, fd inheritance (dup2 across fork and exec) and "internal"
 * communication (the pipe between traced processes always executes).
 *
 * Usage: forkexecpipe [FILE]
 *
 * The parent creates a pipe and forks. The child makes the pipe's write end
 * its stdout with dup2 and execs either "/bin/echo hello from echo" (no
 * argument) or "/bin/cat FILE". The parent reads everything from the pipe,
 * writes each line to its own stdout prefixed with "child: ", waits for the
 * child, and exits with the child's status: its exit code, or 128+N when a
 * signal N killed it. The child exits 127 when the exec fails.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int p[2];
	if (pipe(p) < 0) {
		perror("forkexecpipe: pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("forkexecpipe: fork");
		return 1;
	}
	if (pid == 0) {
		/* child: stdout is the pipe's write end */
		if (dup2(p[1], 1) < 0)
			_exit(127);
		close(p[0]);
		close(p[1]);
		if (argc > 1)
			execl("/bin/cat", "cat", argv[1], (char *)NULL);
		else
			execl("/bin/echo", "echo", "hello from echo", (char *)NULL);
		_exit(127); /* exec failed */
	}

	/* parent: read until EOF, prefix every line */
	close(p[1]);
	char buf[4096];
	int at_line_start = 1;
	for (;;) {
		ssize_t n = read(p[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("forkexecpipe: read");
			break;
		}
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n;) {
			if (at_line_start && write_all(1, "child: ", 7) < 0)
				return 1;
			char *nl = memchr(buf + i, '\n', (size_t)(n - i));
			ssize_t end = nl ? (nl - buf) + 1 : n;
			if (write_all(1, buf + i, (size_t)(end - i)) < 0)
				return 1;
			at_line_start = nl != NULL;
			i = end;
		}
	}
	close(p[0]);

	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("forkexecpipe: waitpid");
			return 1;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
