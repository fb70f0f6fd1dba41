/*
 * greetserver — a one-request greeting server whose answer comes from its
 * configuration file, read when the request arrives. Used by scenario 7,
 * "server-client", together with greetclient: one shell script starts
 * both, so the client's connection is internal to the traced tree.
 *
 * Usage: greetserver PORT CONFIG
 *
 * Binds 127.0.0.1:PORT (SO_REUSEADDR), listens, writes "ready\n" to stdout
 * (the script waits for that line on a pipe), waits up to 10 seconds for
 * one connection, reads the request line, then opens and reads CONFIG
 * ("greeting=WORD\n"), answers "WORD\n", closes and exits.
 *
 * The config is read per request, i.e. after the client's connect and
 * request and before the client's receive in the trace. An engine that
 * took the client's connection for an external one and replayed the
 * client's side (connect, send, recv) would make every prefix between the
 * client's connect and its recv fail (the live client is not connected)
 * and blame the client's recv. The right culprit is this server's read of
 * CONFIG (in the bad environment it says "greeting=bonjour").
 *
 * Exit status: 0 answered one request; 1 socket/bind/listen/accept
 * failed; 2 nobody connected within 10 seconds; 3 CONFIG unreadable or
 * malformed (no answer is sent); 4 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void say(int fd, const char *msg)
{
	ssize_t r = write(fd, msg, strlen(msg));
	(void)r;
}

static void fail(const char *what)
{
	char line[256];
	snprintf(line, sizeof line, "greetserver: %s: %s\n", what, strerror(errno));
	say(2, line);
}

int main(int argc, char **argv)
{
	int port = argc == 3 ? atoi(argv[1]) : 0;
	if (port <= 0 || port > 65535) {
		say(2, "usage: greetserver PORT CONFIG\n");
		return 4;
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
		fail("bind");
		return 1;
	}
	if (listen(s, 4) < 0) {
		fail("listen");
		return 1;
	}
	say(1, "ready\n");

	struct pollfd p = {s, POLLIN, 0};
	if (poll(&p, 1, 10000) <= 0) {
		say(2, "greetserver: nobody connected within 10 seconds\n");
		return 2;
	}
	int c = accept(s, NULL, NULL);
	if (c < 0) {
		fail("accept");
		return 1;
	}
	char req[128];
	ssize_t n = read(c, req, sizeof req);
	(void)n;

	char conf[128];
	int fd = open(argv[2], O_RDONLY);
	ssize_t got = -1;
	if (fd >= 0) {
		got = read(fd, conf, sizeof conf - 1);
		close(fd);
	}
	char *nl = got > 9 ? memchr(conf, '\n', (size_t)got) : NULL;
	if (nl == NULL || memcmp(conf, "greeting=", 9) != 0) {
		say(2, "greetserver: config unreadable or not \"greeting=WORD\"\n");
		close(c);
		return 3;
	}
	/* answer WORD\n */
	ssize_t w = write(c, conf + 9, (size_t)(nl + 1 - (conf + 9)));
	(void)w;
	close(c);
	close(s);
	return 0;
}
