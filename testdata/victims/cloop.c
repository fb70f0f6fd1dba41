/*
 * cloop — a syscall-heavy loop for the benchmark (tools/bench): almost all
 * of its time is spent in three system calls per iteration, so a tracer's
 * per-call cost dominates its run time under tracing.
 *
 * Usage: cloop N [FILE]     (FILE defaults to /etc/hostname)
 *
 * N iterations of: open FILE, one read of up to 4 KiB, close. Then prints
 * "cloop: N iterations, TOTAL bytes" and exits 0 (1 on any error, 2 on a
 * bad N). Keep FILE small: the point is the call count, not copying.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: cloop N [FILE]\n");
		return 2;
	}
	char *end;
	long long n = strtoll(argv[1], &end, 10);
	if (*end != '\0' || n < 0) {
		fprintf(stderr, "cloop: bad iteration count %s\n", argv[1]);
		return 2;
	}
	const char *path = argc > 2 ? argv[2] : "/etc/hostname";

	static char buf[4096];
	long long total = 0;
	for (long long i = 0; i < n; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "cloop: open %s: %s\n", path, strerror(errno));
			return 1;
		}
		ssize_t got = read(fd, buf, sizeof buf);
		if (got < 0) {
			fprintf(stderr, "cloop: read %s: %s\n", path, strerror(errno));
			return 1;
		}
		total += got;
		close(fd);
	}
	printf("cloop: %lld iterations, %lld bytes\n", n, total);
	return 0;
}
