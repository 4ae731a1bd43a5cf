/* SPDX-License-Identifier: ISC */
/*
 * spin-until-killed [-i] [PIDFILE]: write our pid, then wait forever.
 * -i: ignore SIGTERM, SIGINT and SIGHUP (only SIGKILL ends us).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * PIDFILE.ns: our PID namespace, written before PIDFILE.  Inside a run's
 * own PID namespace our pid means nothing outside it: lib.sh's gone()
 * then looks for the namespace instead.
 */
static void
write_ns(const char *pidfile)
{
	char path[4096], link[64];
	ssize_t n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);
	FILE *f;

	if (n <= 0)
		return;
	link[n] = '\0';
	snprintf(path, sizeof(path), "%s.ns", pidfile);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "%s\n", link);
		fclose(f);
	}
}

int
main(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && strcmp(argv[1], "-i") == 0) {
		signal(SIGTERM, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		i++;
	}
	if (i < argc) {
		FILE *f;

		write_ns(argv[i]);
		f = fopen(argv[i], "w");
		if (f == NULL)
			return 2;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	for (;;)
		pause();
}
