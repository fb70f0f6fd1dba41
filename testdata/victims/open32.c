/*
 * open32: built with gcc -m32 (a 32-bit i386 program): opens
 * /etc/hostname; every call it makes is an i386 one.
 */
#include <fcntl.h>
#include <unistd.h>

int main(void) {
	int fd = open("/etc/hostname", O_RDONLY);
	return fd < 0;
}
