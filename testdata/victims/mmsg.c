/* mmsg: sends two datagrams over a socketpair with one sendmmsg and
 * reads them back with one recvmmsg of at most two, printing what the
 * kernel (or a replay) reported: each msg_len and the data received.
 * ptrace's tests record it (each mmsghdr entry captured) and replay both
 * calls (msg_len and the messages written back). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int main(void) {
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != 0) {
		perror("socketpair");
		return 1;
	}
	char a[] = "first", b[] = "second!";
	struct iovec out[2] = {{a, strlen(a)}, {b, strlen(b)}};
	struct mmsghdr send[2];
	memset(send, 0, sizeof send);
	for (int i = 0; i < 2; i++) {
		send[i].msg_hdr.msg_iov = &out[i];
		send[i].msg_hdr.msg_iovlen = 1;
	}
	int n = sendmmsg(sv[0], send, 2, 0);
	printf("sent %d: %u %u\n", n, send[0].msg_len, send[1].msg_len);

	char buf[2][16];
	memset(buf, 0, sizeof buf);
	struct iovec in[2] = {{buf[0], sizeof buf[0] - 1}, {buf[1], sizeof buf[1] - 1}};
	struct mmsghdr recv[2];
	memset(recv, 0, sizeof recv);
	for (int i = 0; i < 2; i++) {
		recv[i].msg_hdr.msg_iov = &in[i];
		recv[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(sv[1], recv, 2, MSG_DONTWAIT, NULL);
	printf("received %d:", n);
	for (int i = 0; i < n; i++)
		printf(" %u %s", recv[i].msg_len, buf[i]);
	printf("\n");
	return 0;
}
