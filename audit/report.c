/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: the audit log as one static HTML page for a
 * reviewer.  Inline CSS and inline SVG only: no script, no fonts, no
 * images, nothing fetched (the page's Content-Security-Policy forbids
 * it too).  Every string that comes from the log goes through put_esc(),
 * which escapes the HTML metacharacters and shows control and invisible
 * formatting characters as \uXXXX, so an argument cannot add markup or
 * disguise itself.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "records.h"
#include "report.h"
#include "util.h"

static const char report_usage[] =
    "usage: guardexec-audit report [-o FILE] LOG...\n";

#define NRECENT 25      /* rows of "Recent suspicious runs" */
#define NTOP 15         /* bars of "Top denied syscalls" */
#define NROWS 20        /* rows of the other tables */
#define CMD_BYTES 4096  /* the command text kept from argv */
#define CMD_SHOWN 160   /* characters of it shown in a table cell */
#define CMD_TITLE 1000  /* characters of it in the cell's tooltip */

/* The outcome of a run, as the charts stack and color it. */
enum outcome {
	OC_OK,          /* exited 0 */
	OC_FAIL,        /* exited non-zero */
	OC_SIGNALED,
	OC_TIMEOUT,
	OC_NOTRUN,      /* refused or exec_failed */
	OC_N
};

static const char *const oc_label[OC_N] = {
	"exited 0", "exited non-zero", "signaled", "timeout",
	"refused / exec failed",
};

/* A counter by name; what n and runs count depends on the table. */
struct entry {
	char *name;
	char *extra;                    /* an advisory rule's reason */
	unsigned long n, runs;
	unsigned long oc[OC_N];         /* per policy: runs by outcome */
};

struct tally {
	struct entry *e;
	size_t n;
};

struct point {
	int64_t t;
	enum outcome oc;
};

struct recent {
	json_t *rec;
	unsigned long seq;
};

struct stats {
	unsigned long runs, fails, timeouts, denied_runs, denied_calls,
	    advisories, truncated, suspicious, bad, undated, seq;
	unsigned long oc[OC_N];
	struct tally policy, denied, advisory, limit;
	char first[32], last[32];       /* the earliest and latest "start" */
	struct point *pts;
	size_t npts, cap;
	struct recent recent[NRECENT];
	size_t nrecent;
};

static struct entry *
tally_get(struct tally *t, const char *name)
{
	struct entry *e;

	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].name, name) == 0)
			return &t->e[i];
	t->e = xreallocarray(t->e, t->n + 1, sizeof(*t->e));
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	return e;
}

static void
tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].name);
		free(t->e[i].extra);
	}
	free(t->e);
}

static int
cmp_n(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int
cmp_timeouts(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->oc[OC_TIMEOUT] != y->oc[OC_TIMEOUT])
		return x->oc[OC_TIMEOUT] < y->oc[OC_TIMEOUT] ? 1 : -1;
	return cmp_n(a, b);
}

/* Seconds since the epoch of a record's "start" (UTC). */
static bool
parse_start(const char *s, int64_t *t)
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

static enum outcome
outcome_of(json_t *rec)
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

