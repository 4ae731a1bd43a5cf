/* SPDX-License-Identifier: ISC */
/*
 * The policy's seccomp programs, compiled to classic BPF in the parent:
 * the guard and the policy filter (notify, learn and plain variants).
 * Kept apart from filter.c, the syscall vocabulary (groups, names) the
 * policy parser validates with, so that the dependencies run one way:
 * policy -> filter vocabulary, and filter_build -> policy.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "bpf.h"
#include "filter.h"
#include "filter_spec.h"
#include "fswatch.h"
#include "log.h"
#include "policy.h"
#include "util.h"

/*
 * With a syscalls group, no new namespace from inside the sandbox, and
 * each attempt counted by name: clone() and unshare() are allowed only
 * without a CLONE_NEW* flag (the rest takes the policy's action, like any
 * denied call), setns() never; clone3(), whose flags are behind a
 * pointer, fails with ENOSYS in the guard (libc falls back to clone).
 */
#define NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | \
	CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static void
add(struct gx_filter_spec *spec, const char *name, int nr, uint32_t action,
    enum gx_rule_op op, unsigned int arg, uint64_t mask, uint64_t val)
{
	/* The default already (errno = ENOSYS): libseccomp refuses it. */
	if (op == GX_OP_NONE && action == spec->def)
		return;
	if (spec->n == spec->cap) {
		size_t cap = spec->cap ? spec->cap * 2 : 64;

		spec->rules = xreallocarray(spec->rules, cap,
		    sizeof(spec->rules[0]));
		spec->cap = cap;
	}
	spec->rules[spec->n++] = (struct gx_rule){ name, nr, action, op, arg,
		mask, val };
}

static void
add_name(struct gx_filter_spec *spec, const char *name, uint32_t action)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr != __NR_SCMP_ERROR && nr >= 0)
		add(spec, name, nr, action, GX_OP_NONE, 0, 0, 0);
}

static void
allow_one(struct gx_filter_spec *spec, const char *name, int nr)
{
	if (nr == SCMP_SYS(setns))
		return;
	if (nr == SCMP_SYS(clone))
		add(spec, name, nr, SCMP_ACT_ALLOW, GX_OP_MASKED_EQ, 0,
		    NS_FLAGS, 0);
	else if (nr == SCMP_SYS(unshare))
		add(spec, name, nr, SCMP_ACT_ALLOW, GX_OP_MASKED_EQ, 0,
		    NS_FLAGS | CLONE_NEWTIME, 0);
	else
		add(spec, name, nr, SCMP_ACT_ALLOW, GX_OP_NONE, 0, 0, 0);
}

int
filter_spec_guard(bool net_seccomp, bool no_ns, struct gx_filter_spec *spec,
    struct gx_diag *diag)
{
	/*
	 * TIOCSTI, TIOCLINUX: input pushed into a terminal.  TIOCSCTTY: an
	 * inherited terminal that is no session's own would become the
	 * command's controlling terminal (guarantee 4: none).
	 */
	static const unsigned long ttyops[] = { TIOCSTI, TIOCLINUX,
		TIOCSCTTY };

	(void)diag;
	memset(spec, 0, sizeof(*spec));
	spec->def = SCMP_ACT_ALLOW;
	spec->badarch = SCMP_ACT_KILL;
	/* Cover the other ABIs, so int 0x80 cannot reach TIOCSTI either. */
	spec->arches = GX_ARCHES_X86_ALL;
	for (size_t i = 0; i < sizeof(ttyops) / sizeof(ttyops[0]); i++)
		add(spec, "ioctl", SCMP_SYS(ioctl), SCMP_ACT_ERRNO(EPERM),
		    GX_OP_MASKED_EQ, 1, 0xffffffffUL, ttyops[i]);
	if (no_ns)
		add_name(spec, "clone3", SCMP_ACT_ERRNO(ENOSYS));
	if (net_seccomp) {
		add(spec, "socket", SCMP_SYS(socket), SCMP_ACT_ERRNO(EACCES),
		    GX_OP_NE, 0, 0, AF_UNIX);
		add_name(spec, "io_uring_setup", SCMP_ACT_ERRNO(EACCES));
	}
	return 0;
}

int
filter_spec_policy(const struct gx_policy *pol, enum gx_filter_variant v,
    struct gx_filter_spec *spec, struct gx_diag *diag)
{
	static const char *const none[] = { NULL };
	const char *const *enosys = filter_enosys_names();
	char *const *allow = pol->has_syscalls ? pol->sys_allow :
	    (char *const *)none;
	int nr;

