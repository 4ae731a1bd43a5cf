/* SPDX-License-Identifier: ISC */
/*
 * prlimit-parent PIDFILE: write our pid, lower our parent's (guardexec's)
 * RLIMIT_NOFILE to 1 and wake it up with a line of output, so that its
 * next poll() fails, then wait forever:
 * a command that makes guardexec fail in the middle of the run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rlimit one = { 1, 1 };
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "w")) == NULL)
		return 2;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	if (prlimit(getppid(), RLIMIT_NOFILE, &one, NULL) < 0)
		return 3;
	/* Wake guardexec up: its next poll() fails. */
	if (write(1, "x\n", 2) != 2)
		return 4;
	for (;;)
		pause();
}
