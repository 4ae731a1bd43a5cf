/* SPDX-License-Identifier: ISC */
/*
 * Classic seccomp BPF, generated straight from a filter spec.
 *
 * libseccomp takes about a millisecond to compile agent.cfg's filter
 * (issue 18); this takes microseconds.  libseccomp stays guardexec's
 * dictionary of syscall names and numbers, and the reference compiler:
 * tests/unit/check_bpf.c runs the programs of both through a BPF
 * interpreter over every syscall number of every ABI and the argument
 * values the rules test, and requires the same action.  A difference is
 * a sandbox hole, not a style question.
 *
 * The program:
 *
 *	ld  arch
 *	jeq AUDIT_ARCH_X86_64 ? ja section 1
 *	jeq AUDIT_ARCH_I386   ? ja section 2     (GX_ARCHES_X86_ALL only)
 *	ret badarch
 *   section:
 *	ld  nr
 *	(native only: nr >= 0x40000000, an x32 call, and not -1: badarch,
 *	 as libseccomp does)
 *	binary search over ranges of syscall numbers with one action each,
 *	down to a leaf: "ret action", or an argument check then two rets.
 *
 * Jumps are forward only, as the kernel requires; a conditional jump
 * reaches 255 instructions, so a longer one goes through "ja".
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "filter_spec.h"
#include "util.h"

#define MAXVALS 8
#define X32_BIT 0x40000000U
#define I386_NR_SOCKETCALL 102U
#define I386_NR_SOCKET 359U

struct leaf {
	uint32_t nomatch;       /* the action without a check, or when the
				   check fails */
	uint32_t match;         /* the action when the check holds */
	int arg;                /* -1: no check */
	bool hi;                /* the argument's upper word must be 0 */
	uint32_t mask;
	int nvals;
	uint32_t vals[MAXVALS]; /* check: (arg & mask) is one of these */
};

struct ent {
	uint32_t nr;
	struct leaf leaf;
};

struct range {
	uint32_t lo;            /* to the next range's lo - 1 */
	const struct leaf *leaf;
};

struct prog {
	struct sock_filter *v;
	size_t n, cap;
};

static void
put(struct prog *p, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;

		p->v = xreallocarray(p->v, cap, sizeof(p->v[0]));
		p->cap = cap;
	}
	p->v[p->n++] = (struct sock_filter){ code, jt, jf, k };
}

static void
append(struct prog *p, const struct prog *q)
{
	for (size_t i = 0; i < q->n; i++)
		put(p, q->v[i].code, q->v[i].jt, q->v[i].jf, q->v[i].k);
}

#define ARG_LO(i) ((uint32_t)offsetof(struct seccomp_data, args) + 8U * (i))
#define ARG_HI(i) (ARG_LO(i) + 4U)

static void
emit_leaf(struct prog *p, const struct leaf *l)
{
	int and = l->mask != UINT32_MAX;

	if (l->arg < 0) {
		put(p, BPF_RET | BPF_K, 0, 0, l->nomatch);
		return;
	}
	if (l->hi) {
		put(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, ARG_HI(l->arg));
		put(p, BPF_JMP | BPF_JEQ | BPF_K, 0,
		    (uint8_t)(1 + and + l->nvals), 0);
	}
	put(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, ARG_LO(l->arg));
	if (and)
		put(p, BPF_ALU | BPF_AND | BPF_K, 0, 0, l->mask);
	for (int i = 0; i < l->nvals; i++)
		put(p, BPF_JMP | BPF_JEQ | BPF_K, (uint8_t)(l->nvals - i), 0,
		    l->vals[i]);
	put(p, BPF_RET | BPF_K, 0, 0, l->nomatch);
	put(p, BPF_RET | BPF_K, 0, 0, l->match);
}

/* Ranges [a, b) hold every number A may be here (nr is in A). */
static void
emit_tree(struct prog *p, const struct range *r, size_t a, size_t b)
{
	struct prog f = { 0 };
	size_t mid;

	if (b - a == 1) {
		emit_leaf(p, r[a].leaf);
		return;
	}
	mid = a + (b - a) / 2;
	emit_tree(&f, r, a, mid);
	if (f.n <= 255) {
		put(p, BPF_JMP | BPF_JGE | BPF_K, (uint8_t)f.n, 0, r[mid].lo);
	} else {
		put(p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, r[mid].lo);
		put(p, BPF_JMP | BPF_JA, 0, 0, (uint32_t)f.n);
	}
	append(p, &f);
	free(f.v);
	emit_tree(p, r, mid, b);
}

