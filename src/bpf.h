/* SPDX-License-Identifier: ISC */
#ifndef GX_BPF_H
#define GX_BPF_H

#include <linux/filter.h>

struct gx_filter_spec;

/*
 * Compile @spec straight to classic seccomp BPF (pure; no libseccomp):
 * an architecture check, then a binary search over the syscall numbers
 * (ranges of equal action share one leaf), each leaf a return or one
 * argument check.  The same behaviour as filter_ref_compile() on every
 * syscall number of every ABI; tests/unit/check_bpf.c runs both through
 * an interpreter to hold it so.
 *
 * Returns 0 and a malloc'd @prog->filter; -ENOTSUP when this build's
 * architecture is not x86_64 or a rule needs a check bpf.c does not
 * make (the caller then uses the reference); -E2BIG when the program
 * would exceed BPF_MAXINSNS; -EINVAL for a malformed spec.
 */
int bpf_compile(const struct gx_filter_spec *spec, struct sock_fprog *prog);

#endif