/* Newer: a later "start", or the same one later in the logs. */
static int
cmp_recent(const struct recent *a, const struct recent *b)
{
	int c = strcmp(records_str(a->rec, "start"), records_str(b->rec, "start"));

	if (c != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int
cmp_recent_desc(const void *a, const void *b)
{
	return -cmp_recent(a, b);
}

static void
keep_recent(struct stats *st, json_t *rec)
{
	struct recent r = { rec, st->seq };
	size_t oldest = 0;

	if (st->nrecent < NRECENT) {
		st->recent[st->nrecent++] = r;
		json_incref(rec);
		return;
	}
	for (size_t i = 1; i < NRECENT; i++)
		if (cmp_recent(&st->recent[i], &st->recent[oldest]) < 0)
			oldest = i;
	if (cmp_recent(&r, &st->recent[oldest]) > 0) {
		json_decref(st->recent[oldest].rec);
		st->recent[oldest] = r;
		json_incref(rec);
	}
}

static void
add_record(struct stats *st, json_t *rec)
{
	json_t *sec = json_object_get(rec, "seccomp"), *d;
	json_t *denied = json_object_get(sec, "denied");
	json_t *adv = json_object_get(rec, "advisory");
	const char *start = records_str(rec, "start");
	const char *pname = json_string_value(json_object_get(
	    json_object_get(rec, "policy"), "name"));
	enum outcome oc = outcome_of(rec);
	struct entry *pe = tally_get(&st->policy, pname ? pname : "");
	bool suspicious = false;
	int64_t t;
	size_t i;

	st->seq++;
	st->runs++;
	st->oc[oc]++;
	pe->n++;
	pe->oc[oc]++;
	if (oc != OC_OK)
		st->fails++;
	if (oc == OC_TIMEOUT) {
		st->timeouts++;
		suspicious = true;
	}
	if (json_array_size(denied) > 0) {
		st->denied_runs++;
		pe->runs++;
		suspicious = true;
	}
	json_array_foreach(denied, i, d) {
		struct entry *e = tally_get(&st->denied, records_str(d, "syscall"));
		json_int_t c = json_integer_value(json_object_get(d, "count"));

		e->n += c > 0 ? (unsigned long)c : 1;
		e->runs++;
		st->denied_calls += c > 0 ? (unsigned long)c : 1;
	}
	json_array_foreach(adv, i, d) {
		struct entry *e = tally_get(&st->advisory, records_str(d, "rule"));

		e->n++;
		if (e->extra == NULL)
			e->extra = xstrdup(records_str(d, "reason"));
		st->advisories++;
		suspicious = true;
	}
	if (json_is_true(json_object_get(rec, "truncated")))
		st->truncated++;
	if (json_is_string(json_object_get(rec, "limit_hit"))) {
		tally_get(&st->limit, records_str(rec, "limit_hit"))->n++;
		suspicious = true;
	}
	if (strcmp(records_str(rec, "status"), "exited") != 0 ||
	    json_object_get(rec, "chain_restart") != NULL)
		suspicious = true;
	if (suspicious) {
		st->suspicious++;
		keep_recent(st, rec);
	}
	if (!parse_start(start, &t)) {
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

/* records_each's callback: one record into the statistics. */
static void
add_one(json_t *rec, const char *line, void *arg)
{
	(void)line;
	add_record(arg, rec);
}

/* One code point of UTF-8 at @s: its length, or 0 when invalid. */
static size_t
utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		*cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		*cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * Characters that would be invisible or would move text around: C0 and
 * C1 controls, zero-width characters, line and paragraph separators,
 * the bidirectional overrides and isolates ("Trojan Source",
 * CVE-2021-42574), the byte order mark.
 */
static bool
hidden_char(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0xad ||
	    (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	    (cp >= 0xfff9 && cp <= 0xfffb);
}

/*
 * Writes @s escaped for HTML text and attribute values: & < > " ' as
 * entities, hidden characters as \uXXXX, bytes that are not UTF-8 as
 * '?'.  At most @max characters; returns true when @s was cut short.
 */
static bool
put_esc(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t shown = 0;

	while (*p != '\0') {
		uint32_t cp;
		size_t len;

		if (shown++ == max)
			return true;
		switch (*p) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&#39;", out); p++; continue;
		default: break;
		}
		len = utf8_decode(p, &cp);
		if (len == 0) {
			fputc('?', out);
			p++;
		} else if (hidden_char(cp)) {
			fprintf(out, "\\u%04X", (unsigned)cp);
			p += len;
		} else {
			fwrite(p, 1, len, out);
			p += len;
		}
	}
	return false;
}

/* put_esc() with "..." appended when cut. */
static void
put_short(FILE *out, const char *s, size_t max)
{
	if (put_esc(out, s, max))
		fputs("&hellip;", out);
}

/* @v with thousands separators: 12,345. */
static void
put_num(FILE *out, unsigned long v)
{
	char digits[24];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%lu", v);

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			fputs(",", out);
		fputc(digits[i], out);
	}
}

/* A record's "start" as "2026-11-29 09:10:11". */
static void
put_when(FILE *out, const char *start)
{
	char when[20];

	strlcpy(when, start, sizeof(when));
	if (strlen(when) == 19)
		when[10] = ' ';
	put_esc(out, when, sizeof(when));
}

static void
put_policy(FILE *out, const char *name)
{
	if (name[0] == '\0')
		fputs("<i class=\"muted\">(no policy)</i>", out);
	else
		put_short(out, name, 40);
}

/* A duration in words, to the minute: "3 d 4 h", "2 h 5 min", "12 s". */
static void
put_span(FILE *out, int64_t s)
{
	if (s >= 86400)
		fprintf(out, "%lld d %lld h", (long long)(s / 86400),
		    (long long)(s % 86400 / 3600));
	else if (s >= 3600)
		fprintf(out, "%lld h %lld min", (long long)(s / 3600),
		    (long long)(s % 3600 / 60));
	else if (s >= 60)
		fprintf(out, "%lld min", (long long)(s / 60));
	else
		fprintf(out, "%lld s", (long long)s);
}

struct buf {
	char *p;
	size_t len, max;
	bool cut;
};

static void
buf_put(struct buf *b, char c)
{
	if (b->len < b->max)
		b->p[b->len++] = c;
	else
		b->cut = true;
}

static bool
shell_safe(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_",
		    *s) == NULL)
			return false;
	return true;
}

/*
 * The arguments joined with spaces, quoted the way a shell needs them
 * ('...'), cut to CMD_BYTES at a character boundary.  Malloc'd; *@cut
 * tells whether it was cut.
 */
static char *
command_text(json_t *rec, bool *cut)
{
	struct buf b = { xmalloc(CMD_BYTES + 1), 0, CMD_BYTES, false };
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(rec, "argv"), i, a) {
		const char *s = json_string_value(a);
		bool quote;

		if (s == NULL)
			continue;
		quote = !shell_safe(s);
		if (i > 0)
			buf_put(&b, ' ');
		if (quote)
			buf_put(&b, '\'');
		for (; *s != '\0'; s++) {
			if (*s == '\'') {
				buf_put(&b, '\'');
				buf_put(&b, '\\');
				buf_put(&b, '\'');
			}
			buf_put(&b, *s);
		}
		if (quote)
			buf_put(&b, '\'');
	}
	if (b.cut) {
		/* Do not end in the middle of a UTF-8 sequence. */
		while (b.len > 0 && ((unsigned char)b.p[b.len - 1] & 0xc0) ==
		    0x80)
			b.len--;
		if (b.len > 0 && (unsigned char)b.p[b.len - 1] >= 0xc0)
			b.len--;
	}
	b.p[b.len] = '\0';
	*cut = b.cut;
	return b.p;
}

