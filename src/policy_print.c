/* SPDX-License-Identifier: ISC */
/*
 * The policy as text, by the key table: --check's effective policy,
 * --learn's output (the same printer: the policy as loaded, never the
 * file read again) and --init's starter template.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "policy_keys.h"
#include "policy_value.h"
#include "util.h"

/* A comment of the loaded policy, and the setting it belongs to. */
struct comment {
	char *where;            /* "version", "limits", "limits.timeout" */
	char *line;             /* "# ...", one line */
	bool used;
};

struct printer {
	FILE *out;
	const struct gx_policy *pol;
	char *const *allow;     /* syscalls.allow override (--learn) */
	char *const *fs_read;   /* --learn: entries added to filesystem.read */
	char *const *fs_write;  /* and to filesystem.write */
	struct comment *c;      /* --learn: the base policy's comments */
	size_t n_c;
};

static void
add_comment(struct comment **c, size_t *n, const char *where,
    const char *text, size_t len)
{
	struct comment *t = xreallocarray(*c, *n + 1, sizeof(**c));

	while (len > 0 && (text[len - 1] == '\r' || text[len - 1] == ' ' ||
	    text[len - 1] == '\t'))
		len--;
	while (len > 0 && (text[0] == ' ' || text[0] == '\t')) {
		text++;
		len--;
	}
	t[*n].where = xstrdup(where);
	t[*n].line = text[0] == '#' ? xasprintf("%.*s", (int)len, text) :
	    xasprintf("# %.*s", (int)len, text);
	t[*n].used = false;
	*c = t;
	(*n)++;
}

/* Hold @text (a comment's body) until its setting is known. */
static void
hold(char ***pending, const char *text, size_t len)
{
	char *l = xasprintf("%.*s", (int)len, text);

	*pending = strv_append(*pending, l);
	free(l);
}

static void
flush(struct comment **c, size_t *n, char ***pending, const char *where)
{
	for (size_t i = 0; *pending != NULL && (*pending)[i] != NULL; i++)
		add_comment(c, n, where, (*pending)[i], strlen((*pending)[i]));
	strv_free(*pending);
	*pending = NULL;
}

/*
 * The comments of @buf, each tied to the setting it stands above (or
 * beside, on the same line, or inside the list of); the rest to "".
 * A small scanner of libconfig's lexical shape: strings, #, // and
 * C comments, names followed by = or :, braces, brackets, parentheses.
 */
static void
scan_comments(const char *buf, size_t len, struct comment **c, size_t *n)
{
	char **pending = NULL, group[64] = "", owner[160] = "";
	int depth = 0, lists = 0;
	bool owner_line = false;

	*c = NULL;
	*n = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = buf[i];

		if (ch == '\n') {
			owner_line = false;
		} else if (ch == '"') {
			for (i++; i < len && buf[i] != '"'; i++)
				if (buf[i] == '\\')
					i++;
		} else if (ch == '#' || (ch == '/' && i + 1 < len &&
		    buf[i + 1] == '/')) {
			size_t j = i;

			while (j < len && buf[j] != '\n')
				j++;
			if ((owner_line || lists > 0) && owner[0] != '\0')
				add_comment(c, n, owner, buf + i, j - i);
			else
				hold(&pending, buf + i, j - i);
			i = j - 1;
		} else if (ch == '/' && i + 1 < len && buf[i + 1] == '*') {
			size_t j = i + 2, start = j;

			for (; j < len && !(buf[j] == '*' && j + 1 < len &&
			    buf[j + 1] == '/'); j++) {
				if (buf[j] == '\n') {
					if (j > start)
						hold(&pending, buf + start,
						    j - start);
					start = j + 1;
				}
			}
			if (j > start)
				hold(&pending, buf + start, j - start);
			i = j + 1;
		} else if (ch == '{') {
			depth++;
		} else if (ch == '}') {
			depth--;
		} else if (ch == '[' || ch == '(') {
			lists++;
		} else if (ch == ']' || ch == ')') {
			lists--;
		} else if (lists == 0 && (isalpha((unsigned char)ch) ||
		    ch == '_')) {
			size_t j = i, k;

			while (j < len && (isalnum((unsigned char)buf[j]) ||
			    buf[j] == '_' || buf[j] == '-' || buf[j] == '*'))
				j++;
			for (k = j; k < len && isspace((unsigned char)buf[k]) &&
			    buf[k] != '\n'; k++)
				;
			if (k < len && (buf[k] == '=' || buf[k] == ':') &&
			    depth <= 1 && j - i < 64) {
				if (depth == 0) {
					snprintf(group, sizeof(group), "%.*s",
					    (int)(j - i), buf + i);
					strlcpy(owner, group, sizeof(owner));
				} else {
					snprintf(owner, sizeof(owner), "%s.%.*s",
					    group, (int)(j - i), buf + i);
				}
				flush(c, n, &pending, owner);
				owner_line = true;
			}
			i = j - 1;
		}
	}
	flush(c, n, &pending, "");
}

