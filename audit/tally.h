/* SPDX-License-Identifier: ISC */
#ifndef GX_TALLY_H
#define GX_TALLY_H

#include <stddef.h>

/*
 * The one counter table of guardexec-audit (summary and report): name ->
 * count, in first-seen order.  A caller that keeps more per name (report:
 * outcomes, first and last run, ...) hangs it on @more.
 */
struct tally_entry {
	char *name;
	unsigned long n;
	void *more;             /* the caller's, freed by tally_free() */
};

struct tally {
	struct tally_entry *e;
	size_t n;
};

/*
 * The entry of @name, added with a count of 0 (and @more NULL) when new.
 * The pointer is valid until the next tally_get() or tally_add() on @t.
 * Dies on OOM.
 */
struct tally_entry *tally_get(struct tally *t, const char *name);

/* Add @by to @name's count (a new entry at 0 first).  Dies on OOM. */
void tally_add(struct tally *t, const char *name, unsigned long by);

/* qsort() order of struct tally_entry: most counted first, ties by name. */
int tally_cmp_n(const void *a, const void *b);

/*
 * Print "\n@title" and at most @top entries, most frequent first (ties
 * by name), as "  COUNT  NAME"; then "(N more)" or "(none)".  Names go
 * through @show (which returns a malloc'd printable copy) when not NULL.
 * Sorts @t.
 */
void tally_print(const char *title, struct tally *t, size_t top,
    char *(*show)(const char *));

/* Free the names, each @more through @free_more (if not NULL), the table. */
void tally_free(struct tally *t, void (*free_more)(void *));

#endif
