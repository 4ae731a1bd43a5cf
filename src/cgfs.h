/* SPDX-License-Identifier: ISC */
#ifndef GX_CGFS_H
#define GX_CGFS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The cgroup filesystem for cgroup.c, cgroup_v1.c and cgroup_v2.c.
 * guardexec's side only (stdio, malloc): nothing here runs after fork.
 */

/* "@dir/@file" in @buf (@n bytes, truncated); returns @buf. */
const char *cgfs_join(char *buf, size_t n, const char *dir,
    const char *file);

/* Read a small file into @buf (NUL-terminated); 0, or -1 on failure. */
int cgfs_read_small(const char *path, char *buf, size_t size);

/* Write @val to @dir/@file with one write(); 0, or -1 with errno. */
int cgfs_write_str(const char *dir, const char *file, const char *val);

/*
 * Mount point of the v1 hierarchy with @controller, or of cgroup2 when
 * @controller is NULL (/proc/self/mountinfo).  malloc'd, or NULL.
 */
char *cgfs_mount_of(const char *controller);

/*
 * Our path in the hierarchy with @controller, or v2's ("0::") when
 * @controller is NULL (/proc/self/cgroup).  malloc'd, or NULL.
 */
char *cgfs_own_path(const char *controller);

/* A new cgroup name, "guardexec-PID-RANDOM"; malloc'd. */
char *cgfs_unique_name(void);

/* True when the space-separated @list (cgroup.controllers) has @word. */
bool cgfs_has_word(const char *list, const char *word);

/* The pid of the calling process in decimal, in @buf; returns @buf. */
const char *cgfs_pid_str(char *buf, size_t n);

#endif
