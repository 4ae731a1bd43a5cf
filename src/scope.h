/* SPDX-License-Identifier: ISC */
#ifndef GX_SCOPE_H
#define GX_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Ask the service manager (systemd) for a transient scope unit named
 * @unit ("guardexec-....scope") holding the calling process, with
 * Delegate=yes, so that the cgroup subtree below it is ours to manage:
 * the system manager when @user is false (root), else the caller's own
 * user manager (user@UID.service).  @runtime_dir is the caller's
 * XDG_RUNTIME_DIR (read before the environment is wiped) or NULL.
 *
 * Waits (bounded) for the start job to finish; on success the calling
 * process is in the scope's cgroup and the return is 0.  When there is
 * no reachable manager, or guardexec was built without libsystemd, the
 * return is -1 and @why (size @whylen) says why; nothing changed then.
 * The scope ends by itself when its last process exits.
 */
int scope_start(const char *unit, bool user, const char *runtime_dir,
    char *why, size_t whylen);

/* True when systemd is the running service manager (sd_booted()). */
bool scope_systemd_running(void);

#endif
