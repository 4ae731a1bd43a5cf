/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <string.h>
#include <syslog.h>

#include "policy_names.h"

const struct gx_name gx_stdin_names[] = {
	{ "null", GX_STDIN_NULL }, { "inherit", GX_STDIN_INHERIT },
	{ NULL, 0 },
};

const struct gx_name gx_overflow_names[] = {
	{ "truncate", GX_OVERFLOW_TRUNCATE }, { "kill", GX_OVERFLOW_KILL },
	{ NULL, 0 },
};

const struct gx_name gx_keep_names[] = {
	{ "head", GX_KEEP_HEAD }, { "head_tail", GX_KEEP_HEAD_TAIL },
	{ NULL, 0 },
};

const struct gx_name gx_action_names[] = {
	{ "errno", GX_ACTION_ERRNO }, { "kill", GX_ACTION_KILL },
	{ "log", GX_ACTION_LOG },
	{ NULL, 0 },
};

const struct gx_name gx_net_names[] = {
	{ "all", GX_NET_ALL }, { "none", GX_NET_NONE },
	{ NULL, 0 },
};

const struct gx_name gx_logfail_names[] = {
	{ "refuse", GX_LOGFAIL_REFUSE }, { "warn", GX_LOGFAIL_WARN },
	{ NULL, 0 },
};

const struct gx_name gx_tmp_names[] = {
	{ "shared", GX_TMP_SHARED }, { "private", GX_TMP_PRIVATE },
	{ NULL, 0 },
};

const struct gx_name gx_facility_names[] = {
	{ "auth", LOG_AUTH }, { "authpriv", LOG_AUTHPRIV },
	{ "daemon", LOG_DAEMON }, { "user", LOG_USER },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
	{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 },
	{ "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 },
	{ NULL, 0 },
};

const char *const gx_iso_names[] = { "user", "pid", "mount", "network",
	"cgroup", "landlock", NULL };

const char *
policy_name_of(const struct gx_name *table, int value)
{
	for (; table->name != NULL; table++)
		if (table->value == value)
			return table->name;
	return "?";
}

int
policy_value_of(const struct gx_name *table, const char *name)
{
	for (; table->name != NULL; table++)
		if (strcmp(table->name, name) == 0)
			return table->value;
	return -1;
}

int
policy_facility_from_name(const char *name)
{
	return policy_value_of(gx_facility_names, name);
}
