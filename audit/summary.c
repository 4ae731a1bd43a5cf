/* SPDX-License-Identifier: ISC */
/* guardexec-audit summary: counts by policy, status, denials, ... */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "log.h"
#include "records.h"
#include "tally.h"

struct summary {
	unsigned long runs, timeouts, truncations;
	struct tally policy, status, exit_code, command, denied, advisory,
	    limit, refused;
};

/*
 * The policy a record names: its "name", or (when it failed to load,
 * and so has no name) its path, so that refused runs are named too.
 */
static const char *
policy_label(json_t *rec)
{
	json_t *pol = json_object_get(rec, "policy");
	const char *name = records_str(pol, "name");

	if (name[0] != '\0')
		return name;
	name = records_str(pol, "path");
	return name[0] != '\0' ? name : "(no policy)";
}

static void
sum_one(json_t *rec, const char *line, void *arg)
{
	struct summary *s = arg;
	json_t *sec = json_object_get(rec, "seccomp"), *d, *argv0;
	char code[24];
	size_t i;

	(void)line;
	s->runs++;
	tally_add(&s->policy, policy_label(rec), 1);
	tally_add(&s->status, records_str(rec, "status"), 1);
	if (strcmp(records_str(rec, "status"), "refused") == 0)
		tally_add(&s->refused, policy_label(rec), 1);
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

/* A name from the log, printable on a terminal (tally_print's @show). */
static char *
printable(const char *s)
{
	return audit_printable(s, 200, NULL);
}

static void
print_summary(struct summary *s, unsigned long bad, size_t top)
{
	printf("runs: %lu   timeouts: %lu   truncated output: %lu%s\n", s->runs,
	    s->timeouts, s->truncations, bad ? "   (unparsable lines: see "
	    "verify)" : "");
	tally_print("runs by policy", &s->policy, top, printable);
	tally_print("runs by status", &s->status, top, printable);
	tally_print("runs by exit code", &s->exit_code, top, printable);
	tally_print("top commands", &s->command, top, printable);
	tally_print("denied syscalls (count)", &s->denied, top, printable);
	tally_print("advisories", &s->advisory, top, printable);
	tally_print("limits hit", &s->limit, top, printable);
	tally_print("refused runs by policy", &s->refused, top, printable);
}

int
summary_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct summary s = { 0 };
	unsigned long bad = 0;
	size_t top = 10;
	int c, rc;

	while ((c = audit_getopt(argc, argv, opts)) != -1) {
		switch (c) {
		case 't':
			if (audit_parse_count("--top", optarg, 1000000,
			    &top) != 0)
				return 2;
			break;
		default:
			return audit_bad_option(argv);
		}
	}
	if (optind >= argc)
		return audit_usage_error("summary: no LOG given");
	rc = records_each(argc - optind, argv + optind, sum_one, &s, &bad);
	print_summary(&s, bad, top);
	tally_free(&s.policy, NULL);
	tally_free(&s.status, NULL);
	tally_free(&s.exit_code, NULL);
	tally_free(&s.command, NULL);
	tally_free(&s.denied, NULL);
	tally_free(&s.advisory, NULL);
	tally_free(&s.limit, NULL);
	tally_free(&s.refused, NULL);
	return rc;
}
