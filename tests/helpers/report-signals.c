/* SPDX-License-Identifier: ISC */
/*
 * report-signals FILE [-c]: on SIGINT, SIGTERM or SIGHUP append
 * "PID SIGNAME" to FILE and exit 0.  With -c, first start a child in its
 * own session (setsid) that does the same, so a test can check that a
 * signal reached more than the direct child.  Writes "ready" lines.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *file;

static void
on_signal(int sig)
{
	char buf[64];
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
	int n = snprintf(buf, sizeof(buf), "%d SIG%s\n", (int)getpid(),
	    sigabbrev_np(sig));

	if (fd >= 0) {
		if (write(fd, buf, (size_t)n) < 0)
			_exit(3);
		close(fd);
	}
	_exit(0);
}

static void
ready(const char *who)
{
	char buf[64];
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
	int n = snprintf(buf, sizeof(buf), "%d ready %s\n", (int)getpid(), who);

	if (fd >= 0) {
		if (write(fd, buf, (size_t)n) < 0)
			_exit(3);
		close(fd);
	}
}

int
main(int argc, char **argv)
{
	struct sigaction sa;

	if (argc < 2)
		return 2;
	file = argv[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (argc > 2 && strcmp(argv[2], "-c") == 0) {
		pid_t p = fork();

		if (p == 0) {
			setsid();
			ready("child");
			for (;;)
				pause();
		}
	}
	ready("main");
	for (;;)
		pause();
}
