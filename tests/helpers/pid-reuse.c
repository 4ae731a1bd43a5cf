/* SPDX-License-Identifier: ISC */
/*
 * pid-reuse: make guardexec's family kill meet a recycled pid (run in a
 * PID namespace where the command may write ns_last_pid).
 *
 * pid-reuse spawn FIFO PIDFILE: outside the family.  Wait for a byte on
 * FIFO, then fork once: the victim, which waits forever; its pid goes
 * to PIDFILE.
 * pid-reuse attack FIFO N: the command.  Fork N sleepers, then B.  On
 * SIGTERM (the timeout), kill and reap B, set ns_last_pid so that the
 * next pid is B's, and have the spawner fork: the victim, outside the
 * family, now holds B's pid while guardexec is still signalling the N
 * sleepers it found before B.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t b;
static int fifo = -1;

static void
on_term(int sig)
{
	char num[16];
	int n = 0, fd;
	pid_t v = b - 1;

	(void)sig;
	kill(b, SIGKILL);
	waitpid(b, NULL, 0);
	do {
		num[sizeof(num) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, num + sizeof(num) - n, (size_t)n);
		close(fd);
	}
	(void)!write(fifo, "x", 1);
	_exit(0);
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "spawn") == 0) {
		char c;
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0 || read(fd, &c, 1) != 1)
			return 2;
		pid_t v = fork();
		FILE *f;

		if (v == 0)
			for (;;)
				pause();
		/* The parent records it: the victim may die at once. */
		f = fopen(argv[3], "w");
		if (v < 0 || f == NULL)
			return 2;
		fprintf(f, "%d\n", (int)v);
		fclose(f);
		for (;;)
			pause();
	}
	if (argc == 4 && strcmp(argv[1], "attack") == 0) {
		int n = atoi(argv[3]);
		struct sigaction sa;

		fifo = open(argv[2], O_WRONLY);
		if (fifo < 0)
			return 2;
		for (int i = 0; i < n; i++)
			if (fork() == 0)
				for (;;)
					pause();
		b = fork();
		if (b == 0)
			for (;;)
				pause();
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_term;
		sigaction(SIGTERM, &sa, NULL);
		for (;;)
			pause();
	}
	return 2;
}
