/*
 * modecheck — fails because of an environment variable, something no
 * system call shows. Used by scenario 8b, "env-var-only", an endpoint
 * check of locate: the environments' files are the same, only the locate
 * run has SCENARIO_MODE=broken, so even a fully replayed run fails and
 * locate must say "replay-still-fails" instead of naming a culprit.
 *
 * Usage: modecheck CONFIG
 *
 * Opens and reads CONFIG (so that the trace has replayable calls), writes
 * a line to stdout, then looks at getenv("SCENARIO_MODE").
 *
 * Exit status: 0 SCENARIO_MODE is not "broken"; 1 it is; 2 CONFIG could
 * not be read; 3 bad usage.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(int fd, const char *msg)
{
	ssize_t r = write(fd, msg, strlen(msg));
	(void)r;
}

int main(int argc, char **argv)
{
	char buf[128];
	if (argc != 2) {
		say(2, "usage: modecheck CONFIG\n");
		return 3;
	}
	int fd = open(argv[1], O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
	if (fd >= 0)
		close(fd);
	if (got <= 0) {
		say(2, "modecheck: cannot read the config\n");
		return 2;
	}
	say(1, "modecheck: config read\n");
	const char *mode = getenv("SCENARIO_MODE");
	if (mode != NULL && strcmp(mode, "broken") == 0) {
		say(2, "modecheck: SCENARIO_MODE=broken\n");
		return 1;
	}
	return 0;
}
