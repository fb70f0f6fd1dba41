/*
 * mapdata — a program that uses a data file through an fd whose calls
 * execute: it maps the file (as a database, locale data or a cache would
 * be used) and reads its head with read, so that a replayed open must
 * hand out the good file's bytes, not an empty stand-in.
 *
 * Usage: mapdata FILE [setfl]
 *
 * Opens FILE read-only (with setfl, then sets O_NONBLOCK on it with
 * fcntl, a call that needs the open to have run), fstat()s it, maps all of it, and prints
 * "size N", then "head: TEXT" (the first line through read) and
 * "tail: TEXT" (the last line through the mapping). Touching a page past
 * the end of a file that shrank after the fstat would raise SIGBUS; this
 * program maps what fstat says, so an empty or short stand-in gives a
 * short map, not a crash, and a wrong answer.
 *
 * Exit status 0 when every line of the file starts with "good", else 1;
 * 2 when FILE cannot be opened or mapped.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mapdata FILE [setfl]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("open");
		return 2;
	}
	if (argc == 3 && fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		perror("fcntl");
		return 2;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		perror("fstat");
		return 2;
	}
	printf("size %lld\n", (long long)st.st_size);
	char head[64] = {0};
	ssize_t n = read(fd, head, sizeof head - 1);
	if (n < 0)
		n = 0;
	head[strcspn(head, "\n")] = 0;
	printf("head: %s\n", head);
	if (st.st_size == 0) {
		printf("tail: \n");
		return 1;
	}
	char *m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	close(fd);
	int good = 1;
	const char *line = m, *end = m + st.st_size, *last = m;
	while (line < end) {
		if (end - line < 4 || memcmp(line, "good", 4) != 0)
			good = 0;
		last = line;
		const char *nl = memchr(line, '\n', end - line);
		line = nl ? nl + 1 : end;
	}
	printf("tail: %.*s\n", (int)strcspn(last, "\n"), last);
	return good ? 0 : 1;
}
