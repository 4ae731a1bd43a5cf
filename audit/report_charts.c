/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: the header tiles, the charts (inline SVG) and
 * the summary tables: outcomes by policy (path and sha256), denied
 * syscalls, advisories by reason, timeouts and limits.
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
#include "report_int.h"

/* The header: the logs, the time span, the tiles, the outcome bar. */
void
write_summary(FILE *out, const struct stats *st)
{
	int64_t t0, t1;

	fputs("<header id=\"summary\">\n<h1>guardexec audit report</h1>\n"
	    "<div class=\"meta\">", out);
	fputs(st->nchains > 1 ? "Logs " : "Log ", out);
	for (size_t i = 0; i < st->nchains; i++) {
		fputs(i > 0 ? ", <code>" : "<code>", out);
		put_short(out, st->chains[i].name, 200);
		fputs("</code>", out);
	}
	if (st->npts > 0 && report_parse_start(st->first, &t0) &&
	    report_parse_start(st->last, &t1)) {
		fputs(" &middot; ", out);
		put_when(out, st->first);
		fputs(" &ndash; ", out);
		put_when(out, st->last);
		fputs(" UTC (", out);
		put_span(out, t1 - t0);
		fputs(")", out);
	}
	fputs("</div>\n", out);
	if (st->bad > 0) {
		fputs("<div class=\"warn\"><b>", out);
		put_num(out, st->bad);
		fputs(st->bad == 1 ? " line was not a record: run verify.</b>" :
		    " lines were not records: run verify.</b>", out);
		fputs(" They are left out of this page; <code>guardexec-audit "
		    "verify</code> names them.</div>\n", out);
	}
	fputs("<div class=\"tiles\">\n", out);
	put_tile(out, "Runs", st->runs, "records read", NULL);
	put_tile(out, "Failures", st->fails, "did not exit 0", "warm");
	put_tile(out, "Timeouts", st->timeouts, "killed at the time limit",
	    "hot");
	fprintf(out, "<div class=\"tile%s\"><span>Denials</span><b>",
	    st->denied_runs ? " hot" : "");
	put_num(out, st->denied_runs);
	fputs("</b><small>runs; ", out);
	put_num(out, st->denied_calls);
	fputs(st->denied_calls == 1 ? " syscall denied" :
	    " syscalls denied", out);
	fputs("</small></div>\n", out);
	put_tile(out, "Advisories", st->advisories, "advisory rule matches",
	    "warm");
	put_tile(out, "Truncations", st->truncated, "runs with output cut",
	    NULL);
	fputs("</div>\n", out);
	if (st->runs > 0) {
		put_legend(out, st->oc);
		put_stack(out, st->oc, st->runs, "bigbar");
	}
	fputs("</header>\n", out);
}

/* The smallest step from 1, 2, 5, 10, 20, ... with @max <= step*ticks. */
static unsigned long
nice_step(unsigned long max, unsigned long ticks)
{
	static const unsigned long m[] = { 1, 2, 5 };

	for (unsigned long mag = 1;; mag *= 10)
		for (size_t i = 0; i < 3; i++)
			if (m[i] * mag * ticks >= max)
				return m[i] * mag;
}

enum unit { U_MINUTE, U_HOUR, U_DAY };

static void
put_bucket_name(FILE *out, enum unit u, int64_t t, int64_t size)
{
	time_t a = (time_t)t, b = (time_t)(t + size);
	struct tm ta, tb;
	char s1[32], s2[32];

	gmtime_r(&a, &ta);
	gmtime_r(&b, &tb);
	switch (u) {
	case U_MINUTE:
		strftime(s1, sizeof(s1), "%b %d %H:%M", &ta);
		strftime(s2, sizeof(s2), "%H:%M", &tb);
		break;
	case U_HOUR:
		strftime(s1, sizeof(s1), "%b %d %H:00", &ta);
		strftime(s2, sizeof(s2), "%H:00", &tb);
		break;
	case U_DAY:
		strftime(s1, sizeof(s1), "%Y-%m-%d", &ta);
		if (size == 86400) {
			fputs(s1, out);
			return;
		}
		tb.tm_mday--;
		b = timegm(&tb);
		gmtime_r(&b, &tb);
		strftime(s2, sizeof(s2), "%Y-%m-%d", &tb);
		break;
	}
	fprintf(out, "%s&ndash;%s", s1, s2);
}

