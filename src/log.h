/* SPDX-License-Identifier: ISC */
#ifndef GX_LOG_H
#define GX_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* guardexec's own exit statuses (see guardexec(1), EXIT STATUS). */
enum gx_exit {
	GX_EXIT_TIMEOUT = 124,   /* the wall-clock timeout fired */
	GX_EXIT_FAILURE = 125,   /* guardexec itself failed; nothing was run */
	GX_EXIT_NOEXEC = 126,    /* found but could not be executed */
	GX_EXIT_NOTFOUND = 127,  /* command not found */
};

/*
 * Diagnostics and allocators.  Every message starts with "guardexec: ".
 * Only main.c and the pre-exec child may end the process; library modules
 * fill a struct gx_diag instead.
 */

/* Print "guardexec: MSG" and exit 125.  Never returns. */
void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* Like die(), with ": strerror(errno)" appended. */
void die_errno(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/*
 * Have die() and die_errno() call @fn with the message (without the
 * "guardexec: " prefix) before they exit; NULL removes it.  The hook runs
 * at most once: a die() inside it exits at once.  main uses it so that,
 * once the command may run, no failure ends guardexec without a record.
 */
void log_set_die_hook(void (*fn)(const char *msg));

/* Print "guardexec: MSG" to stderr; never fails, never exits. */
void warnx_gx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocators that die (exit 125) on out-of-memory.  Never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Collected diagnostics of a library call.  Each message is one complete
 * line without the "guardexec: " prefix and without a newline, such as
 * "agent.cfg:12: limits.memory: expected a size like \"512M\", got \"lots\"".
 * The struct owns its strings.
 */
struct gx_diag {
	char **msgs;
	size_t n;
};

/* Append a formatted message to @d (dies on OOM). */
void diag_add(struct gx_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print each message with the "guardexec: " prefix to stderr. */
void diag_print(const struct gx_diag *d);
/* Free the messages; @d may be reused afterwards. */
void diag_free(struct gx_diag *d);

#endif
