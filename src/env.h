/* SPDX-License-Identifier: ISC */
#ifndef GX_ENV_H
#define GX_ENV_H

struct gx_policy;

/* The command's environment, built from nothing (doas env.c prepenv). */
struct gx_env {
	char **envp;     /* "NAME=value", NULL-terminated, for execve */
	char **passed;   /* names in envp, sorted */
	char **dropped;  /* names of the caller's environment not passed, sorted */
};

/*
 * Build the environment for @pol from the caller's @environ: the names
 * matching env.allow keep their values, env.set values are forced (and
 * win); everything else is dropped.  With no env group only
 * PATH=/usr/bin:/bin is passed.  Pure; dies only on OOM.
 */
void env_build(const struct gx_policy *pol, char *const *environ,
    struct gx_env *out);

/* Value of @name in @envp, or NULL. */
const char *env_get(char *const *envp, const char *name);

void env_free(struct gx_env *e);

/* PATH used for the lookup when the built environment has none. */
#define GX_DEFAULT_PATH "/usr/bin:/bin"

#endif
