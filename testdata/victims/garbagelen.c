/*
 * garbagelen — passes bind a socklen_t whose register has garbage in its
 * upper half, as real programs do (mpd's bind did): the kernel reads only
 * the low 32 bits of an int-sized argument, and so must the recorder.
 * The record tests check that the trace holds the 16-byte address and
 * that recording does not try to copy 0x7fff00000010 bytes.
 *
 * Exit status: 0 the bind succeeded, 1 it failed.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0; /* any free port */
	long r = syscall(SYS_bind, fd, &a, 0x7fff00000000ULL | sizeof a);
	if (r != 0) {
		perror("bind");
		return 1;
	}
	return 0;
}
