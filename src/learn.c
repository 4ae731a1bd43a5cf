/* SPDX-License-Identifier: ISC */
/*
 * --learn OUT: checked before the run, written after it (the learned
 * policy through policy_write_learned, then trusted when it must be).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decide.h"
#include "filter.h"
#include "fswatch.h"
#include "learn.h"
#include "trust.h"
#include "util.h"

/*
 * --learn OUT must not be a symlink or anything but a regular file: say
 * so before the run rather than after it.  Returns -1 with a message.
 */
int
learn_check_out(const char *out, struct gx_diag *d)
{
	struct stat sb;

	if (lstat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		diag_add(d, "--learn %s: %s; refusing to write through it", out,
		    S_ISLNK(sb.st_mode) ? "is a symbolic link" :
		    "not a regular file");
		return -1;
	}
	return 0;
}

/*
 * "-p OUT works at once" (CONTRACT, --learn): when OUT is a policy the
 * command could change (inside a write path of this run, or foreign),
 * trust the bytes guardexec itself wrote -- but only if the input policy
 * is still the one that ran: a command that edited it during the run
 * must not get its edits trusted.  -1 with a message in @d.
 */
static int
trust_learned(struct gx_state *st, const char *dst, struct gx_diag *d)
{
	char **writes, *real, now[65], why[PATH_MAX + 64];
	bool need;
	int rc = 0;

	if (st->store == NULL)
		return 0;
	writes = decide_write_paths(st);
	real = trust_real_path(dst);
	need = trust_inside(real, writes) != NULL ||
	    trust_foreign(real, getuid(), why, sizeof(why));
	if (need && (trust_file_sha256(st->pol.path, now) < 0 ||
	    strcmp(now, st->pol.sha256) != 0))
		notice(st, "warning: %s changed during the run, so %s is not "
		    "trusted; review it with: guardexec --trust %s",
		    st->pol.path, real, real);
	else if (need)
		rc = trust_record(st->store, real, dst, d);
	free(real);
	strv_free(writes);
	return rc;
}

/*
 * --learn: the learned policy goes to a new file next to OUT (created
 * with O_EXCL by mkstemp, so it is ours), which then replaces OUT with
 * rename(2): OUT is never opened, so a symlink planted there is
 * replaced, never written through.  The text itself comes from
 * policy_write_learned.
 */
void
learn_write(struct gx_state *st, const struct gx_outcome *out)
{
	const char *dst = st->opts.learn;
	struct gx_diag d = { 0 };
	char **used = NULL, *tmp, *slash, **reads, **writes, **withheld;
	int fd;

	for (size_t i = 0; i < out->n_denied; i++)
		if (filter_resolve(out->denied[i].name) >= 0)
			used = strv_append(used, out->denied[i].name);
	fswatch_propose(&st->pol, st->cwd, out, &reads, &writes, &withheld);
	/* mechanisms_limits() raised it for this run: learn it as written. */
	if (st->pol.limits.processes.set)
		st->pol.limits.processes.value = st->processes_policy;
	slash = strrchr(dst, '/');
	tmp = slash == NULL ? xasprintf(".%s.XXXXXX", dst) :
	    xasprintf("%.*s/.%s.XXXXXX", (int)(slash - dst), dst, slash + 1);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		diag_add(&d, "--learn %s: %s", dst, strerror(errno));
	} else {
		(void)fchmod(fd, 0644);
		close(fd);
		if (learn_check_out(dst, &d) < 0 ||
		    policy_write_learned(&st->pol, used, reads, writes, tmp,
		    &d) < 0)
			unlink(tmp);
		else if (rename(tmp, dst) < 0) {
			diag_add(&d, "--learn %s: %s", dst, strerror(errno));
			unlink(tmp);
		} else {
			(void)trust_learned(st, dst, &d);
		}
	}
	if (d.n > 0) {
		diag_print(&d);
		diag_free(&d);
	} else if (!st->opts.quiet) {
		warnx_gx("learned %zu syscalls, %zu read and %zu write paths; "
		    "wrote %s", strv_len(used), strv_len(reads),
		    strv_len(writes), dst);
	}
	for (size_t i = 0; !st->opts.quiet && withheld != NULL &&
	    withheld[i] != NULL; i++)
		warnx_gx("--learn: not proposed, add it by hand if you mean it: "
		    "%s", withheld[i]);
	free(tmp);
	strv_free(used);
	strv_free(reads);
	strv_free(writes);
	strv_free(withheld);
}
