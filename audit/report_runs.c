/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: the sections about single runs and who ran
 * them: each input file's chain status, the per-user view, the policy
 * change timeline and the full run list, which the page's one inline
 * script sorts and filters.  The page's Content-Security-Policy allows
 * that script by its sha256 and nothing else.
 */
#include "config.h"

#include <jansson.h>
#include <sha2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "records.h"
#include "report_int.h"
#include "util.h"

#define CMD_SHOWN 160   /* characters of a command shown in its cell */
#define CMD_TITLE 1000  /* characters of it in the cell's tooltip */

/*
 * Sorts the run list when a column head is clicked (numbers by their
 * data-k value), filters it by the words typed (every word must occur
 * in the row), and takes both from the URL fragment on load:
 * report.html#q=ptrace%20alice&sort=-time.  It only moves rows and
 * sets "hidden": it reads no string into markup.
 */
static const char script[] =
"(function () {\n"
"\"use strict\";\n"
"var table = document.getElementById(\"run-table\");\n"
"if (!table) return;\n"
"var body = table.tBodies[0], heads = table.tHead.rows[0].cells;\n"
"var rows = Array.prototype.slice.call(body.rows);\n"
"var input = document.getElementById(\"run-filter\");\n"
"var count = document.getElementById(\"run-count\");\n"
"var sorted = -1, dir = 1, args = {};\n"
"function key(row, i) {\n"
"  var c = row.cells[i], k = c.getAttribute(\"data-k\");\n"
"  return k !== null ? k : c.textContent.toLowerCase();\n"
"}\n"
"function filter() {\n"
"  var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);\n"
"  var shown = 0;\n"
"  rows.forEach(function (r) {\n"
"    var t = r.textContent.toLowerCase();\n"
"    var hit = words.every(function (w) { return t.indexOf(w) >= 0; });\n"
"    r.hidden = !hit;\n"
"    if (hit) shown++;\n"
"  });\n"
"  count.textContent = String(shown);\n"
"}\n"
"function sortBy(i, d) {\n"
"  var num = heads[i].hasAttribute(\"data-num\");\n"
"  rows.sort(function (a, b) {\n"
"    var x = key(a, i), y = key(b, i);\n"
"    if (num) { x = Number(x); y = Number(y); }\n"
"    return x < y ? -d : x > y ? d : 0;\n"
"  });\n"
"  rows.forEach(function (r) { body.appendChild(r); });\n"
"  for (var j = 0; j < heads.length; j++)\n"
"    heads[j].setAttribute(\"aria-sort\", j !== i ? \"none\" :\n"
"      d > 0 ? \"ascending\" : \"descending\");\n"
"  sorted = i;\n"
"  dir = d;\n"
"}\n"
"Array.prototype.forEach.call(heads, function (h, i) {\n"
"  h.addEventListener(\"click\", function () {\n"
"    sortBy(i, sorted === i ? -dir : 1);\n"
"  });\n"
"});\n"
"input.addEventListener(\"input\", filter);\n"
"location.hash.slice(1).split(\"&\").forEach(function (p) {\n"
"  var e = p.indexOf(\"=\");\n"
"  if (e > 0)\n"
"    args[p.slice(0, e)] = decodeURIComponent(p.slice(e + 1));\n"
"});\n"
"if (args.sort) {\n"
"  var d = args.sort.charAt(0) === \"-\" ? -1 : 1;\n"
"  var col = d < 0 ? args.sort.slice(1) : args.sort;\n"
"  Array.prototype.forEach.call(heads, function (h, i) {\n"
"    if (h.getAttribute(\"data-col\") === col) sortBy(i, d);\n"
"  });\n"
"}\n"
"if (args.q !== undefined) input.value = args.q;\n"
"filter();\n"
"document.body.setAttribute(\"data-ready\", \"yes\");\n"
"})();\n";

/* Standard base64 of @n bytes at @in into @out (4 * ceil(n/3) + 1). */
static void
base64(const unsigned char *in, size_t n, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		*out++ = a[v >> 18 & 63];
		*out++ = a[v >> 12 & 63];
		*out++ = i + 1 < n ? a[v >> 6 & 63] : '=';
		*out++ = i + 2 < n ? a[v & 63] : '=';
	}
	*out = '\0';
}

