/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: the statistics of the records read.  Policies
 * are counted by their path and sha256, never by the name a policy file
 * gives itself: a rewritten policy keeps its name but not its hash.
 */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "records.h"
#include "report_int.h"

const char *const report_oc_label[OC_N] = {
	"exited 0", "exited non-zero", "signaled", "timeout",
	"refused / exec failed",
};

/* @name's entry of @t, with its details. */
static struct tally_entry *
entry_get(struct tally *t, const char *name)
{
	struct tally_entry *e = tally_get(t, name);

	if (e->more == NULL)
		e->more = xcalloc(1, sizeof(struct detail));
	return e;
}

static void
detail_free(void *more)
{
	struct detail *m = more;

	if (m == NULL)
		return;
	free(m->extra);
	free(m->first);
	free(m->last);
	free(m->trust);
	free(m);
}

/* By name (a policy's path first), then by the first run. */
int
report_cmp_key(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;
	const struct detail *mx = x->more, *my = y->more;
	size_t lx = strcspn(x->name, "\n"), ly = strcspn(y->name, "\n");
	int c = strncmp(x->name, y->name, lx < ly ? lx : ly);

	if (c != 0)
		return c;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	c = strcmp(mx->first ? mx->first : "", my->first ? my->first : "");
	return c != 0 ? c : strcmp(x->name, y->name);
}

int
report_cmp_timeouts(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;
	const struct detail *mx = x->more, *my = y->more;

	if (mx->oc[OC_TIMEOUT] != my->oc[OC_TIMEOUT])
		return mx->oc[OC_TIMEOUT] < my->oc[OC_TIMEOUT] ? 1 : -1;
	return tally_cmp_n(a, b);
}

/* Seconds since the epoch of a record's "start" (UTC). */
bool
report_parse_start(const char *s, int64_t *t)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (end == NULL || (*end != '.' && *end != 'Z'))
		return false;
	*t = (int64_t)timegm(&tm);
	return true;
}

enum outcome
report_outcome(json_t *rec)
{
	const char *status = records_str(rec, "status");

	if (json_is_true(json_object_get(rec, "timed_out")) ||
	    strcmp(status, "timeout") == 0)
		return OC_TIMEOUT;
	if (strcmp(status, "exited") == 0)
		return json_integer_value(json_object_get(rec,
		    "exit_code")) == 0 ? OC_OK : OC_FAIL;
	if (strcmp(status, "signaled") == 0)
		return OC_SIGNALED;
	return OC_NOTRUN;
}

char *
report_policy_key(json_t *rec)
{
	json_t *pol = json_object_get(rec, "policy");

	return xasprintf("%s\n%s", records_str(pol, "path"),
	    records_str(pol, "sha256"));
}

char *
report_user(json_t *rec)
{
	json_t *user = json_object_get(rec, "user");

	if (json_is_string(user))
		return xstrdup(json_string_value(user));
	return xasprintf("uid %lld",
	    (long long)json_integer_value(json_object_get(rec, "uid")));
}

/* The first and last "start" an entry has seen. */
static void
seen(struct detail *e, const char *start)
{
	if (e->first == NULL || strcmp(start, e->first) < 0) {
		free(e->first);
		e->first = xstrdup(start);
	}
	if (e->last == NULL || strcmp(start, e->last) > 0) {
		free(e->last);
		e->last = xstrdup(start);
	}
}

/* One run into an entry of the policy or the user table. */
static void
count_run(struct tally_entry *t, json_t *rec, enum outcome oc, bool denied)
{
	struct detail *e = t->more;

	t->n++;
	e->oc[oc]++;
	if (denied)
		e->runs++;
	e->advised += json_array_size(json_object_get(rec, "advisory"));
	seen(e, records_str(rec, "start"));
}

