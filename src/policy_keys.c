/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <string.h>

#include "policy.h"
#include "policy_keys.h"

#define P(field) offsetof(struct gx_policy, field)
#define YEAR (366.0 * 24 * 3600)

/*
 * Every group, in the order the parser checks them and the printer
 * prints them.  @doc heads the group in the --init template.
 */
const struct gx_group gx_groups[] = {
	{ "command", "How the command is started.", -1, NULL },
	{ "env", "The caller's environment (with its API keys) is dropped, "
	    "but these.", P(has_env),
	    "# no env group: only PATH=/usr/bin:/bin is passed" },
	{ "limits", "Resource limits; an absent key leaves the limit as "
	    "inherited.", -1, NULL },
	{ "output", "The cap on what the command prints.", -1, NULL },
	{ "syscalls", "Seccomp: default deny; deny wins over allow.",
	    P(has_syscalls), "# no syscalls group: no seccomp syscall filter "
	    "(only the TIOCSTI/TIOCLINUX/TIOCSCTTY guard)" },
	{ "filesystem", "Landlock and a mount namespace: nothing outside these "
	    "is reachable.", P(has_filesystem),
	    "# no filesystem group: no filesystem restriction" },
	{ "network", "The network the command may use.", -1, NULL },
	{ "isolation", "Mechanisms whose absence refuses the run.", -1, NULL },
	{ "advisory", "Warnings only: NOT a security control, any blocklist "
	    "can be bypassed.", -1, NULL },
	{ "audit", "Where the record of every run goes.", -1, NULL },
	{ NULL, NULL, -1, NULL },
};

/*
 * Every key.  The defaults are what an absent key means (NULL: nothing,
 * or inherited); the unit tests check them against the parser's.
 */