/* The comments held for @where (a group, or "group.key"). */
static void
print_comments(const struct printer *p, const char *group, const char *key)
{
	char where[160];

	if (key != NULL)
		snprintf(where, sizeof(where), "%s.%s", group, key);
	else
		strlcpy(where, group, sizeof(where));
	for (size_t i = 0; i < p->n_c; i++) {
		if (p->c[i].used || strcmp(p->c[i].where, where) != 0)
			continue;
		fprintf(p->out, "%s%s\n", key != NULL ? "  " : "",
		    p->c[i].line);
		p->c[i].used = true;
	}
}

/* A libconfig string literal. */
static void
print_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void
print_list(FILE *out, const char *key, char *const *v)
{
	fprintf(out, "  %s = [", key);
	for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
		fputs(i ? ", " : " ", out);
		print_str(out, v[i]);
	}
	fputs(" ];\n", out);
}

/* A filesystem list, with what --learn adds to it said in a comment. */
static void
print_paths(const struct printer *p, const char *key, char *const *v)
{
	char *const *add = strcmp(key, "read") == 0 ? p->fs_read :
	    strcmp(key, "write") == 0 ? p->fs_write : NULL;
	char **all = NULL;

	if (add == NULL || add[0] == NULL) {
		print_list(p->out, key, v);
		return;
	}
	fputs("  # --learn added:", p->out);
	for (size_t i = 0; add[i] != NULL; i++) {
		fputc(' ', p->out);
		print_str(p->out, add[i]);
	}
	fputc('\n', p->out);
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		all = strv_append(all, v[i]);
	for (size_t i = 0; add[i] != NULL; i++)
		if (!strv_contains(all, add[i]))
			all = strv_append(all, add[i]);
	print_list(p->out, key, all);
	strv_free(all);
}

static void
print_limit(FILE *out, const char *key, const struct gx_rlimit_val *v)
{
	if (v->set)
		fprintf(out, "  %s = %llu%s;\n", key, (unsigned long long)v->value,
		    v->value > INT32_MAX ? "L" : "");
	else
		fprintf(out, "  # %s: inherited\n", key);
}

/* Seconds, in as few digits as read back to the same value. */
static void
print_seconds(FILE *out, const char *key, double v)
{
	char buf[64];

	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fprintf(out, "  %s = %s;\n", key, buf);
}

static void
print_env_set(FILE *out, char *const *set)
{
	fputs("  set = {", out);
	for (size_t i = 0; set != NULL && set[i] != NULL; i++) {
		const char *eq = strchr(set[i], '=');

		fprintf(out, " %.*s = ", (int)(eq - set[i]), set[i]);
		print_str(out, eq + 1);
		fputs(";", out);
	}
	fputs(" };\n", out);
}

static void
print_iso(FILE *out, unsigned bits)
{
	fputs("  require = [ ", out);
	for (int b = 0, n = 0; gx_iso_names[b] != NULL; b++)
		if (bits & (1u << b))
			fprintf(out, "%s\"%s\"", n++ ? ", " : "", gx_iso_names[b]);
	fputs(" ];\n", out);
}

static void
print_warn(FILE *out, const struct gx_policy *pol)
{
	fputs("  # warnings only, NOT a security control\n  warn = (\n", out);
	for (size_t i = 0; i < pol->n_advisory; i++) {
		const struct gx_advisory_rule *r = &pol->advisory[i];

		fputs(r->match ? "    { match = " : "    { regex = ", out);
		print_str(out, r->match ? r->match : r->regex);
		fputs("; reason = ", out);
		print_str(out, r->reason);
		fputs(i + 1 < pol->n_advisory ? "; },\n" : "; }\n", out);
	}
	fputs("  );\n", out);
}

