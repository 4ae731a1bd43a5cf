/* SPDX-License-Identifier: ISC */
#ifndef GX_TRUST_H
#define GX_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "log.h"

/*
 * Trust on first use for policies the command could change (CONTRACT,
 * guarantee 12; what direnv does for .envrc).  A policy that lies inside
 * a write path of the run, or that (or one of whose directories) is not
 * owned by root or the caller, runs only if the pair (its real path, the
 * sha256 of its bytes) is in the caller's trust store, a text file of
 * "SHA256 PATH" lines.  Next to the store, trusted.d/SHA256 keeps the
 * bytes that were trusted, so that --trust can show what changed.
 */

/*
 * The caller's trust store: $GUARDEXEC_TRUST_STORE when absolute; else
 * /var/lib/guardexec/trusted for root; else
 * $XDG_STATE_HOME/guardexec/trusted, or @home/.local/state/guardexec/
 * trusted.  Returns a malloc'd path, or NULL (no home).
 */
char *trust_store_path(const char *home);

/*
 * @path with every symlink resolved: realpath(3) of it, or of its
 * nearest existing ancestor with the rest appended (so paths that do
 * not exist yet compare too).  Returns a malloc'd absolute path.
 */
char *trust_real_path(const char *path);

/*
 * The first of @writes (real paths, NULL-terminated) that @real (a real
 * path) lies inside, or NULL.
 */
const char *trust_inside(const char *real, char *const *writes);

/*
 * Whether the policy at @real (a real path) needs trust by hash because
 * someone other than root or @caller could change it: the file or one
 * of its directories is owned by another user, or by a user this user
 * namespace does not map (see trust_owner_unmapped), or the file is
 * writable by others.  Returns true with a reason in @why.
 */
bool trust_foreign(const char *real, uid_t caller, char *why, size_t len);

/*
 * Whether @owner, as stat(2) shows a file's owner in the user namespace
 * whose /proc/self/uid_map reads @uid_map (NULL: unreadable), may stand
 * for a user that namespace does not map.  The kernel shows every such
 * owner as @overflow (/proc/sys/kernel/overflowuid), whoever it really
 * is, even when @overflow is also a mapped id (a caller running as
 * 65534): so @overflow is unknown unless the map covers every id (the
 * initial namespace, or root's identity map), and so is an id outside
 * every range.  Pure.
 */
bool trust_owner_unmapped(uid_t owner, const char *uid_map, uid_t overflow);

/*
 * Look (@real, @sha256) up in @store.  Returns 1 when trusted, 0 when
 * not (*@known set when @real was trusted before with other bytes), -1
 * when the store exists but cannot be read (message in @diag).
 */
int trust_lookup(const char *store, const char *real, const char *sha256,
    bool *known, struct gx_diag *diag);

/*
 * --trust: read the policy @real (its sha256 must still be @sha256, the
 * digest of the bytes that were validated), show its bytes on @out, then
 * the difference from the bytes last trusted for @real (diff -u, spawned
 * without a shell, when diff(1) exists), then record the pair in @store
 * and keep a copy of the bytes.  Writes through no symlink.  Returns 0,
 * or -1 with a message in @diag.
 */
int trust_add(const char *store, const char *real, const char *sha256,
    FILE *out, struct gx_diag *diag);

/*
 * Trust the bytes of @path (a file guardexec wrote itself, such as the
 * --learn output before it is renamed into place) as the policy @real,
 * without showing them.  Returns 0, or -1 with a message in @diag.
 */
int trust_record(const char *store, const char *real, const char *path,
    struct gx_diag *diag);

/* The hex sha256 of the bytes of @path (not through a symlink) into @hex
 * (65 bytes).  Returns 0, or -1 with errno. */
int trust_file_sha256(const char *path, char *hex);

#endif
