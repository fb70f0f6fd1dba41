/*
 * tcpserver — a minimal TCP server: binds 127.0.0.1:PORT, listens, and
 * accepts (and at once closes) connections until its lifetime is over.
 * Used by scenario 3, "port-in-use" (the thesis' web-server case: the port
 * is taken in the bad environment, success is judged with --alive), and as
 * the background service of scenario 10, "polling-threads".
 *
 * Usage: tcpserver PORT [LIFETIME [DELAY_MS]]
 *
 *   LIFETIME  seconds to serve, then exit 0; 0 or absent: forever
 *   DELAY_MS  milliseconds to sleep before creating the socket (scenario
 *             10 uses it so that its start-up script has to poll for the
 *             port a varying number of times)
 *
 * Calls: [nanosleep,] socket, setsockopt(SO_REUSEADDR), bind, listen, then
 * poll on the listening socket with the remaining lifetime as timeout and
 * accept+close whatever comes. SO_REUSEADDR lets a restarted server bind
 * while old connections linger in TIME_WAIT; it does not let it bind a port
 * another socket listens on.
 *
 * Exit status:
 *   0  served for LIFETIME seconds (a good run; with `--alive 2s` and a
 *      LIFETIME above 2 it is still alive when judged)
 *   1  bind (or socket/listen) failed, printed on stderr: in the bad
 *      environment another process listens on PORT, bind fails with
 *      EADDRINUSE, and that bind is the culprit
 *   2  bad usage
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what)
{
	char line[256];
	int n = snprintf(line, sizeof line, "tcpserver: %s: %s\n", what, strerror(errno));
	ssize_t r = write(2, line, (size_t)n);
	(void)r;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* the vDSO: no system call */
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fail("usage: tcpserver PORT [LIFETIME [DELAY_MS]]");
		return 2;
	}
	int port = atoi(argv[1]);
	long lifetime = argc > 2 ? atol(argv[2]) : 0;
	long delay = argc > 3 ? atol(argv[3]) : 0;
	if (port <= 0 || port > 65535 || lifetime < 0 || delay < 0) {
		fail("usage: tcpserver PORT [LIFETIME [DELAY_MS]]");
		return 2;
	}
	if (delay > 0) {
		struct timespec d = {delay / 1000, (delay % 1000) * 1000000L};
		nanosleep(&d, NULL);
	}

	int s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0) {
		fail("socket");
		return 1;
	}
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof a) < 0) {
		fail("bind 127.0.0.1");
		return 1;
	}
	if (listen(s, 16) < 0) {
		fail("listen");
		return 1;
	}

	long long end = now_ms() + lifetime * 1000;
	for (;;) {
		int timeout = -1;
		if (lifetime > 0) {
			long long left = end - now_ms();
			if (left <= 0)
				return 0;
			timeout = (int)left;
		}
		struct pollfd p = {s, POLLIN, 0};
		int n = poll(&p, 1, timeout);
		if (n < 0 && errno != EINTR) {
			fail("poll");
			return 1;
		}
		if (n > 0) {
			int c = accept(s, NULL, NULL);
			if (c >= 0)
				close(c);
		}
	}
}
