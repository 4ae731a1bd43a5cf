/* SPDX-License-Identifier: ISC */
#ifndef GX_RLIMITS_H
#define GX_RLIMITS_H

#include <stdbool.h>
#include <stdint.h>

/* The policy's resource limits.  A key that is not set stays inherited. */
struct gx_rlimit_val {
	bool set;
	uint64_t value;
};

struct gx_limits {
	double timeout;         /* wall-clock seconds, 0 = none */
	double kill_grace;      /* SIGTERM -> SIGKILL, seconds */
	struct gx_rlimit_val cpu, memory, processes, open_files, file_size,
	    core, stack;
};

/*
 * Parse a size: decimal digits with an optional K, M or G suffix (powers
 * of 1024, case-insensitive, an optional trailing "B" or "iB" allowed).
 * Returns 0 and fills *out, or -1 (EINVAL: malformed, ERANGE: overflow).
 */
int limits_parse_size(const char *s, uint64_t *out);

/*
 * Parse a duration given as text: seconds as a decimal number ("1.5"),
 * or numbers each followed by a unit, largest unit first: "ms", "s",
 * "m" (minutes), "h", "d" ("90s", "10m", "1.5h", "2m30s").  Returns 0
 * and fills *out (seconds), or -1 with errno EINVAL / ERANGE.
 */
int limits_parse_duration(const char *s, double *out);

/*
 * Apply the rlimits in the child, before exec.  Async-signal-safe.
 * Each limit lowers both soft and hard (RLIMIT_CPU: hard = soft + 1 so
 * that SIGXCPU comes first); an unprivileged caller whose hard limit is
 * already lower keeps the lower one.  @use_rlimit_as applies
 * limits.memory as RLIMIT_AS (when no cgroup enforces it).
 * Returns 0, or -1 with errno set and *failed_resource the RLIMIT_*.
 */
int limits_apply(const struct gx_limits *l, bool use_rlimit_as,
    int *failed_resource);

/* "RLIMIT_NOFILE" etc. for messages. */
const char *limits_resource_name(int resource);

#endif