static const char css[] =
":root{--bg:#f3f4f7;--card:#fff;--fg:#1c2330;--muted:#5d6878;"
"--line:#e2e5ea;--soft:#f6f7f9;--warnbg:#fff6dc;--warnfg:#6a4d00;"
"--o0:#3e9a6a;--o1:#e2a12f;--o2:#8d5fc8;--o3:#d9453f;--o4:#8b95a5;"
"--deny:#c9463d;--bar:#4a78c2}\n"
"@media (prefers-color-scheme:dark){:root{--bg:#121519;--card:#1b1f26;"
"--fg:#e3e6eb;--muted:#98a2b1;--line:#2d333c;--soft:#222731;"
"--warnbg:#3a2f12;--warnfg:#f3d98c}}\n"
"*{box-sizing:border-box}\n"
"body{margin:0;background:var(--bg);color:var(--fg);"
"font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,"
"\"Liberation Sans\",\"DejaVu Sans\",sans-serif}\n"
".wrap{max-width:1200px;margin:0 auto;padding:24px 24px 8px}\n"
"h1{font-size:22px;margin:0 0 2px;letter-spacing:-.01em}\n"
"h2{font-size:16px;margin:0}\n"
"h3{font-size:13px;margin:14px 0 6px;color:var(--muted)}\n"
".sub{color:var(--muted);margin:2px 0 12px;font-size:13px}\n"
".muted{color:var(--muted)}\n"
".meta{color:var(--muted);font-size:13px}\n"
".meta code{color:var(--fg)}\n"
".tiles{display:grid;grid-template-columns:repeat(6,1fr);gap:12px;"
"margin:16px 0 12px}\n"
".tile{background:var(--card);border:1px solid var(--line);"
"border-radius:10px;padding:10px 14px}\n"
".tile b{display:block;font-size:26px;font-weight:650;"
"font-variant-numeric:tabular-nums;line-height:1.2}\n"
".tile span{color:var(--muted);font-size:12px}\n"
".tile small{display:block;color:var(--muted);font-size:11.5px}\n"
".tile.hot b{color:var(--o3)}\n"
".tile.warm b{color:#b7791f}\n"
"section{background:var(--card);border:1px solid var(--line);"
"border-radius:10px;padding:16px 20px;margin:0 0 16px}\n"
".two{display:grid;grid-template-columns:1fr 1fr;gap:16px;"
"align-items:start}\n"
"header{margin-bottom:18px}\n"
"table{border-collapse:collapse;width:100%}\n"
"th,td{text-align:left;padding:5px 8px;border-bottom:1px solid "
"var(--line);vertical-align:top}\n"
"th{font-size:11.5px;color:var(--muted);font-weight:600;"
"text-transform:uppercase;letter-spacing:.03em;white-space:nowrap}\n"
"tr:last-child td{border-bottom:0}\n"
"tbody tr:nth-child(even){background:var(--soft)}\n"
".n{text-align:right;font-variant-numeric:tabular-nums;"
"white-space:nowrap}\n"
".nw{white-space:nowrap}\n"
"code,.mono{font-family:ui-monospace,\"DejaVu Sans Mono\","
"\"Liberation Mono\",Menlo,monospace;font-size:12.5px}\n"
".cmd{word-break:break-all}\n"
".zero{color:var(--line)}\n"
".bar{display:inline-flex;width:100%;min-width:120px;height:10px;"
"border-radius:3px;overflow:hidden;background:var(--soft);"
"vertical-align:middle}\n"
".bar span{height:100%}\n"
".bigbar{height:14px;border-radius:4px}\n"
".legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:12.5px;"
"margin:0 0 8px}\n"
".legend span{white-space:nowrap}\n"
".sw{display:inline-block;width:10px;height:10px;border-radius:2px;"
"margin-right:5px;vertical-align:-1px}\n"
".b0,.o0{background:var(--o0);fill:var(--o0)}\n"
".b1,.o1{background:var(--o1);fill:var(--o1)}\n"
".b2,.o2{background:var(--o2);fill:var(--o2)}\n"
".b3,.o3{background:var(--o3);fill:var(--o3)}\n"
".b4,.o4{background:var(--o4);fill:var(--o4)}\n"
".bb{background:var(--bar)}\n"
".badge{display:inline-block;padding:0 7px;border-radius:9px;"
"font-size:12px;color:#fff;white-space:nowrap}\n"
".tag{display:inline-block;margin:2px 4px 0 0;padding:0 6px;"
"border-radius:4px;font-size:11.5px;background:var(--soft);"
"border:1px solid var(--line);color:var(--muted)}\n"
".tag.adv{border-color:#e9c46a;color:var(--warnfg);"
"background:var(--warnbg)}\n"
".deny{color:var(--deny)}\n"
".warn{background:var(--warnbg);color:var(--warnfg);border:1px solid "
"#ecd27e;border-radius:8px;padding:8px 12px;margin:8px 0 12px}\n"
".empty{color:var(--muted);font-style:italic;margin:4px 0}\n"
"svg{display:block;width:100%;height:auto}\n"
"svg text{fill:var(--muted);font-size:11px;"
"font-family:system-ui,\"Liberation Sans\",\"DejaVu Sans\",sans-serif}\n"
"svg text.lbl{fill:var(--fg);font-family:ui-monospace,"
"\"DejaVu Sans Mono\",\"Liberation Mono\",monospace;font-size:12px}\n"
"svg text.cnt{fill:var(--fg);font-size:12px}\n"
"svg .grid{stroke:var(--line);stroke-width:1}\n"
"svg .axis{stroke:var(--muted);stroke-width:1}\n"
"svg .hb{fill:var(--deny)}\n"
"svg .muted{fill:var(--muted)}\n"
"footer{color:var(--muted);font-size:12px;padding:0 24px 24px;"
"max-width:1200px;margin:0 auto}\n"
"@media (max-width:900px){.tiles{grid-template-columns:repeat(3,1fr)}"
".two{grid-template-columns:1fr}}\n"
"@media print{body{background:#fff}section,.tile{break-inside:avoid}}\n";

