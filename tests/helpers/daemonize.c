/* SPDX-License-Identifier: ISC */
/*
 * daemonize PIDFILE [hold|close]: double-fork a daemon in its own
 * session that writes its pid to PIDFILE and sleeps forever.  "hold"
 * keeps stdout and stderr (guardexec's pipes) open in the daemon; the
 * default closes them.  The original process exits 0 once the pid is
 * written.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

int
main(int argc, char **argv)
{
	int hold = argc > 2 && strcmp(argv[2], "hold") == 0;
	int p[2];
	pid_t c;
	char ok;

	if (argc < 2 || pipe(p) < 0)
		return 2;
	c = fork();
	if (c < 0)
		return 2;
	if (c == 0) {
		setsid();
		if (fork() != 0)
			_exit(0);
		/* The grandchild: reparented to the subreaper. */
		if (helper_write_pid(argv[1]) < 0)
			_exit(2);
		if (!hold) {
			int null = open("/dev/null", O_RDWR);

			dup2(null, 1);
			dup2(null, 2);
		}
		if (write(p[1], "y", 1) < 0)
			_exit(2);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	waitpid(c, NULL, 0);
	if (read(p[0], &ok, 1) != 1)
		return 1;
	printf("daemon started\n");
	return 0;
}
