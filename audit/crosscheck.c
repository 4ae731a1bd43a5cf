/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit crosscheck: the local log against the central syslog
 * copy, the chain's external anchor.  A record deleted from the local
 * log (or rewritten with recomputed hashes) is still at the collector;
 * a record the collector never got is still local.  Records are matched
 * by "id"; a full copy must be the same bytes as the local line, a copy
 * cut to fit syslog must carry the same "hash" and agree on what it kept.
 */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "crosscheck.h"
#include "log.h"
#include "records.h"

static const char cc_usage[] =
    "usage: guardexec-audit crosscheck LOCAL... CENTRAL\n";

/* One record as read from either side. */
struct copy {
	const char *id;         /* borrowed from rec */
	char *line;
	size_t len;
	json_t *rec;
	const char *file;
	unsigned long lineno;
	bool seen;
};

struct side {
	struct copy *c;
	size_t n, cap;
	unsigned long skipped;  /* lines that are not records */
};

struct cc_counts {
	unsigned long same, cut_ok, dup, missing_central, missing_local,
	    differ, bad_hash;
};

/* A central line may keep syslog's "@cee:" cookie before the JSON. */
static const char *
strip_cookie(const char *line, size_t *len)
{
	if (*len >= 5 && strncmp(line, "@cee:", 5) == 0) {
		line += 5;
		*len -= 5;
		while (*len > 0 && *line == ' ') {
			line++;
			(*len)--;
		}
	}
	return line;
}

static void
side_add(struct side *s, const char *file, unsigned long lineno,
    const char *line, size_t len)
{
	json_error_t jerr;
	json_t *rec = json_loadb(line, len, 0, &jerr);
	struct copy *c;

	if (rec == NULL || !json_is_object(rec) ||
	    !json_is_string(json_object_get(rec, "id"))) {
		json_decref(rec);
		s->skipped++;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->c = xreallocarray(s->c, s->cap, sizeof(*s->c));
	}
	c = &s->c[s->n++];
	c->rec = rec;
	c->id = json_string_value(json_object_get(rec, "id"));
	c->line = xmalloc(len + 1);
	memcpy(c->line, line, len);
	c->line[len] = '\0';
	c->len = len;
	c->file = file;
	c->lineno = lineno;
	c->seen = false;
}

/* records_each_line's callback for the local log. */
static void
local_line(const struct records_at *at, char *line, size_t len, void *arg)
{
	side_add(arg, at->path, at->lineno, line, len);
}

/* ... and for the central copy, which may keep syslog's cookie. */
static void
central_line(const struct records_at *at, char *line, size_t len, void *arg)
{
	const char *p = strip_cookie(line, &len);

	side_add(arg, at->path, at->lineno, p, len);
}

static void
side_free(struct side *s)
{
	for (size_t i = 0; i < s->n; i++) {
		json_decref(s->c[i].rec);
		free(s->c[i].line);
	}
	free(s->c);
}

