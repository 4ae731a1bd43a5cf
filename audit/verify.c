/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit verify: the hash chain across one or more files,
 * checked with the code that writes it (src/chain.c).  Given one LOG,
 * its rotated siblings (LOG.1, LOG.2.gz, ... as logrotate names them)
 * are found and checked first, oldest first.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "common.h"
#include "log.h"
#include "records.h"
#include "util.h"

struct chain {
	char expect[65];            /* the hash the next "prev" must hold */
	unsigned long long records;
	bool partial, strict;
	bool first;                 /* no line checked yet */
	const char *prev_file;      /* the file the last line came from */
};

/* A rotated sibling: its number and its path. */
struct sibling {
	unsigned long n;
	char *path;
};

static int
cmp_sibling(const void *a, const void *b)
{
	const struct sibling *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;    /* oldest first */
}

/* The N of a name "BASE.N" or "BASE.N.gz", or 0. */
static unsigned long
rotation_number(const char *name, const char *base)
{
	size_t bl = strlen(base);
	unsigned long n = 0;
	const char *p;

	if (strncmp(name, base, bl) != 0 || name[bl] != '.')
		return 0;
	p = name + bl + 1;
	if (*p < '1' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > 100000000)
			return 0;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	return *p == '\0' || strcmp(p, ".gz") == 0 ? n : 0;
}

/*
 * The rotated siblings of @log, oldest (highest number) first, in *@out;
 * returns how many, or -1 after a message (a number present both plain
 * and compressed).
 */
static long
find_siblings(const char *log, struct sibling **out)
{
	char *dir = path_dirname(log);
	const char *base = strrchr(log, '/') ? strrchr(log, '/') + 1 : log;
	struct sibling *s = NULL;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	*out = NULL;
	d = opendir(dir);
	if (d == NULL) {
		/* An unlistable directory: the LOG alone can still be checked. */
		fprintf(stderr, "guardexec-audit: warning: %s: %s: rotated "
		    "files not looked for\n", dir, strerror(errno));
		free(dir);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		unsigned long k = rotation_number(de->d_name, base);

		if (k == 0)
			continue;
		s = xreallocarray(s, n + 1, sizeof(*s));
		s[n].n = k;
		s[n++].path = strcmp(dir, ".") == 0 && strchr(log, '/') ==
		    NULL ? xstrdup(de->d_name) :
		    xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	free(dir);
	if (n > 1)
		qsort(s, n, sizeof(*s), cmp_sibling);
	for (size_t i = 1; i < n; i++) {
		if (s[i].n == s[i - 1].n) {
			printf("%s and %s: the same rotation twice (plain and "
			    "compressed)\n", s[i - 1].path, s[i].path);
			for (size_t j = 0; j < n; j++)
				free(s[j].path);
			free(s);
			return -1;
		}
	}
	*out = s;
	return (long)n;
}

/* Check one line; 0, or 1 after naming it. */
static int
check_line(struct chain *c, const char *file, unsigned long lineno,
    const char *line, size_t n)
{
	char prev[65], hash[65];
	const char *why = NULL;

	if (line[n - 1] != '\n') {
		printf("%s:%lu: torn line (no newline at the end)\n", file,
		    lineno);
		return 1;
	}
	if ((c->strict ? audit_check_line : audit_check_line_fast)(line,
	    n - 1, prev, hash, &why) < 0) {
		printf("%s:%lu: %s\n", file, lineno, why);
		return 1;
	}
	if (c->first && c->partial) {
		if (strcmp(prev, GX_ZERO_HASH) != 0)
			printf("%s:%lu: note: the chain starts after a record "
			    "that is not here (older logs were rotated away)\n",
			    file, lineno);
	} else if (strcmp(prev, c->expect) != 0) {
		if (c->first)
			printf("%s:%lu: the chain starts after a record that is "
			    "not here (lines were deleted from the start, or "
			    "older rotated logs removed: --partial accepts "
			    "that)\n", file, lineno);
		else if (lineno == 1 && c->prev_file != NULL &&
		    strcmp(prev, GX_ZERO_HASH) == 0)
			printf("%s:%lu: starts a new chain (\"prev\" is 64 zeros) "
			    "instead of continuing %s (was that file compressed "
			    "before guardexec wrote here? keep logrotate's "
			    "delaycompress)\n", file, lineno, c->prev_file);
		else if (lineno == 1 && c->prev_file != NULL)
			printf("%s:%lu: \"prev\" does not match the last line of "
			    "%s (a rotated file is missing, or lines were "
			    "deleted at its end or this one's start)\n", file,
			    lineno, c->prev_file);
		else
			printf("%s:%lu: \"prev\" does not match the hash of the "
			    "line before (a line was deleted, reordered or "
			    "inserted)\n", file, lineno);
		return 1;
	}
	c->first = false;
	memcpy(c->expect, hash, sizeof(c->expect));
	c->records++;
	return 0;
}

/* Check every line of @file: 0 intact so far, 1 broken, 2 I/O error. */
static int
verify_file(struct chain *c, const char *file)
{
	struct gx_lines *r = lines_open(file);
	unsigned long lineno = 0;
	ssize_t n;
	char *line;
	int rc = 0;

	if (r == NULL) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", file,
		    strerror(errno));
		return 2;
	}
	while (rc == 0 && (n = lines_next(r, &line)) > 0)
		rc = check_line(c, file, ++lineno, line, (size_t)n);
	if (rc == 0 && n < 0 && lines_corrupt(r)) {
		/* A damaged compressed file hides records: the chain breaks. */
		printf("%s:%lu: not a valid compressed file (%s)\n", file,
		    lineno + 1, lines_error(r));
		rc = 1;
	} else if (rc == 0 && n < 0) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", file,
		    lines_error(r));
		rc = 2;
	}
	lines_close(r);
	if (rc == 0 && lineno > 0)
		c->prev_file = file;
	return rc;
}

