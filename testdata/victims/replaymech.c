/*
 * replaymech — the replay package's tests use it to check the mechanics
 * of one semi-replay run on a real process, not a verdict.
 *
 * Usage: replaymech CONFIG DATA BUFSIZE
 *
 *   1. opens CONFIG and prints the fd the open returned ("config fd N" or
 *      "config open failed: ERR"),
 *   2. opens DATA and prints its fd ("data fd N"),
 *   3. reads CONFIG into a BUFSIZE-byte buffer followed by a canary and
 *      prints what it got ("config read R: TEXT") and whether the canary
 *      survived ("canary ok" / "canary overwritten"),
 *   4. reads DATA and prints it ("data read R: TEXT"),
 *   5. closes both and opens DATA again, printing the fd ("reopen fd N").
 *
 * Exit status 0 when CONFIG's content starts with "ok", else 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: replaymech CONFIG DATA BUFSIZE\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	size_t n = (size_t)atoi(argv[3]);
	int cfg = open(argv[1], O_RDONLY);
	if (cfg < 0)
		printf("config open failed: %s\n", strerror(errno));
	else
		printf("config fd %d\n", cfg);
	int data = open(argv[2], O_RDONLY);
	printf("data fd %d\n", data);

	char *buf = malloc(n + 16);
	memset(buf, 0, n + 16);
	memcpy(buf + n, "CANARY-CANARY-!", 16);
	ssize_t r = read(cfg, buf, n);
	printf("config read %zd: %.*s\n", r, r > 0 ? (int)r : 0, buf);
	printf("canary %s\n", memcmp(buf + n, "CANARY-CANARY-!", 16) == 0 ? "ok" : "overwritten");
	int good = r >= 2 && memcmp(buf, "ok", 2) == 0;

	char d[64];
	ssize_t dr = read(data, d, sizeof d);
	printf("data read %zd: %.*s\n", dr, dr > 0 ? (int)dr : 0, d);
	close(cfg);
	close(data);
	printf("reopen fd %d\n", open(argv[2], O_RDONLY));
	return good ? 0 : 1;
}