/* The geometry of "Runs over time". */
struct timeline {
	enum unit u;
	const char *per;
	int64_t size, b0;
	size_t nb, stride;
	unsigned long (*cnt)[OC_N], max, step, top;
	double slot, bw;
};

#define TL_W 1100
#define TL_H 270
#define TL_L 46
#define TL_R 8
#define TL_TOP 10
#define TL_BOT 44
#define TL_PW ((double)(TL_W - TL_L - TL_R))
#define TL_PH ((double)(TL_H - TL_TOP - TL_BOT))

/* Buckets of a minute, an hour or (several) days; counts per bucket. */
static void
timeline_scale(const struct stats *st, struct timeline *tl)
{
	int64_t lo = st->pts[0].t, hi = st->pts[0].t;

	for (size_t i = 1; i < st->npts; i++) {
		if (st->pts[i].t < lo)
			lo = st->pts[i].t;
		if (st->pts[i].t > hi)
			hi = st->pts[i].t;
	}
	if (hi - lo < 2 * 3600) {
		tl->u = U_MINUTE;
		tl->size = 60;
		tl->per = "minute";
	} else if (hi - lo < 4 * 86400) {
		tl->u = U_HOUR;
		tl->size = 3600;
		tl->per = "hour";
	} else {
		tl->u = U_DAY;
		tl->size = 86400;
		tl->per = "day";
		/* Years of logs: several days a bar, at most 400 bars. */
		while ((hi - lo) / tl->size >= 400)
			tl->size += 86400;
	}
	tl->b0 = lo - ((lo % tl->size) + tl->size) % tl->size;
	tl->nb = (size_t)((hi - tl->b0) / tl->size) + 1;
	tl->cnt = xcalloc(tl->nb, sizeof(*tl->cnt));
	for (size_t i = 0; i < st->npts; i++)
		tl->cnt[(st->pts[i].t - tl->b0) / tl->size][st->pts[i].oc]++;
	tl->max = 1;
	for (size_t i = 0; i < tl->nb; i++) {
		unsigned long sum = 0;

		for (int k = 0; k < OC_N; k++)
			sum += tl->cnt[i][k];
		if (sum > tl->max)
			tl->max = sum;
	}
}

/* Bar widths, the y axis step and how many buckets a label spans. */
static void
timeline_layout(struct timeline *tl)
{
	static const unsigned long strides[] = { 1, 2, 3, 5, 6, 10, 12, 15,
	    24, 30, 60, 120, 180, 360, 720, 1440, 2880 };

	tl->step = nice_step(tl->max, 4);
	tl->top = (tl->max + tl->step - 1) / tl->step * tl->step;
	tl->slot = TL_PW / (double)tl->nb;
	tl->bw = tl->slot * 0.78 > 34 ? 34 : tl->slot * 0.78;
	if (tl->slot < 3)
		tl->bw = tl->slot;
	/* Label every stride-th bucket, at least 70 px apart. */
	for (size_t i = 0; i < sizeof(strides) / sizeof(*strides); i++) {
		tl->stride = strides[i];
		if (tl->slot * (double)tl->stride >= 70)
			break;
	}
	if (tl->slot * (double)tl->stride < 70)
		tl->stride = (size_t)(70 / tl->slot) + 1;
}

/* One bucket's stacked bar, with its tooltip. */
static void
timeline_bar(FILE *out, const struct timeline *tl, size_t i)
{
	int64_t bt = tl->b0 + (int64_t)i * tl->size;
	double x = TL_L + tl->slot * (double)i + (tl->slot - tl->bw) / 2;
	double y = TL_TOP + TL_PH;
	unsigned long sum = 0;

	for (int k = 0; k < OC_N; k++)
		sum += tl->cnt[i][k];
	if (sum == 0)
		return;
	fputs("<g><title>", out);
	put_bucket_name(out, tl->u, bt, tl->size);
	fprintf(out, " UTC: %lu run%s", sum, sum == 1 ? "" : "s");
	for (int k = 0; k < OC_N; k++)
		if (tl->cnt[i][k] > 0)
			fprintf(out, "\n%s: %lu", report_oc_label[k],
			    tl->cnt[i][k]);
	fputs("</title>", out);
	for (int k = 0; k < OC_N; k++) {
		double h = TL_PH * (double)tl->cnt[i][k] / (double)tl->top;

		if (tl->cnt[i][k] == 0)
			continue;
		y -= h;
		fprintf(out, "<rect class=\"o%d\" x=\"%.2f\" y=\"%.2f\" "
		    "width=\"%.2f\" height=\"%.2f\"/>", k, x, y, tl->bw, h);
	}
	fputs("</g>\n", out);
}

