/*
 * addrheld — a server and the client it starts, in one program: binds an
 * address, listens, forks a client that connects to that address and
 * sends a line, accepts it, and checks what it sees. Used by
 * test/e2e/serve's address tests: in the bad environment the address is
 * held by a process outside the traced tree (an inet port) or by a stale
 * file (a unix path), so the bind fails with EADDRINUSE.
 *
 * Usage: addrheld inet PORT | addrheld unix PATH
 *
 * Calls: socket, bind, listen, fork; the child: socket, connect, write,
 * read, exit; the parent: accept, getsockname on the accepted socket (it
 * must report the address the program bound: the port, or the path),
 * read, write, wait4, unlink (unix). It prints what the client got and
 * what getsockname said.
 *
 * Exit status:
 *   0  the client's line came back and getsockname named the bound address
 *   1  a call failed, printed on stderr
 *   3  getsockname named another address than the one bound
 *   4  the client got no answer, or another one
 *   2  bad usage
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int fail(const char *what) {
	fprintf(stderr, "addrheld: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv) {
	if (argc != 3 || (strcmp(argv[1], "inet") && strcmp(argv[1], "unix"))) {
		fprintf(stderr, "usage: addrheld inet PORT | addrheld unix PATH\n");
		return 2;
	}
	int inet = !strcmp(argv[1], "inet");
	struct sockaddr_storage ss;
	socklen_t len;
	memset(&ss, 0, sizeof ss);
	if (inet) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		in->sin_family = AF_INET;
		in->sin_port = htons(atoi(argv[2]));
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof *in;
	} else {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		un->sun_family = AF_UNIX;
		strncpy(un->sun_path, argv[2], sizeof un->sun_path - 1);
		len = offsetof(struct sockaddr_un, sun_path) + strlen(un->sun_path) + 1;
	}
	int s = socket(ss.ss_family, SOCK_STREAM, 0);
	if (s < 0)
		return fail("socket");
	if (bind(s, (struct sockaddr *)&ss, len) < 0)
		return fail("bind");
	if (listen(s, 4) < 0)
		return fail("listen");
	pid_t child = fork();
	if (child < 0)
		return fail("fork");
	if (child == 0) {
		char buf[64] = {0};
		int c = socket(ss.ss_family, SOCK_STREAM, 0);
		if (c < 0 || connect(c, (struct sockaddr *)&ss, len) < 0)
			_exit(fail("connect"));
		if (write(c, "ping\n", 5) != 5)
			_exit(fail("write"));
		if (read(c, buf, sizeof buf - 1) < 0)
			_exit(fail("read"));
		printf("client got: %s", buf);
		_exit(strcmp(buf, "pong\n") ? 4 : 0);
	}
	int a = accept(s, NULL, NULL);
	if (a < 0)
		return fail("accept");
	struct sockaddr_storage got;
	socklen_t gotLen = sizeof got;
	memset(&got, 0, sizeof got);
	if (getsockname(a, (struct sockaddr *)&got, &gotLen) < 0)
		return fail("getsockname");
	int same;
	if (inet) {
		struct sockaddr_in *in = (struct sockaddr_in *)&got;
		printf("server local: %s:%d\n", inet_ntoa(in->sin_addr), ntohs(in->sin_port));
		same = in->sin_port == ((struct sockaddr_in *)&ss)->sin_port;
	} else {
		struct sockaddr_un *un = (struct sockaddr_un *)&got;
		printf("server local: %s\n", un->sun_path[0] ? un->sun_path : "(abstract)");
		same = !strcmp(un->sun_path, argv[2]);
	}
	fflush(stdout);
	char buf[64] = {0};
	if (read(a, buf, sizeof buf - 1) < 0)
		return fail("read");
	if (write(a, "pong\n", 5) != 5)
		return fail("write");
	int status;
	if (waitpid(child, &status, 0) < 0)
		return fail("wait");
	if (!inet)
		unlink(argv[2]);
	if (!same)
		return 3;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}
