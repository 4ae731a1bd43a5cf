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
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "filter.h"
#include "fswatch.h"
#include "log.h"
#include "policy.h"
#include "util.h"

/* Compile @ctx to BPF through a memfd (libseccomp 2.5 has no _mem API). */
static int
export_prog(scmp_filter_ctx ctx, struct sock_fprog *prog)
{
	int fd, rc, errsv;
	off_t len;
	void *buf;

	fd = memfd_create("guardexec-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		goto out;
	len = lseek(fd, 0, SEEK_END);
	if (len <= 0 || len % sizeof(struct sock_filter) != 0 ||
	    len / sizeof(struct sock_filter) > BPF_MAXINSNS) {
		rc = -E2BIG;
		goto out;
	}
	buf = xmalloc((size_t)len);
	if (pread(fd, buf, (size_t)len, 0) != len) {
		errsv = errno;
		free(buf);
		rc = -(errsv ? errsv : EIO);
		goto out;
	}
	prog->filter = buf;
	prog->len = (unsigned short)(len / sizeof(struct sock_filter));
	rc = 0;
out:
	close(fd);
	return rc;
}

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

static int
allow_one(scmp_filter_ctx ctx, int nr)
{
	if (nr == SCMP_SYS(setns))
		return 0;
	if (nr == SCMP_SYS(clone))
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, NS_FLAGS, 0));
	if (nr == SCMP_SYS(unshare))
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, NS_FLAGS | CLONE_NEWTIME, 0));
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
}

static int
build_guard(bool net_seccomp, bool no_ns, struct sock_fprog *prog,
    struct gx_diag *diag)
{
	/*
	 * TIOCSTI, TIOCLINUX: input pushed into a terminal.  TIOCSCTTY: an
	 * inherited terminal that is no session's own would become the
	 * command's controlling terminal (guarantee 4: none).
	 */
	static const unsigned long ttyops[] = { TIOCSTI, TIOCLINUX,
		TIOCSCTTY };
	scmp_filter_ctx ctx;
	int rc, io_uring;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		diag_add(diag, "seccomp_init failed");
		return -1;
	}
	/* Cover the other ABIs, so int 0x80 cannot reach TIOCSTI either. */
	seccomp_arch_add(ctx, SCMP_ARCH_X86);
	seccomp_arch_add(ctx, SCMP_ARCH_X32);
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (size_t i = 0; rc == 0 && i < sizeof(ttyops) / sizeof(ttyops[0]);
	    i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl),
		    1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, ttyops[i]));
	if (rc == 0 && no_ns)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	if (rc == 0 && net_seccomp) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
		    SCMP_SYS(socket), 1,
		    SCMP_A0(SCMP_CMP_NE, AF_UNIX));
		io_uring = seccomp_syscall_resolve_name("io_uring_setup");
		if (rc == 0 && io_uring != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
			    io_uring, 0);
	}
	if (rc == 0)
		rc = export_prog(ctx, prog);
	seccomp_release(ctx);
	if (rc < 0) {
		diag_add(diag, "building the seccomp guard filter: %s",
		    strerror(-rc));
		return -1;
	}
	return 0;
}

enum variant { V_PLAIN, V_NOTIFY, V_LEARN };

/*
 * --learn learns paths too (issue 15): the path syscalls the allowlist
 * has still go to the listener, which reads their paths and lets them
 * through (fswatch.h).  Learning only; ordinary runs never notify them.
 */
static bool
learn_notified(const struct gx_policy *pol, enum variant v, int nr)
{
	return v == V_LEARN && fswatch_watched(pol, nr);
}

static int
build_policy(const struct gx_policy *pol, enum variant v,
    struct sock_fprog *prog, struct gx_diag *diag)
{
	static const char *const none[] = { NULL };
	const char *const *enosys = filter_enosys_names();
	char *const *allow = pol->has_syscalls ? pol->sys_allow :
	    (char *const *)none;
	uint32_t def;
	scmp_filter_ctx ctx;
	int rc = 0, nr;

	switch (pol->default_action) {
	case GX_ACTION_KILL: def = SCMP_ACT_KILL_PROCESS; break;
	case GX_ACTION_LOG: def = SCMP_ACT_LOG; break;
	case GX_ACTION_ERRNO: /* FALLTHROUGH */
	default: def = SCMP_ACT_ERRNO((uint32_t)pol->sys_errno); break;
	}
	if (v != V_PLAIN)
		def = SCMP_ACT_NOTIFY;
	ctx = seccomp_init(def);
	if (ctx == NULL) {
		diag_add(diag, "seccomp_init failed");
		return -1;
	}
	/*
	 * Only the native ABI is in the filter; every other one (i386 through
	 * int 0x80, x32 with __X32_SYSCALL_BIT) hits the bad-arch action.
	 */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (size_t i = 0; rc == 0 && allow[i] != NULL; i++) {
		nr = seccomp_syscall_resolve_name(allow[i]);
		if (nr == __NR_SCMP_ERROR || learn_notified(pol, v, nr))
			continue;
		rc = allow_one(ctx, nr);
	}
	/* A process must always be able to end. */
	if (rc == 0 && !strv_contains(allow, "exit"))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit), 0);
	if (rc == 0 && !strv_contains(allow, "exit_group"))
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group),
		    0);
	for (size_t i = 0; rc == 0 && v != V_LEARN &&
	    pol->default_action != GX_ACTION_LOG &&
	    enosys[i] != NULL; i++) {
		if (strv_contains(allow, enosys[i]) ||
		    strv_contains(pol->sys_deny, enosys[i]))
			continue;
		nr = seccomp_syscall_resolve_name(enosys[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
	}
	/*
	 * Learning keeps the policy's deny list: what it names stays refused
	 * (and unlearned), so the learned policy behaves as the learning run.
	 */
	for (size_t i = 0; rc == 0 && v == V_LEARN && pol->sys_deny != NULL &&
	    pol->sys_deny[i] != NULL; i++) {
		const char *const *m = filter_group(pol->sys_deny[i]);
		const char *one[2] = { pol->sys_deny[i], NULL };

		for (m = m ? m : one; rc == 0 && *m != NULL; m++) {
			nr = seccomp_syscall_resolve_name(*m);
			if (nr == __NR_SCMP_ERROR || nr < 0 ||
			    strcmp(*m, "exit") == 0 || strcmp(*m, "exit_group") == 0)
				continue;
			rc = seccomp_rule_add(ctx,
			    SCMP_ACT_ERRNO((uint32_t)pol->sys_errno), nr, 0);
		}
	}
	if (rc == 0)
		rc = export_prog(ctx, prog);
	seccomp_release(ctx);
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
		if (build_policy(pol, V_LEARN, &f->notify, diag) < 0)
			goto fail;
		return 0;
	}
	if (!pol->has_syscalls)
		return 0;
	/* The plain variant is compiled only if the listener fails. */
	if (build_policy(pol, V_NOTIFY, &f->notify, diag) < 0)
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
	return build_policy(pol, V_PLAIN, &f->policy, diag);
}
