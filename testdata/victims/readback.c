/*
 * readback — writes a state file, reads its configuration, then reads the
 * state file back. Used by scenario 5, "write-read-back", the implicit
 * dependency case: the write and the read-back share no fd, only a path.
 *
 * Usage: readback DIR
 *
 * Calls, in order:
 *   1. open(DIR/state.txt, O_WRONLY|O_CREAT|O_TRUNC), write "token=...\n",
 *      close
 *   2. open(DIR/app.conf), read, close       must read "mode=ok\n"
 *   3. open(DIR/state.txt, O_RDONLY), read, close: must give back step 1's
 *      bytes
 *   4. unlink(DIR/state.txt), so that no run finds a previous run's file
 * and only then decides (so that good and bad runs make the same calls).
 *
 * Exit status:
 *   0  the state came back and app.conf reads "mode=ok\n"
 *   1  app.conf is something else. This is the scenario's bad
 *      environment (app.conf reads "mode=broken\n"), so the culprit is the
 *      read of app.conf (step 2).
 *   2  the state file did not come back as written
 *   3  bad usage
 *
 * Why: with prefixes K between the write (1) and the read-back (3), the
 * write is replayed while the read-back executes. An engine that only
 * followed fds would skip the write (no later executed call uses its fd),
 * the file would not exist or be empty, the read-back would fail (exit 2)
 * for every such K, and the search would blame the read-back. A tracker of
 * implicit (path) dependencies executes the open and the write and the
 * first passing prefix is the one that replays the read of app.conf. The
 * unlink at the end (executed in every run but the fully replayed one)
 * keeps a previous run's file from hiding a skipped write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char token[] = "token=3a1f9c\n";

static void say(int fd, const char *msg)
{
	ssize_t r = write(fd, msg, strlen(msg));
	(void)r;
}

int main(int argc, char **argv)
{
	char state[4096], conf[4096], line[4200], buf[128], back[128];
	if (argc != 2) {
		say(2, "usage: readback DIR\n");
		return 3;
	}
	snprintf(state, sizeof state, "%s/state.txt", argv[1]);
	snprintf(conf, sizeof conf, "%s/app.conf", argv[1]);

	int wrote = 0;
	int fd = open(state, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		wrote = write(fd, token, sizeof token - 1) == (ssize_t)(sizeof token - 1);
		close(fd);
	}

	ssize_t got = -1;
	fd = open(conf, O_RDONLY);
	if (fd >= 0) {
		got = read(fd, buf, sizeof buf);
		close(fd);
	}

	ssize_t gotback = -1;
	fd = open(state, O_RDONLY);
	if (fd >= 0) {
		gotback = read(fd, back, sizeof back);
		close(fd);
	}
	unlink(state);

	if (!wrote || gotback != (ssize_t)(sizeof token - 1) || memcmp(back, token, sizeof token - 1) != 0) {
		snprintf(line, sizeof line, "readback: %s did not come back as written (read %zd bytes)\n", state, gotback);
		say(2, line);
		return 2;
	}
	if (got != 8 || memcmp(buf, "mode=ok\n", 8) != 0) {
		snprintf(line, sizeof line, "readback: %s is not \"mode=ok\" (read %zd bytes)\n", conf, got);
		say(2, line);
		return 1;
	}
	say(1, "readback: ok\n");
	return 0;
}
