/* SPDX-License-Identifier: ISC */
/*
 * The "decide" phase of a run, still without touching the process: the
 * working directory and the trust decision (guarantee 12).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advisory.h"
#include "decide.h"
#include "env.h"
#include "sys.h"
#include "emit.h"
#include "trust.h"
#include "util.h"

extern char **environ;

static void
resolve_cwd(struct gx_state *st, struct gx_diag *d)
{
	char *c;

	if (st->opts.cwd != NULL) {
		c = realpath(st->opts.cwd, NULL);
		if (c == NULL) {
			diag_add(d, "-C %s: %s", st->opts.cwd, strerror(errno));
			emit_refuse(st, d);
		}
		st->cwd = c;
	} else {
		c = getcwd(NULL, 0);
		if (c == NULL) {
			diag_add(d, "getcwd: %s", strerror(errno));
			emit_refuse(st, d);
		}
		st->cwd = c;
	}
}

/* The run's write paths, "." made the working directory, with every
 * symlink resolved (NULL-terminated, malloc'd). */
char **
decide_write_paths(const struct gx_state *st)
{
	const struct gx_policy *pol = &st->pol;
	char **v = NULL;

	for (size_t i = 0; pol->fs_write != NULL && pol->fs_write[i]; i++) {
		const char *w = strcmp(pol->fs_write[i], ".") == 0 ? st->cwd :
		    pol->fs_write[i];

		char *r = trust_real_path(w);

		v = strv_append(v, r);
		free(r);
	}
	return v;
}

/* Can the command change its own policy for the next run? */
static bool
policy_is_writable(const struct gx_state *st, const char *real,
    char *const *writes)
{
	const struct gx_policy *pol = &st->pol;

	if (trust_inside(real, writes) != NULL)
		return true;
	if (!pol->has_filesystem && pol->user == NULL)
		return access(real, W_OK) == 0;
	return false;
}

/*
 * Guarantee 12: a policy the command could change (inside a write path
 * of the run, or not owned by root or the caller) runs only if the
 * caller trusted its exact bytes with --trust.  The trust store itself
 * must lie outside every write path, or the command could trust a
 * policy of its own.  Sets st->trusted; -1 with a message in @d.
 */
static int
decide_trust(struct gx_state *st, struct gx_diag *d)
{
	char **writes = decide_write_paths(st), *real, *sreal, why[PATH_MAX + 64];
	const char *in, *reason = why;
	bool known = false;
	int rc = -1;

	real = trust_real_path(st->pol.path);
	st->policy_writable = policy_is_writable(st, real, writes);
	if (st->store != NULL) {
		sreal = trust_real_path(st->store);
		in = trust_inside(sreal, writes);
		free(sreal);
		if (in != NULL) {
			diag_add(d, "trust store %s lies inside filesystem.write "
			    "\"%s\" of this run, so the command could trust a "
			    "policy of its own; narrow the write list or set "
			    "GUARDEXEC_TRUST_STORE", st->store, in);
			goto out;
		}
	}
	in = trust_inside(real, writes);
	if (in != NULL)
		snprintf(why, sizeof(why), "it lies inside filesystem.write "
		    "\"%s\"", in);
	else if (!trust_foreign(real, getuid(), why, sizeof(why)))
		reason = NULL;
	if (st->store == NULL && reason != NULL) {
		diag_add(d, "%s: not trusted: the command may change it (%s), "
		    "and there is no trust store (no HOME)", real, reason);
		goto out;
	}
	/*
	 * A path once trusted by hash stays bound to its bytes: a command
	 * that rewrites its policy to one without the write path that made
	 * it need trust (or without any filesystem group) is still caught.
	 */
	rc = st->store == NULL ? 0 :
	    trust_lookup(st->store, real, st->pol.sha256, &known, d);
	if (rc == 1) {
		st->trusted = "hash";
		rc = 0;
		goto out;
	}
	if (rc == 0 && reason == NULL && !known) {
		st->trusted = "owner";
		goto out;
	}
	if (rc == 0 && reason == NULL)
		diag_add(d, "%s: changed since it was trusted; review it with: "
		    "guardexec --trust %s", real, real);
	else if (rc == 0)
		diag_add(d, "%s: %s: the command may change it (%s); review it "
		    "with: guardexec --trust %s", real, known ?
		    "changed since it was trusted" : "not trusted", reason,
		    real);
	rc = -1;
out:
	free(real);
	strv_free(writes);
	return rc;
}

int
decide_run(struct gx_state *st, struct gx_diag *d)
{
	int lookup_rc;

	resolve_cwd(st, d);
	env_build(&st->pol, environ, &st->env);
	st->have_env = true;
	if (st->opts.argv != NULL) {
		lookup_rc = sys_lookup_command(st->opts.argv[0],
		    env_get(st->env.envp, "PATH") ?: GX_DEFAULT_PATH, st->cwd,
		    &st->exec_path);
		st->adv = advisory_match(&st->pol, st->opts.argv);
	} else {
		lookup_rc = 0;
		st->adv = advisory_match(&st->pol, (char *[]){ NULL });
	}
	if (decide_trust(st, d) < 0) {
		if (!st->opts.check)
			emit_refuse(st, d);
		for (size_t i = 0; i < d->n; i++)
			notice(st, "warning: %s", d->msgs[i]);
		diag_free(d);
	}
	if (st->policy_writable && st->trusted != NULL &&
	    strcmp(st->trusted, "hash") != 0 &&
	    (st->opts.check || st->pol.has_filesystem))
		notice(st, "warning: the command can rewrite its own policy %s "
		    "for the next run", st->pol.path);
	return lookup_rc;
}