/*
 * The head anchor of the newest file: a log cut short shows here.
 * Returns 0 (checked, or no anchor: *@unchecked), or 1 after a message.
 */
static int
check_head(const struct chain *c, const char *last, bool *unchecked)
{
	char head[65];

	*unchecked = false;
	/*
	 * Also with no record checked: a log emptied to zero bytes does not
	 * match the anchor that names its last line.
	 */
	if (audit_head_read(last, head) == 0) {
		if (strcmp(head, c->expect) != 0) {
			printf("%s: the last line is not the one the head anchor "
			    "%s.head names (lines were deleted from the end, or "
			    "appended by hand)\n", last, last);
			return 1;
		}
		return 0;
	}
	/* No anchor, or one opened by a run that has not appended yet. */
	if (errno == ENOENT || (errno == ENODATA && c->records == 0)) {
		*unchecked = true;
		return 0;
	}
	printf("%s.head: unreadable head anchor\n", last);
	return 1;
}

/*
 * The files to check: the LOGs given, or one LOG and its siblings.  A
 * LOG that is missing while rotated siblings exist (rotated, and no run
 * since) is left out: the siblings are checked against its anchor.
 */
static int
gather(int n, char **logs, bool rotated, char ***files, size_t *nfiles,
    bool *found_older)
{
	struct sibling *s = NULL;
	long k = 0;

	*found_older = false;
	if (n == 1 && rotated) {
		k = find_siblings(logs[0], &s);
		if (k < 0)
			return 1;
		if (k > 0 && access(logs[0], F_OK) < 0 && errno == ENOENT)
			n = 0;
	}
	*files = xcalloc((size_t)k + (size_t)n, sizeof(**files));
	for (long i = 0; i < k; i++)
		(*files)[i] = s[i].path;
	for (int i = 0; i < n; i++)
		(*files)[k + i] = xstrdup(logs[i]);
	*nfiles = (size_t)k + (size_t)n;
	*found_older = k > 0;
	free(s);
	return 0;
}

/* Check @files in order as one chain, then @log's head anchor. */
static int
verify_all(struct chain *c, char **files, size_t nfiles, const char *log,
    bool siblings)
{
	bool unchecked;
	int rc = 0;

	if (siblings) {
		printf("%s: checking the rotated files first:", log);
		for (size_t i = 0; i < nfiles && strcmp(files[i], log) != 0; i++)
			printf(" %s", files[i]);
		printf("\n");
	}
	for (size_t i = 0; rc == 0 && i < nfiles; i++)
		rc = verify_file(c, files[i]);
	if (rc == 0)
		rc = check_head(c, log, &unchecked);
	if (rc != 0)
		return rc;
	printf("%llu record%s, chain intact\n", c->records,
	    c->records == 1 ? "" : "s");
	if (unchecked)
		printf("warning: no head anchor %s.head: the end of the log is "
		    "unchecked (lines deleted from its end would not show)\n",
		    log);
	return 0;
}

int
verify_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "partial", no_argument, NULL, 'p' },
		{ "strict", no_argument, NULL, 's' },
		{ "no-rotated", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct chain c = { .expect = GX_ZERO_HASH, .first = true };
	bool rotated = true, siblings;
	char **files = NULL;
	size_t nfiles = 0;
	int opt, rc;

	while ((opt = audit_getopt(argc, argv, opts)) != -1) {
		switch (opt) {
		case 'p': c.partial = true; break;
		case 's': c.strict = true; break;
		case 'n': rotated = false; break;
		default: return audit_bad_option(argv);
		}
	}
	if (optind >= argc)
		return audit_usage_error("verify: no LOG given");
	rc = gather(argc - optind, argv + optind, rotated, &files, &nfiles,
	    &siblings);
	if (rc != 0)
		return rc;
	rc = verify_all(&c, files, nfiles, argv[argc - 1], siblings);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return rc;
}
