/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "log.h"
#include "policy.h"
#include "util.h"

const char *
env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp != NULL && envp[i] != NULL; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* Index of NAME in @v ("NAME=..."), or -1. */
static long
find(char *const *v, const char *kv)
{
	size_t n = strcspn(kv, "=");

	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		if (strncmp(v[i], kv, n) == 0 && v[i][n] == '=')
			return (long)i;
	return -1;
}

/* Put "NAME=value" in @v, replacing an earlier NAME. */
static char **
put(char **v, const char *kv)
{
	long i = find(v, kv);

	if (i < 0)
		return strv_append(v, kv);
	free(v[i]);
	v[i] = xstrdup(kv);
	return v;
}

static char *
name_of(const char *kv)
{
	size_t n = strcspn(kv, "=");
	char *s = xmalloc(n + 1);

	memcpy(s, kv, n);
	s[n] = '\0';
	return s;
}

void
env_build(const struct gx_policy *pol, char *const *environ,
    struct gx_env *out)
{
	char **envp = NULL, **passed = NULL, **dropped = NULL;

	if (!pol->has_env) {
		envp = strv_append(envp, "PATH=" GX_DEFAULT_PATH);
	} else {
		for (size_t i = 0; environ != NULL && environ[i]; i++) {
			char *name;
			bool keep = false;

			if (strchr(environ[i], '=') == NULL)
				continue;
			name = name_of(environ[i]);
			for (size_t j = 0; pol->env_allow != NULL &&
			    pol->env_allow[j] != NULL && !keep; j++)
				keep = name_pattern_match(pol->env_allow[j], name);
			/* The first of duplicate names wins, as getenv(3). */
			if (keep && find(envp, environ[i]) < 0)
				envp = put(envp, environ[i]);
			free(name);
		}
		for (size_t i = 0; pol->env_set != NULL && pol->env_set[i]; i++)
			envp = put(envp, pol->env_set[i]);
	}
	if (envp == NULL)
		envp = xcalloc(1, sizeof(*envp));
	for (size_t i = 0; envp[i] != NULL; i++) {
		char *name = name_of(envp[i]);

		passed = strv_append(passed, name);
		free(name);
	}
	for (size_t i = 0; environ != NULL && environ[i] != NULL; i++) {
		char *name;

		if (strchr(environ[i], '=') == NULL)
			continue;
		name = name_of(environ[i]);
		if (!strv_contains(passed, name) && !strv_contains(dropped, name))
			dropped = strv_append(dropped, name);
		free(name);
	}
	if (passed == NULL)
		passed = xcalloc(1, sizeof(*passed));
	if (dropped == NULL)
		dropped = xcalloc(1, sizeof(*dropped));
	strv_sort(passed);
	strv_sort(dropped);
	out->envp = envp;
	out->passed = passed;
	out->dropped = dropped;
}

void
env_free(struct gx_env *e)
{
	strv_free(e->envp);
	strv_free(e->passed);
	strv_free(e->dropped);
	e->envp = e->passed = e->dropped = NULL;
}