static bool
simple_equal(const struct leaf *a, const struct leaf *b)
{
	return a->arg < 0 && b->arg < 0 && a->nomatch == b->nomatch;
}

static int
cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

struct table {
	struct ent *e;
	size_t n;
	uint32_t def;
	bool wide;              /* 64-bit arguments (x86_64 proper) */
};

static struct leaf *
entry(struct table *t, uint32_t nr)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].nr == nr)
			return &t->e[i].leaf;
	t->e[t->n].nr = nr;
	t->e[t->n].leaf = (struct leaf){ t->def, t->def, -1, false,
		UINT32_MAX, 0, { 0 } };
	return &t->e[t->n++].leaf;
}

/*
 * Add one rule for syscall @nr of an ABI with 32-bit (!@wide) or 64-bit
 * arguments.  Only what guardexec's specs use: one action per call, or
 * one kind of check per call with any number of values.
 */
static int
add_rule(struct table *t, uint32_t nr, const struct gx_rule *r, bool wide,
    unsigned int arg, enum gx_rule_op op, uint64_t mask, uint64_t val)
{
	struct leaf *l = entry(t, nr), want;
	bool fresh = l->arg < 0 && l->nomatch == t->def;

	if (op == GX_OP_NONE) {
		if (!fresh)
			return -ENOTSUP;
		l->nomatch = l->match = r->action;
		return 0;
	}
	if (arg > 5 || (val >> 32) != 0 ||
	    (op == GX_OP_MASKED_EQ && (mask >> 32) != 0))
		return -ENOTSUP;
	want = (struct leaf){ 0 };
	want.arg = (int)arg;
	want.mask = op == GX_OP_MASKED_EQ ? (uint32_t)mask : UINT32_MAX;
	/*
	 * On x86_64 a NE compares all 64 bits: "equal" needs the upper word
	 * 0.  A mask with an empty upper word ignores it, as libseccomp does.
	 */
	want.hi = wide && op == GX_OP_NE;
	want.match = op == GX_OP_MASKED_EQ ? r->action : t->def;
	want.nomatch = op == GX_OP_MASKED_EQ ? t->def : r->action;
	if (!fresh && (l->arg != want.arg || l->mask != want.mask ||
	    l->hi != want.hi || l->match != want.match ||
	    l->nomatch != want.nomatch))
		return -ENOTSUP;
	if (fresh) {
		want.nvals = 0;
		*l = want;
	}
	if (l->nvals == MAXVALS)
		return -ENOTSUP;
	l->vals[l->nvals++] = (uint32_t)val;
	return 0;
}

static int
fill(struct table *t, const struct gx_filter_spec *spec, uint32_t scmp_arch,
    bool x32)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < spec->n; i++) {
		const struct gx_rule *r = &spec->rules[i];
		int nr;

		nr = scmp_arch == SCMP_ARCH_NATIVE ? r->nr :
		    seccomp_syscall_resolve_name_arch(scmp_arch, r->name);
		/*
		 * libseccomp names i386's socket() by a pseudo number, the
		 * call being also a socketcall(); its own number since Linux
		 * 4.3 is 359.
		 */
		if (scmp_arch == SCMP_ARCH_X86 &&
		    strcmp(r->name, "socket") == 0)
			nr = I386_NR_SOCKET;
		if (nr < 0)
			continue;
		if (x32 && ((uint32_t)nr & X32_BIT) == 0)
			return -EINVAL;
		rc = add_rule(t, (uint32_t)nr, r, t->wide, r->arg, r->op,
		    r->mask, r->val);
		/*
		 * i386 also reaches socket() through socketcall(SYS_SOCKET,
		 * args), whose arguments are behind a pointer: the call takes
		 * the rule's action there whatever its arguments (an NE rule
		 * for socket refuses socketcall's every socket).
		 */
		if (rc == 0 && scmp_arch == SCMP_ARCH_X86 &&
		    strcmp(r->name, "socket") == 0) {
			if (r->op == GX_OP_MASKED_EQ)
				return -ENOTSUP;
			rc = add_rule(t, I386_NR_SOCKETCALL, r, false, 0,
			    GX_OP_MASKED_EQ, UINT32_MAX, 1 /* SYS_SOCKET */);
		}
	}
	return rc;
}