/* The x axis label under bucket @i, when it gets one. */
static void
timeline_label(FILE *out, const struct timeline *tl, size_t i,
    char *prevdate, size_t prevsz)
{
	int64_t bt = tl->b0 + (int64_t)i * tl->size;
	time_t tt = (time_t)bt;
	struct tm tm;
	char l1[16], l2[32];
	double cx = TL_L + tl->slot * ((double)i + 0.5);
	enum unit u = tl->u;

	if ((bt / tl->size) % (int64_t)tl->stride != 0 && tl->nb != 1)
		return;
	gmtime_r(&tt, &tm);
	strftime(l1, sizeof(l1), u == U_DAY ? "%b %d" : u == U_HOUR ?
	    "%H:00" : "%H:%M", &tm);
	strftime(l2, sizeof(l2), u == U_DAY ? "%Y" : "%b %d", &tm);
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" "
	    "y1=\"%.1f\" y2=\"%.1f\"/>", cx, cx, TL_TOP + TL_PH,
	    TL_TOP + TL_PH + 4);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
	    "%s</text>", cx, TL_TOP + TL_PH + 17, l1);
	if (strcmp(l2, prevdate) != 0) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">%s</text>", cx,
		    TL_TOP + TL_PH + 31, l2);
		strlcpy(prevdate, l2, prevsz);
	}
	fputs("\n", out);
}

void
chart_runs(FILE *out, const struct stats *st)
{
	struct timeline tl;
	char prevdate[32] = "";

	fputs("<section id=\"runs-over-time\">\n<h2>Runs over time</h2>\n",
	    out);
	if (st->npts == 0) {
		fputs("<p class=\"empty\">No dated records.</p>\n</section>\n",
		    out);
		return;
	}
	memset(&tl, 0, sizeof(tl));
	timeline_scale(st, &tl);
	timeline_layout(&tl);
	fputs("<p class=\"sub\">Runs per ", out);
	if (tl.size > 86400)
		fprintf(out, "%lld days", (long long)(tl.size / 86400));
	else
		fputs(tl.per, out);
	fputs(" (UTC), stacked by outcome.", out);
	if (st->undated > 0) {
		fputs(" ", out);
		put_num(out, st->undated);
		fputs(" records without a readable start time are left out.",
		    out);
	}
	fputs("</p>\n", out);
	put_legend(out, NULL);
	fprintf(out, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\""
	    "Runs per %s, stacked by outcome\">\n", TL_W, TL_H, tl.per);
	for (unsigned long v = 0; v <= tl.top; v += tl.step) {
		double y = TL_TOP + TL_PH - TL_PH * (double)v / (double)tl.top;

		fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" "
		    "y1=\"%.1f\" y2=\"%.1f\"/>", TL_L, TL_W - TL_R, y, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		    TL_L - 6, y + 4);
		put_num(out, v);
		fputs("</text>\n", out);
	}
	for (size_t i = 0; i < tl.nb; i++) {
		timeline_bar(out, &tl, i);
		timeline_label(out, &tl, i, prevdate, sizeof(prevdate));
	}
	fprintf(out, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
	    "y2=\"%.1f\"/>\n</svg>\n</section>\n", TL_L, TL_W - TL_R,
	    TL_TOP + TL_PH, TL_TOP + TL_PH);
	free(tl.cnt);
}

