/* SPDX-License-Identifier: ISC */
/*
 * guardexec-audit: the reviewer's tool for guardexec's audit log.  It
 * checks lines with the same code that writes them (src/audit.c).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "crosscheck.h"
#include "log.h"
#include "records.h"
#include "report.h"
#include "util.h"

static const char usage[] =
    "usage: guardexec-audit verify [--partial] [--strict] LOG...\n"
    "       guardexec-audit show [--json] [--since TIME] [--until TIME]\n"
    "                            [--policy NAME] [--status STATUS] "
    "[--user USER]\n"
    "                            [--command SUBSTR] [--denied] "
    "[--advisory] LOG...\n"
    "       guardexec-audit summary [--top N] LOG...\n"
    "       guardexec-audit report [-o FILE] LOG...\n"
    "       guardexec-audit crosscheck LOCAL... CENTRAL\n"
    "       guardexec-audit --help | --version\n";

/* Verify one or more files as one chain; 0 intact, 1 broken, 2 error. */
static int
verify(int argc, char **argv)
{
	char expect[65] = GX_ZERO_HASH, prev[65], hash[65];
	bool partial = false, first = true, strict = false;
	unsigned long long records = 0;
	int i = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (strcmp(argv[i], "--partial") == 0)
			partial = true;
		else if (strcmp(argv[i], "--strict") == 0)
			strict = true;
		else
			break;
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	for (; i < argc; i++) {
		FILE *f = fopen(argv[i], "re");
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned long lineno = 0;

		if (f == NULL) {
			fprintf(stderr, "guardexec-audit: %s: %s\n", argv[i],
			    strerror(errno));
			return 2;
		}
		while ((n = getline(&line, &cap, f)) > 0) {
			const char *why = NULL;

			lineno++;
			if (line[n - 1] != '\n') {
				printf("%s:%lu: torn line (no newline at the "
				    "end)\n", argv[i], lineno);
				goto bad;
			}
			if ((strict ? audit_check_line : audit_check_line_fast)(
			    line, (size_t)n - 1, prev, hash, &why) < 0) {
				printf("%s:%lu: %s\n", argv[i], lineno, why);
				goto bad;
			}
			if (!(first && partial) && strcmp(prev, expect) != 0) {
				printf("%s:%lu: \"prev\" does not match the hash "
				    "of the line before (a line was deleted, "
				    "reordered or inserted)\n", argv[i], lineno);
				goto bad;
			}
			first = false;
			memcpy(expect, hash, sizeof(expect));
			records++;
			continue;
bad:
			free(line);
			fclose(f);
			return 1;
		}
		free(line);
		if (ferror(f)) {
			fprintf(stderr, "guardexec-audit: %s: read error\n",
			    argv[i]);
			fclose(f);
			return 2;
		}
		fclose(f);
	}
	/* The head anchor of the newest file: a log cut short shows here. */
	if (records > 0) {
		char head[65];

		if (audit_head_read(argv[argc - 1], head) == 0) {
			if (strcmp(head, expect) != 0) {
				printf("%s: the last line is not the one the head "
				    "anchor %s.head names (lines were deleted "
				    "from the end, or appended by hand)\n",
				    argv[argc - 1], argv[argc - 1]);
				return 1;
			}
		} else if (errno != ENOENT) {
			printf("%s.head: unreadable head anchor\n",
			    argv[argc - 1]);
			return 1;
		}
	}
	printf("%llu records, chain intact\n", records);
	return 0;
}

