/*
 * pidfile — writes its pid into a pid file, as a daemon does at start-up
 * (the thesis' MPD case: /var/run/mpd missing). Used by scenario 2,
 * "pidfile", of internal/scenarios.
 *
 * Usage: pidfile PIDFILE
 *
 * open(PIDFILE, O_WRONLY|O_CREAT|O_TRUNC, 0644), write "PID\n", close.
 *
 * Exit status:
 *   0  the pid file was written (good environment: its directory exists)
 *   1  the open or the write failed; the error is printed on stderr. In the
 *      scenario's bad environment the pid file's directory is missing, so
 *      the open fails with ENOENT: that open is the culprit.
 *   2  bad usage
 *
 * Raw open/write/close, no stdio: a short trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void say(const char *msg)
{
	ssize_t r = write(2, msg, strlen(msg));
	(void)r;
}

int main(int argc, char **argv)
{
	char line[256];
	if (argc != 2) {
		say("usage: pidfile PIDFILE\n");
		return 2;
	}
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		snprintf(line, sizeof line, "pidfile: cannot create %s: %s\n", argv[1], strerror(errno));
		say(line);
		return 1;
	}
	int n = snprintf(line, sizeof line, "%d\n", (int)getpid());
	if (write(fd, line, (size_t)n) != n) {
		snprintf(line, sizeof line, "pidfile: cannot write %s: %s\n", argv[1], strerror(errno));
		say(line);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
