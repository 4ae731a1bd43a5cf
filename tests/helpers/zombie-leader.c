/* SPDX-License-Identifier: ISC */
/*
 * zombie-leader PIDFILE [write]: fork a process that leaves the
 * command's process group (setpgid), starts a thread, then ends its
 * main thread with SYS_exit.  /proc then shows the leader as a zombie
 * while the thread runs on.  The thread waits forever or, with "write",
 * writes to stdout forever.  The original process writes the leader's
 * pid to PIDFILE and exits 0.
 */
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

static int writing;

static void *
thread_main(void *arg)
{
	static const char line[] = "still here, the leader is a zombie\n";

	(void)arg;
	for (;;) {
		if (!writing)
			pause();
		else if (write(1, line, sizeof(line) - 1) < 0)
			usleep(1000);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	int p[2];
	pid_t c;
	char ok;

	if (argc < 2 || pipe(p) < 0)
		return 2;
	writing = argc > 2 && strcmp(argv[2], "write") == 0;
	c = fork();
	if (c < 0)
		return 2;
	if (c == 0) {
		pthread_t t;

		setpgid(0, 0);
		if (helper_write_pid(argv[1]) < 0)
			_exit(2);
		if (pthread_create(&t, NULL, thread_main, NULL) != 0)
			_exit(2);
		if (write(p[1], "y", 1) < 0)
			_exit(2);
		/* The main thread only: the process lives on in the thread. */
		syscall(SYS_exit, 0);
	}
	close(p[1]);
	if (read(p[0], &ok, 1) != 1)
		return 2;
	return 0;
}