/* argv joined with spaces, control characters shown as '?'. */
static char *
command_line(json_t *rec, size_t max)
{
	json_t *argv = json_object_get(rec, "argv");
	size_t len = 0;
	char *out = xmalloc(max + 1);
	json_t *a;
	size_t i;

	out[0] = '\0';
	json_array_foreach(argv, i, a) {
		const char *s = json_string_value(a);

		if (s == NULL)
			continue;
		if (i > 0 && len < max)
			out[len++] = ' ';
		for (; *s != '\0' && len < max; s++)
			out[len++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ?
			    '?' : *s;
	}
	out[len] = '\0';
	return out;
}

struct show {
	const char *since, *until, *policy, *status, *user, *command;
	bool denied, advisory, json;
	unsigned long shown;
};

static void
show_one(json_t *rec, const char *line, void *arg)
{
	struct show *sh = arg;
	const char *start = records_str(rec, "start");
	json_t *sec = json_object_get(rec, "seccomp");
	char *cmd;

	if (sh->since != NULL && strcmp(start, sh->since) < 0)
		return;
	if (sh->until != NULL && strcmp(start, sh->until) > 0)
		return;
	if (sh->policy != NULL && strcmp(records_str(json_object_get(rec, "policy"),
	    "name"), sh->policy) != 0)
		return;
	if (sh->status != NULL && strcmp(records_str(rec, "status"), sh->status) != 0)
		return;
	if (sh->user != NULL && strcmp(records_str(rec, "user"), sh->user) != 0)
		return;
	if (sh->denied && json_array_size(json_object_get(sec, "denied")) == 0)
		return;
	if (sh->advisory && json_array_size(json_object_get(rec,
	    "advisory")) == 0)
		return;
	cmd = command_line(rec, 4096);
	if (sh->command != NULL && strstr(cmd, sh->command) == NULL) {
		free(cmd);
		return;
	}
	sh->shown++;
	if (sh->json) {
		printf("%s\n", line);
	} else {
		char when[20];

		strlcpy(when, start, sizeof(when));
		if (strlen(when) == 19)
			when[10] = ' ';
		printf("%-19s  %-10.10s  %-12.12s  %-11.11s  %4lld  %9.1f  %.60s\n",
		    when, records_str(rec, "user"), records_str(json_object_get(rec, "policy"),
		    "name"), records_str(rec, "status"),
		    json_integer_value(json_object_get(rec, "exit_code")),
		    json_number_value(json_object_get(rec, "duration_ms")), cmd);
	}
	free(cmd);
}

static int
show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "policy", required_argument, NULL, 'p' },
		{ "status", required_argument, NULL, 'S' },
		{ "user", required_argument, NULL, 'U' },
		{ "command", required_argument, NULL, 'c' },
		{ "denied", no_argument, NULL, 'd' },
		{ "advisory", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct show sh = { 0 };
	unsigned long bad = 0;
	int c, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's': sh.since = optarg; break;
		case 'u': sh.until = optarg; break;
		case 'p': sh.policy = optarg; break;
		case 'S': sh.status = optarg; break;
		case 'U': sh.user = optarg; break;
		case 'c': sh.command = optarg; break;
		case 'd': sh.denied = true; break;
		case 'a': sh.advisory = true; break;
		case 'j': sh.json = true; break;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (!sh.json)
		printf("%-19s  %-10s  %-12s  %-11s  %4s  %9s  %s\n", "START (UTC)",
		    "USER", "POLICY", "STATUS", "EXIT", "MS", "COMMAND");
	rc = records_each(argc - optind, argv + optind, show_one, &sh, &bad);
	if (bad > 0)
		fprintf(stderr, "guardexec-audit: %lu lines were not records "
		    "(run verify)\n", bad);
	return rc;
}

/* A small counter table: name -> count. */
struct tally {
	char **names;
	unsigned long *counts;
	size_t n;
};

static void
tally_add(struct tally *t, const char *name, unsigned long by)
{
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->names[i], name) == 0) {
			t->counts[i] += by;
			return;
		}
	}
	t->names = xreallocarray(t->names, t->n + 1, sizeof(*t->names));
	t->counts = xreallocarray(t->counts, t->n + 1, sizeof(*t->counts));
	t->names[t->n] = xstrdup(name);
	t->counts[t->n++] = by;
}

static const struct tally *sort_tally;

static int
cmp_tally(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	unsigned long ci = sort_tally->counts[i], cj = sort_tally->counts[j];

	if (ci != cj)
		return ci < cj ? 1 : -1;
	return strcmp(sort_tally->names[i], sort_tally->names[j]);
}

