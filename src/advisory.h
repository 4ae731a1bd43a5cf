/* SPDX-License-Identifier: ISC */
#ifndef GX_ADVISORY_H
#define GX_ADVISORY_H

#include <regex.h>

/*
 * Advisory rules: warnings about a command line, NOT a security control.
 * The matching rule: every rule that matches warns, in the order the
 * policy lists them; none decides anything.
 */

struct gx_policy;

struct gx_advisory_rule {
	char *match;            /* substring, or NULL */
	char *regex;            /* POSIX ERE source, or NULL */
	regex_t re;             /* compiled when regex != NULL */
	char *reason;
};

/*
 * Advisory matches of @argv (joined with single spaces).  Returns a
 * NULL-terminated array of pointers into pol->advisory, in the policy's
 * order (caller frees the array only), never NULL.
 */
const struct gx_advisory_rule **advisory_match(const struct gx_policy *pol,
    char *const *argv);

/* Release what @rule owns (not @rule itself). */
void advisory_rule_free(struct gx_advisory_rule *rule);

#endif