static void
put_legend(FILE *out, const unsigned long *oc)
{
	fputs("<div class=\"legend\">", out);
	for (int i = 0; i < OC_N; i++) {
		fprintf(out, "<span><i class=\"sw b%d\"></i>%s", i,
		    oc_label[i]);
		if (oc != NULL) {
			fputs(" <b>", out);
			put_num(out, oc[i]);
			fputs("</b>", out);
		}
		fputs("</span>", out);
	}
	fputs("</div>\n", out);
}

/* A stacked bar of @oc as a share of @total (HTML, for tables). */
static void
put_stack(FILE *out, const unsigned long *oc, unsigned long total,
    const char *extra_class)
{
	fprintf(out, "<span class=\"bar%s%s\">", extra_class ? " " : "",
	    extra_class ? extra_class : "");
	for (int i = 0; i < OC_N && total > 0; i++)
		if (oc[i] > 0)
			fprintf(out, "<span class=\"b%d\" style=\"width:"
			    "%.2f%%\" title=\"%s: %lu\"></span>", i,
			    100.0 * (double)oc[i] / (double)total,
			    oc_label[i], oc[i]);
	fputs("</span>", out);
}

/* A one-color bar of @n out of @max. */
static void
put_meter(FILE *out, unsigned long n, unsigned long max)
{
	fprintf(out, "<span class=\"bar\"><span class=\"bb\" style=\"width:"
	    "%.2f%%\"></span></span>", max ? 100.0 * (double)n /
	    (double)max : 0.0);
}

static void
put_tile(FILE *out, const char *label, unsigned long v, const char *note,
    const char *cls)
{
	fprintf(out, "<div class=\"tile%s%s\"><span>%s</span><b>",
	    v > 0 && cls ? " " : "", v > 0 && cls ? cls : "", label);
	put_num(out, v);
	fprintf(out, "</b><small>%s</small></div>\n", note);
}

