/*
 * profiles — reads its configuration, then a profile chosen by its
 * second argument. Used by scenario 9, "divergence": a run whose live
 * calls stop matching the recorded ones inside the replayed prefix.
 *
 * Usage: profiles DIR [NAME]
 *
 * Calls, in order:
 *   1. open(DIR/app.conf), read, close       must read "level=ok\n"
 *   2. open(DIR/profiles/NAME.conf), read, close, where NAME is
 *      the NAME argument or "default"; the file must read "profile=NAME\n"
 *   3. a line on stdout
 * and only then decides.
 *
 * The scenario records without NAME (step 2 opens default.conf) and
 * locates with NAME alt, the command's input (step 2 opens alt.conf): both files
 * exist in both environments, so the live open of alt.conf has no recorded
 * counterpart: the recorded open of default.conf sits at the same place.
 * The bad environment's app.conf reads "level=broken\n", so the culprit is
 * the read of app.conf (step 1), before the divergence: every prefix that
 * replays it passes, including the fully replayed run, in which the
 * divergence lies inside the prefix. The engine must report the divergence
 * and execute the open and read of alt.conf for real. Replaying the
 * recorded open and read of default.conf against them would hand this
 * program "profile=default" for alt.conf, which it detects (exit 3).
 *
 * Exit status:
 *   0  app.conf reads "level=ok" and the profile is NAME's own
 *   1  app.conf reads something else (the bad environment)
 *   2  the profile could not be read
 *   3  the profile's content is another profile's: a recorded result was
 *      replayed against the wrong call
 *   4  bad usage
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(int fd, const char *msg)
{
	ssize_t r = write(fd, msg, strlen(msg));
	(void)r;
}

static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t got = read(fd, buf, size - 1);
	close(fd);
	if (got >= 0)
		buf[got] = 0;
	return got;
}

int main(int argc, char **argv)
{
	char path[4096], line[4300], conf[128], prof[128], want[128];
	if (argc != 2 && argc != 3) {
		say(2, "usage: profiles DIR [NAME]\n");
		return 4;
	}
	snprintf(path, sizeof path, "%s/app.conf", argv[1]);
	ssize_t got = slurp(path, conf, sizeof conf);

	const char *name = argc == 3 ? argv[2] : NULL;
	if (name == NULL || *name == 0 || strchr(name, '/') != NULL || strlen(name) > 64)
		name = "default";
	snprintf(path, sizeof path, "%s/profiles/%s.conf", argv[1], name);
	ssize_t pgot = slurp(path, prof, sizeof prof);
	snprintf(want, sizeof want, "profile=%s\n", name);

	snprintf(line, sizeof line, "profiles: profile %s, %zd bytes of config\n", name, got);
	say(1, line);

	if (pgot < 0) {
		snprintf(line, sizeof line, "profiles: cannot read %s\n", path);
		say(2, line);
		return 2;
	}
	if (strcmp(prof, want) != 0) {
		snprintf(line, sizeof line, "profiles: %s holds \"%.*s\", not profile=%s: replayed against the wrong call?\n",
			 path, (int)strcspn(prof, "\n"), prof, name);
		say(2, line);
		return 3;
	}
	if (got != 9 || memcmp(conf, "level=ok\n", 9) != 0) {
		say(2, "profiles: app.conf is not \"level=ok\"\n");
		return 1;
	}
	return 0;
}