static int
section(struct prog *p, const struct gx_filter_spec *spec, bool i386)
{
	struct table t = { 0 };
	struct leaf def = { spec->def, spec->def, -1, false, UINT32_MAX, 0,
		{ 0 } };
	struct range *r;
	size_t nr = 0, per = spec->arches == GX_ARCHES_X86_ALL && !i386 ? 2 : 1;
	int rc;

	t.e = xcalloc(spec->n * 2 * per + 1, sizeof(t.e[0]));
	t.def = spec->def;
	t.wide = !i386;
	if (i386) {
		rc = fill(&t, spec, SCMP_ARCH_X86, false);
	} else {
		rc = fill(&t, spec, SCMP_ARCH_NATIVE, false);
		if (rc == 0 && per == 2) {
			t.wide = false;
			rc = fill(&t, spec, SCMP_ARCH_X32, true);
		}
	}
	if (rc < 0) {
		free(t.e);
		return rc;
	}
	qsort(t.e, t.n, sizeof(t.e[0]), cmp_ent);
	r = xcalloc(2 * t.n + 1, sizeof(r[0]));
	r[nr++] = (struct range){ 0, &def };
	for (size_t i = 0; i < t.n; i++) {
		uint32_t n = t.e[i].nr;

		if (r[nr - 1].lo == n)
			nr--;   /* the previous range is empty */
		if (nr > 0 && simple_equal(r[nr - 1].leaf, &t.e[i].leaf))
			; /* extends the previous range */
		else
			r[nr++] = (struct range){ n, &t.e[i].leaf };
		if (n != UINT32_MAX && !simple_equal(r[nr - 1].leaf, &def))
			r[nr++] = (struct range){ n + 1, &def };
	}
	put(p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
	    (uint32_t)offsetof(struct seccomp_data, nr));
	if (!i386 && spec->arches == GX_ARCHES_NATIVE) {
		put(p, BPF_JMP | BPF_JGE | BPF_K, 0, 2, X32_BIT);
		put(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, UINT32_MAX);
		put(p, BPF_RET | BPF_K, 0, 0, spec->badarch);
	}
	emit_tree(p, r, 0, nr);
	free(r);
	free(t.e);
	return 0;
}

int
bpf_compile(const struct gx_filter_spec *spec, struct sock_fprog *prog)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	struct prog out = { 0 }, s64 = { 0 }, s32 = { 0 };
	bool all = spec->arches == GX_ARCHES_X86_ALL;
	int rc;

	if (spec->arches != GX_ARCHES_NATIVE && !all)
		return -EINVAL;
	rc = section(&s64, spec, false);
	if (rc == 0 && all)
		rc = section(&s32, spec, true);
	if (rc < 0)
		goto out;
	put(&out, BPF_LD | BPF_W | BPF_ABS, 0, 0,
	    (uint32_t)offsetof(struct seccomp_data, arch));
	put(&out, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, AUDIT_ARCH_X86_64);
	put(&out, BPF_JMP | BPF_JA, 0, 0, all ? 3U : 1U);
	if (all) {
		put(&out, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, AUDIT_ARCH_I386);
		put(&out, BPF_JMP | BPF_JA, 0, 0, 1U + (uint32_t)s64.n);
	}
	put(&out, BPF_RET | BPF_K, 0, 0, spec->badarch);
	append(&out, &s64);
	append(&out, &s32);
	if (out.n > BPF_MAXINSNS) {
		rc = -E2BIG;
		goto out;
	}
	prog->filter = out.v;
	prog->len = (unsigned short)out.n;
	out.v = NULL;
out:
	free(out.v);
	free(s64.v);
	free(s32.v);
	return rc;
#else
	(void)spec;
	(void)prog;
	return -ENOTSUP;
#endif
}