/* The kinds that hold a list or a string. */
static void
print_text(const struct printer *p, const struct gx_key *k, const void *field)
{
	const struct gx_policy *pol = p->pol;
	const char *e;

	switch (k->kind) {
	case GX_K_USER: case GX_K_LOG:
		if (*(char *const *)field != NULL) {
			fprintf(p->out, "  %s = ", k->name);
			print_str(p->out, *(char *const *)field);
			fputs(";\n", p->out);
		} else if (k->kind == GX_K_LOG) {
			fputs("  # log: the default (see guardexec(1), FILES)\n",
			    p->out);
		}
		break;
	case GX_K_ENV_SET:
		print_env_set(p->out, pol->env_set);
		break;
	case GX_K_SYS_ALLOW:
		print_list(p->out, k->name, p->allow ? p->allow : pol->sys_allow);
		break;
	case GX_K_PATHS:
		print_paths(p, k->name, *(char **const *)field);
		break;
	case GX_K_ENV_ALLOW: case GX_K_SYS_DENY:
		print_list(p->out, k->name, *(char **const *)field);
		break;
	case GX_K_ERRNO:
		if ((e = errno_name(pol->sys_errno)) != NULL)
			fprintf(p->out, "  %s = \"%s\";\n", k->name, e);
		else
			fprintf(p->out, "  %s = %d;\n", k->name, pol->sys_errno);
		break;
	case GX_K_ISO:
		print_iso(p->out, pol->iso_require);
		break;
	case GX_K_WARN:
		print_warn(p->out, pol);
		break;
	case GX_K_FACILITY:
		fprintf(p->out, "  %s = \"%s\";\n", k->name,
		    pol->audit_facility_name);
		break;
	case GX_K_VERSION: case GX_K_NAME: case GX_K_ENUM: case GX_K_BOOL:
	case GX_K_DURATION: case GX_K_CPU: case GX_K_COUNT: case GX_K_RSIZE:
	case GX_K_SIZE: case GX_K_RULE:
		break;
	}
}

static void
print_key(const struct printer *p, const struct gx_key *k)
{
	const void *field = (const char *)p->pol + k->off;
	uint64_t v;

	switch (k->kind) {
	case GX_K_ENUM:
		fprintf(p->out, "  %s = \"%s\";\n", k->name,
		    policy_name_of(k->choices, *(const int *)field));
		break;
	case GX_K_BOOL:
		fprintf(p->out, "  %s = %s;\n", k->name,
		    *(const bool *)field ? "true" : "false");
		break;
	case GX_K_DURATION:
		print_seconds(p->out, k->name, *(const double *)field);
		break;
	case GX_K_CPU: case GX_K_COUNT: case GX_K_RSIZE:
		print_limit(p->out, k->name, field);
		break;
	case GX_K_SIZE:
		v = *(const uint64_t *)field;
		fprintf(p->out, "  %s = %llu%s;\n", k->name,
		    (unsigned long long)v, v > INT32_MAX ? "L" : "");
		break;
	case GX_K_VERSION: case GX_K_NAME: case GX_K_RULE:
		break;
	case GX_K_USER: case GX_K_ENV_ALLOW: case GX_K_ENV_SET:
	case GX_K_SYS_ALLOW: case GX_K_SYS_DENY: case GX_K_ERRNO:
	case GX_K_PATHS: case GX_K_ISO: case GX_K_WARN: case GX_K_LOG:
	case GX_K_FACILITY:
		print_text(p, k, field);
		break;
	}
}

/*
 * Whether --check prints @g: its "present" flag when it has one (--learn
 * always gets a syscalls group); isolation and advisory only when they
 * hold something.
 */
static bool
group_printed(const struct printer *p, const struct gx_group *g)
{
	if (g->has_off >= 0)
		return *(const bool *)((const char *)p->pol + g->has_off) ||
		    (p->allow != NULL && strcmp(g->name, "syscalls") == 0);
	if (strcmp(g->name, "isolation") == 0)
		return p->pol->iso_require != 0;
	if (strcmp(g->name, "advisory") == 0)
		return p->pol->n_advisory > 0;
	return true;
}

static void print_learned(const struct gx_policy *, FILE *, char *const *,
    char *const *, char *const *, bool);

void
policy_print(const struct gx_policy *pol, FILE *out,
    char *const *allow_override)
{
	print_learned(pol, out, allow_override, NULL, NULL, false);
}

