/*
 * The program bpf's tests record. It waits for one byte on stdin (the test
 * tracks it first), then makes the calls its mode names:
 *
 *   victim calls <in> <out>   open and read <in>; write, writev, sendmsg and
 *                             recvmsg known bytes; a thread; a forked child
 *                             that execs "victim child"; a write from an
 *                             unmapped address; exit 3
 *   victim child              exit 4
 *   victim threadexec         a thread (not the leader) execs "victim child"
 *   victim spin <n>           n writes of 256 bytes to /dev/null
 *   victim open <path>        open <path> (it need not exist)
 *   victim int80              two i386 getpid calls through int 0x80, then
 *                             the x86-64 getpid; exit 0
 *   victim kinds <file>       calls whose buffers are sized every other way
 *                             (fixed, by a socklen_t, an fd_set, an fcntl
 *                             command, an ioctl request, a prctl option,
 *                             min(length, return value), iovecs bounded by
 *                             the return value), a write from memory that
 *                             ends in an unmapped page, a path of 5000
 *                             bytes, and writes of more than 16 KiB; prints
 *                             "name hex" lines of what they read and wrote
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void gate(void)
{
	char c;
	if (read(0, &c, 1) != 1)
		exit(2);
}

static void *thread_main(void *arg)
{
	/* A call only this thread makes: its path names it. */
	int fd = open((const char *)arg, O_RDONLY);
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int calls(const char *self, const char *in, const char *out)
{
	char buf[256];
	int fd = open(in, O_RDONLY);
	if (fd < 0)
		return 1;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return 1;

	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (o < 0)
		return 1;
	const char msg[] = "written by victim\n";
	if (write(o, msg, sizeof(msg) - 1) < 0)
		return 1;
	char a[] = "iov-one ", b[] = "iov-two\n";
	struct iovec iov[2] = {{a, strlen(a)}, {b, strlen(b)}};
	if (writev(o, iov, 2) < 0)
		return 1;
	/* More than the tests' capture limit of 100 bytes. */
	char big[1000];
	memset(big, 'x', sizeof(big));
	if (write(o, big, sizeof(big)) < 0)
		return 1;
	/* Fails with EFAULT: the in-buffer is still captured, as a fault. */
	if (write(o, (void *)8, 16) >= 0)
		return 1;
	close(o);

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	char s1[] = "msg-part-1 ", s2[] = "msg-part-2";
	struct iovec siov[2] = {{s1, strlen(s1)}, {s2, strlen(s2)}};
	struct msghdr sm = {.msg_iov = siov, .msg_iovlen = 2};
	if (sendmsg(sv[0], &sm, 0) < 0)
		return 1;
	char r1[4], r2[64];
	struct iovec riov[2] = {{r1, sizeof(r1)}, {r2, sizeof(r2)}};
	struct msghdr rm = {.msg_iov = riov, .msg_iovlen = 2};
	if (recvmsg(sv[1], &rm, 0) < 0)
		return 1;
	close(sv[0]);
	close(sv[1]);

	pthread_t th;
	if (pthread_create(&th, NULL, thread_main, "/envbisect-bpf-test/thread") != 0)
		return 1;
	pthread_join(th, NULL);

	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = {(char *)self, "child", NULL};
		execv(self, argv);
		_exit(5);
	}
	int ws;
	if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 4)
		return 1;
	exit(3);
}

static void hex(const char *name, const void *p, size_t n)
{
	printf("%s ", name);
	for (size_t i = 0; i < n; i++)
		printf("%02x", ((const unsigned char *)p)[i]);
	printf("\n");
}

