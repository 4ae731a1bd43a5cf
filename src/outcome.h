/* SPDX-License-Identifier: ISC */
/*
 * How one run ended: the plain data the supervisor fills and the audit
 * record is built from.  No code here depends on the supervisor, so the
 * log reader (guardexec-audit) links without it.
 */
#ifndef GX_OUTCOME_H
#define GX_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

/* How a run ended; the names are the audit record's "status". */
enum gx_status {
	GX_STATUS_EXITED,
	GX_STATUS_SIGNALED,
	GX_STATUS_TIMEOUT,
	GX_STATUS_EXEC_FAILED,
	GX_STATUS_REFUSED,
};

/* The record's name for @s ("exited", ...); a static string. */
const char *outcome_status_name(enum gx_status s);

/*
 * Names for the namespace bits (GX_NS_* in ns.h), indexed by bit number;
 * NULL-terminated.  Here, with the outcome that carries the bits, so the
 * record code needs nothing of the supervisor.
 */
extern const char *const gx_ns_names[];

#define GX_MAX_FORWARDED 16
#define GX_MAX_LIMITS 8
#define GX_MAX_DENIED 256

struct gx_outcome;
/* Add @name (a static string) to @o's limits_hit, once. */
void outcome_limit_reached(struct gx_outcome *o, const char *name);

/* One syscall refused (or, in learn mode, used) and how often. */
struct gx_denial {
	char name[40];
	unsigned long count;
};

/*
 * A path the filesystem rules refuse (fswatch.h), and how often it was
 * tried.  The strings are malloc'd (fswatch_outcome_free).
 */
struct gx_fsdenial {
	char *path;                 /* absolute, as the command named it */
	char *entry;                /* what --learn adds for it, or NULL */
	char syscall[40];           /* the first call that tried it */
	bool write;                 /* outside filesystem.write, else .read */
	unsigned long count;
};

#define GX_MAX_FS_DENIED 256

struct gx_outcome {
	enum gx_status status;
	int exit_code;              /* guardexec's exit status */
	int signal;                 /* signal that ended the command, or 0 */
	bool timed_out;
	uint64_t stdout_bytes, stderr_bytes;  /* written by the command */
	bool truncated;
	const char *limit_hit;      /* static string or NULL */
	/* every limit reached during the run (static strings, no repeats) */
	const char *limits_hit[GX_MAX_LIMITS];
	size_t n_limits_hit;
	struct rusage ru;           /* of everything reaped */
	struct timespec start, end; /* CLOCK_REALTIME */
	double duration_ms;         /* CLOCK_MONOTONIC */
	int forwarded[GX_MAX_FORWARDED];  /* signals received and relayed */
	size_t n_forwarded;
	int exec_errno;             /* exec_failed / refused: the errno */
	char error[256];            /* refused: what failed in setup */
	bool left_running;          /* descendants could not be reaped */
	/* seccomp: denials by name (learn mode: syscalls used) */
	struct gx_denial denied[GX_MAX_DENIED];
	size_t n_denied;
	bool denied_overflow;       /* more names than GX_MAX_DENIED */
	char reporting[192];         /* "notify", "off", or "unavailable: ..." */
	bool seccomp_killed;        /* the command died of a denied syscall */
	/* filesystem denials by path (fswatch.h) and how they are seen */
	struct gx_fsdenial *fs_denied;
	size_t n_fs_denied;
	bool fs_denied_overflow;
	char fs_reporting[256];
	unsigned namespaces;        /* GX_NS_* (ns.h) the command ran in */
	char ns_missing[128];       /* why none, when they were asked for */
};

#endif
