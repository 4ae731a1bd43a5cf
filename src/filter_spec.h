/* SPDX-License-Identifier: ISC */
#ifndef GX_FILTER_SPEC_H
#define GX_FILTER_SPEC_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"

struct gx_policy;

/*
 * A seccomp program as data: the rules filter_build() decides, before
 * any compiler sees them.  Two compilers take a spec: bpf_compile()
 * (src/bpf.c, the one guardexec runs: microseconds) and
 * filter_ref_compile() (src/filter_ref.c, libseccomp: the reference the
 * unit tests compare against instruction by instruction of behaviour,
 * and the compiler on architectures bpf.c does not know).
 */
enum gx_rule_op {
	GX_OP_NONE,       /* the call, whatever its arguments */
	GX_OP_MASKED_EQ,  /* (arg & mask) == val */
	GX_OP_NE,         /* arg != val */
};

struct gx_rule {
	const char *name;       /* syscall name (static or the policy's) */
	int nr;                 /* its native number */
	uint32_t action;        /* SECCOMP_RET_* with data */
	enum gx_rule_op op;
	unsigned int arg;       /* 0..5 */
	uint64_t mask, val;
};

enum gx_spec_arches {
	GX_ARCHES_NATIVE,       /* native ABI only; x32 numbers: bad arch */
	GX_ARCHES_X86_ALL,      /* x86_64, x32 and i386 */
};

struct gx_filter_spec {
	uint32_t def;           /* action for every other call */
	uint32_t badarch;       /* action for an ABI not in the filter */
	enum gx_spec_arches arches;
	size_t n, cap;
	struct gx_rule *rules;  /* owned; names are not */
};

/*
 * The guard's spec (see filter.h): always built.  0, or -1 with a
 * message in @diag.  @spec owns its memory: filter_spec_free().
 */
int filter_spec_guard(bool net_seccomp, bool no_ns,
    struct gx_filter_spec *spec, struct gx_diag *diag);

enum gx_filter_variant { GX_VARIANT_PLAIN, GX_VARIANT_NOTIFY,
	GX_VARIANT_LEARN };

/* The policy filter's spec for variant @v of @pol.  0, or -1 (@diag). */
int filter_spec_policy(const struct gx_policy *pol,
    enum gx_filter_variant v, struct gx_filter_spec *spec,
    struct gx_diag *diag);

void filter_spec_free(struct gx_filter_spec *spec);

/*
 * Compile @spec with libseccomp (the reference).  0 or -errno; @prog's
 * filter is malloc'd.
 */
int filter_ref_compile(const struct gx_filter_spec *spec,
    struct sock_fprog *prog);

#endif
