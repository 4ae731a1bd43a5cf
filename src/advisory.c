/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "advisory.h"
#include "log.h"
#include "policy.h"

/* The command line as matched: the arguments joined with single spaces. */
static char *
join_argv(char *const *argv)
{
	size_t len = 1;
	char *line;

	for (size_t i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	line = xmalloc(len);
	len = 0;
	for (size_t i = 0; argv[i] != NULL; i++) {
		size_t alen = strlen(argv[i]);

		if (i > 0)
			line[len++] = ' ';
		memcpy(line + len, argv[i], alen);
		len += alen;
	}
	line[len] = '\0';
	return line;
}

const struct gx_advisory_rule **
advisory_match(const struct gx_policy *pol, char *const *argv)
{
	const struct gx_advisory_rule **out;
	char *line = join_argv(argv);
	size_t n = 0;

	out = xcalloc(pol->n_advisory + 1, sizeof(*out));
	for (size_t i = 0; i < pol->n_advisory; i++) {
		const struct gx_advisory_rule *r = &pol->advisory[i];

		if ((r->match != NULL && strstr(line, r->match) != NULL) ||
		    (r->regex != NULL && regexec(&r->re, line, 0, NULL, 0) == 0))
			out[n++] = r;
	}
	free(line);
	return out;
}

void
advisory_rule_free(struct gx_advisory_rule *rule)
{
	free(rule->match);
	if (rule->regex != NULL)
		regfree(&rule->re);
	free(rule->regex);
	free(rule->reason);
}
