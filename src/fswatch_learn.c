/* SPDX-License-Identifier: ISC */
/*
 * --learn's proposals (fswatch_propose, declared in fswatch.h): the
 * paths a learning run saw refused, grouped into filesystem entries.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fswatch.h"
#include "fswatch_int.h"
#include "outcome.h"
#include "policy.h"
#include "util.h"

/* The directory holding ".git" at or above @p, below @stop; or NULL. */
static char *
git_root(const char *p, const char *stop)
{
	char *cur = xstrdup(p);

	while (strcmp(cur, "/") != 0 && (stop == NULL || strcmp(cur, stop) != 0)) {
		char *g = xasprintf("%s/.git", cur), *up;
		bool found = fsw_exists(g);

		free(g);
		if (found)
			return cur;
		up = path_dirname(cur);
		free(cur);
		cur = up;
	}
	free(cur);
	return NULL;
}

/*
 * Group @entry: the git work tree it lies in; below the home directory,
 * its first two levels (~/.cache/pip, ~/src/project); /proc as a whole.
 */
static char *
group_of(const char *entry, const char *home)
{
	char *g;

	if (fsw_below(entry, "/proc"))
		return xstrdup("/proc");
	if (home != NULL && strcmp(home, "/") != 0 && fsw_below(entry, home) &&
	    strcmp(entry, home) != 0) {
		const char *rest = entry + strlen(home) + 1, *s;

		if ((g = git_root(entry, home)) != NULL)
			return g;
		s = strchr(rest, '/');
		if (s != NULL && (s = strchr(s + 1, '/')) != NULL)
			return xasprintf("%.*s", (int)(s - entry), entry);
		return xstrdup(entry);
	}
	if ((g = git_root(entry, NULL)) != NULL)
		return g;
	return xstrdup(entry);
}

/* Drop entries below another one of @v or of @also (v is sorted). */
static char **
prune(char **v, char *const *also)
{
	char **out = NULL;

	for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
		bool keep = !fsw_covered(v[i], also);

		for (size_t j = 0; keep && v[j] != NULL; j++)
			if (j != i && fsw_below(v[i], v[j]) &&
			    (strcmp(v[i], v[j]) != 0 || j < i))
				keep = false;
		if (keep)
			out = strv_append(out, v[i]);
	}
	strv_free(v);
	return out;
}

void
fswatch_propose(const struct gx_policy *pol, const char *cwd,
    const struct gx_outcome *out, char ***read, char ***write,
    char ***withheld)
{
	char **r = NULL, **wr = NULL, **have_r, **have_w, **both;
	const char *home = fsw_caller_home;

	*read = NULL;
	*write = NULL;
	*withheld = NULL;
	if (!pol->has_filesystem)
		return;
	for (size_t i = 0; i < out->n_fs_denied; i++) {
		const struct gx_fsdenial *d = &out->fs_denied[i];
		char *g;

		if (d->entry == NULL || !fsw_exists(d->entry))
			continue;
		g = group_of(d->entry, home);
		/* Never the whole tree, nor the whole home (or above it). */
		if (strcmp(g, "/") == 0 || (home != NULL && fsw_below(home, g))) {
			char *pp = fsw_printable(d->path);
			char *why = xasprintf("%s %s (for %s)", fswatch_rule(
			    d->write), g, pp);

			free(pp);

			if (!strv_contains(*withheld, why))
				*withheld = strv_append(*withheld, why);
			free(why);
			free(g);
			continue;
		}
		if (d->write)
			wr = strv_append(wr, g);
		else
			r = strv_append(r, g);
		free(g);
	}
	have_r = fsw_real_list(pol->fs_read, cwd);
	have_w = fsw_real_list(pol->fs_write, cwd);
	if (wr != NULL)
		strv_sort(wr);
	if (r != NULL)
		strv_sort(r);
	wr = prune(wr, have_w);
	both = NULL;
	for (size_t i = 0; have_w != NULL && have_w[i] != NULL; i++)
		both = strv_append(both, have_w[i]);
	for (size_t i = 0; wr != NULL && wr[i] != NULL; i++)
		both = strv_append(both, wr[i]);
	for (size_t i = 0; have_r != NULL && have_r[i] != NULL; i++)
		both = strv_append(both, have_r[i]);
	r = prune(r, both);
	*read = r;
	*write = wr;
	strv_free(both);
	strv_free(have_r);
	strv_free(have_w);
}
