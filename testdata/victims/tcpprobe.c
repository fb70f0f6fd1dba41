/*
 * tcpprobe — is anything listening on 127.0.0.1:PORT? Used by scenario 10,
 * "polling-threads", whose start-up script polls for its server's port
 * with `until tcpprobe PORT; do sleep 0.1; done`, as real test scripts do
 * (nc -z, curl --retry, bash's /dev/tcp).
 *
 * Usage: tcpprobe PORT
 *
 * Exit status: 0 connected (the connection is closed at once), 1 the
 * connect failed (ECONNREFUSED while the server is still starting),
 * 2 bad usage.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int port = argc == 2 ? atoi(argv[1]) : 0;
	if (port <= 0 || port > 65535)
		return 2;
	int s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		return 1;
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int r = connect(s, (struct sockaddr *)&a, sizeof a);
	close(s);
	return r == 0 ? 0 : 1;
}