	(void)diag;
	memset(spec, 0, sizeof(*spec));
	switch (pol->default_action) {
	case GX_ACTION_KILL: spec->def = SCMP_ACT_KILL_PROCESS; break;
	case GX_ACTION_LOG: spec->def = SCMP_ACT_LOG; break;
	case GX_ACTION_ERRNO: /* FALLTHROUGH */
	default:
		spec->def = SCMP_ACT_ERRNO((uint32_t)pol->sys_errno);
		break;
	}
	if (v != GX_VARIANT_PLAIN)
		spec->def = SCMP_ACT_NOTIFY;
	/*
	 * Only the native ABI is in the filter; every other one (i386 through
	 * int 0x80, x32 with __X32_SYSCALL_BIT) hits the bad-arch action.
	 */
	spec->badarch = SCMP_ACT_KILL_PROCESS;
	spec->arches = GX_ARCHES_NATIVE;
	for (size_t i = 0; allow[i] != NULL; i++) {
		nr = seccomp_syscall_resolve_name(allow[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		/*
		 * --learn learns paths too (issue 15): the path syscalls the
		 * allowlist has still go to the listener, which reads their
		 * paths and lets them through (fswatch.h).
		 */
		if (v == GX_VARIANT_LEARN && fswatch_watched(pol, nr))
			continue;
		/* Ordinary runs: the calls that open, create, remove, change. */
		if (v == GX_VARIANT_NOTIFY && fswatch_watched_ordinary(pol, nr))
			continue;
		allow_one(spec, allow[i], nr);
	}
	/* A process must always be able to end. */
	if (!strv_contains(allow, "exit"))
		add_name(spec, "exit", SCMP_ACT_ALLOW);
	if (!strv_contains(allow, "exit_group"))
		add_name(spec, "exit_group", SCMP_ACT_ALLOW);
	for (size_t i = 0; v != GX_VARIANT_LEARN &&
	    pol->default_action != GX_ACTION_LOG && enosys[i] != NULL; i++) {
		if (strv_contains(allow, enosys[i]) ||
		    strv_contains(pol->sys_deny, enosys[i]))
			continue;
		add_name(spec, enosys[i], SCMP_ACT_ERRNO(ENOSYS));
	}
	/*
	 * Learning keeps the policy's deny list: what it names stays refused
	 * (and unlearned), so the learned policy behaves as the learning run.
	 */
	for (size_t i = 0; v == GX_VARIANT_LEARN && pol->sys_deny != NULL &&
	    pol->sys_deny[i] != NULL; i++) {
		const char *const *m = filter_group(pol->sys_deny[i]);
		const char *one[2] = { pol->sys_deny[i], NULL };

		for (m = m ? m : one; *m != NULL; m++) {
			if (strcmp(*m, "exit") == 0 ||
			    strcmp(*m, "exit_group") == 0)
				continue;
			add_name(spec, *m,
			    SCMP_ACT_ERRNO((uint32_t)pol->sys_errno));
		}
	}
	return 0;
}

void
filter_spec_free(struct gx_filter_spec *spec)
{
	free(spec->rules);
	memset(spec, 0, sizeof(*spec));
}

/*
 * Compile @spec: bpf.c, or libseccomp where bpf.c does not know the
 * architecture or the rule.
 */
static int
compile(const struct gx_filter_spec *spec, struct sock_fprog *prog)
{
	int rc = bpf_compile(spec, prog);

	if (rc == -ENOTSUP)
		rc = filter_ref_compile(spec, prog);
	return rc;
}

static int
build_guard(bool net_seccomp, bool no_ns, struct sock_fprog *prog,
    struct gx_diag *diag)
{
	struct gx_filter_spec spec;
	int rc;

	if (filter_spec_guard(net_seccomp, no_ns, &spec, diag) < 0)
		return -1;
	rc = compile(&spec, prog);
	filter_spec_free(&spec);
	if (rc < 0) {
		diag_add(diag, "building the seccomp guard filter: %s",
		    strerror(-rc));
		return -1;
	}
	return 0;
}

static int
build_policy(const struct gx_policy *pol, enum gx_filter_variant v,
    struct sock_fprog *prog, struct gx_diag *diag)
{
	struct gx_filter_spec spec;
	int rc;

	if (filter_spec_policy(pol, v, &spec, diag) < 0)
		return -1;
	rc = compile(&spec, prog);
	filter_spec_free(&spec);
	if (rc < 0) {
		diag_add(diag, "building the seccomp filter: %s", strerror(-rc));
		return -1;
	}
	return 0;
}

int
filter_build(const struct gx_policy *pol, bool net_seccomp, bool learn,
    struct gx_filter *f, struct gx_diag *diag)
{
	memset(f, 0, sizeof(*f));
	if (build_guard(net_seccomp, pol->has_syscalls, &f->guard, diag) < 0)
		return -1;
	if (learn) {
		if (build_policy(pol, GX_VARIANT_LEARN, &f->notify, diag) < 0)
			goto fail;
		return 0;
	}
	if (!pol->has_syscalls)
		return 0;
	/* The plain variant is compiled only if the listener fails. */
	if (build_policy(pol, GX_VARIANT_NOTIFY, &f->notify, diag) < 0)
		goto fail;
	return 0;
fail:
	filter_free(f);
	return -1;
}

int
filter_build_plain(const struct gx_policy *pol, struct gx_filter *f,
    struct gx_diag *diag)
{
	if (!pol->has_syscalls || f->policy.len > 0)
		return 0;
	return build_policy(pol, GX_VARIANT_PLAIN, &f->policy, diag);
}