static void
write_summary(FILE *out, const struct stats *st, int nlogs, char **logs)
{
	int64_t t0, t1;

	fputs("<header id=\"summary\">\n<h1>guardexec audit report</h1>\n"
	    "<div class=\"meta\">", out);
	fputs(nlogs > 1 ? "Logs " : "Log ", out);
	for (int i = 0; i < nlogs; i++) {
		fputs(i > 0 ? ", <code>" : "<code>", out);
		put_short(out, logs[i], 200);
		fputs("</code>", out);
	}
	if (st->npts > 0 && parse_start(st->first, &t0) &&
	    parse_start(st->last, &t1)) {
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

static void
chart_runs(FILE *out, const struct stats *st)
{
	static const int W = 1100, H = 270, L = 46, R = 8, TOP = 10,
	    BOT = 44;
	static const unsigned long strides[] = { 1, 2, 3, 5, 6, 10, 12, 15,
	    24, 30, 60, 120, 180, 360, 720, 1440, 2880 };
	int64_t lo, hi, size, b0;
	size_t nb, stride = 1;
	unsigned long (*cnt)[OC_N], max = 1, step, top;
	double pw = W - L - R, ph = H - TOP - BOT, slot, bw;
	enum unit u;
	const char *per;
	char prevdate[32] = "";

	fputs("<section id=\"runs-over-time\">\n<h2>Runs over time</h2>\n",
	    out);
	if (st->npts == 0) {
		fputs("<p class=\"empty\">No dated records.</p>\n</section>\n",
		    out);
		return;
	}
	lo = hi = st->pts[0].t;
	for (size_t i = 1; i < st->npts; i++) {
		if (st->pts[i].t < lo)
			lo = st->pts[i].t;
		if (st->pts[i].t > hi)
			hi = st->pts[i].t;
	}
	if (hi - lo < 2 * 3600) {
		u = U_MINUTE;
		size = 60;
		per = "minute";
	} else if (hi - lo < 4 * 86400) {
		u = U_HOUR;
		size = 3600;
		per = "hour";
	} else {
		u = U_DAY;
		size = 86400;
		per = "day";
		/* Years of logs: several days a bar, at most 400 bars. */
		while ((hi - lo) / size >= 400)
			size += 86400;
	}
	b0 = lo - ((lo % size) + size) % size;
	nb = (size_t)((hi - b0) / size) + 1;
	cnt = xcalloc(nb, sizeof(*cnt));
	for (size_t i = 0; i < st->npts; i++)
		cnt[(st->pts[i].t - b0) / size][st->pts[i].oc]++;
	for (size_t i = 0; i < nb; i++) {
		unsigned long sum = 0;

		for (int k = 0; k < OC_N; k++)
			sum += cnt[i][k];
		if (sum > max)
			max = sum;
	}
	step = nice_step(max, 4);
	top = (max + step - 1) / step * step;
	slot = pw / (double)nb;
	bw = slot * 0.78 > 34 ? 34 : slot * 0.78;
	if (slot < 3)
		bw = slot;
	/* Label every stride-th bucket, at least 70 px apart. */
	for (size_t i = 0; i < sizeof(strides) / sizeof(*strides); i++) {
		stride = strides[i];
		if (slot * (double)stride >= 70)
			break;
	}
	if (slot * (double)stride < 70)
		stride = (size_t)(70 / slot) + 1;

	fputs("<p class=\"sub\">Runs per ", out);
	if (size > 86400)
		fprintf(out, "%lld days", (long long)(size / 86400));
	else
		fputs(per, out);
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
	    "Runs per %s, stacked by outcome\">\n", W, H, per);
	for (unsigned long v = 0; v <= top; v += step) {
		double y = TOP + ph - ph * (double)v / (double)top;

		fprintf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" "
		    "y1=\"%.1f\" y2=\"%.1f\"/>", L, W - R, y, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		    L - 6, y + 4);
		put_num(out, v);
		fputs("</text>\n", out);
	}
	for (size_t i = 0; i < nb; i++) {
		int64_t bt = b0 + (int64_t)i * size;
		double x = L + slot * (double)i + (slot - bw) / 2;
		double y = TOP + ph;
		unsigned long sum = 0;

		for (int k = 0; k < OC_N; k++)
			sum += cnt[i][k];
		if (sum > 0) {
			fputs("<g><title>", out);
			put_bucket_name(out, u, bt, size);
			fprintf(out, " UTC: %lu run%s", sum, sum == 1 ? "" :
			    "s");
			for (int k = 0; k < OC_N; k++)
				if (cnt[i][k] > 0)
					fprintf(out, "\n%s: %lu", oc_label[k],
					    cnt[i][k]);
			fputs("</title>", out);
			for (int k = 0; k < OC_N; k++) {
				double h = ph * (double)cnt[i][k] /
				    (double)top;

				if (cnt[i][k] == 0)
					continue;
				y -= h;
				fprintf(out, "<rect class=\"o%d\" x=\"%.2f\" "
				    "y=\"%.2f\" width=\"%.2f\" height=\"%.2f\""
				    "/>", k, x, y, bw, h);
			}
			fputs("</g>\n", out);
		}
		if ((bt / size) % (int64_t)stride == 0 || nb == 1) {
			time_t tt = (time_t)bt;
			struct tm tm;
			char l1[16], l2[32];
			double cx = L + slot * ((double)i + 0.5);

			gmtime_r(&tt, &tm);
			strftime(l1, sizeof(l1), u == U_DAY ? "%b %d" :
			    u == U_HOUR ? "%H:00" : "%H:%M", &tm);
			strftime(l2, sizeof(l2), u == U_DAY ? "%Y" : "%b %d",
			    &tm);
			fprintf(out, "<line class=\"axis\" x1=\"%.1f\" "
			    "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", cx, cx,
			    TOP + ph, TOP + ph + 4);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">%s</text>", cx,
			    TOP + ph + 17, l1);
			if (strcmp(l2, prevdate) != 0) {
				fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" "
				    "text-anchor=\"middle\">%s</text>", cx,
				    TOP + ph + 31, l2);
				strlcpy(prevdate, l2, sizeof(prevdate));
			}
			fputs("\n", out);
		}
	}
	fprintf(out, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
	    "y2=\"%.1f\"/>\n</svg>\n</section>\n", L, W - R, TOP + ph,
	    TOP + ph);
	free(cnt);
}

