/* SPDX-License-Identifier: ISC */
/*
 * The modes that run nothing: --check (the effective policy, the
 * command's path, environment and advisories, the isolation this kernel
 * grants), --init and --trust FILE.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "fswatch.h"
#include "mechanisms.h"
#include "modes.h"
#include "ns.h"
#include "supervise.h"
#include "sys.h"
#include "trust.h"
#include "util.h"

/* --trust FILE: show it, what changed, and trust its bytes. */
int
mode_trust(struct gx_state *st)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *real;

	real = realpath(st->opts.trust, NULL);
	if (real == NULL) {
		warnx_gx("--trust %s: %s", st->opts.trust, strerror(errno));
		return GX_EXIT_FAILURE;
	}
	if (policy_load(real, geteuid() == 0, &pol, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
		warnx_gx("%s: not trusted (fix the errors above first)", real);
		free(real);
		return GX_EXIT_FAILURE;
	}
	if (st->store == NULL)
		diag_add(&d, "--trust: no trust store (no HOME)");
	else if (trust_add(st->store, real, pol.sha256, stdout, &d) == 0 &&
	    !st->opts.quiet)
		warnx_gx("trusted %s (sha256 %s) in %s", real, pol.sha256,
		    st->store);
	policy_free(&pol);
	free(real);
	if (d.n > 0) {
		diag_print(&d);
		diag_free(&d);
		return GX_EXIT_FAILURE;
	}
	return 0;
}

static void
print_check(struct gx_state *st, int lookup_rc)
{
	policy_print(&st->pol, stdout, NULL);
	printf("\n# trusted: %s\n", st->trusted != NULL ? st->trusted :
	    "no (a run is refused until: guardexec --trust FILE)");
	if (st->opts.argv != NULL) {
		printf("# command: %s\n", st->opts.argv[0]);
		if (lookup_rc == 0)
			printf("# resolved: %s\n", st->exec_path);
		else if (lookup_rc == -EACCES)
			printf("# resolved: %s (not executable)\n",
			    st->exec_path);
		else
			printf("# resolved: not found on PATH=%s\n",
			    env_get(st->env.envp, "PATH") ?: GX_DEFAULT_PATH);
		printf("# env passed:");
		for (size_t i = 0; st->env.passed[i] != NULL; i++)
			printf(" %s", st->env.passed[i]);
		printf("\n# env dropped:");
		for (size_t i = 0; st->env.dropped[i] != NULL; i++)
			printf(" %s", st->env.dropped[i]);
		printf("\n");
		for (size_t i = 0; st->adv[i] != NULL; i++)
			printf("# advisory (not enforced): %s: %s\n",
			    st->adv[i]->match ? st->adv[i]->match :
			    st->adv[i]->regex, st->adv[i]->reason);
	}
	if (fflush(stdout) != 0)
		die_errno("writing to stdout");
}

/* --check: say where syscalls.allow and syscalls.deny overlap (deny
 * wins, so the allow entry does nothing for those). */
static void
check_overlap(struct gx_state *st)
{
	char *const *allow = st->pol.sys_allow_src, *const *deny =
	    st->pol.sys_deny;

	for (size_t i = 0; allow != NULL && allow[i] != NULL; i++) {
		const char *const *am = filter_group(allow[i]);
		const char *one[2] = { allow[i], NULL };

		if (am == NULL)
			am = one;
		for (size_t j = 0; deny != NULL && deny[j] != NULL; j++) {
			const char *const *dm = filter_group(deny[j]);
			const char *both = NULL;
			size_t n = 0;

			for (size_t a = 0; am[a] != NULL; a++) {
				bool in = dm == NULL ?
				    strcmp(deny[j], am[a]) == 0 : false;

				for (size_t b = 0; dm != NULL && dm[b]; b++)
					in = in || strcmp(dm[b], am[a]) == 0;
				if (in && n++ == 0)
					both = am[a];
			}
			if (n > 0)
				notice(st, "warning: syscalls: \"%s\" in allow "
				    "and \"%s\" in deny overlap (%s%s); deny "
				    "wins", allow[i], deny[j], both,
				    n > 1 ? ", ..." : "");
		}
	}
}

/* --check: the namespaces this kernel grants a run, and what follows. */
static void
print_namespaces(struct gx_state *st, unsigned nsb, const char *why)
{
	if (nsb != 0) {
		printf("# namespaces:");
		for (int b = 0; gx_ns_names[b] != NULL; b++)
			if (nsb & (1u << b))
				printf(" %s", gx_ns_names[b]);
		printf("\n");
		if (st->pol.network == GX_NET_NONE && !(nsb & GX_NS_NET))
			printf("# namespaces: missing (the kernel refused "
			    "them: %s): net\n", why);
		/*
		 * The map is 0->0: no capability, but the files of
		 * root are still its own, and uid checks pass.
		 */
		if (geteuid() == 0 && st->pol.user == NULL)
			printf("# user: uid 0 of its own user namespace, "
			    "mapped to host uid 0, with no capabilities: "
			    "it still owns root's files, and only "
			    "read-only mounts stop its writes (the "
			    "view's; /proc/sys and /sys always)%s\n",
			    st->pol.has_filesystem ? "" : "; with no "
			    "filesystem group it can write every file "
			    "root can");
	} else {
		printf("# namespaces: missing (the kernel refused them: "
		    "%s): user pid mount ipc%s\n", why,
		    st->pol.network == GX_NET_NONE ? " net" : "");
		if (mechanisms_need_mount_ns(st))
			printf("# run: refused: " GX_ROOT_FS_NEEDS_NS "\n",
			    why);
	}
}

void
mode_check(struct gx_state *st, int lookup_rc)
{
	char why[96] = "";
	unsigned nsb = ns_probe(st->pol.network == GX_NET_NONE, why,
	    sizeof(why));

	check_overlap(st);
	if (geteuid() == 0 && st->pol.user == NULL && nsb == 0)
		notice(st, "warning: running as root with no command.user: "
		    "root inside the sandbox is still root");
	print_check(st, lookup_rc);
	if (fswatch_check_note(&st->pol) != NULL)
		printf("%s\n", fswatch_check_note(&st->pol));
	print_namespaces(st, nsb, why);
}

int
mode_init(struct gx_state *st)
{
	struct gx_diag d = { 0 };
	char *written;

	if (sys_init_policy(st->opts.init_dir, &written, &d) < 0) {
		diag_print(&d);
		diag_free(&d);
		return GX_EXIT_FAILURE;
	}
	printf("guardexec: wrote %s\n", written);
	/* The write list holds ".": it needs trust before it runs. */
	if (!st->opts.quiet)
		warnx_gx("review it, then trust it: guardexec --trust %s",
		    written);
	free(written);
	return 0;
}
