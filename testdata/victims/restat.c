/*
 * restat — reads its configuration, then, later, stats the file again to
 * see whether it changed since it was read (as glibc does with
 * /etc/resolv.conf before each lookup). Used by test/e2e/firstdiff: the
 * first differing call of a resource (issue 14).
 *
 * Usage: restat FILE
 *
 * Calls, in order:
 *   1. open(FILE), read, close: the configuration, whose first line must
 *      be "mode=good"
 *   2. getpid a few times (work between the two looks)
 *   3. stat(FILE): the size must still be the number of bytes read
 * and only then decides (so that good and bad runs make the same calls).
 *
 * Exit status:
 *   0  the configuration says mode=good and did not change
 *   1  the configuration says something else
 *   4  the file changed between the read and the stat (another size)
 *   3  bad usage or the file cannot be read
 *
 * Why: here the file says "mode=broken-here" (another size). A search by
 * prefix of calls that replays the read but not the later stat gives the
 * program the good content and this environment's size: exit 4, still a
 * failure. So the verdict flips only at the stat, the last call whose
 * replay is needed; the cause is the file's content, which first differs
 * at the read, and that (or the open it reads through) is what locate
 * must name, with the stat kept as the evidence of the flip.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: restat FILE\n");
		return 3;
	}
	char buf[4096];
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 3;
	}
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0) {
		perror(argv[1]);
		return 3;
	}
	buf[n] = 0;
	int good = strncmp(buf, "mode=good\n", 10) == 0;
	for (int i = 0; i < 3; i++)
		getpid();
	struct stat st;
	int changed = stat(argv[1], &st) != 0 || st.st_size != n;
	if (changed) {
		fprintf(stderr, "%s changed since it was read\n", argv[1]);
		return 4;
	}
	if (!good) {
		fprintf(stderr, "%s: not mode=good\n", argv[1]);
		return 1;
	}
	return 0;
}
