/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "prof.h"

#define MAXMARKS 32

static bool on;
static int n;
static struct timespec t0;
static struct {
	const char *name;
	struct timespec t;
} marks[MAXMARKS];

void
prof_start(void)
{
	const char *v = getenv("GUARDEXEC_PROFILE");

	on = v != NULL && v[0] != '\0' && v[0] != '0';
	if (on)
		clock_gettime(CLOCK_MONOTONIC, &t0);
}

void
prof_mark(const char *name)
{
	if (!on || n == MAXMARKS)
		return;
	marks[n].name = name;
	clock_gettime(CLOCK_MONOTONIC, &marks[n++].t);
}

static long
us(const struct timespec *a, const struct timespec *b)
{
	return (long)((b->tv_sec - a->tv_sec) * 1000000L +
	    (b->tv_nsec - a->tv_nsec) / 1000L);
}

void
prof_report(void)
{
	const struct timespec *prev = &t0;

	if (!on)
		return;
	on = false;
	for (int i = 0; i < n; i++) {
		fprintf(stderr, "guardexec: profile: %s %ld\n", marks[i].name,
		    us(prev, &marks[i].t));
		prev = &marks[i].t;
	}
	if (n > 0)
		fprintf(stderr, "guardexec: profile: total %ld\n",
		    us(&t0, &marks[n - 1].t));
}
