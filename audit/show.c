/* SPDX-License-Identifier: ISC */
/* guardexec-audit show: the records that pass the filters, as a table. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auditlog.h"
#include "common.h"
#include "log.h"
#include "records.h"

struct show {
	const char *since, *until, *policy, *status, *user, *command;
	bool denied, advisory, json;
	unsigned long shown;
};

/* argv joined with spaces, at most @max bytes, raw (for --command). */
static char *
command_line(json_t *rec, size_t max)
{
	json_t *argv = json_object_get(rec, "argv"), *a;
	char *out = xmalloc(max + 1);
	size_t len = 0, i;

	out[0] = '\0';
	json_array_foreach(argv, i, a) {
		const char *s = json_string_value(a);

		if (s == NULL)
			continue;
		if (i > 0 && len < max)
			out[len++] = ' ';
		for (; *s != '\0' && len < max; s++)
			out[len++] = *s;
	}
	out[len] = '\0';
	return out;
}

static bool
wanted(const struct show *sh, json_t *rec, const char *cmd)
{
	const char *start = records_str(rec, "start");
	json_t *sec = json_object_get(rec, "seccomp");

	return !((sh->since != NULL && strcmp(start, sh->since) < 0) ||
	    (sh->until != NULL && strcmp(start, sh->until) > 0) ||
	    (sh->policy != NULL && strcmp(records_str(json_object_get(rec,
	    "policy"), "name"), sh->policy) != 0) ||
	    (sh->status != NULL && strcmp(records_str(rec, "status"),
	    sh->status) != 0) ||
	    (sh->user != NULL && strcmp(records_str(rec, "user"),
	    sh->user) != 0) ||
	    (sh->denied && json_array_size(json_object_get(sec,
	    "denied")) == 0) ||
	    (sh->advisory && json_array_size(json_object_get(rec,
	    "advisory")) == 0) ||
	    (sh->command != NULL && strstr(cmd, sh->command) == NULL));
}

/* One cell: @s made printable, cut to @w characters, padded unless last. */
static void
cell(const char *s, size_t w, bool last)
{
	size_t width;
	char *p = audit_printable(s, w, &width);

	fputs(p, stdout);
	if (!last)
		printf("%*s", (int)(w - width + 2), "");
	free(p);
}

static void
show_one(json_t *rec, const char *line, void *arg)
{
	struct show *sh = arg;
	char *cmd = command_line(rec, 4096), when[20];

	if (!wanted(sh, rec, cmd)) {
		free(cmd);
		return;
	}
	sh->shown++;
	if (sh->json) {
		printf("%s\n", line);
		free(cmd);
		return;
	}
	strlcpy(when, records_str(rec, "start"), sizeof(when));
	if (strlen(when) == 19)
		when[10] = ' ';
	cell(when, 19, false);
	cell(records_str(rec, "user"), 10, false);
	cell(records_str(json_object_get(rec, "policy"), "name"), 12, false);
	cell(records_str(rec, "status"), 11, false);
	printf("%4lld  %9.1f  ",
	    json_integer_value(json_object_get(rec, "exit_code")),
	    json_number_value(json_object_get(rec, "duration_ms")));
	cell(cmd, 60, true);
	putchar('\n');
	free(cmd);
}

int
show_main(int argc, char **argv)
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
	char *def = NULL;
	int c, rc;

	while ((c = audit_getopt(argc, argv, opts)) != -1) {
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
		default: return audit_bad_option(argv);
		}
	}
	if (optind >= argc) {
		/* No LOG: the one guardexec writes by default. */
		def = audit_log_default_path();
		if (def == NULL)
			return audit_usage_error("show: no LOG given, and no "
			    "default log (HOME is not set)");
	}
	if (!sh.json)
		printf("%-19s  %-10s  %-12s  %-11s  %4s  %9s  %s\n",
		    "START (UTC)", "USER", "POLICY", "STATUS", "EXIT", "MS",
		    "COMMAND");
	rc = def != NULL ? records_each(1, &def, show_one, &sh, &bad) :
	    records_each(argc - optind, argv + optind, show_one, &sh, &bad);
	free(def);
	if (bad > 0)
		fprintf(stderr, "guardexec-audit: %lu line%s not record%s "
		    "(run verify)\n", bad, bad == 1 ? " was" : "s were",
		    bad == 1 ? "" : "s");
	return rc;
}
