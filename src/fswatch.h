/* SPDX-License-Identifier: ISC */
#ifndef GX_FSWATCH_H
#define GX_FSWATCH_H

#include <stdbool.h>

struct gx_policy;
struct gx_outcome;
struct gx_fsdenial;
struct seccomp_notif;

/*
 * Filesystem denials, named by path and rule (issue 15).  The kernel
 * does not say which path a Landlock or mount-view refusal was about
 * (Landlock's audit records need Linux >= 6.15, root and the audit
 * subsystem switched on), and watching every open() through the seccomp
 * listener costs a round trip per call.  So:
 *  - in --learn runs the listener also sees the path syscalls (open,
 *    stat, mkdir, unlink, rename, utimensat, ...: fswatch_watched()),
 *    reads the path from the task's memory, resolves it against the
 *    task's working directory or dirfd, and checks it against the
 *    policy's filesystem lists;
 *  - in ordinary runs the path syscalls that open, create, remove or
 *    change (fswatch_watched_ordinary()) and those the filter refuses
 *    anyway are checked, lexically only (the host is not consulted: no
 *    existence oracle), with paths below /dev and /proc left out (the
 *    mount view's own); stat, access and exec are not watched (the
 *    record's filesystem.observed and guardexec(1) say so).
 * Parent side only.  A path outside the lists is added to the outcome's
 * fs_denied, once per (path, access), with the entry --learn proposes.
 */
struct gx_fswatch {
	bool active;            /* the policy has a filesystem group */
	bool learn;
	bool tmp_private;
	char **read;            /* the lists, "." resolved, symlinks followed */
	char **write;
};

/*
 * The caller's home (sys_caller_home(), read before guardexec wipes its
 * environment), for grouping --learn's paths; copied; NULL: none.
 */
void fswatch_set_home(const char *home);

/*
 * Prepare @w for @pol run in @cwd.  Never fails (but on OOM).
 */
void fswatch_init(struct gx_fswatch *w, const struct gx_policy *pol,
    const char *cwd, bool learn);

/* Release what @w owns. */
void fswatch_free(struct gx_fswatch *w);

/*
 * Whether a learning run of @pol sends the native syscall @nr to the
 * listener although the allowlist has it: the path syscalls, when the
 * policy has a filesystem group (pure).
 */
bool fswatch_watched(const struct gx_policy *pol, int nr);

/*
 * Whether an ordinary (not learning) run of @pol sends the native
 * syscall @nr to the listener although the allowlist has it: the path
 * syscalls that open, create, remove or change (not stat, access, exec),
 * when the policy has a filesystem and a syscalls group (pure).  The
 * listener lets them through (SECCOMP_USER_NOTIF_FLAG_CONTINUE: the
 * kernel, Landlock and the mount view still decide) after checking
 * their paths.
 */
bool fswatch_watched_ordinary(const struct gx_policy *pol, int nr);

/*
 * The notified call @req (not yet answered, on @listener): when it is a
 * path syscall, read its path(s) and note in @out each one the
 * filesystem rules refuse.  Returns true when @req is a path syscall.
 */
bool fswatch_observe(struct gx_fswatch *w, const struct seccomp_notif *req,
    int listener, struct gx_outcome *out);

/*
 * --learn: the entries to add to filesystem.read and filesystem.write
 * (new NULL-terminated lists, sorted, existing paths only, grouped: a git
 * work tree, $HOME/a/b, /proc; none below another or below an entry the
 * policy has).  "/" and the caller's home (or a directory above it) are
 * never proposed: they go to @withheld instead, as "filesystem.write
 * /home/alice (for /home/alice/.bash_history)".  Each may be NULL when
 * empty.
 */
void fswatch_propose(const struct gx_policy *pol, const char *cwd,
    const struct gx_outcome *out, char ***read, char ***write,
    char ***withheld);

/*
 * --check's line on how a run of @pol observes filesystem denials
 * ("# filesystem denials: ..."), or NULL with no filesystem group.
 * A static string.
 */
const char *fswatch_check_note(const struct gx_policy *pol);

/* "filesystem.read" or "filesystem.write": the rule a denial broke. */
const char *fswatch_rule(bool write);

/*
 * The message for @d: "filesystem: PATH is outside filesystem.read
 * (openat)", with bytes that are not printable as '?' (the record has
 * them exact).  A new string.
 */
char *fswatch_explain(const struct gx_fsdenial *d);

/* Free the outcome's fs_denied list. */
void fswatch_outcome_free(struct gx_outcome *out);

#endif