void
table_policies(FILE *out, struct stats *st)
{
	size_t n = st->policy.n;

	fputs("<section id=\"outcomes-by-policy\">\n"
	    "<h2>Outcomes by policy</h2>\n", out);
	if (n == 0) {
		fputs("<p class=\"empty\">No records.</p>\n</section>\n", out);
		return;
	}
	fputs("<p class=\"sub\">Runs of each policy file by outcome, most "
	    "runs first.  A policy is its path and the sha256 of its bytes, "
	    "not the name it gives itself: a rewritten file is a new row "
	    "(see the policy changes below).</p>\n", out);
	qsort(st->policy.e, n, sizeof(*st->policy.e), tally_cmp_n);
	fputs("<table>\n<thead><tr><th>Policy (path, sha256)</th>"
	    "<th>Declared name</th><th>Trust</th><th class=\"n\">Runs</th>",
	    out);
	for (int k = 0; k < OC_N; k++)
		fprintf(out, "<th class=\"n\"><i class=\"sw b%d\"></i>%s</th>",
		    k, k == OC_NOTRUN ? "not run" : report_oc_label[k]);
	fputs("<th class=\"n\">Denials</th><th style=\"width:26%\">"
	    "</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct tally_entry *e = &st->policy.e[i];
		const struct detail *m = e->more;

		fputs("<tr><td>", out);
		put_policy_key(out, e->name, false);
		fputs("</td><td>", out);
		put_short(out, m->extra ? m->extra : "", 40);
		fputs("</td><td>", out);
		put_short(out, m->trust ? m->trust : "", 20);
		if (m->writable)
			fputs(" <span class=\"tag adv\">writable</span>", out);
		fputs("</td><td class=\"n\"><b>", out);
		put_num(out, e->n);
		fputs("</b></td>", out);
		for (int k = 0; k < OC_N; k++) {
			fputs(m->oc[k] ? "<td class=\"n\">" :
			    "<td class=\"n zero\">", out);
			put_num(out, m->oc[k]);
			fputs("</td>", out);
		}
		fputs(m->runs ? "<td class=\"n deny\">" :
		    "<td class=\"n zero\">", out);
		put_num(out, m->runs);
		fputs("</td><td>", out);
		put_stack(out, m->oc, e->n, NULL);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
}

void
chart_denied(FILE *out, struct stats *st)
{
	static const int W = 560, ROW = 26, LBL = 150, GAP = 8;
	size_t n = st->denied.n, shown = n < NTOP ? n : NTOP;
	double maxw = W - LBL - GAP - 120;
	unsigned long max;

	fputs("<section id=\"top-denied\">\n<h2>Top denied syscalls</h2>\n",
	    out);
	if (n == 0) {
		fputs("<p class=\"sub\">Calls the seccomp filter refused.</p>\n"
		    "<p class=\"empty\">No denied syscalls.</p>\n</section>\n",
		    out);
		return;
	}
	qsort(st->denied.e, n, sizeof(*st->denied.e), tally_cmp_n);
	max = st->denied.e[0].n;
	fputs("<p class=\"sub\">Calls the seccomp filter refused, and in how "
	    "many runs.</p>\n", out);
	fprintf(out, "<svg viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\""
	    "Denied syscalls by count\">\n", W, shown * ROW + 4);
	for (size_t i = 0; i < shown; i++) {
		const struct tally_entry *e = &st->denied.e[i];
		const struct detail *m = e->more;
		double w = maxw * (double)e->n / (double)max;
		double y = (double)i * ROW + 4;

		if (w < 2)
			w = 2;
		fputs("<g><title>", out);
		put_esc(out, e->name, 64);
		fprintf(out, ": %lu call%s in %lu run%s</title>", e->n,
		    e->n == 1 ? "" : "s", m->runs, m->runs == 1 ? "" : "s");
		fprintf(out, "<text class=\"lbl\" x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">", LBL, y + 15);
		put_short(out, e->name, 20);
		fprintf(out, "</text><rect class=\"hb\" x=\"%d\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%d\" rx=\"2\"/>", LBL + GAP,
		    y + 3, w, ROW - 8);
		fprintf(out, "<text class=\"cnt\" x=\"%.1f\" y=\"%.1f\">",
		    LBL + GAP + w + 6, y + 15);
		put_num(out, e->n);
		fprintf(out, "<tspan class=\"muted\" dx=\"6\">in %lu run%s"
		    "</tspan></text></g>\n", m->runs, m->runs == 1 ? "" : "s");
	}
	fputs("</svg>\n", out);
	if (n > shown)
		fprintf(out, "<p class=\"sub\">and %zu more syscalls.</p>\n",
		    n - shown);
	fputs("</section>\n", out);
}

/* A policy entry's timeouts. */
static unsigned long
timeouts(const struct tally_entry *e)
{
	return ((const struct detail *)e->more)->oc[OC_TIMEOUT];
}

/* Advisory matches labelled by their reason, the rule beside it. */
static void
table_advisories(FILE *out, struct stats *st)
{
	size_t n = st->advisory.n;

	fputs("<h3>Advisories by reason</h3>\n", out);
	if (n == 0) {
		fputs("<p class=\"empty\">No advisory rule matched.</p>\n",
		    out);
	} else {
		qsort(st->advisory.e, n, sizeof(*st->advisory.e), tally_cmp_n);
		fputs("<table>\n<thead><tr><th>Reason</th><th>Rule</th>"
		    "<th class=\"n\">Matches</th><th style=\"width:24%\">"
		    "</th></tr></thead>\n<tbody>\n", out);
		for (size_t i = 0; i < n && i < NROWS; i++) {
			const struct tally_entry *e = &st->advisory.e[i];
			const struct detail *m = e->more;

			fputs("<tr><td>", out);
			put_short(out, e->name, 80);
			fputs("</td><td><code class=\"cmd\">", out);
			put_short(out, m->extra ? m->extra : "", 60);
			fputs("</code></td><td class=\"n\">", out);
			put_num(out, e->n);
			fputs("</td><td>", out);
			put_meter(out, e->n, st->advisory.e[0].n);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
		if (n > NROWS)
			fprintf(out, "<p class=\"sub\">and %zu more reasons."
			    "</p>\n", n - NROWS);
	}
}

static void
table_timeouts(FILE *out, struct stats *st)
{
	size_t nt = 0;

	fputs("<h3>Timeouts by policy</h3>\n", out);
	if (st->policy.n > 0)
		qsort(st->policy.e, st->policy.n, sizeof(*st->policy.e),
		    report_cmp_timeouts);
	for (size_t i = 0; i < st->policy.n; i++)
		if (timeouts(&st->policy.e[i]) > 0)
			nt++;
	if (nt == 0) {
		fputs("<p class=\"empty\">No run timed out.</p>\n", out);
	} else {
		fputs("<table>\n<thead><tr><th>Policy</th><th class=\"n\">"
		    "Timeouts</th><th class=\"n\">Of runs</th><th class=\"n\">"
		    "Share</th><th style=\"width:24%\"></th></tr></thead>\n"
		    "<tbody>\n", out);
		for (size_t i = 0; i < nt && i < NROWS; i++) {
			const struct tally_entry *e = &st->policy.e[i];
			const struct detail *m = e->more;

			fputs("<tr><td>", out);
			put_policy_key(out, e->name, false);
			fputs("</td><td class=\"n\">", out);
			put_num(out, m->oc[OC_TIMEOUT]);
			fputs("</td><td class=\"n\">", out);
			put_num(out, e->n);
			fprintf(out, "</td><td class=\"n\">%.1f%%</td><td>",
			    100.0 * (double)m->oc[OC_TIMEOUT] / (double)e->n);
			put_meter(out, m->oc[OC_TIMEOUT],
			    timeouts(&st->policy.e[0]));
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
	}
}

static void
table_limits(FILE *out, struct stats *st)
{
	fputs("<h3>Limits hit</h3>\n", out);
	if (st->limit.n == 0) {
		fputs("<p class=\"empty\">No run hit a limit.</p>\n", out);
	} else {
		qsort(st->limit.e, st->limit.n, sizeof(*st->limit.e),
		    tally_cmp_n);
		fputs("<table>\n<thead><tr><th>Limit</th><th class=\"n\">"
		    "Runs</th><th style=\"width:24%\"></th></tr></thead>\n"
		    "<tbody>\n", out);
		for (size_t i = 0; i < st->limit.n && i < NROWS; i++) {
			const struct tally_entry *e = &st->limit.e[i];

			fputs("<tr><td>", out);
			put_short(out, e->name, 40);
			fputs("</td><td class=\"n\">", out);
			put_num(out, e->n);
			fputs("</td><td>", out);
			put_meter(out, e->n, st->limit.e[0].n);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
	}
}

void
tables_advisories(FILE *out, struct stats *st)
{
	fputs("<section id=\"advisories-timeouts\">\n"
	    "<h2>Advisories and timeouts</h2>\n<p class=\"sub\">Advisory "
	    "rules warn and do not block.</p>\n", out);
	table_advisories(out, st);
	table_timeouts(out, st);
	table_limits(out, st);
	fputs("</section>\n", out);
}

