// killthreads: forks children that start threads making system calls
// and kills each child with SIGKILL a moment later, often while one of
// its threads is inside clone (issue 20: a thread whose creation event
// the tracer never hears of, in a process killed as a group).
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static void *worker(void *arg) {
	(void)arg;
	for (;;) {
		int fd = open("/etc/hostname", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

int main(int argc, char **argv) {
	int children = argc > 1 ? atoi(argv[1]) : 20;
	for (int k = 0; k < children; k++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0) {
			pthread_t t;
			for (int i = 0; i < 6; i++)
				pthread_create(&t, NULL, worker, NULL);
			worker(NULL);
		}
		usleep(300 + k * 50);
		kill(p, SIGKILL);
		int status;
		if (waitpid(p, &status, 0) != p || !WIFSIGNALED(status))
			return 2;
	}
	return 0;
}