const struct gx_key gx_keys[] = {
	{ NULL, "version", GX_K_VERSION, "integer, required", P(version),
	  NULL, 1, 1, NULL, "The policy format; must be 1.", NULL },
	{ NULL, "name", GX_K_NAME, "string, required", P(name), NULL, 0, 0,
	  NULL, "Named in every audit record.", NULL },

	{ "command", "stdin", GX_K_ENUM, "string", P(stdin_mode),
	  gx_stdin_names, 0, 0, "\"null\"",
	  "\"null\": /dev/null; \"inherit\": guardexec's own stdin.",
	  "\"null\"" },
	{ "command", "user", GX_K_USER, "string", P(user), NULL, 0, 0, NULL,
	  "Only when started as root: run the command as this user.", NULL },

	{ "env", "allow", GX_K_ENV_ALLOW, "list of strings", P(env_allow),
	  NULL, 0, 0, NULL,
	  "Names kept from the caller; a trailing * is a prefix match.",
	  "[ \"LANG\", \"LC_*\", \"TERM\", \"TZ\" ]" },
	{ "env", "set", GX_K_ENV_SET, "group of strings", P(env_set), NULL,
	  0, 0, NULL, "Forced values; they win over allow.",
	  "{ PATH = \"/usr/local/bin:/usr/bin:/bin\"; HOME = \"/tmp\"; }" },

	{ "limits", "timeout", GX_K_DURATION, "duration", P(limits.timeout),
	  NULL, 0, YEAR, "0", "Wall-clock limit (0: none); then SIGTERM, "
	  "SIGKILL after kill_grace.", "\"10m\"" },
	{ "limits", "kill_grace", GX_K_DURATION, "duration",
	  P(limits.kill_grace), NULL, 0, 3600, "2",
	  "From SIGTERM to SIGKILL, at most 3600 seconds.", "2" },
	{ "limits", "cpu", GX_K_CPU, "duration", P(limits.cpu), NULL, 1, YEAR,
	  NULL, "RLIMIT_CPU, rounded up to whole seconds.", NULL },
	{ "limits", "memory", GX_K_RSIZE, "size", P(limits.memory), NULL,
	  1 << 20, 0, NULL, "The run's cgroup memory limit, else RLIMIT_AS.",
	  "\"2G\"" },
	{ "limits", "processes", GX_K_COUNT, "integer", P(limits.processes),
	  NULL, 1, 4194304, NULL,
	  "RLIMIT_NPROC, and the run's cgroup pids limit.", "256" },
	{ "limits", "open_files", GX_K_COUNT, "integer", P(limits.open_files),
	  NULL, 1, 1 << 20, NULL, "RLIMIT_NOFILE.", "1024" },
	{ "limits", "file_size", GX_K_RSIZE, "size", P(limits.file_size), NULL,
	  0, 0, NULL, "RLIMIT_FSIZE: the largest file it may write.",
	  "\"1G\"" },
	{ "limits", "core", GX_K_RSIZE, "size", P(limits.core), NULL, 0, 0,
	  NULL, "RLIMIT_CORE (0: no core dumps).", "0" },
	{ "limits", "stack", GX_K_RSIZE, "size", P(limits.stack), NULL,
	  64 << 10, 0, NULL, "RLIMIT_STACK.", NULL },

	{ "output", "max_bytes", GX_K_SIZE, "size", P(max_bytes), NULL, 0, 0,
	  "0", "Cap on stdout and stderr together (0: no cap).", "100000" },
	{ "output", "on_overflow", GX_K_ENUM, "string", P(on_overflow),
	  gx_overflow_names, 0, 0, "\"truncate\"",
	  "At the cap: \"truncate\" the rest, or \"kill\" the command.", NULL },
	{ "output", "keep", GX_K_ENUM, "string", P(keep), gx_keep_names, 0, 0,
	  "\"head\"", "\"head_tail\" keeps the end too: errors are often "
	  "there.", "\"head_tail\"" },

	{ "syscalls", "default_action", GX_K_ENUM, "string",
	  P(default_action), gx_action_names, 0, 0, "\"errno\"",
	  "For the syscalls not allowed: \"errno\", \"kill\" or \"log\".",
	  "\"errno\"" },
	{ "syscalls", "errno", GX_K_ERRNO, "string or integer", P(sys_errno),
	  NULL, 1, 4095, "\"EPERM\"", "The errno of a refused syscall.",
	  NULL },
	{ "syscalls", "allow", GX_K_SYS_ALLOW, "list of strings",
	  P(sys_allow_src), NULL, 0, 0, "[ ]",
	  "Syscall names and @groups (see guardexec.cfg(5)).",
	  "[ \"@default\", \"@file-read\", \"@file-write\", \"@process\",\n"
	  "            \"@signal\", \"@ipc\", \"@time\", \"@network\" ]" },
	{ "syscalls", "deny", GX_K_SYS_DENY, "list of strings", P(sys_deny),
	  NULL, 0, 0, "[ ]", "Refused even when allow names them.",
	  "[ \"@debug\", \"@mount\", \"@module\", \"@keyring\", "
	  "\"@privileged\",\n           \"@io-uring\" ]" },

	{ "filesystem", "read", GX_K_PATHS, "list of strings", P(fs_read),
	  NULL, 0, 0, "[ ]", "Read and execute below each path.", "[ ]" },
	{ "filesystem", "write", GX_K_PATHS, "list of strings", P(fs_write),
	  NULL, 0, 0, "[ ]", "Also write, create and delete below each "
	  "(\".\": the run's working directory).",
	  "[ \".\", \"/tmp\", \"/dev/null\" ]" },
	{ "filesystem", "tmp", GX_K_ENUM, "string", P(fs_tmp), gx_tmp_names,
	  0, 0, "\"shared\"", "\"shared\": the host's /tmp as listed; "
	  "\"private\": an empty one.", NULL },

	{ "network", "mode", GX_K_ENUM, "string", P(network), gx_net_names,
	  0, 0, "\"all\"", "\"none\" for commands that need no network "
	  "(local AF_UNIX still works).", "\"all\"" },

	{ "isolation", "require", GX_K_ISO, "list of strings", P(iso_require),
	  NULL, 0, 0, "[ ]", "Any of user, pid, mount, network, cgroup, "
	  "landlock: refuse to run without it.", NULL },

	{ "advisory", "warn", GX_K_WARN, "list of groups", P(advisory), NULL,
	  0, 0, "( )", "Rules warned about before the command starts.",
	  "(\n    { match = \"rm -rf /\"; "
	  "reason = \"deletes from the root directory\"; },\n"
	  "    { regex = \"curl[^|]*\\\\|[[:space:]]*(ba)?sh\"; "
	  "reason = \"pipes a download into a shell\"; }\n  )" },
	{ "advisory.warn", "match", GX_K_RULE, "string", 0, NULL, 0, 0, NULL,
	  "A substring of the command line.", NULL },
	{ "advisory.warn", "regex", GX_K_RULE, "string", 0, NULL, 0, 0, NULL,
	  "A POSIX extended regular expression.", NULL },
	{ "advisory.warn", "reason", GX_K_RULE, "string", 0, NULL, 0, 0, NULL,
	  "Why the match deserves a warning.", NULL },

	{ "audit", "log", GX_K_LOG, "string", P(audit_log), NULL, 0, 0, NULL,
	  "The local log, JSON Lines (default: see guardexec(1), FILES).",
	  NULL },
	{ "audit", "syslog", GX_K_BOOL, "boolean", P(audit_syslog), NULL, 0, 0,
	  "true", "Also send each record to syslog.", NULL },
	{ "audit", "facility", GX_K_FACILITY, "string", P(audit_facility),
	  gx_facility_names, 0, 0, "\"authpriv\"", "The syslog facility.",
	  NULL },
	{ "audit", "on_log_failure", GX_K_ENUM, "string", P(on_log_failure),
	  gx_logfail_names, 0, 0, "\"refuse\"",
	  "Log unwritable: \"refuse\" to run, or \"warn\" and run.", NULL },
	{ "audit", "sync", GX_K_BOOL, "boolean", P(audit_sync), NULL, 0, 0,
	  "true", "fdatasync each record before guardexec exits.", NULL },
	{ NULL, NULL, GX_K_RULE, NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

static bool
same_group(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

const struct gx_key *
policy_key_find(const char *group, const char *name)
{
	for (const struct gx_key *k = gx_keys; k->name != NULL; k++)
		if (same_group(k->group, group) && strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

/*
 * Edit distance of @a and @b (insertions, deletions, substitutions and
 * swaps of neighbours), capped: anything above 3 is 4.
 */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[33][33];

	if (la > 32 || lb > 32 || (la > lb ? la - lb : lb - la) > 3)
		return 4;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	}
	return d[la][lb] > 3 ? 4 : d[la][lb];
}

/* Keep @cand in *@best when it is nearer to @name than what is there. */
static void
nearer(const char *name, const char *cand, const char **best, size_t *best_d)
{
	size_t d = distance(name, cand);

	if (d < *best_d && 2 * d < strlen(name)) {
		*best = cand;
		*best_d = d;
	}
}

const char *
policy_key_nearest(const char *group, const char *name)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (const struct gx_key *k = gx_keys; k->name != NULL; k++)
		if (same_group(k->group, group))
			nearer(name, k->name, &best, &best_d);
	for (size_t i = 0; group == NULL && gx_groups[i].name != NULL; i++)
		nearer(name, gx_groups[i].name, &best, &best_d);
	return best;
}

const struct gx_key *
policy_key_elsewhere(const char *group, const char *name)
{
	const struct gx_key *found = NULL;

	for (const struct gx_key *k = gx_keys; k->name != NULL; k++) {
		if (same_group(k->group, group) || k->group == NULL ||
		    strcmp(k->name, name) != 0 || strchr(k->group, '.') != NULL)
			continue;
		if (found != NULL)
			return NULL;    /* in two groups: no guess */
		found = k;
	}
	return found;
}
