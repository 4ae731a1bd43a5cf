/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rlimits.h"

int
limits_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p)) {
		errno = EINVAL;
		return -1;
	}
	for (; isdigit((unsigned char)*p); p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			errno = ERANGE;
			return -1;
		}
		v = v * 10 + d;
	}
	switch (*p) {
	case 'k': case 'K': mult = 1ULL << 10; p++; break;
	case 'm': case 'M': mult = 1ULL << 20; p++; break;
	case 'g': case 'G': mult = 1ULL << 30; p++; break;
	default: break;
	}
	if (mult != 1 && (*p == 'i' || *p == 'I') && (p[1] == 'B' || p[1] == 'b'))
		p += 2;
	else if (*p == 'B' || *p == 'b')
		p++;
	if (*p != '\0') {
		errno = EINVAL;
		return -1;
	}
	if (v > UINT64_MAX / mult) {
		errno = ERANGE;
		return -1;
	}
	*out = v * mult;
	return 0;
}

/* The unit at @p ("d", "h", "m", "s", "ms"): its seconds and length. */
static double
duration_unit(const char *p, size_t *len)
{
	static const struct {
		const char *name;
		double secs;
	} units[] = {
		{ "ms", 0.001 }, { "d", 86400 }, { "h", 3600 }, { "m", 60 },
		{ "s", 1 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		*len = strlen(units[i].name);
		if (strncmp(p, units[i].name, *len) == 0)
			return units[i].secs;
	}
	return 0;
}

int
limits_parse_duration(const char *s, double *out)
{
	double total = 0, prev = INFINITY, v, unit;
	const char *p = s;
	char *end;
	size_t len;

	do {
		if (!isdigit((unsigned char)*p) && *p != '.') {
			errno = EINVAL;
			return -1;
		}
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno != 0) {
			errno = errno ? errno : EINVAL;
			return -1;
		}
		if (*end == '\0' && p == s) {
			unit = 1;       /* a bare number: seconds */
			len = 0;
		} else if ((unit = duration_unit(end, &len)) == 0 ||
		    unit >= prev) {
			errno = EINVAL; /* no unit, unknown, or out of order */
			return -1;
		}
		total += v * unit;
		prev = unit;
		p = end + len;
	} while (*p != '\0');
	if (!isfinite(total)) {
		errno = ERANGE;
		return -1;
	}
	*out = total;
	return 0;
}

static int
apply_one(int resource, const struct gx_rlimit_val *v, rlim_t extra_hard)
{
	struct rlimit cur, want;

	if (!v->set)
		return 0;
	if (getrlimit(resource, &cur) < 0)
		return -1;
	want.rlim_cur = (rlim_t)v->value;
	want.rlim_max = (rlim_t)v->value + extra_hard;
	if (setrlimit(resource, &want) == 0)
		return 0;
	if (errno != EPERM || cur.rlim_max == RLIM_INFINITY ||
	    want.rlim_max <= cur.rlim_max)
		return -1;
	/*
	 * Not allowed to raise the hard limit (no CAP_SYS_RESOURCE): the
	 * lower inherited one binds, which is stricter than asked.
	 */
	want.rlim_max = cur.rlim_max;
	if (want.rlim_cur > want.rlim_max)
		want.rlim_cur = want.rlim_max;
	return setrlimit(resource, &want);
}

int
limits_apply(const struct gx_limits *l, bool use_rlimit_as,
    int *failed_resource)
{
	static const struct gx_rlimit_val none;
	const struct {
		int resource;
		const struct gx_rlimit_val *v;
		rlim_t extra_hard;
	} tab[] = {
		{ RLIMIT_CPU, &l->cpu, 1 },
		{ RLIMIT_AS, use_rlimit_as ? &l->memory : &none, 0 },
		{ RLIMIT_NPROC, &l->processes, 0 },
		{ RLIMIT_NOFILE, &l->open_files, 0 },
		{ RLIMIT_FSIZE, &l->file_size, 0 },
		{ RLIMIT_CORE, &l->core, 0 },
		{ RLIMIT_STACK, &l->stack, 0 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (apply_one(tab[i].resource, tab[i].v, tab[i].extra_hard) < 0) {
			*failed_resource = tab[i].resource;
			return -1;
		}
	}
	return 0;
}

const char *
limits_resource_name(int resource)
{
	switch (resource) {
	case RLIMIT_CPU: return "RLIMIT_CPU";
	case RLIMIT_AS: return "RLIMIT_AS";
	case RLIMIT_NPROC: return "RLIMIT_NPROC";
	case RLIMIT_NOFILE: return "RLIMIT_NOFILE";
	case RLIMIT_FSIZE: return "RLIMIT_FSIZE";
	case RLIMIT_CORE: return "RLIMIT_CORE";
	case RLIMIT_STACK: return "RLIMIT_STACK";
	default: return "RLIMIT_?";
	}
}
