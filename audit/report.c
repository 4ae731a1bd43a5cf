/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit report: the audit logs as one self-contained HTML page
 * for a reviewer.  Inline CSS, inline SVG and one inline script (the run
 * list's sorting and filtering); nothing is fetched.  The page's
 * Content-Security-Policy allows that script by its sha256 and forbids
 * every other script, fetch, frame and form, so even a string that got
 * past put_esc() could neither run nor call home.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "log.h"
#include "records.h"
#include "report.h"
#include "report_int.h"

static const char report_usage[] =
    "usage: guardexec-audit report [-o FILE] [-n NAME]... LOG...\n";

/* Where one file's reading is, for the chain check. */
struct reader {
	struct stats *st;
	struct chain *c;
	char *expect;           /* the last good hash, or "" */
	bool first_file;
};

/* How the first record of a file chains. */
static void
chain_first(struct reader *r, const char *prev)
{
	if (strcmp(prev, GX_ZERO_HASH) == 0)
		r->c->start = "starts a new chain";
	else if (r->expect[0] != '\0' && strcmp(prev, r->expect) == 0)
		r->c->start = "continues the file before";
	else if (r->first_file)
		r->c->start = "continues records not given "
		    "(rotated away or deleted)";
	else
		r->c->start = "does not continue the file before "
		    "(another log, or records missing between them)";
}

static void
chain_break(struct chain *c, unsigned long lineno, const char *why)
{
	if (c->state == CH_BROKEN)
		return;
	c->state = CH_BROKEN;
	c->line = lineno;
	c->why = why;
}

/*
 * A copy cut to fit syslog ("syslog_truncated", from a collector's
 * file) cannot check its own hash, but carries the full record's "prev"
 * and "hash": the chain goes on through it.
 */
static bool
cut_copy(json_t *rec, char *prev, char *hash)
{
	const char *p = json_string_value(json_object_get(rec, "prev"));
	const char *h = json_string_value(json_object_get(rec, "hash"));

	if (!json_is_true(json_object_get(rec, "syslog_truncated")) ||
	    p == NULL || h == NULL || strlen(p) != 64 || strlen(h) != 64)
		return false;
	memcpy(prev, p, 65);
	memcpy(hash, h, 65);
	return true;
}

/* Where the line whose own check gave @prev and @hash is in the chain. */
static void
chain_next(struct reader *r, const char *prev, const char *hash,
    unsigned long lineno)
{
	struct chain *c = r->c;

	if (c->state == CH_EMPTY) {
		c->state = CH_INTACT;
		chain_first(r, prev);
	} else if (strcmp(prev, GX_ZERO_HASH) == 0) {
		c->restarts++;
	} else if (strcmp(prev, r->expect) != 0) {
		chain_break(c, lineno, "\"prev\" does not match the line "
		    "before (a line was deleted, reordered or inserted)");
	}
	strlcpy(r->expect, hash, 65);
}

/*
 * One line: its hash, its place in the chain, then its record.  A new
 * file starts its own chain entry (records_each_line's callback).
 */
static void
read_line(const struct records_at *at, char *line, size_t len, void *arg)
{
	struct reader *r = arg;
	struct chain *c = &r->st->chains[at->file];
	char prev[65], hash[65];
	const char *why;
	json_error_t jerr;
	json_t *rec = json_loadb(line, len, 0, &jerr);

	r->c = c;
	r->first_file = at->file == 0;
	if (rec != NULL && !json_is_object(rec)) {
		json_decref(rec);
		rec = NULL;
	}
	if (audit_check_line_fast(line, len, prev, hash, &why) == 0) {
		chain_next(r, prev, hash, at->lineno);
	} else if (rec != NULL && cut_copy(rec, prev, hash)) {
		c->cut++;
		chain_next(r, prev, hash, at->lineno);
	} else {
		chain_break(c, at->lineno, why);
		r->expect[0] = '\0';
	}
	if (rec == NULL) {
		r->st->bad++;
		return;
	}
	c->records++;
	stats_add(r->st, rec);
	json_decref(rec);
}

/*
 * All the LOGs in order (plain or gzip), as one chain; @names label them
 * (or NULL).  Returns 0, or 2 after a message.
 */
static int
read_logs(struct stats *st, int n, char **logs, char **names, int nnames)
{
	char expect[65] = "";
	struct reader r = { st, NULL, expect, true };

	st->chains = xcalloc((size_t)n, sizeof(*st->chains));
	st->nchains = (size_t)n;
	for (int i = 0; i < n; i++)
		st->chains[i].name = i < nnames ? names[i] : logs[i];
	return records_each_line(n, logs, read_line, &r);
}

static void
write_head(FILE *out, const struct stats *st)
{
	char hash[64];

	report_script_hash(hash, sizeof(hash));
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\""
	    "default-src 'none'; script-src %s; style-src 'unsafe-inline'; "
	    "img-src data:; base-uri 'none'; form-action 'none'\">\n", hash);
	fputs("<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n"
	    "<meta name=\"generator\" content=\"guardexec-audit "
	    PACKAGE_VERSION "\">\n<link rel=\"icon\" href=\"data:,\">\n"
	    "<title>guardexec audit report: ", out);
	for (size_t i = 0; i < st->nchains; i++) {
		if (i > 0)
			fputs(", ", out);
		put_short(out, st->chains[i].name, 100);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<div class=\"wrap\">\n", report_css);
}

