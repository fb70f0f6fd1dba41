/*
 * modecheck — fails because of its input (an argument) or of an
 * environment variable, neither of which a system call shows.
 *
 * Scenario 8b, "input-only", an endpoint check of locate: the
 * environments' files are the same, only the locate run gets the argument
 * "broken", so even a fully replayed run fails and locate must say
 * "replay-still-fails" instead of naming a culprit.
 * Scenario 8c, "env-var": only the locate run has SCENARIO_MODE=broken;
 * replaying the recorded environment (a start item) makes it pass, and
 * locate names the variable.
 *
 * Usage: modecheck CONFIG [MODE]
 *
 * Opens and reads CONFIG (so that the trace has replayable calls), writes
 * a line to stdout, then looks at MODE and getenv("SCENARIO_MODE").
 *
 * Exit status: 0 neither MODE nor SCENARIO_MODE is "broken"; 1 one is; 2
 * CONFIG could not be read; 3 bad usage.
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
	if (argc != 2 && argc != 3) {
		say(2, "usage: modecheck CONFIG [MODE]\n");
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
	if (argc == 3 && strcmp(argv[2], "broken") == 0) {
		say(2, "modecheck: mode argument broken\n");
		return 1;
	}
	const char *mode = getenv("SCENARIO_MODE");
	if (mode != NULL && strcmp(mode, "broken") == 0) {
		say(2, "modecheck: SCENARIO_MODE=broken\n");
		return 1;
	}
	return 0;
}