static int
cmp_id(const void *a, const void *b)
{
	const struct copy *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/* The first copy with @id in the sorted @s, or NULL. */
static struct copy *
find_first(struct side *s, const char *id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->c[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && strcmp(s->c[lo].id, id) == 0 ? &s->c[lo] : NULL;
}

static bool
is_cut(json_t *rec)
{
	return json_is_true(json_object_get(rec, "syslog_truncated")) ||
	    json_is_true(json_object_get(rec, "compacted"));
}

/* Keys a copy cut for syslog may shorten, drop or add. */
static bool
cut_key(const char *key)
{
	static const char *const keys[] = { "argv", "argv_hex", "cwd_hex",
		"env", "advisory", "compacted", "syslog_truncated", NULL };

	for (size_t i = 0; keys[i] != NULL; i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

/*
 * Why a central copy does not stand for the local line, or NULL when it
 * does.  A cut copy must hold the same "hash" (which pins every byte of
 * the local line) and agree on each field it kept.
 */
static const char *
mismatch(const struct copy *l, const struct copy *c, char *buf,
    size_t bufsz)
{
	const char *key;
	json_t *v;

	if (l->len == c->len && memcmp(l->line, c->line, l->len) == 0)
		return NULL;
	if (!is_cut(c->rec)) {
		json_object_foreach(l->rec, key, v)
			if (!json_equal(v, json_object_get(c->rec, key))) {
				snprintf(buf, bufsz, "\"%s\" differs", key);
				return buf;
			}
		return "the bytes differ";
	}
	if (!json_equal(json_object_get(l->rec, "hash"),
	    json_object_get(c->rec, "hash")))
		return "\"hash\" differs";
	json_object_foreach(c->rec, key, v)
		if (!cut_key(key) && !json_equal(v, json_object_get(l->rec,
		    key))) {
			snprintf(buf, bufsz, "\"%s\" differs", key);
			return buf;
		}
	return NULL;
}

/* Every copy of local record @l at the collector. */
static void
check_local(struct copy *l, struct side *central, struct cc_counts *n)
{
	struct copy *c = find_first(central, l->id);
	bool any = false;
	char buf[160];

	for (; c != NULL && c < central->c + central->n &&
	    strcmp(c->id, l->id) == 0; c++) {
		const char *why = mismatch(l, c, buf, sizeof(buf));

		c->seen = true;
		if (why != NULL) {
			printf("%s:%lu: record %s: the copy at %s:%lu "
			    "differs: %s\n", l->file, l->lineno, l->id,
			    c->file, c->lineno, why);
			n->differ++;
		} else if (any) {
			n->dup++;
		} else if (is_cut(c->rec)) {
			n->cut_ok++;
		} else {
			n->same++;
		}
		any = true;
	}
	if (!any) {
		printf("%s:%lu: record %s: missing from the central copy\n",
		    l->file, l->lineno, l->id);
		n->missing_central++;
	}
}

/* The distinct "host" values of @local (a new array of them). */
static json_t *
local_hosts(const struct side *local)
{
	json_t *hosts = json_array();
	json_t *h;
	size_t k;

	if (hosts == NULL)
		die("out of memory (json)");
	for (size_t i = 0; i < local->n; i++) {
		json_t *host = json_object_get(local->c[i].rec, "host");
		bool known = false;

		json_array_foreach(hosts, k, h)
			if (json_equal(h, host)) {
				known = true;
				break;
			}
		if (!known && host != NULL)
			json_array_append(hosts, host);
	}
	return hosts;
}

static bool
has_host(json_t *hosts, json_t *rec)
{
	json_t *host = json_object_get(rec, "host"), *h;
	size_t k;

	json_array_foreach(hosts, k, h)
		if (json_equal(h, host))
			return true;
	return false;
}

/* Central records of the local hosts that no local line has, and full
 * central copies whose own hash does not check. */
static void
check_central(struct side *local, struct side *central,
    struct cc_counts *n)
{
	json_t *hosts = local_hosts(local);
	char prev[65], hash[65];
	const char *why;

	for (size_t i = 0; i < central->n; i++) {
		struct copy *c = &central->c[i];

		if (!c->seen && has_host(hosts, c->rec)) {
			printf("%s:%lu: record %s: missing from the local "
			    "log\n", c->file, c->lineno, c->id);
			n->missing_local++;
		}
		if (!is_cut(c->rec) && audit_check_line(c->line, c->len,
		    prev, hash, &why) < 0) {
			printf("%s:%lu: record %s: the central copy does not "
			    "check: %s\n", c->file, c->lineno, c->id, why);
			n->bad_hash++;
		}
	}
	json_decref(hosts);
}

static void
print_counts(const struct side *local, const struct side *central,
    const struct cc_counts *n)
{
	printf("%zu local records, %zu central copies: %lu identical, %lu "
	    "cut for syslog and consistent, %lu missing centrally, %lu "
	    "missing locally, %lu different",
	    local->n, central->n, n->same, n->cut_ok, n->missing_central,
	    n->missing_local, n->differ);
	if (n->bad_hash > 0)
		printf(", %lu central copies whose hash does not check",
		    n->bad_hash);
	if (n->dup > 0)
		printf(" (%lu duplicate copies)", n->dup);
	if (local->skipped + central->skipped > 0)
		printf(" (%lu lines were not records)",
		    local->skipped + central->skipped);
	printf("\n");
}

int
crosscheck_main(int argc, char **argv)
{
	struct side local = { 0 }, central = { 0 };
	struct cc_counts n = { 0 };
	int rc = 0;

	if (argc == 1 && strcmp(argv[0], "--help") == 0) {
		fputs(cc_usage, stdout);
		return 0;
	}
	if (argc < 2 || argv[0][0] == '-') {
		fprintf(stderr, "guardexec-audit: crosscheck: %s\n%s",
		    argc < 2 ? "needs LOCAL and CENTRAL" : "unknown option",
		    cc_usage);
		return 2;
	}
	rc = records_each_line(argc - 1, argv, local_line, &local);
	if (rc == 0)
		rc = records_each_line(1, &argv[argc - 1], central_line,
		    &central);
	if (rc == 0) {
		qsort(central.c, central.n, sizeof(*central.c), cmp_id);
		for (size_t i = 0; i < local.n; i++)
			check_local(&local.c[i], &central, &n);
		check_central(&local, &central, &n);
		print_counts(&local, &central, &n);
		rc = n.missing_central + n.missing_local + n.differ +
		    n.bad_hash > 0 ? 1 : 0;
	}
	side_free(&local);
	side_free(&central);
	return rc;
}