static void
add_policy(struct stats *st, json_t *rec, enum outcome oc, bool denied)
{
	json_t *pol = json_object_get(rec, "policy");
	char *key = report_policy_key(rec);
	struct tally_entry *t = entry_get(&st->policy, key);
	struct detail *e = t->more;
	const char *name = records_str(pol, "name"), *trust;

	free(key);
	count_run(t, rec, oc, denied);
	if (e->extra == NULL)
		e->extra = xstrdup(name);
	else if (strcmp(e->extra, name) != 0 && strstr(e->extra, "\n") ==
	    NULL) {
		/* The same bytes cannot name themselves twice: say so. */
		char *both = xasprintf("%s\n%s", e->extra, name);

		free(e->extra);
		e->extra = both;
	}
	trust = json_string_value(json_object_get(pol, "trusted"));
	if (trust != NULL && e->trust == NULL)
		e->trust = xstrdup(trust);
	if (json_is_true(json_object_get(rec, "policy_writable")))
		e->writable = true;
}

static void
add_denials(struct stats *st, json_t *denied)
{
	json_t *d;
	size_t i;

	json_array_foreach(denied, i, d) {
		struct tally_entry *e = entry_get(&st->denied,
		    records_str(d, "syscall"));
		json_int_t c = json_integer_value(json_object_get(d, "count"));

		e->n += c > 0 ? (unsigned long)c : 1;
		((struct detail *)e->more)->runs++;
		st->denied_calls += c > 0 ? (unsigned long)c : 1;
	}
}

/* Advisories by their reason (the rule is the detail). */
static void
add_advisories(struct stats *st, json_t *adv)
{
	json_t *d;
	size_t i;

	json_array_foreach(adv, i, d) {
		struct tally_entry *e = entry_get(&st->advisory,
		    records_str(d, "reason"));
		struct detail *m = e->more;

		e->n++;
		if (m->extra == NULL)
			m->extra = xstrdup(records_str(d, "rule"));
		st->advisories++;
	}
}

static void
add_point(struct stats *st, json_t *rec, enum outcome oc)
{
	const char *start = records_str(rec, "start");
	int64_t t;

	if (!report_parse_start(start, &t)) {
		st->undated++;
		return;
	}
	if (st->npts == 0 || strcmp(start, st->first) < 0)
		strlcpy(st->first, start, sizeof(st->first));
	if (st->npts == 0 || strcmp(start, st->last) > 0)
		strlcpy(st->last, start, sizeof(st->last));
	if (st->npts == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 256;
		st->pts = xreallocarray(st->pts, st->cap, sizeof(*st->pts));
	}
	st->pts[st->npts].t = t;
	st->pts[st->npts++].oc = oc;
}

void
stats_add(struct stats *st, json_t *rec)
{
	json_t *denied = json_object_get(json_object_get(rec, "seccomp"),
	    "denied");
	enum outcome oc = report_outcome(rec);
	bool has_denied = json_array_size(denied) > 0;
	char *user = report_user(rec);

	if (st->nall == st->capall) {
		st->capall = st->capall ? st->capall * 2 : 256;
		st->all = xreallocarray(st->all, st->capall,
		    sizeof(*st->all));
	}
	st->all[st->nall++] = json_incref(rec);
	st->runs++;
	st->oc[oc]++;
	if (oc != OC_OK)
		st->fails++;
	if (oc == OC_TIMEOUT)
		st->timeouts++;
	if (has_denied)
		st->denied_runs++;
	add_policy(st, rec, oc, has_denied);
	count_run(entry_get(&st->user, user), rec, oc, has_denied);
	free(user);
	add_denials(st, denied);
	add_advisories(st, json_object_get(rec, "advisory"));
	if (json_is_true(json_object_get(rec, "truncated")))
		st->truncated++;
	if (json_is_string(json_object_get(rec, "limit_hit")))
		tally_add(&st->limit, records_str(rec, "limit_hit"), 1);
	add_point(st, rec, oc);
}

void
stats_free(struct stats *st)
{
	tally_free(&st->policy, detail_free);
	tally_free(&st->denied, detail_free);
	tally_free(&st->advisory, detail_free);
	tally_free(&st->limit, detail_free);
	tally_free(&st->user, detail_free);
	for (size_t i = 0; i < st->nall; i++)
		json_decref(st->all[i]);
	free(st->all);
	free(st->pts);
	free(st->chains);
}
