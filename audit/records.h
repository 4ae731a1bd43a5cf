/* SPDX-License-Identifier: ISC */
#ifndef GX_RECORDS_H
#define GX_RECORDS_H

#include <jansson.h>

/*
 * Reading audit logs for guardexec-audit's show, summary and report: each
 * line of each file parsed as a JSON object, in order.
 */

/* Called with each record (borrowed) and its line (no newline). */
typedef void (*records_fn)(json_t *rec, const char *line, void *arg);

/*
 * Call @fn for every record of the @n files in @logs; lines that are not
 * JSON objects are counted in *@bad and skipped.  Returns 0, or 2 after
 * a "guardexec-audit: FILE: ..." message when a file cannot be opened
 * or read.
 */
int records_each(int n, char **logs, records_fn fn, void *arg,
    unsigned long *bad);

/* The string @key of @obj, or "" (never NULL). */
const char *records_str(json_t *obj, const char *key);

#endif
