/* SPDX-License-Identifier: ISC */
#ifndef GX_FSWATCH_INT_H
#define GX_FSWATCH_INT_H

/*
 * Shared by fswatch.c and fswatch_learn.c only (module-internal).
 */
#include <stdbool.h>

/* The caller's home, symlinks resolved (fswatch_set_home); or NULL. */
extern char *fsw_caller_home;

/* @p is @dir or below it (lexically; "/" holds everything). */
bool fsw_below(const char *p, const char *dir);

/* @p is at or below an entry of @list. */
bool fsw_covered(const char *p, char *const *list);

/* lstat(@p) succeeds. */
bool fsw_exists(const char *p);

/*
 * @list with "." as @cwd and each entry's real path (and the entry as
 * written, when it differs); a new list.
 */
char **fsw_real_list(char *const *list, const char *cwd);

/* A copy of @s with the bytes that are not printable as '?'. */
char *fsw_printable(const char *s);

#endif
