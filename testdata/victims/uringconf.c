/*
 * uringconf: reads its configuration through io_uring only (raw system
 * calls, no liburing): the open and the read are ring operations
 * (IORING_OP_OPENAT, IORING_OP_READ), so neither is a system call a
 * tracer sees. Exits 0 when the file (argv[1]) starts with "good", 1
 * otherwise, 2 when io_uring fails.
 */
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *r) {
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	r->fd = syscall(SYS_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -1;
	size_t sqlen = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cqlen = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	char *sq = mmap(0, sqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	char *cq = mmap(0, cqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* run submits one operation and returns its result. */
static int run(struct ring *r, struct io_uring_sqe *op) {
	unsigned tail = *r->sq_tail, i = tail & *r->sq_mask;
	r->sqes[i] = *op;
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -1000;
	unsigned head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -1001;
	int res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

int main(int argc, char **argv) {
	const char *path = argc > 1 ? argv[1] : "/etc/uringconf.conf";
	struct ring r;
	if (ring_setup(&r) < 0) {
		perror("io_uring_setup");
		return 2;
	}
	struct io_uring_sqe op;
	memset(&op, 0, sizeof op);
	op.opcode = IORING_OP_OPENAT;
	op.fd = AT_FDCWD;
	op.addr = (unsigned long)path;
	op.open_flags = O_RDONLY;
	int fd = run(&r, &op);
	if (fd < 0) {
		fprintf(stderr, "uringconf: open %s: %s\n", path, strerror(-fd));
		return 1;
	}
	char buf[64] = {0};
	memset(&op, 0, sizeof op);
	op.opcode = IORING_OP_READ;
	op.fd = fd;
	op.addr = (unsigned long)buf;
	op.len = sizeof buf - 1;
	int n = run(&r, &op);
	if (n < 0) {
		fprintf(stderr, "uringconf: read %s: %s\n", path, strerror(-n));
		return 1;
	}
	printf("config: %.*s\n", n, buf);
	return strncmp(buf, "good", 4) == 0 ? 0 : 1;
}
