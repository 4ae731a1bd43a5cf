/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "tally.h"

struct tally_entry *
tally_get(struct tally *t, const char *name)
{
	struct tally_entry *e;

	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].name, name) == 0)
			return &t->e[i];
	t->e = xreallocarray(t->e, t->n + 1, sizeof(*t->e));
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	return e;
}

void
tally_add(struct tally *t, const char *name, unsigned long by)
{
	tally_get(t, name)->n += by;
}

int
tally_cmp_n(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

void
tally_print(const char *title, struct tally *t, size_t top,
    char *(*show)(const char *))
{
	printf("\n%s\n", title);
	if (t->n == 0)
		printf("  (none)\n");
	else
		qsort(t->e, t->n, sizeof(*t->e), tally_cmp_n);
	for (size_t i = 0; i < t->n && i < top; i++) {
		const char *name = t->e[i].name;
		char *s = show ? show(name) : NULL;

		printf("  %8lu  %s\n", t->e[i].n, s ? s : name);
		free(s);
	}
	if (t->n > top)
		printf("  (%zu more)\n", t->n - top);
}

void
tally_free(struct tally *t, void (*free_more)(void *))
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].name);
		if (free_more != NULL)
			free_more(t->e[i].more);
	}
	free(t->e);
	memset(t, 0, sizeof(*t));
}
