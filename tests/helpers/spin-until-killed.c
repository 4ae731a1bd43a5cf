/* SPDX-License-Identifier: ISC */
/*
 * spin-until-killed [-i] [PIDFILE]: write our pid, then wait forever.
 * -i: ignore SIGTERM, SIGINT and SIGHUP (only SIGKILL ends us).
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

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
	if (i < argc && helper_write_pid(argv[i]) < 0)
		return 2;
	for (;;)
		pause();
}