static void
table_policies(FILE *out, struct stats *st)
{
	size_t n = st->policy.n;

	fputs("<section id=\"outcomes-by-policy\">\n"
	    "<h2>Outcomes by policy</h2>\n", out);
	if (n == 0) {
		fputs("<p class=\"empty\">No records.</p>\n</section>\n", out);
		return;
	}
	fputs("<p class=\"sub\">Runs of each policy by outcome, most runs "
	    "first.</p>\n", out);
	qsort(st->policy.e, n, sizeof(*st->policy.e), cmp_n);
	fputs("<table>\n<thead><tr><th>Policy</th><th class=\"n\">Runs</th>",
	    out);
	for (int k = 0; k < OC_N; k++)
		fprintf(out, "<th class=\"n\"><i class=\"sw b%d\"></i>%s</th>",
		    k, k == OC_NOTRUN ? "not run" : oc_label[k]);
	fputs("<th class=\"n\">Denials</th><th style=\"width:26%\">"
	    "</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < n && i < NROWS; i++) {
		const struct entry *e = &st->policy.e[i];

		fputs("<tr><td>", out);
		put_policy(out, e->name);
		fputs("</td><td class=\"n\"><b>", out);
		put_num(out, e->n);
		fputs("</b></td>", out);
		for (int k = 0; k < OC_N; k++) {
			fputs(e->oc[k] ? "<td class=\"n\">" :
			    "<td class=\"n zero\">", out);
			put_num(out, e->oc[k]);
			fputs("</td>", out);
		}
		fputs(e->runs ? "<td class=\"n deny\">" :
		    "<td class=\"n zero\">", out);
		put_num(out, e->runs);
		fputs("</td><td>", out);
		put_stack(out, e->oc, e->n, NULL);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (n > NROWS)
		fprintf(out, "<p class=\"sub\">and %zu more policies.</p>\n",
		    n - NROWS);
	fputs("</section>\n", out);
}

static void
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
	qsort(st->denied.e, n, sizeof(*st->denied.e), cmp_n);
	max = st->denied.e[0].n;
	fputs("<p class=\"sub\">Calls the seccomp filter refused, and in how "
	    "many runs.</p>\n", out);
	fprintf(out, "<svg viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\""
	    "Denied syscalls by count\">\n", W, shown * ROW + 4);
	for (size_t i = 0; i < shown; i++) {
		const struct entry *e = &st->denied.e[i];
		double w = maxw * (double)e->n / (double)max;
		double y = (double)i * ROW + 4;

		if (w < 2)
			w = 2;
		fputs("<g><title>", out);
		put_esc(out, e->name, 64);
		fprintf(out, ": %lu call%s in %lu run%s</title>", e->n,
		    e->n == 1 ? "" : "s", e->runs, e->runs == 1 ? "" : "s");
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
		    "</tspan></text></g>\n", e->runs, e->runs == 1 ? "" : "s");
	}
	fputs("</svg>\n", out);
	if (n > shown)
		fprintf(out, "<p class=\"sub\">and %zu more syscalls.</p>\n",
		    n - shown);
	fputs("</section>\n", out);
}

