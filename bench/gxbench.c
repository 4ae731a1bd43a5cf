/* SPDX-License-Identifier: ISC */
/*
 * gxbench: the measuring driver behind bench/run.
 *
 *   gxbench spawn ROUNDS CMD... [::: CMD...]...
 *       run each command once per round, interleaved A B C A B C ..., and
 *       print the median wall time per run of each, with its ratio to the
 *       first.
 *   gxbench pipe CMD...
 *       run CMD with stdout on a pipe that gxbench drains (the reader of
 *       the pipeline); print bytes, seconds and GB/s.
 *   gxbench rss CMD...
 *       run CMD and print the peak RSS (kB) wait4 reports for it.
 *   gxbench filter POLICY
 *       time compiling the policy's seccomp filter and loading it, and a
 *       getpid loop without and with it: ns per syscall and the ratio.
 *   gxbench append WRITERS RECORDS LOG SYNC
 *       WRITERS processes each append RECORDS records to LOG through
 *       audit_log_append (SYNC 0 or 1); print microseconds per record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "util.h"
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/syscall.h>

#include "audit.h"
#include "filter.h"
#include "log.h"
#include "policy.h"
#include "common.h"

extern char **environ;

static pid_t
spawn(char **argv, int out_fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	else
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "gxbench: %s: %s\n", argv[0], strerror(rc));
		exit(2);
	}
	return pid;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
bench_spawn(int argc, char **argv)
{
	int rounds = atoi(argv[0]), ncmd = 0;
	char **cmds[16];
	double *t[16];

	cmds[ncmd++] = argv + 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], ":::") == 0) {
			argv[i] = NULL;
			if (ncmd < 16)
				cmds[ncmd++] = argv + i + 1;
		}
	}
	for (int c = 0; c < ncmd; c++)
		t[c] = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		for (int c = 0; c < ncmd; c++) {
			double t0 = helper_now();
			int st;
			pid_t p = spawn(cmds[c], -1);

			waitpid(p, &st, 0);
			t[c][r] = helper_now() - t0;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				fprintf(stderr, "gxbench: %s failed (status %d)\n",
				    cmds[c][0], st);
				return 1;
			}
		}
	}
	for (int c = 0; c < ncmd; c++) {
		qsort(t[c], (size_t)rounds, sizeof(double), cmp_double);
		printf("%.4f", t[c][rounds / 2] * 1e3);
		printf(c + 1 < ncmd ? " " : "\n");
	}
	return 0;
}

static int
bench_pipe(char **argv)
{
	int p[2], st;
	static char buf[1 << 20];
	unsigned long long total = 0;
	double t0;
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0)
		return 2;
	fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
	t0 = helper_now();
	pid = spawn(argv, p[1]);
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) > 0)
		total += (unsigned long long)n;
	waitpid(pid, &st, 0);
	printf("%llu %.4f %.3f\n", total, helper_now() - t0,
	    (double)total / (helper_now() - t0) / 1e9);
	return 0;
}

static int
bench_rss(char **argv)
{
	struct rusage ru;
	int st;
	pid_t pid = spawn(argv, -1);

	wait4(pid, &st, 0, &ru);
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}

static int
bench_append(char **argv)
{
	int writers = atoi(argv[0]), records = atoi(argv[1]);
	const char *path = argv[2];
	bool sync = atoi(argv[3]) != 0;
	double t0 = helper_now();

	for (int w = 0; w < writers; w++) {
		if (fork() == 0) {
			static char *av[] = { "bench", "arg", NULL };
			struct gx_record_in in = { .argv = av, .cwd = "/" };
			struct gx_diag d = { 0 };
			struct gx_log log;

			json_t *proto;

			if (audit_log_open(&log, path, false, &d) < 0)
				_exit(1);
			/* The append alone: the record is built once. */
			proto = audit_build(&in);
			for (int i = 0; i < records; i++) {
				json_t *rec = json_deep_copy(proto);
				char *line;

				if (audit_log_append(&log, rec, sync, &line, &d) < 0)
					_exit(1);
				free(line);
				json_decref(rec);
			}
			json_decref(proto);
			audit_log_close(&log);
			_exit(0);
		}
	}
	for (int w = 0; w < writers; w++) {
		int st;

		wait(&st);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return 1;
	}
	printf("%.2f\n", (helper_now() - t0) * 1e6 / ((double)writers * records));
	return 0;
}

/* ns per getpid over @n calls, in a child that first loads @f (or not). */
static double
getpid_ns(const struct gx_filter *f, long n)
{
	int p[2], st;
	double ns = -1;

	if (pipe(p) < 0)
		return -1;
	if (fork() == 0) {
		double t0;

		if (f != NULL && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    filter_load_guard(f) < 0 || filter_load_plain(f) < 0))
			_exit(1);
		t0 = helper_now();
		for (long i = 0; i < n; i++)
			syscall(SYS_getpid);
		ns = (helper_now() - t0) * 1e9 / (double)n;
		if (write(p[1], &ns, sizeof(ns)) != sizeof(ns))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &ns, sizeof(ns)) != sizeof(ns))
		ns = -1;
	close(p[0]);
	wait(&st);
	return ns;
}

static int
bench_filter(const char *path)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	double build[31], load[31], base[5], filt[5];
	struct gx_filter f;

	if (policy_load(path, false, &pol, &d) < 0) {
		diag_print(&d);
		return 1;
	}
	for (int i = 0; i < 31; i++) {
		double t0 = helper_now();

		if (filter_build(&pol, false, false, &f, &d) < 0) {
			diag_print(&d);
			return 1;
		}
		build[i] = (helper_now() - t0) * 1e3;
		filter_free(&f);
	}
	filter_build(&pol, false, false, &f, &d);
	filter_build_plain(&pol, &f, &d);
	for (int i = 0; i < 31; i++) {
		int p[2], st;

		if (pipe(p) < 0)
			return 1;
		if (fork() == 0) {
			double t0 = helper_now(), ms;

			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			filter_load_guard(&f);
			filter_load_plain(&f);
			ms = (helper_now() - t0) * 1e3;
			if (write(p[1], &ms, sizeof(ms)) != sizeof(ms))
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		if (read(p[0], &load[i], sizeof(double)) != sizeof(double))
			load[i] = -1;
		close(p[0]);
		wait(&st);
	}
	/* Interleaved: without, with, without, with... */
	for (int i = 0; i < 5; i++) {
		base[i] = getpid_ns(NULL, 2000000);
		filt[i] = getpid_ns(&f, 2000000);
	}
	qsort(build, 31, sizeof(double), cmp_double);
	qsort(load, 31, sizeof(double), cmp_double);
	qsort(base, 5, sizeof(double), cmp_double);
	qsort(filt, 5, sizeof(double), cmp_double);
	printf("%zu %u %.3f %.3f %.1f %.1f\n", strv_len(pol.sys_allow),
	    f.policy.len, build[15], load[15], base[2], filt[2]);
	filter_free(&f);
	policy_free(&pol);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "spawn") == 0)
		return bench_spawn(argc - 2, argv + 2);
	if (argc >= 3 && strcmp(argv[1], "pipe") == 0)
		return bench_pipe(argv + 2);
	if (argc >= 3 && strcmp(argv[1], "rss") == 0)
		return bench_rss(argv + 2);
	if (argc == 3 && strcmp(argv[1], "filter") == 0)
		return bench_filter(argv[2]);
	if (argc == 6 && strcmp(argv[1], "append") == 0)
		return bench_append(argv + 2);
	fprintf(stderr, "usage: see the comment at the top of bench/gxbench.c\n");
	return 2;
}