static void
tally_print(const char *title, const struct tally *t, size_t top)
{
	size_t *ix = xcalloc(t->n + 1, sizeof(*ix));

	printf("\n%s\n", title);
	if (t->n == 0)
		printf("  (none)\n");
	for (size_t i = 0; i < t->n; i++)
		ix[i] = i;
	sort_tally = t;
	qsort(ix, t->n, sizeof(*ix), cmp_tally);
	for (size_t i = 0; i < t->n && i < top; i++)
		printf("  %8lu  %s\n", t->counts[ix[i]], t->names[ix[i]]);
	if (t->n > top)
		printf("  (%zu more)\n", t->n - top);
	free(ix);
}

static void
tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->counts);
}

struct summary {
	unsigned long runs, timeouts, truncations, refused;
	struct tally policy, status, exit_code, command, denied, advisory,
	    limit;
};

static void
sum_one(json_t *rec, const char *line, void *arg)
{
	struct summary *s = arg;
	json_t *sec = json_object_get(rec, "seccomp"), *d, *argv0;
	char code[24];
	size_t i;

	(void)line;
	s->runs++;
	tally_add(&s->policy, records_str(json_object_get(rec, "policy"), "name"), 1);
	tally_add(&s->status, records_str(rec, "status"), 1);
	snprintf(code, sizeof(code), "%lld",
	    json_integer_value(json_object_get(rec, "exit_code")));
	tally_add(&s->exit_code, code, 1);
	argv0 = json_array_get(json_object_get(rec, "argv"), 0);
	if (json_is_string(argv0)) {
		const char *a = json_string_value(argv0), *slash = strrchr(a, '/');

		tally_add(&s->command, slash ? slash + 1 : a, 1);
	}
	json_array_foreach(json_object_get(sec, "denied"), i, d)
		tally_add(&s->denied, records_str(d, "syscall"),
		    (unsigned long)json_integer_value(json_object_get(d,
		    "count")));
	json_array_foreach(json_object_get(rec, "advisory"), i, d)
		tally_add(&s->advisory, records_str(d, "rule"), 1);
	if (json_is_true(json_object_get(rec, "timed_out")))
		s->timeouts++;
	if (json_is_true(json_object_get(rec, "truncated")))
		s->truncations++;
	if (json_is_string(json_object_get(rec, "limit_hit")))
		tally_add(&s->limit, records_str(rec, "limit_hit"), 1);
}

static int
summary(int argc, char **argv)
{
	struct summary s = { 0 };
	unsigned long bad = 0;
	size_t top = 10;
	int i = 0, rc;

	if (argc > 1 && strcmp(argv[0], "--top") == 0) {
		top = (size_t)strtoul(argv[1], NULL, 10);
		i = 2;
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	rc = records_each(argc - i, argv + i, sum_one, &s, &bad);
	printf("runs: %lu   timeouts: %lu   truncated output: %lu%s\n", s.runs,
	    s.timeouts, s.truncations, bad ? "   (unparsable lines: see "
	    "verify)" : "");
	tally_print("runs by policy", &s.policy, top);
	tally_print("runs by status", &s.status, top);
	tally_print("runs by exit code", &s.exit_code, top);
	tally_print("top commands", &s.command, top);
	tally_print("denied syscalls (count)", &s.denied, top);
	tally_print("advisories", &s.advisory, top);
	tally_print("limits hit", &s.limit, top);
	tally_free(&s.policy);
	tally_free(&s.status);
	tally_free(&s.exit_code);
	tally_free(&s.command);
	tally_free(&s.denied);
	tally_free(&s.advisory);
	tally_free(&s.limit);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("guardexec-audit %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "verify") == 0)
		return verify(argc - 2, argv + 2);
	if (strcmp(argv[1], "show") == 0)
		return show(argc - 1, argv + 1);
	if (strcmp(argv[1], "summary") == 0)
		return summary(argc - 2, argv + 2);
	if (strcmp(argv[1], "report") == 0)
		return report_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "crosscheck") == 0)
		return crosscheck_main(argc - 2, argv + 2);
	fprintf(stderr, "guardexec-audit: unknown command \"%s\"\n%s", argv[1],
	    usage);
	return 2;
}
