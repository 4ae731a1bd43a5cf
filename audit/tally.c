/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "tally.h"

void
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

void
tally_print(const char *title, const struct tally *t, size_t top,
    char *(*show)(const char *))
{
	size_t *ix = xcalloc(t->n + 1, sizeof(*ix));

	printf("\n%s\n", title);
	if (t->n == 0)
		printf("  (none)\n");
	for (size_t i = 0; i < t->n; i++)
		ix[i] = i;
	sort_tally = t;
	qsort(ix, t->n, sizeof(*ix), cmp_tally);
	for (size_t i = 0; i < t->n && i < top; i++) {
		const char *name = t->names[ix[i]];
		char *s = show ? show(name) : NULL;

		printf("  %8lu  %s\n", t->counts[ix[i]], s ? s : name);
		free(s);
	}
	if (t->n > top)
		printf("  (%zu more)\n", t->n - top);
	free(ix);
}

void
tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}