static void
tables_advisories(FILE *out, struct stats *st)
{
	size_t n = st->advisory.n, nt = 0;

	fputs("<section id=\"advisories-timeouts\">\n"
	    "<h2>Advisories and timeouts</h2>\n<p class=\"sub\">Advisory "
	    "rules warn and do not block.</p>\n<h3>Advisories by rule</h3>\n",
	    out);
	if (n == 0) {
		fputs("<p class=\"empty\">No advisory rule matched.</p>\n",
		    out);
	} else {
		qsort(st->advisory.e, n, sizeof(*st->advisory.e), cmp_n);
		fputs("<table>\n<thead><tr><th>Rule</th><th>Reason</th>"
		    "<th class=\"n\">Matches</th><th style=\"width:24%\">"
		    "</th></tr></thead>\n<tbody>\n", out);
		for (size_t i = 0; i < n && i < NROWS; i++) {
			const struct entry *e = &st->advisory.e[i];

			fputs("<tr><td><code class=\"cmd\">", out);
			put_short(out, e->name, 60);
			fputs("</code></td><td>", out);
			put_short(out, e->extra ? e->extra : "", 80);
			fputs("</td><td class=\"n\">", out);
			put_num(out, e->n);
			fputs("</td><td>", out);
			put_meter(out, e->n, st->advisory.e[0].n);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
		if (n > NROWS)
			fprintf(out, "<p class=\"sub\">and %zu more rules."
			    "</p>\n", n - NROWS);
	}

	fputs("<h3>Timeouts by policy</h3>\n", out);
	if (st->policy.n > 0)
		qsort(st->policy.e, st->policy.n, sizeof(*st->policy.e),
		    cmp_timeouts);
	for (size_t i = 0; i < st->policy.n; i++)
		if (st->policy.e[i].oc[OC_TIMEOUT] > 0)
			nt++;
	if (nt == 0) {
		fputs("<p class=\"empty\">No run timed out.</p>\n", out);
	} else {
		fputs("<table>\n<thead><tr><th>Policy</th><th class=\"n\">"
		    "Timeouts</th><th class=\"n\">Of runs</th><th class=\"n\">"
		    "Share</th><th style=\"width:24%\"></th></tr></thead>\n"
		    "<tbody>\n", out);
		for (size_t i = 0; i < nt && i < NROWS; i++) {
			const struct entry *e = &st->policy.e[i];

			fputs("<tr><td>", out);
			put_policy(out, e->name);
			fputs("</td><td class=\"n\">", out);
			put_num(out, e->oc[OC_TIMEOUT]);
			fputs("</td><td class=\"n\">", out);
			put_num(out, e->n);
			fprintf(out, "</td><td class=\"n\">%.1f%%</td><td>",
			    100.0 * (double)e->oc[OC_TIMEOUT] / (double)e->n);
			put_meter(out, e->oc[OC_TIMEOUT],
			    st->policy.e[0].oc[OC_TIMEOUT]);
			fputs("</td></tr>\n", out);
		}
		fputs("</tbody>\n</table>\n", out);
	}

	fputs("<h3>Limits hit</h3>\n", out);
	if (st->limit.n == 0) {
		fputs("<p class=\"empty\">No run hit a limit.</p>\n", out);
	} else {
		qsort(st->limit.e, st->limit.n, sizeof(*st->limit.e), cmp_n);
		fputs("<table>\n<thead><tr><th>Limit</th><th class=\"n\">"
		    "Runs</th><th style=\"width:24%\"></th></tr></thead>\n"
		    "<tbody>\n", out);
		for (size_t i = 0; i < st->limit.n && i < NROWS; i++) {
			const struct entry *e = &st->limit.e[i];

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
	fputs("</section>\n", out);
}

static void
suspicious_row(FILE *out, json_t *rec)
{
	json_t *denied = json_object_get(json_object_get(rec, "seccomp"),
	    "denied"), *d;
	json_t *user = json_object_get(rec, "user");
	const char *pname = json_string_value(json_object_get(
	    json_object_get(rec, "policy"), "name"));
	const char *status = records_str(rec, "status");
	json_int_t sig = json_integer_value(json_object_get(rec, "signal"));
	enum outcome oc = outcome_of(rec);
	bool cut;
	char *cmd = command_text(rec, &cut);
	size_t i;

	fputs("<tr><td class=\"nw\">", out);
	put_when(out, records_str(rec, "start"));
	fputs("</td><td class=\"nw\">", out);
	if (json_is_string(user))
		put_short(out, json_string_value(user), 24);
	else
		fprintf(out, "<i class=\"muted\">uid %lld</i>",
		    (long long)json_integer_value(json_object_get(rec, "uid")));
	fputs("</td><td class=\"nw\">", out);
	put_policy(out, pname ? pname : "");
	fprintf(out, "</td><td><span class=\"badge b%d\">", (int)oc);
	put_short(out, status, 20);
	if (strcmp(status, "signaled") == 0 && sig > 0)
		fprintf(out, " %s", signal_name((int)sig));
	fputs("</span></td><td class=\"n\">", out);
	fprintf(out, "%lld</td><td>",
	    (long long)json_integer_value(json_object_get(rec, "exit_code")));
	if (json_is_string(json_object_get(rec, "limit_hit")))
		put_short(out, records_str(rec, "limit_hit"), 20);
	else
		fputs("<span class=\"zero\">&mdash;</span>", out);
	fputs("</td><td class=\"deny mono\">", out);
	json_array_foreach(denied, i, d) {
		if (i == 4) {
			fprintf(out, "+%zu more", json_array_size(denied) - 4);
			break;
		}
		if (i > 0)
			fputs("<br>", out);
		put_short(out, records_str(d, "syscall"), 24);
		fprintf(out, "&nbsp;&times;%lld",
		    (long long)json_integer_value(json_object_get(d, "count")));
	}
	fputs("</td><td><code class=\"cmd\" title=\"", out);
	put_short(out, cmd, CMD_TITLE);
	fputs("\">", out);
	if (put_esc(out, cmd, CMD_SHOWN) || cut)
		fputs("&hellip;", out);
	fputs("</code>", out);
	free(cmd);
	json_array_foreach(json_object_get(rec, "advisory"), i, d) {
		fputs("<br><span class=\"tag adv\">advisory: ", out);
		put_short(out, records_str(d, "rule"), 40);
		fputs("</span>", out);
	}
	if (json_is_string(json_object_get(rec, "error"))) {
		fputs("<br><span class=\"tag\">", out);
		put_short(out, records_str(rec, "error"), 100);
		fputs("</span>", out);
	}
	if (json_object_get(rec, "chain_restart") != NULL)
		fputs("<br><span class=\"tag adv\">chain restart</span>", out);
	fputs("</td></tr>\n", out);
}

static void
table_suspicious(FILE *out, struct stats *st)
{
	fputs("<section id=\"suspicious-runs\">\n"
	    "<h2>Recent suspicious runs</h2>\n", out);
	fputs("<p class=\"sub\">Runs with denied syscalls, an advisory "
	    "match, a timeout, a limit hit, a status other than "
	    "&ldquo;exited&rdquo; or a chain restart", out);
	if (st->suspicious > NRECENT) {
		fputs(": the ", out);
		fprintf(out, "%d most recent of ", NRECENT);
		put_num(out, st->suspicious);
	} else if (st->suspicious > 0) {
		fputs(", newest first", out);
	}
	fputs(".</p>\n", out);
	if (st->nrecent == 0) {
		fputs("<p class=\"empty\">None.</p>\n</section>\n", out);
		return;
	}
	qsort(st->recent, st->nrecent, sizeof(*st->recent), cmp_recent_desc);
	fputs("<table>\n<thead><tr><th>Time (UTC)</th><th>User</th>"
	    "<th>Policy</th><th>Status</th><th class=\"n\">Exit</th>"
	    "<th>Limit</th><th>Denied</th><th>Command</th></tr></thead>\n"
	    "<tbody>\n", out);
	for (size_t i = 0; i < st->nrecent; i++)
		suspicious_row(out, st->recent[i].rec);
	fputs("</tbody>\n</table>\n</section>\n", out);
}

static void
write_page(FILE *out, struct stats *st, int nlogs, char **logs)
{
	/*
	 * The policy forbids every fetch and every script: even a string
	 * that got past put_esc() could not run or call home.
	 */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\""
	    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
	    "base-uri 'none'; form-action 'none'\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n"
	    "<meta name=\"generator\" content=\"guardexec-audit "
	    PACKAGE_VERSION "\">\n<link rel=\"icon\" href=\"data:,\">\n"
	    "<title>guardexec audit report: ", out);
	for (int i = 0; i < nlogs; i++) {
		if (i > 0)
			fputs(", ", out);
		put_short(out, logs[i], 100);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<div class=\"wrap\">\n", css);
	write_summary(out, st, nlogs, logs);
	chart_runs(out, st);
	table_policies(out, st);
	fputs("<div class=\"two\">\n", out);
	chart_denied(out, st);
	tables_advisories(out, st);
	fputs("</div>\n", out);
	table_suspicious(out, st);
	fputs("</div>\n<footer>Made by guardexec-audit " PACKAGE_VERSION
	    " report. The records were not checked: run <code>guardexec-audit"
	    " verify</code> on the logs to know that the hash chain is intact."
	    "</footer>\n</body>\n</html>\n", out);
}

static void
stats_free(struct stats *st)
{
	tally_free(&st->policy);
	tally_free(&st->denied);
	tally_free(&st->advisory);
	tally_free(&st->limit);
	for (size_t i = 0; i < st->nrecent; i++)
		json_decref(st->recent[i].rec);
	free(st->pts);
}

static int
usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "guardexec-audit: report: %s%s\n%s", what, arg,
	    report_usage);
	return 2;
}

