/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "log.h"
#include "records.h"

#define CHUNK 65536

struct gx_lines {
	gzFile gz;
	char *buf;
	size_t cap, start, end;     /* unread bytes: buf[start, end) */
	bool eof;
	bool corrupt;               /* the compressed data is bad */
	const char *err;
};

struct gx_lines *
lines_open(const char *path)
{
	struct gx_lines *r;
	int fd, errsv;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	/* gzdopen reads a file that is not gzip as it is (transparent). */
	r->gz = gzdopen(fd, "rb");
	if (r->gz == NULL) {
		errsv = errno ? errno : ENOMEM;
		close(fd);
		free(r);
		errno = errsv;
		return NULL;
	}
	(void)gzbuffer(r->gz, CHUNK);
	r->cap = CHUNK;
	r->buf = xmalloc(r->cap);
	return r;
}

/* Read more into the buffer: 1 when bytes came, 0 at the end, -1. */
static int
fill(struct gx_lines *r)
{
	int n, zerr;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	/* One byte always stays free: lines_file ends a line with NUL. */
	if (r->end + 1 >= r->cap) {
		if (r->cap > (size_t)INT_MAX / 2) {
			r->err = "line too long";
			return -1;
		}
		r->cap *= 2;
		r->buf = xreallocarray(r->buf, r->cap, 1);
	}
	n = gzread(r->gz, r->buf + r->end, (unsigned)(r->cap - r->end - 1));
	/* A cut gzip file returns its data, then 0: the error is kept. */
	if (n < 0 || (n == 0 && (gzerror(r->gz, &zerr), zerr != Z_OK))) {
		const char *m = gzerror(r->gz, &zerr);

		r->err = zerr == Z_ERRNO ? strerror(errno) : m;
		r->corrupt = zerr != Z_ERRNO;
		return -1;
	}
	r->end += (size_t)n;
	return n > 0;
}

ssize_t
lines_next(struct gx_lines *r, char **line)
{
	size_t scanned = 0;

	for (;;) {
		char *nl = memchr(r->buf + r->start + scanned, '\n',
		    r->end - r->start - scanned);
		int rc;

		if (nl != NULL) {
			size_t len = (size_t)(nl - (r->buf + r->start)) + 1;

			*line = r->buf + r->start;
			r->start += len;
			return (ssize_t)len;
		}
		scanned = r->end - r->start;
		if (r->eof)
			break;
		rc = fill(r);
		if (rc < 0)
			return -1;
		if (rc == 0)
			r->eof = true;
	}
	/* The end of the file: what is left is a line without newline. */
	if (r->end == r->start)
		return 0;
	*line = r->buf + r->start;
	scanned = r->end - r->start;
	r->start = r->end;
	return (ssize_t)scanned;
}

const char *
lines_error(struct gx_lines *r)
{
	return r->err ? r->err : "read error";
}

bool
lines_corrupt(struct gx_lines *r)
{
	return r->corrupt;
}

void
lines_close(struct gx_lines *r)
{
	if (r == NULL)
		return;
	gzclose(r->gz);
	free(r->buf);
	free(r);
}

/* Each line of one file; 0, or 2 after a message. */
static int
lines_file(struct records_at *at, records_line_fn fn, void *arg)
{
	struct gx_lines *r = lines_open(at->path);
	ssize_t len;
	char *line;

	if (r == NULL) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", at->path,
		    strerror(errno));
		return 2;
	}
	at->lineno = 0;
	while ((len = lines_next(r, &line)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		/* fill() keeps a byte free past the data for this NUL. */
		line[len] = '\0';
		at->lineno++;
		fn(at, line, (size_t)len, arg);
	}
	if (len < 0)
		fprintf(stderr, "guardexec-audit: %s: %s\n", at->path,
		    lines_error(r));
	lines_close(r);
	return len < 0 ? 2 : 0;
}

int
records_each_line(int n, char **logs, records_line_fn fn, void *arg)
{
	struct records_at at = { 0, NULL, 0 };

	for (int i = 0; i < n; i++) {
		int rc;

		at.file = i;
		at.path = logs[i];
		rc = lines_file(&at, fn, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* records_each()'s callback and its argument, and the count of bad lines. */
struct each {
	records_fn fn;
	void *arg;
	unsigned long *bad;
};

static void
each_record(const struct records_at *at, char *line, size_t len, void *arg)
{
	struct each *e = arg;
	json_error_t jerr;
	json_t *rec = json_loadb(line, len, 0, &jerr);

	(void)at;
	if (rec == NULL || !json_is_object(rec)) {
		(*e->bad)++;
		json_decref(rec);
		return;
	}
	e->fn(rec, line, e->arg);
	json_decref(rec);
}

int
records_each(int n, char **logs, records_fn fn, void *arg,
    unsigned long *bad)
{
	struct each e = { fn, arg, bad };

	return records_each_line(n, logs, each_record, &e);
}

const char *
records_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}
