/*
 * writearg — writes a string of its command line into a file and checks
 * that the whole of it was written, as a daemon writing its pid file
 * does (whose length changes with the pid's digits from run to run).
 *
 * Usage: writearg FILE TEXT
 *
 * open(FILE, O_WRONLY|O_CREAT|O_TRUNC, 0644), one write of TEXT, close.
 * Exit status: 0 when the write took all of TEXT, 1 when the open failed
 * or the write came up short (said on stderr), 2 bad usage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: writearg FILE TEXT\n");
		return 2;
	}
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("writearg: open");
		return 1;
	}
	size_t n = strlen(argv[2]);
	ssize_t w = write(fd, argv[2], n);
	if (w != (ssize_t)n) {
		fprintf(stderr, "writearg: wrote %zd of %zu bytes\n", w, n);
		return 1;
	}
	close(fd);
	return 0;
}
