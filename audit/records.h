/* SPDX-License-Identifier: ISC */
#ifndef GX_RECORDS_H
#define GX_RECORDS_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * Reading audit logs for guardexec-audit: a line reader that reads plain
 * and gzip-compressed files alike (zlib), and each line of each file
 * parsed as a JSON object, in order, for show, summary and report.
 */

struct gx_lines;

/*
 * Open @path for reading lines; a gzip file (as logrotate's "compress"
 * leaves it) is decompressed on the fly, anything else is read as is.
 * Returns NULL with errno on failure.
 */
struct gx_lines *lines_open(const char *path);

/*
 * The next line: *@line points to its @return bytes, including the
 * final '\n' unless the file ends without one, and stays valid until
 * the next call.  Lines may hold NUL bytes.  Returns 0 at the end, or
 * -1 on a read or decompression error (lines_error() says which).
 */
ssize_t lines_next(struct gx_lines *r, char **line);

/* Why the last lines_next() failed (static or owned by @r). */
const char *lines_error(struct gx_lines *r);

/* Whether the last failure was bad compressed data, not an I/O error. */
bool lines_corrupt(struct gx_lines *r);

void lines_close(struct gx_lines *r);

/* Where a line stands: its file (index in the list, and path), its number. */
struct records_at {
	int file;
	const char *path;
	unsigned long lineno;           /* from 1 */
};

/*
 * Called with each line: NUL-terminated where its newline was (it may
 * hold NUL bytes before @len), valid until the callback returns.
 */
typedef void (*records_line_fn)(const struct records_at *at, char *line,
    size_t len, void *arg);

/*
 * Call @fn for every line of the @n files in @logs, in order, plain or
 * gzip-compressed alike.  Returns 0, or 2 after a
 * "guardexec-audit: FILE: ..." message when a file cannot be opened or
 * read (the files after it are not read).
 */
int records_each_line(int n, char **logs, records_line_fn fn, void *arg);

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
