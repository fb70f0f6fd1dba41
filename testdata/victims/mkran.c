/* mkran makes the directory named by its argument and exits 0 when it
 * could. Built static by the creation tests (test/e2e/serve): run from a
 * directory the run made in its scratch area, it checks that a
 * redirected exec leaves the new image its own registers (a static
 * binary's _start takes rtld_fini from rdx and calls it at exit). */
#include <sys/stat.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	return mkdir(argv[1], 0777) == 0 ? 0 : 1;
}
