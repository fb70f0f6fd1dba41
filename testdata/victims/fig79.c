/*
 * fig79 — the program of Figure 7.9 in Qi Dawei's thesis (NUS 2013,
 * section 7.2): it reads a configuration file and fails when the file is
 * missing or not in the expected format. It is the smallest case for
 * envbisect: record it where the config is good, run `locate` where it is
 * bad, and the culprit must be the open or the read of the config file.
 *
 * Usage: fig79 [CONFIG]        (CONFIG defaults to "config.txt")
 *
 * Format rule (checked on the first read only, at most 128 bytes):
 *   - the bytes read start with the 4 characters "key=",
 *   - the value after "key=" is at least one byte long,
 *   - and a newline ('\n') ends the value within those 128 bytes.
 * The value is the bytes between "key=" and the first newline; it may
 * contain anything but a newline or a NUL byte.
 *
 * Exit status:
 *   0  well formed; prints "fig79: key = VALUE"
 *   1  malformed (or the read failed); prints the reason on stderr
 *   2  the open failed; prints the error on stderr
 *
 * It uses raw open/read/close/write (no stdio) so that its trace is short
 * and the same on every libc: openat, read, close, write, exit_group after
 * the dynamic loader's calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAXREAD 128

/* say writes a whole message to fd, ignoring short writes' errors: there is
 * nothing better to do if stdout is gone. */
static void say(int fd, const char *msg, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, msg, n);
		if (w <= 0)
			return;
		msg += w;
		n -= (size_t)w;
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "config.txt";
	char buf[MAXREAD];
	char msg[MAXREAD + 256];
	int n;

	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		n = snprintf(msg, sizeof msg, "fig79: cannot open %s: %s\n", path, strerror(errno));
		say(2, msg, (size_t)n);
		return 2;
	}
	ssize_t got = read(fd, buf, sizeof buf);
	int rerr = errno;
	close(fd);
	if (got < 0) {
		n = snprintf(msg, sizeof msg, "fig79: cannot read %s: %s\n", path, strerror(rerr));
		say(2, msg, (size_t)n);
		return 1;
	}

	const char *why = NULL;
	char *nl = got > 0 ? memchr(buf, '\n', (size_t)got) : NULL;
	if (got < 4 || memcmp(buf, "key=", 4) != 0)
		why = "does not start with \"key=\"";
	else if (nl == NULL)
		why = "no newline in the first 128 bytes";
	else if (nl == buf + 4)
		why = "empty value";
	else if (memchr(buf, '\0', (size_t)(nl - buf)) != NULL)
		why = "NUL byte in the value";
	if (why != NULL) {
		n = snprintf(msg, sizeof msg, "fig79: %s: malformed: %s (read %zd bytes)\n", path, why, got);
		say(2, msg, (size_t)n);
		return 1;
	}

	n = snprintf(msg, sizeof msg, "fig79: key = %.*s\n", (int)(nl - (buf + 4)), buf + 4);
	say(1, msg, (size_t)n);
	return 0;
}
