/* SPDX-License-Identifier: ISC */
/*
 * tty-stop TTY [PIDFILE]: (write our pid to PIDFILE,) open TTY (the terminal guardexec writes to) and stop
 * its output with tcflow(TCOOFF), then print 1 MiB to stdout and wait
 * forever: a command that tries to stop guardexec's clock.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static char line[4096];
	int fd;

	if (argc != 2 && argc != 3)
		return 2;
	if (argc == 3) {
		FILE *f = fopen(argv[2], "w");

		if (f == NULL)
			return 2;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	fd = open(argv[1], O_RDWR | O_NOCTTY);
	if (fd < 0 || tcflow(fd, TCOOFF) < 0)
		return 3;
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\n';
	for (int i = 0; i < 256; i++)
		if (write(1, line, sizeof(line)) < 0)
			return 4;
	for (;;)
		pause();
}