void
report_script_hash(char *out, size_t outsz)
{
	char b64[48];

	unsigned char d[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;

	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)script, strlen(script));
	SHA256Final(d, &ctx);
	base64(d, sizeof(d), b64);
	snprintf(out, outsz, "'sha256-%s'", b64);
}

void
write_script(FILE *out)
{
	fprintf(out, "<script>%s</script>\n", script);
}

static const char *
chain_status(const struct chain *c)
{
	switch (c->state) {
	case CH_EMPTY:
		return "no records";
	case CH_INTACT:
		/* A cut copy's own bytes cannot be checked. */
		return c->cut > 0 ? "chained" : "intact";
	case CH_BROKEN:
		return "broken";
	}
	return "?";
}

/* Each input file: its records and whether its hash chain holds. */
void
write_chains(FILE *out, const struct stats *st)
{
	fputs("<section id=\"chain-status\">\n<h2>Hash chain of each "
	    "file</h2>\n<p class=\"sub\">Each line's hash is recomputed and "
	    "each record's <code>prev</code> compared with the line before "
	    "it, across the files in the order given.  The "
	    "<code>.head</code> anchor (a log cut short at its end) is "
	    "checked by <code>guardexec-audit verify</code> only.</p>\n"
	    "<table>\n<thead><tr><th>File</th><th class=\"n\">Records</th>"
	    "<th>Chain</th><th>First record</th></tr></thead>\n<tbody>\n",
	    out);
	for (size_t i = 0; i < st->nchains; i++) {
		const struct chain *c = &st->chains[i];

		fputs("<tr><td><code>", out);
		put_short(out, c->name, 200);
		fputs("</code></td><td class=\"n\">", out);
		put_num(out, c->records);
		fprintf(out, "</td><td><span class=\"chain %s\">%s</span>",
		    chain_status(c), chain_status(c));
		if (c->state == CH_BROKEN)
			fprintf(out, " at line %lu: %s", c->line, c->why);
		if (c->cut > 0)
			fprintf(out, " <span class=\"tag adv\">%lu cut for "
			    "syslog: only their prev and hash are checked, "
			    "crosscheck them with the local log</span>", c->cut);
		if (c->restarts > 0)
			fprintf(out, " <span class=\"tag adv\">%lu chain "
			    "restart%s</span>", c->restarts,
			    c->restarts == 1 ? "" : "s");
		fprintf(out, "</td><td>%s</td></tr>\n", c->start ? c->start :
		    "");
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
}

/* Who ran what: one row per user (or uid), most runs first. */
void
table_users(FILE *out, struct stats *st)
{
	fputs("<section id=\"per-user\">\n<h2>Runs by user</h2>\n", out);
	if (st->user.n == 0) {
		fputs("<p class=\"empty\">No records.</p>\n</section>\n", out);
		return;
	}
	qsort(st->user.e, st->user.n, sizeof(*st->user.e), tally_cmp_n);
	fputs("<table>\n<thead><tr><th>User</th><th class=\"n\">Runs</th>"
	    "<th class=\"n\">Failures</th><th class=\"n\">Timeouts</th>"
	    "<th class=\"n\">Denials</th><th class=\"n\">Advisories</th>"
	    "<th>First run (UTC)</th><th>Last run (UTC)</th>"
	    "<th style=\"width:18%\"></th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < st->user.n; i++) {
		const struct tally_entry *e = &st->user.e[i];
		const struct detail *m = e->more;

		fputs("<tr><td>", out);
		put_short(out, e->name, 40);
		fputs("</td><td class=\"n\"><b>", out);
		put_num(out, e->n);
		fputs("</b></td><td class=\"n\">", out);
		put_num(out, e->n - m->oc[OC_OK]);
		fputs("</td><td class=\"n\">", out);
		put_num(out, m->oc[OC_TIMEOUT]);
		fputs("</td><td class=\"n\">", out);
		put_num(out, m->runs);
		fputs("</td><td class=\"n\">", out);
		put_num(out, m->advised);
		fputs("</td><td class=\"nw\">", out);
		put_when(out, m->first ? m->first : "");
		fputs("</td><td class=\"nw\">", out);
		put_when(out, m->last ? m->last : "");
		fputs("</td><td>", out);
		put_stack(out, m->oc, e->n, NULL);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
}

/* The length of the path part of a "path\nsha256" key. */
static size_t
path_len(const char *key)
{
	return strcspn(key, "\n");
}

/* Every distinct sha256 of each policy path, first and last seen. */
void
table_versions(FILE *out, struct stats *st)
{
	size_t n = st->policy.n;

	fputs("<section id=\"policy-changes\">\n<h2>Policy changes</h2>\n"
	    "<p class=\"sub\">Every version (sha256) of each policy path "
	    "that ran, oldest first.  A path with more than one version was "
	    "rewritten between runs, whatever name it declares.</p>\n", out);
	if (n == 0) {
		fputs("<p class=\"empty\">No records.</p>\n</section>\n", out);
		return;
	}
	qsort(st->policy.e, n, sizeof(*st->policy.e), report_cmp_key);
	fputs("<table>\n<thead><tr><th>Path</th><th>sha256</th>"
	    "<th>Declared name</th><th class=\"n\">Runs</th><th>First seen "
	    "(UTC)</th><th>Last seen (UTC)</th></tr></thead>\n<tbody>\n",
	    out);
	for (size_t i = 0; i < n; i++) {
		const struct tally_entry *e = &st->policy.e[i];
		const struct detail *m = e->more;
		size_t pl = path_len(e->name);
		bool same_prev = i > 0 && path_len(st->policy.e[i - 1].name) ==
		    pl && strncmp(st->policy.e[i - 1].name, e->name, pl) == 0;
		bool same_next = i + 1 < n &&
		    path_len(st->policy.e[i + 1].name) == pl &&
		    strncmp(st->policy.e[i + 1].name, e->name, pl) == 0;
		char *path = xstrdup(e->name);

		path[pl] = '\0';
		fputs(same_prev || same_next ? "<tr class=\"changed\"><td>" :
		    "<tr><td>", out);
		put_short(out, path[0] ? path : "(no policy)", 120);
		if (same_prev)
			fputs(" <span class=\"tag adv\">changed</span>", out);
		fputs("</td><td><code class=\"sha\">", out);
		put_short(out, e->name[pl] ? e->name + pl + 1 : "", 64);
		fputs("</code></td><td>", out);
		put_short(out, m->extra ? m->extra : "", 40);
		fputs("</td><td class=\"n\">", out);
		put_num(out, e->n);
		fputs("</td><td class=\"nw\">", out);
		put_when(out, m->first ? m->first : "");
		fputs("</td><td class=\"nw\">", out);
		put_when(out, m->last ? m->last : "");
		fputs("</td></tr>\n", out);
		free(path);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
}

/* The policy's trust: "owner", "hash", and whether it was writable. */
static void
cell_trust(FILE *out, json_t *rec)
{
	json_t *pol = json_object_get(rec, "policy");

	fputs("<td>", out);
	put_short(out, records_str(pol, "trusted"), 20);
	if (json_is_true(json_object_get(rec, "policy_writable")))
		fputs(" <span class=\"tag adv\">writable</span>", out);
	fputs("</td>", out);
}

static void
cell_status(FILE *out, json_t *rec)
{
	const char *status = records_str(rec, "status");
	json_int_t sig = json_integer_value(json_object_get(rec, "signal"));

	fprintf(out, "<td><span class=\"badge b%d\">",
	    (int)report_outcome(rec));
	put_short(out, status, 20);
	if (strcmp(status, "signaled") == 0 && sig > 0)
		fprintf(out, " %s", signal_name((int)sig));
	fprintf(out, "</span> %lld</td><td>",
	    (long long)json_integer_value(json_object_get(rec, "exit_code")));
	if (json_is_string(json_object_get(rec, "limit_hit")))
		put_short(out, records_str(rec, "limit_hit"), 20);
	fputs("</td>", out);
}

static void
cell_denied(FILE *out, json_t *rec)
{
	json_t *denied = json_object_get(json_object_get(rec, "seccomp"),
	    "denied"), *d;
	json_int_t total = 0;
	size_t i;

	json_array_foreach(denied, i, d)
		total += json_integer_value(json_object_get(d, "count"));
	fprintf(out, "<td class=\"deny mono\" data-k=\"%lld\">",
	    (long long)total);
	json_array_foreach(denied, i, d) {
		if (i == 4) {
			fprintf(out, " +%zu more", json_array_size(denied) - 4);
			break;
		}
		if (i > 0)
			fputs("<br>", out);
		put_short(out, records_str(d, "syscall"), 24);
		fprintf(out, "&nbsp;&times;%lld",
		    (long long)json_integer_value(json_object_get(d, "count")));
	}
	fputs("</td>", out);
}

/* The command, then its advisories (by reason), error and restart. */
static void
cell_command(FILE *out, json_t *rec)
{
	bool cut;
	char *cmd = report_command_text(rec, &cut);
	json_t *d;
	size_t i;

	fputs("<td><code class=\"cmd\" title=\"", out);
	put_short(out, cmd, CMD_TITLE);
	fputs("\">", out);
	if (put_esc(out, cmd, CMD_SHOWN) || cut)
		fputs("&hellip;", out);
	fputs("</code>", out);
	free(cmd);
	json_array_foreach(json_object_get(rec, "advisory"), i, d) {
		fputs("<br><span class=\"tag adv\" title=\"rule: ", out);
		put_short(out, records_str(d, "rule"), 200);
		fputs("\">advisory: ", out);
		put_short(out, records_str(d, "reason"), 80);
		fputs("</span>", out);
	}
	if (json_is_string(json_object_get(rec, "error"))) {
		fputs("<br><span class=\"tag\">", out);
		put_short(out, records_str(rec, "error"), 100);
		fputs("</span>", out);
	}
	if (json_object_get(rec, "chain_restart") != NULL)
		fputs("<br><span class=\"tag adv\">chain restart</span>", out);
	fputs("</td>", out);
}

static void
run_row(FILE *out, json_t *rec)
{
	json_t *pol = json_object_get(rec, "policy");
	const char *id = records_str(rec, "id");
	char *user = report_user(rec);

	fputs("<tr><td class=\"mono\" title=\"", out);
	put_esc(out, id, 64);
	fputs("\">", out);
	put_short(out, id, 8);
	fputs("</td><td class=\"nw\" data-k=\"", out);
	put_esc(out, records_str(rec, "start"), 40);
	fputs("\">", out);
	put_when(out, records_str(rec, "start"));
	fputs("</td><td>", out);
	put_short(out, records_str(rec, "host"), 40);
	fputs("</td><td>", out);
	put_short(out, user, 24);
	fputs("</td><td class=\"cmd\">", out);
	put_short(out, records_str(rec, "cwd"), 80);
	fputs("</td><td class=\"cmd\">", out);
	put_short(out, records_str(pol, "path"), 80);
	fputs("</td><td><code class=\"sha\" title=\"", out);
	put_esc(out, records_str(pol, "sha256"), 64);
	fputs("\">", out);
	put_short(out, records_str(pol, "sha256"), 12);
	fputs("</code></td>", out);
	cell_trust(out, rec);
	cell_status(out, rec);
	cell_denied(out, rec);
	cell_command(out, rec);
	fputs("</tr>\n", out);
	free(user);
}

/* Every run, newest last as in the logs; the script sorts and filters. */
void
table_runs(FILE *out, const struct stats *st)
{
	fputs("<section id=\"runs\">\n<h2>All runs</h2>\n", out);
	if (st->nall == 0) {
		fputs("<p class=\"empty\">No records.</p>\n</section>\n", out);
		return;
	}
	fputs("<p class=\"sub\">Every record, in the order of the logs.  "
	    "Click a column head to sort; type words to show only the runs "
	    "whose row holds all of them (the page's address takes them "
	    "too: <code>#q=WORDS&amp;sort=-time</code>).</p>\n"
	    "<p class=\"filter\"><label>Filter <input id=\"run-filter\" "
	    "type=\"search\" size=\"40\"></label> <span id=\"run-count\">",
	    out);
	put_num(out, st->nall);
	fputs("</span> of ", out);
	put_num(out, st->nall);
	fputs(" runs shown</p>\n<table id=\"run-table\">\n<thead><tr>"
	    "<th data-col=\"id\">Id</th><th data-col=\"time\">Time (UTC)</th>"
	    "<th data-col=\"host\">Host</th><th data-col=\"user\">User</th>"
	    "<th data-col=\"cwd\">Cwd</th><th data-col=\"policy\">Policy</th>"
	    "<th data-col=\"sha256\">sha256</th><th data-col=\"trust\">"
	    "Trust</th><th data-col=\"status\">Status</th>"
	    "<th data-col=\"limit\">Limit</th><th data-col=\"denials\" "
	    "data-num>Denials</th><th data-col=\"command\">Command</th>"
	    "</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < st->nall; i++)
		run_row(out, st->all[i]);
	fputs("</tbody>\n</table>\n</section>\n", out);
}
