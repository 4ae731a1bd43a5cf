/* SPDX-License-Identifier: ISC */
/*
 * spin-until-killed [-i] [PIDFILE]: write our pid, then wait forever.
 * -i: ignore SIGTERM, SIGINT and SIGHUP (only SIGKILL ends us).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
		FILE *f = fopen(argv[i], "w");

		if (f == NULL)
			return 2;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	for (;;)
		pause();
}
