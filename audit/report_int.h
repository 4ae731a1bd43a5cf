/* SPDX-License-Identifier: ISC */
#ifndef GX_REPORT_INT_H
#define GX_REPORT_INT_H

/*
 * Inside guardexec-audit report: the statistics gathered from the logs
 * (report_stats.c), the HTML helpers (report_html.c), the charts and
 * summary tables (report_charts.c) and the run list, per-user, policy
 * and chain sections with their one inline script (report_runs.c).
 * report.c reads the logs and writes the page in that order.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tally.h"

#define NTOP 15         /* bars of "Top denied syscalls" */
#define NROWS 20        /* rows of the short tables */

/* The outcome of a run, as the charts stack and color it. */
enum outcome {
	OC_OK,          /* exited 0 */
	OC_FAIL,        /* exited non-zero */
	OC_SIGNALED,
	OC_TIMEOUT,
	OC_NOTRUN,      /* refused or exec_failed */
	OC_N
};

extern const char *const report_oc_label[OC_N];

/*
 * What report keeps beside a tally entry's name and count (its "more";
 * what n and runs count depends on the table).
 */
struct detail {
	char *extra;                    /* a rule's reason, a policy's sha256 */
	char *first, *last;             /* "start" of the first and last run */
	char *trust;                    /* a policy's "trusted", or NULL */
	bool writable;                  /* a policy_writable run was seen */
	unsigned long runs, advised;
	unsigned long oc[OC_N];         /* runs by outcome */
};

struct point {
	int64_t t;
	enum outcome oc;
};

/* One input file's hash chain, as read. */
enum chain_state {
	CH_EMPTY,       /* no record */
	CH_INTACT,      /* every line checks and chains to the one before */
	CH_BROKEN,      /* a line does not: see line and why */
};

struct chain {
	const char *name;               /* as shown: --name, else the path */
	enum chain_state state;
	unsigned long records, line, restarts;
	unsigned long cut;              /* copies cut for syslog */
	const char *why;                /* static */
	const char *start;              /* how the first record chains */
	char prev[65];                  /* hash of the last good line */
};

struct stats {
	unsigned long runs, fails, timeouts, denied_runs, denied_calls,
	    advisories, truncated, bad, undated;
	unsigned long oc[OC_N];
	/* policy: by "path\nsha256" (extra: its self-declared name) */
	struct tally policy, denied, advisory, limit, user;
	char first[32], last[32];       /* the earliest and latest "start" */
	struct point *pts;
	size_t npts, cap;
	json_t **all;                   /* every record, in log order */
	size_t nall, capall;
	struct chain *chains;
	size_t nchains;
};

/* report_stats.c */
void stats_add(struct stats *st, json_t *rec);
void stats_free(struct stats *st);
enum outcome report_outcome(json_t *rec);
bool report_parse_start(const char *s, int64_t *t);
/* "path\nsha256" of the record's policy; malloc'd. */
char *report_policy_key(json_t *rec);
/* The record's user name, or "uid N"; malloc'd. */
char *report_user(json_t *rec);
int report_cmp_key(const void *a, const void *b);
int report_cmp_timeouts(const void *a, const void *b);

/* report_html.c: every string from a log goes out through put_esc(). */
extern const char report_css[];
bool put_esc(FILE *out, const char *s, size_t max);
void put_short(FILE *out, const char *s, size_t max);
void put_num(FILE *out, unsigned long v);
void put_when(FILE *out, const char *start);
void put_span(FILE *out, int64_t s);
void put_policy_key(FILE *out, const char *key, bool full_hash);
void put_legend(FILE *out, const unsigned long *oc);
void put_stack(FILE *out, const unsigned long *oc, unsigned long total,
    const char *extra_class);
void put_meter(FILE *out, unsigned long n, unsigned long max);
void put_tile(FILE *out, const char *label, unsigned long v,
    const char *note, const char *cls);
char *report_command_text(json_t *rec, bool *cut);

/* report_charts.c */
void write_summary(FILE *out, const struct stats *st);
void chart_runs(FILE *out, const struct stats *st);
void table_policies(FILE *out, struct stats *st);
void chart_denied(FILE *out, struct stats *st);
void tables_advisories(FILE *out, struct stats *st);

/* report_runs.c */
void write_chains(FILE *out, const struct stats *st);
void table_users(FILE *out, struct stats *st);
void table_versions(FILE *out, struct stats *st);
void table_runs(FILE *out, const struct stats *st);
void write_script(FILE *out);
/* "'sha256-BASE64'" of the page's one script, for its CSP. */
void report_script_hash(char *out, size_t outsz);

#endif