static int kinds(const char *path)
{
	char name[16] = "bpfkinds", got[16];
	if (prctl(PR_SET_NAME, name) < 0 || prctl(PR_GET_NAME, got) < 0)
		return 1;
	hex("prctl_set_name", name, sizeof(name));
	hex("prctl_get_name", got, sizeof(got));

	int fd = open(path, O_RDWR);
	if (fd < 0)
		return 1;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 10};
	if (fcntl(fd, F_GETLK, &fl) < 0)
		return 1;
	hex("fcntl_getlk", &fl, sizeof(fl));

	fd_set r;
	FD_ZERO(&r);
	FD_SET(fd, &r);
	struct timeval tv = {0, 0};
	if (syscall(SYS_select, fd + 1, &r, NULL, NULL, &tv) < 0)
		return 1;
	hex("select_readfds", &r, 8);
	hex("select_timeout", &tv, sizeof(tv));

	struct stat st;
	if (syscall(SYS_fstat, fd, &st) < 0)
		return 1;
	hex("fstat", &st, sizeof(st));

	char a[5], b[100];
	struct iovec iov[2] = {{a, sizeof(a)}, {b, sizeof(b)}};
	ssize_t n = readv(fd, iov, 2);
	if (n < 0)
		return 1;
	printf("readv_ret %zd\n", n);
	close(fd);

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	int v;
	socklen_t len = sizeof(v);
	if (getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &v, &len) < 0)
		return 1;
	hex("getsockopt_optval", &v, len);
	hex("getsockopt_optlen", &len, sizeof(len));
	if (send(sv[0], "recvfrom-data", 13, 0) != 13)
		return 1;
	int q;
	if (ioctl(sv[1], FIONREAD, &q) < 0)
		return 1;
	hex("ioctl_fionread", &q, sizeof(q));
	char rb[64];
	ssize_t m = recvfrom(sv[1], rb, sizeof(rb), 0, NULL, NULL);
	if (m < 0)
		return 1;
	hex("recvfrom", rb, m);

	/* A write from a buffer whose second half is unmapped: the kernel
	 * takes the first half, and a recorder keeps those bytes and notes
	 * the fault. */
	char *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED || munmap(pg + 4096, 4096) < 0)
		return 1;
	memset(pg, 'p', 4096);
	int tmp = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	if (tmp < 0)
		return 1;
	printf("partial_write_ret %zd\n", write(tmp, pg + 4096 - 10, 20));

	/* A path longer than PATH_MAX: recorded cut at 4096 bytes. */
	static char longpath[5001];
	memset(longpath, 'l', sizeof(longpath) - 1);
	longpath[0] = '/';
	if (open(longpath, O_RDONLY) >= 0)
		return 1;

	/* Buffers of more than one chunk (16 KiB), flat and in iovecs. */
	static unsigned char large[40000];
	for (size_t i = 0; i < sizeof(large); i++)
		large[i] = i % 251;
	if (write(tmp, large, sizeof(large)) != sizeof(large))
		return 1;
	struct iovec liov[3] = {{large, 10000}, {large + 7, 10000}, {large + 13, 10000}};
	if (writev(tmp, liov, 3) != 30000)
		return 1;
	close(tmp);
	return 0;
}

static void *exec_thread(void *arg)
{
	char *argv[] = {(char *)arg, "child", NULL};
	execv((const char *)arg, argv);
	_exit(5);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "child") == 0)
		return 4;
	gate();
	if (argc == 4 && strcmp(argv[1], "calls") == 0)
		return calls(argv[0], argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "spin") == 0) {
		int fd = open("/dev/null", O_WRONLY);
		char buf[256];
		memset(buf, 'y', sizeof(buf));
		for (long i = atol(argv[2]); i > 0; i--)
			if (write(fd, buf, sizeof(buf)) < 0)
				return 1;
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "threadexec") == 0) {
		pthread_t th;
		if (pthread_create(&th, NULL, exec_thread, argv[0]) != 0)
			return 1;
		pthread_join(th, NULL); /* never returns: the exec ends this image */
		return 1;
	}
	if (argc == 3 && strcmp(argv[1], "kinds") == 0)
		return kinds(argv[2]);
	if (argc == 2 && strcmp(argv[1], "int80") == 0) {
		/* Two i386 getpid calls (20, which x86-64 reads as writev),
		 * then the x86-64 one (39). */
		long r1, r2;
		__asm__ volatile("int $0x80" : "=a"(r1) : "a"(20) : "memory");
		__asm__ volatile("int $0x80" : "=a"(r2) : "a"(20) : "memory");
		return r1 == getpid() && r2 == r1 ? 0 : 1;
	}
	if (argc == 3 && strcmp(argv[1], "open") == 0) {
		int fd = open(argv[2], O_RDONLY);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	return 2;
}