int
report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char name[] = "report";
	char **args = xcalloc((size_t)argc + 2, sizeof(*args));
	const char *output = NULL;
	struct stats st;
	FILE *out;
	int c, rc;

	/* getopt wants a program name first; argv starts after it. */
	args[0] = name;
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc + 1, args, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			free(args);
			return 0;
		case ':':
			rc = usage_error("an option needs a value: ",
			    args[optind - 1]);
			free(args);
			return rc;
		default:
			rc = usage_error("unknown option: ", args[optind - 1]);
			free(args);
			return rc;
		}
	}
	if (optind > argc) {
		free(args);
		return usage_error("no LOG given", "");
	}
	if (output != NULL && output[0] == '\0') {
		free(args);
		return usage_error("-o needs a file name", "");
	}
	memset(&st, 0, sizeof(st));
	rc = records_each(argc + 1 - optind, args + optind, add_one, &st,
	    &st.bad);
	if (rc == 0) {
		if (output == NULL || strcmp(output, "-") == 0) {
			output = "standard output";
			out = stdout;
		} else {
			out = fopen(output, "we");
		}
		if (out == NULL) {
			fprintf(stderr, "guardexec-audit: %s: %s\n", output,
			    strerror(errno));
			rc = 2;
		} else {
			write_page(out, &st, argc + 1 - optind, args + optind);
			if (fflush(out) != 0 || ferror(out)) {
				fprintf(stderr, "guardexec-audit: %s: %s\n",
				    output, strerror(errno));
				rc = 2;
			}
			if (out != stdout && fclose(out) != 0 && rc == 0) {
				fprintf(stderr, "guardexec-audit: %s: %s\n",
				    output, strerror(errno));
				rc = 2;
			}
		}
	}
	stats_free(&st);
	free(args);
	return rc;
}