static void
write_page(FILE *out, struct stats *st)
{
	write_head(out, st);
	write_summary(out, st);
	write_chains(out, st);
	chart_runs(out, st);
	table_policies(out, st);
	fputs("<div class=\"two\">\n", out);
	chart_denied(out, st);
	tables_advisories(out, st);
	fputs("</div>\n", out);
	table_users(out, st);
	table_versions(out, st);
	table_runs(out, st);
	fputs("</div>\n<footer>Made by guardexec-audit " PACKAGE_VERSION
	    " report.  <code>guardexec-audit verify</code> is the full check "
	    "of a log (its <code>.head</code> anchor included).</footer>\n",
	    out);
	write_script(out);
	fputs("</body>\n</html>\n", out);
}

static int
usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "guardexec-audit: report: %s%s\n%s", what, arg,
	    report_usage);
	return 2;
}

/* Write the page to @output ("-" or NULL: stdout); 0 or 2. */
static int
emit(struct stats *st, const char *output)
{
	FILE *out;
	int rc = 0;

	if (output == NULL || strcmp(output, "-") == 0) {
		output = "standard output";
		out = stdout;
	} else {
		out = fopen(output, "we");
	}
	if (out == NULL) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", output,
		    strerror(errno));
		return 2;
	}
	write_page(out, st);
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", output,
		    strerror(errno));
		rc = 2;
	}
	if (out != stdout && fclose(out) != 0 && rc == 0) {
		fprintf(stderr, "guardexec-audit: %s: %s\n", output,
		    strerror(errno));
		rc = 2;
	}
	return rc;
}

/* The options; 0, or the exit status of a usage error or --help. */
struct report_opts {
	const char *output;
	char **names;
	int nnames;
};

static int
parse_opts(int argc, char **args, struct report_opts *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, args, ":o:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (optarg[0] == '\0')
				return usage_error("-o needs a file name", "");
			o->output = optarg;
			break;
		case 'n':
			o->names[o->nnames++] = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return -1;
		case ':':
			return usage_error("an option needs a value: ",
			    args[optind - 1]);
		default:
			return usage_error("unknown option: ",
			    args[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no LOG given", "");
	if (o->nnames > argc - optind)
		return usage_error("more --name than LOG arguments", "");
	return 0;
}

int
report_main(int argc, char **argv)
{
	static char name[] = "report";
	char **args = xcalloc((size_t)argc + 2, sizeof(*args));
	struct report_opts o = { NULL, NULL, 0 };
	struct stats st;
	int rc;

	/* getopt wants a program name first; argv starts after it. */
	args[0] = name;
	memcpy(args + 1, argv, (size_t)argc * sizeof(*args));
	o.names = xcalloc((size_t)argc + 1, sizeof(*o.names));
	rc = parse_opts(argc + 1, args, &o);
	if (rc != 0) {
		free(o.names);
		free(args);
		return rc < 0 ? 0 : rc;
	}
	memset(&st, 0, sizeof(st));
	rc = read_logs(&st, argc + 1 - optind, args + optind, o.names,
	    o.nnames);
	if (rc == 0)
		rc = emit(&st, o.output);
	stats_free(&st);
	free(o.names);
	free(args);
	return rc;
}
