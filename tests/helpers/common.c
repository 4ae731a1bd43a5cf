/* SPDX-License-Identifier: ISC */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

volatile sig_atomic_t helper_stop;

static void
on_signal(int sig)
{
	(void)sig;
	helper_stop = 1;
}

void
helper_catch_stop(void)
{
	struct sigaction act;

	memset(&act, 0, sizeof(act));
	act.sa_handler = on_signal;     /* no SA_RESTART: poll returns EINTR */
	sigemptyset(&act.sa_mask);
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
}

double
helper_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long
helper_parse_num(const char *prog, const char *s, const char *what,
    long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > max) {
		fprintf(stderr, "%s: bad %s \"%s\"\n", prog, what, s);
		exit(2);
	}
	return v;
}

int
helper_wait_readable(int fd, double deadline)
{
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = deadline - helper_now();
		int r;

		if (helper_stop || left <= 0)
			return 0;
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 0)
			return r < 0 ? -1 : 1;
	}
}

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
helper_write_pid(const char *pidfile)
{
	FILE *f;

	write_ns(pidfile);
	f = fopen(pidfile, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "%d\n", (int)getpid());
	return fclose(f) == 0 ? 0 : -1;
}

int
helper_ops_main(int argc, char **argv,
    long (*attempt)(const char *op, char **args, int *used), bool flush)
{
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		int used = 0;
		long rc;

		errno = 0;
		rc = attempt(argv[i], argv + i + 1, &used);
		if (rc < 0) {
			printf("%s: %s\n", argv[i], strerrorname_np(errno));
			failed = 1;
		} else {
			printf("%s: ok\n", argv[i]);
		}
		if (flush)
			fflush(stdout);
		i += used;
	}
	return failed;
}
