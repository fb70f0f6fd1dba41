/*
 * threads — several threads of one process doing file I/O at the same
 * time, for tests of thread following and of per-thread matching of live
 * calls to recorded ones.
 *
 * Usage: threads [N [FILE]]     (N defaults to 4, FILE to /etc/hostname)
 *
 * Starts N pthreads (1..64). Each opens FILE, reads it to the end in
 * chunks of up to 4 KiB, and closes it. The main thread joins them all and
 * prints "threads: N threads read TOTAL bytes" (TOTAL is the sum over the
 * threads). Exit status 0; 1 if any thread could not open or read FILE,
 * 2 for a bad N.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXTHREADS 64

static const char *path = "/etc/hostname";

struct job {
	pthread_t th;
	long bytes; /* bytes read, or -1 on error */
	int err;    /* errno of the failure */
};

static void *reader(void *arg)
{
	struct job *j = arg;
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		j->bytes = -1;
		j->err = errno;
		return NULL;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			j->bytes = -1;
			j->err = errno;
			break;
		}
		if (n == 0)
			break;
		j->bytes += n;
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 4;
	if (argc > 1) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (*end != '\0' || v < 1 || v > MAXTHREADS) {
			fprintf(stderr, "threads: N must be 1..%d, not %s\n", MAXTHREADS, argv[1]);
			return 2;
		}
		n = (int)v;
	}
	if (argc > 2)
		path = argv[2];

	struct job jobs[MAXTHREADS];
	memset(jobs, 0, sizeof jobs);
	for (int i = 0; i < n; i++) {
		int e = pthread_create(&jobs[i].th, NULL, reader, &jobs[i]);
		if (e != 0) {
			fprintf(stderr, "threads: pthread_create: %s\n", strerror(e));
			return 1;
		}
	}
	long total = 0;
	int failed = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(jobs[i].th, NULL);
		if (jobs[i].bytes < 0) {
			fprintf(stderr, "threads: thread %d: %s: %s\n", i, path, strerror(jobs[i].err));
			failed = 1;
			continue;
		}
		total += jobs[i].bytes;
	}
	printf("threads: %d threads read %ld bytes\n", n, total);
	return failed;
}
