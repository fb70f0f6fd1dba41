/*
 * greetclient — the check client of scenario 7, "server-client": asks
 * greetserver for its greeting and compares it with the expected word.
 *
 * Usage: greetclient PORT EXPECTED
 *
 * Connects to 127.0.0.1:PORT, sends "greeting?\n", reads the answer up to
 * a newline or EOF and compares it with EXPECTED + "\n".
 *
 * Exit status: 0 the answer is EXPECTED; 1 it is something else (the bad
 * environment: the server's config says another word); 2 the connection
 * failed; 3 bad usage.
 *
 * Its connection goes to a server of the same traced process tree: it is
 * internal communication and must always execute, never be replayed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
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

int main(int argc, char **argv)
{
	char line[512], buf[128];
	int port = argc == 3 ? atoi(argv[1]) : 0;
	if (port <= 0 || port > 65535) {
		say(2, "usage: greetclient PORT EXPECTED\n");
		return 3;
	}
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
		snprintf(line, sizeof line, "greetclient: connect 127.0.0.1:%d: %s\n", port, strerror(errno));
		say(2, line);
		return 2;
	}
	static const char req[] = "greeting?\n";
	if (write(s, req, sizeof req - 1) != (ssize_t)(sizeof req - 1)) {
		snprintf(line, sizeof line, "greetclient: send: %s\n", strerror(errno));
		say(2, line);
		return 2;
	}
	size_t have = 0;
	while (have < sizeof buf - 1) {
		ssize_t n = read(s, buf + have, sizeof buf - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		if (memchr(buf, '\n', have) != NULL)
			break;
	}
	close(s);
	buf[have] = 0;
	size_t want = strlen(argv[2]);
	if (have != want + 1 || memcmp(buf, argv[2], want) != 0 || buf[want] != '\n') {
		snprintf(line, sizeof line, "greetclient: got \"%.*s\", want \"%s\"\n",
			 (int)(have && buf[have - 1] == '\n' ? have - 1 : have), buf, argv[2]);
		say(2, line);
		return 1;
	}
	snprintf(line, sizeof line, "greetclient: got \"%s\"\n", argv[2]);
	say(1, line);
	return 0;
}
