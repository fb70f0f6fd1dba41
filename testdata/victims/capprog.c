/* capprog: prints that it ran. The container tests give it file
 * capabilities (setcap cap_net_raw+ep) to check what happens where the
 * bounding set lacks them: the exec fails with EPERM. */
#include <stdio.h>

int main(void)
{
	puts("capprog ran");
	return 0;
}
