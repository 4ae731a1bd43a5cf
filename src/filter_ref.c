/* SPDX-License-Identifier: ISC */
/*
 * The reference compiler: a filter spec through libseccomp.  guardexec
 * compiles with bpf.c; this one is what tests/unit/check_bpf.c holds
 * bpf.c to, and the compiler on architectures bpf.c does not cover.
 */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "filter_spec.h"
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

int
filter_ref_compile(const struct gx_filter_spec *spec, struct sock_fprog *prog)
{
	scmp_filter_ctx ctx;
	int rc;

	ctx = seccomp_init(spec->def);
	if (ctx == NULL)
		return -ENOMEM;
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
		    spec->badarch);
	if (rc == 0 && spec->arches == GX_ARCHES_X86_ALL) {
		/* Errors ignored: not an x86 build (the rules still apply). */
		seccomp_arch_add(ctx, SCMP_ARCH_X86);
		seccomp_arch_add(ctx, SCMP_ARCH_X32);
	} else if (rc == 0) {
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	}
	for (size_t i = 0; rc == 0 && i < spec->n; i++) {
		const struct gx_rule *r = &spec->rules[i];
		struct scmp_arg_cmp c = { r->arg, SCMP_CMP_EQ, r->mask,
			r->val };

		switch (r->op) {
		case GX_OP_NONE:
			rc = seccomp_rule_add(ctx, r->action, r->nr, 0);
			break;
		case GX_OP_MASKED_EQ:
			c.op = SCMP_CMP_MASKED_EQ;
			rc = seccomp_rule_add_array(ctx, r->action, r->nr, 1, &c);
			break;
		case GX_OP_NE:
			c.op = SCMP_CMP_NE;
			c.datum_a = r->val;
			c.datum_b = 0;
			rc = seccomp_rule_add_array(ctx, r->action, r->nr, 1, &c);
			break;
		default:
			rc = -EINVAL;
		}
	}
	if (rc == 0)
		rc = export_prog(ctx, prog);
	seccomp_release(ctx);
	return rc;
}
