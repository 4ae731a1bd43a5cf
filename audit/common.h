/* SPDX-License-Identifier: ISC */
#ifndef GX_AUDIT_COMMON_H
#define GX_AUDIT_COMMON_H

#include <getopt.h>
#include <stddef.h>

/*
 * What guardexec-audit's commands share: the usage text, the one way
 * they parse options, and the one way they make log text printable.
 *
 * The option convention: each command gets its own argv (argv[0] is the
 * command's name) and parses it with audit_getopt(); options come before
 * the first LOG; an unknown option, a missing argument or a bad number
 * is a usage error: a "guardexec-audit: ..." line and the usage on
 * standard error, exit status 2.
 */

extern const char audit_usage[];

/* getopt_long over @argv with @opts, from the start ("+": stop at LOG). */
int audit_getopt(int argc, char **argv, const struct option *opts);

/* After audit_getopt returned '?' or ':': a usage error (2). */
int audit_bad_option(char **argv);

/* "guardexec-audit: MSG" and the usage on stderr; returns 2. */
int audit_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Parse @s as a count (decimal digits only, 1 to @max).  Returns 0, or
 * a usage error (2) naming @opt.
 */
int audit_parse_count(const char *opt, const char *s, size_t max,
    size_t *out);

/*
 * A printable copy of log text @s for a terminal, at most @max
 * characters (more are cut): C0 controls and DEL become '?'; C1 controls
 * (U+0080-U+009F), the bidirectional marks, embeddings, overrides and
 * isolates (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and
 * bytes that are not UTF-8 become "\uXXXX" (or "\xNN") text.  Returns a
 * malloc'd string; *@width (may be NULL) gets its width in characters.
 */
char *audit_printable(const char *s, size_t max, size_t *width);

/* The commands: @argv[0] is the command's name.  Exit status 0, 1, 2. */
int verify_main(int argc, char **argv);
int show_main(int argc, char **argv);
int summary_main(int argc, char **argv);

#endif
