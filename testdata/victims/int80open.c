/*
 * int80open: a 64-bit program that opens /etc/hostname through the i386
 * ABI (int 0x80, i386 open = 5), which x86-64 would read as fstat.
 */
#include <unistd.h>
int main(void) {
	static const char path[] = "/etc/hostname";
	long ret;
	/* i386 open(path, O_RDONLY) through int 0x80 */
	__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(5), "b"(path), "c"(0) : "memory");
	return ret < 0 ? 1 : 0;
}
