/*
 * openlate — opens its configuration early and reads it late, with other
 * work in between. Used by scenario 4, "open-early-read-late", the
 * dependency case: the open defines the fd that the late read uses.
 *
 * Usage: openlate DIR
 *
 * Calls, in order:
 *   1. open(DIR/app.conf, O_RDONLY)          the fd is kept
 *   2. stat(DIR/data/ready)                  is the service's data ready?
 *   3. stat(DIR/data), write a progress line to stdout
 *   4. read(fd, ...) of app.conf             must return "mode=ok\n"
 *   5. close(fd)
 * and only then decides (so that a good and a bad run make the same calls).
 *
 * Exit status:
 *   0  DIR/data/ready exists and app.conf reads "mode=ok\n"
 *   1  DIR/data/ready is missing. This is the scenario's bad environment:
 *      app.conf is the same in both environments, only data/ready is
 *      missing, so the culprit is the stat of DIR/data/ready (ENOENT).
 *   2  the late read failed or returned something else (EBADF included)
 *   3  the open failed
 *   4  bad usage
 *
 * Why the culprit sits between the open and the read: with prefixes K
 * between the open (1) and the read (4) the open is replayed while the read
 * executes. An engine that skipped the open without executing it would
 * hand the live read a fd that does not exist (EBADF, exit 2): every such
 * K would fail and the search would blame the read instead of the stat. A
 * correct dependency tracker executes the open (and overwrites its result
 * with the recorded one), the read gets "mode=ok\n" live, and the first
 * passing prefix is the one that replays the stat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(int fd, const char *msg)
{
	ssize_t r = write(fd, msg, strlen(msg));
	(void)r;
}

int main(int argc, char **argv)
{
	char path[4096], line[4200], buf[128];
	struct stat st;
	if (argc != 2) {
		say(2, "usage: openlate DIR\n");
		return 4;
	}
	const char *dir = argv[1];

	snprintf(path, sizeof path, "%s/app.conf", dir);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(line, sizeof line, "openlate: cannot open %s: %s\n", path, strerror(errno));
		say(2, line);
		return 3;
	}

	snprintf(path, sizeof path, "%s/data/ready", dir);
	int ready = stat(path, &st) == 0;
	int readyerr = errno;
	snprintf(path, sizeof path, "%s/data", dir);
	int havedata = stat(path, &st) == 0;
	snprintf(line, sizeof line, "openlate: data dir %s, ready marker %s\n",
		 havedata ? "present" : "missing", ready ? "present" : "missing");
	say(1, line);

	ssize_t got = read(fd, buf, sizeof buf);
	int rerr = errno;
	close(fd);

	if (got < 0) {
		snprintf(line, sizeof line, "openlate: late read of app.conf failed: %s\n", strerror(rerr));
		say(2, line);
		return 2;
	}
	if (got != 8 || memcmp(buf, "mode=ok\n", 8) != 0) {
		snprintf(line, sizeof line, "openlate: app.conf read %zd bytes, not \"mode=ok\"\n", got);
		say(2, line);
		return 2;
	}
	if (!ready) {
		snprintf(line, sizeof line, "openlate: %s/data/ready: %s\n", dir, strerror(readyerr));
		say(2, line);
		return 1;
	}
	say(1, "openlate: ok\n");
	return 0;
}
