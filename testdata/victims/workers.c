/*
 * workers — a multi-threaded program whose threads start their work in a
 * different order in every run. Used by scenario 10, "polling-threads",
 * started by a shell script after the script's polling loop.
 *
 * Usage: workers DIR [N]      (N threads, default 4, 1..16)
 *
 * Thread i (0..N-1) names itself "worker<i>" (prctl PR_SET_NAME, the name
 * envbisect can recognise the thread by), sleeps 0 to 3 ms chosen from the
 * live clock (the vDSO's clock_gettime, no system call: the order really
 * varies from run to run, and from the recording), then opens, reads and
 * closes DIR/w<i>.conf, which must read "ok\n".
 *
 * Exit status: 0 every worker read "ok"; 1 some worker read something
 * else or could not read its file: in the scenario's bad environment
 * w2.conf reads "no\n", so the culprit is worker2's read of w2.conf;
 * 2 bad usage.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAXN 16

static const char *dir;

struct worker {
	pthread_t th;
	int index;
	int ok;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	char name[16], path[4096], buf[64];
	snprintf(name, sizeof name, "worker%d", w->index);
	prctl(PR_SET_NAME, name, 0, 0, 0);

	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	struct timespec d = {0, (long)((now.tv_nsec / 1000 + w->index * 7919) % 3000) * 1000};
	nanosleep(&d, NULL);

	snprintf(path, sizeof path, "%s/w%d.conf", dir, w->index);
	int fd = open(path, O_RDONLY);
	ssize_t got = -1;
	if (fd >= 0) {
		got = read(fd, buf, sizeof buf);
		close(fd);
	}
	w->ok = got == 3 && memcmp(buf, "ok\n", 3) == 0;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker ws[MAXN];
	char line[256];
	int n = argc > 2 ? atoi(argv[2]) : 4;
	if (argc < 2 || argc > 3 || n < 1 || n > MAXN) {
		fputs("usage: workers DIR [N]\n", stderr);
		return 2;
	}
	dir = argv[1];
	for (int i = 0; i < n; i++) {
		ws[i].index = i;
		ws[i].ok = 0;
		if (pthread_create(&ws[i].th, NULL, work, &ws[i]) != 0) {
			fputs("workers: pthread_create failed\n", stderr);
			return 1;
		}
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(ws[i].th, NULL);
		if (!ws[i].ok) {
			snprintf(line, sizeof line, "workers: worker%d: %s/w%d.conf is not \"ok\"\n", i, dir, i);
			ssize_t r = write(2, line, strlen(line));
			(void)r;
			bad = 1;
		}
	}
	snprintf(line, sizeof line, "workers: %d workers, %s\n", n, bad ? "failed" : "all ok");
	ssize_t r = write(1, line, strlen(line));
	(void)r;
	return bad;
}