/* policy_print, with --learn's additions to the filesystem lists. */
static void
print_learned(const struct gx_policy *pol, FILE *out, char *const *allow,
    char *const *reads, char *const *writes, bool comments)
{
	struct printer p = { out, pol, allow, reads, writes, NULL, 0 };

	if (comments && pol->text != NULL)
		scan_comments(pol->text, pol->text_len, &p.c, &p.n_c);

	fprintf(out, "# effective policy of %s\n# sha256 %s\n",
	    pol->path ? pol->path : "(stream)", pol->sha256);
	print_comments(&p, "version", NULL);
	fprintf(out, "version = %d;\n", pol->version);
	print_comments(&p, "name", NULL);
	fputs("name = ", out);
	print_str(out, pol->name);
	fputs(";\n", out);
	for (const struct gx_group *g = gx_groups; g->name != NULL; g++) {
		if (!group_printed(&p, g)) {
			if (g->absent != NULL)
				fprintf(out, "\n%s\n", g->absent);
			continue;
		}
		fputs("\n", out);
		print_comments(&p, g->name, NULL);
		fprintf(out, "%s: {\n", g->name);
		for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
			if (k->group == NULL || strcmp(k->group, g->name) != 0)
				continue;
			print_comments(&p, g->name, k->name);
			print_key(&p, k);
		}
		fputs("};\n", out);
	}
	for (size_t i = 0, n = 0; i < p.n_c; i++) {
		if (p.c[i].used)
			continue;
		if (n++ == 0)
			fputs("\n# comments of the base policy whose setting is "
			    "not printed above:\n", out);
		fprintf(out, "%s\n", p.c[i].line);
	}
	for (size_t i = 0; i < p.n_c; i++) {
		free(p.c[i].where);
		free(p.c[i].line);
	}
	free(p.c);
}

int
policy_write_learned(const struct gx_policy *pol, char *const *used,
    char *const *reads, char *const *writes, const char *out_path,
    struct gx_diag *diag)
{
	char **names = NULL;
	int errsv, rc = 0;
	FILE *f;

	/*
	 * From the policy as loaded (and checked), never from the file as
	 * it is now: the command may have rewritten it during the run.
	 */
	for (size_t i = 0; pol->sys_allow_src != NULL &&
	    pol->sys_allow_src[i] != NULL; i++)
		names = strv_append(names, pol->sys_allow_src[i]);
	for (size_t i = 0; used != NULL && used[i] != NULL; i++)
		if (!strv_contains(names, used[i]))
			names = strv_append(names, used[i]);
	if (names == NULL)
		names = xcalloc(1, sizeof(*names));
	value_sort(names);
	f = fopen(out_path, "we");
	if (f == NULL) {
		diag_add(diag, "--learn %s: cannot write the policy: %s",
		    out_path, strerror(errno));
		strv_free(names);
		return -1;
	}
	fputs("# learned by guardexec --learn\n", f);
	print_learned(pol, f, names, reads, writes, true);
	errsv = ferror(f) ? EIO : 0;
	if (fclose(f) != 0 && errsv == 0)
		errsv = errno;
	if (errsv != 0) {
		diag_add(diag, "--learn %s: cannot write the policy: %s",
		    out_path, strerror(errsv));
		rc = -1;
	}
	strv_free(names);
	return rc;
}

static const char template_head[] =
    "# .guardexec/agent.cfg: this repository's policy for the commands an\n"
    "# agent (or CI job, or script) runs here:\n"
    "#     guardexec -p . -- make test\n"
    "# -p with a directory finds this file; relative paths below resolve\n"
    "# against this file's directory, and \".\" in filesystem lists is the\n"
    "# run's working directory.  Workflow: run your usual commands under\n"
    "# it; where a syscall is denied (\"guardexec: denied: NAME\"), learn:\n"
    "#     guardexec -p . --learn .guardexec/learned.cfg -- make test\n"
    "# then review the difference and commit the policy.  Review changes to\n"
    "# this file like code: a command that may write \".\" can rewrite it\n"
    "# for the next run (guardexec warns and records policy_writable).\n"
    "# Every key, its type and default: guardexec.cfg(5); the keys left\n"
    "# out here keep their defaults.\n";

void
policy_print_template(FILE *out, const char *name, char *const *reads)
{
	fputs(template_head, out);
	fputs("version = 1;\nname = ", out);
	print_str(out, name);
	fputs(";\n", out);
	for (const struct gx_group *g = gx_groups; g->name != NULL; g++) {
		bool open = false;

		for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
			if (k->init == NULL || k->group == NULL ||
			    strcmp(k->group, g->name) != 0)
				continue;
			if (!open)
				fprintf(out, "\n# %s\n%s: {\n", g->doc, g->name);
			open = true;
			fprintf(out, "  # %s\n", k->doc);
			if (k->kind == GX_K_PATHS && reads != NULL &&
			    strcmp(k->name, "read") == 0)
				print_list(out, k->name, reads);
			else
				fprintf(out, "  %s = %s;\n", k->name, k->init);
		}
		if (open)
			fputs("};\n", out);
	}
}
