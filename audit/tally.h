/* SPDX-License-Identifier: ISC */
#ifndef GX_TALLY_H
#define GX_TALLY_H

#include <stddef.h>

/* A small counter table for summary: name -> count, in first-seen order. */
struct tally {
	char **names;
	unsigned long *counts;
	size_t n;
};

/* Add @by to @name's count (a new entry at 0 first).  Dies on OOM. */
void tally_add(struct tally *t, const char *name, unsigned long by);

/*
 * Print "\n@title" and at most @top entries, most frequent first (ties
 * by name), as "  COUNT  NAME"; then "(N more)" or "(none)".  Names go
 * through @show (which returns a malloc'd printable copy) when not NULL.
 */
void tally_print(const char *title, const struct tally *t, size_t top,
    char *(*show)(const char *));

void tally_free(struct tally *t);

#endif
