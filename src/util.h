/* SPDX-License-Identifier: ISC */
#ifndef GX_UTIL_H
#define GX_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Pure helpers: no side effects on the process, no I/O. */

/* enum gx_exit, guardexec's own exit statuses, lives in log.h. */
#include "log.h"

/* NULL-terminated string vectors.  strv_free(NULL) is a no-op. */
size_t strv_len(char *const *v);
void strv_free(char **v);
/* Append a copy of @s; returns the (possibly moved) vector.  Dies on OOM. */
char **strv_append(char **v, const char *s);
bool strv_contains(char *const *v, const char *s);
/* Sort @v in place (strcmp order); NULL is fine. */
void strv_sort(char **v);

/*
 * Environment-name pattern: a trailing '*' matches any suffix (a prefix
 * match), anything else must match exactly.
 */
bool name_pattern_match(const char *pattern, const char *name);

/*
 * Resolve @path against directory @base unless it is absolute.  The
 * result is lexically normalised ("." and ".." and duplicate slashes
 * removed; symlinks are not followed).  Returns a new string.
 */
char *path_resolve(const char *base, const char *path);
/* Directory part of an absolute path (new string; "/" for "/x"). */
char *path_dirname(const char *path);

/* Lowercase hex of @n bytes into @out (2n+1 bytes). */
void hex_encode(const unsigned char *in, size_t n, char *out);

/* "2026-11-29T09:10:11.123456Z" (UTC) into @out (at least 32 bytes). */
void format_iso8601(const struct timespec *ts, char *out, size_t outsz);
/* Milliseconds between two timestamps, as a double. */
double timespec_diff_ms(const struct timespec *a, const struct timespec *b);

/* True when @s[0..n) is valid UTF-8 (no overlongs, no surrogates). */
bool utf8_valid(const char *s, size_t n);

/* Parse a signal name ("TERM", "SIGTERM") or number; -1 if unknown. */
int signal_from_name(const char *s);
/* "SIGTERM" for 15; a static string, "SIG?" when unknown. */
const char *signal_name(int sig);
/* Parse an errno name ("EPERM"); -1 if unknown. */
int errno_from_name(const char *s);
/* "EPERM" for EPERM; NULL when unknown. */
const char *errno_name(int e);

#endif
