/* SPDX-License-Identifier: ISC */
/*
 * bpf.c against libseccomp: every program guardexec compiles with
 * bpf_compile() must decide as the program libseccomp compiles from the
 * same spec (filter_ref_compile()).  Both run through the interpreter
 * below (classic BPF as the kernel's seccomp runs it) over every syscall
 * number of every x86 ABI, numbers at the edges, foreign architectures,
 * and argument vectors holding the values the rules test (and those
 * values with upper bits set).  A difference is a sandbox hole.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf.h"
#include "filter.h"
#include "filter_spec.h"
#include "log.h"
#include "policy.h"
#include "runner.h"

Suite *bpf_suite(void);

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a classic BPF interpreter, as seccomp runs one ---------------------- */

/*
 * Run @p on @d.  Returns the action; fails the test on an instruction
 * the kernel would refuse (a backward or out-of-range jump, a load
 * outside struct seccomp_data, falling off the end).
 */
/*
 * Check's ck_assert_* report every passing check to the parent (a
 * write each): far too slow for millions of instructions.
 */
#define REQUIRE(c) do { \
	if (!(c)) \
		ck_abort_msg("bpf: %s at pc %zu", #c, pc); \
} while (0)

static bool read_args;  /* set when run() loaded an argument word */
static unsigned long checked_args;  /* calls whose arguments matter */

static uint32_t
run(const struct sock_fprog *p, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	unsigned char raw[sizeof(*d)];

	memcpy(raw, d, sizeof(raw));
	if (p->len > BPF_MAXINSNS)
		ck_abort_msg("bpf: %u instructions", p->len);
	for (size_t pc = 0; pc < p->len; pc++) {
		const struct sock_filter *f = &p->filter[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;
		bool t;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
		case BPF_LDX: {
			uint32_t v;

			if (BPF_MODE(f->code) == BPF_ABS &&
			    BPF_SIZE(f->code) == BPF_W) {
				REQUIRE(f->k % 4 == 0 &&
				    f->k + 4 <= sizeof(raw));
				memcpy(&v, raw + f->k, 4);
				if (f->k >= offsetof(struct seccomp_data, args))
					read_args = true;
			} else if (BPF_MODE(f->code) == BPF_IMM) {
				v = f->k;
			} else if (BPF_MODE(f->code) == BPF_MEM) {
				REQUIRE(f->k < BPF_MEMWORDS);
				v = mem[f->k];
			} else if (BPF_MODE(f->code) == BPF_LEN) {
				v = sizeof(raw);
			} else {
				ck_abort_msg("load code 0x%x", f->code);
			}
			if (BPF_CLASS(f->code) == BPF_LD)
				a = v;
			else
				x = v;
			break;
		}
		case BPF_ST:
		case BPF_STX:
			REQUIRE(f->k < BPF_MEMWORDS);
			mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += src; break;
			case BPF_SUB: a -= src; break;
			case BPF_MUL: a *= src; break;
			case BPF_DIV: REQUIRE(src != 0); a /= src; break;
			case BPF_MOD: REQUIRE(src != 0); a %= src; break;
			case BPF_OR: a |= src; break;
			case BPF_AND: a &= src; break;
			case BPF_XOR: a ^= src; break;
			case BPF_LSH: a = src < 32 ? a << src : 0; break;
			case BPF_RSH: a = src < 32 ? a >> src : 0; break;
			case BPF_NEG: a = -a; break;
			default: ck_abort_msg("alu code 0x%x", f->code);
			}
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA) {
				REQUIRE(pc + 1 + f->k < p->len);
				pc += f->k;
				break;
			}
			switch (BPF_OP(f->code)) {
			case BPF_JEQ: t = a == src; break;
			case BPF_JGT: t = a > src; break;
			case BPF_JGE: t = a >= src; break;
			case BPF_JSET: t = (a & src) != 0; break;
			default: ck_abort_msg("jump code 0x%x", f->code);
			}
			REQUIRE(pc + 1 + (t ? f->jt : f->jf) < p->len);
			pc += t ? f->jt : f->jf;
			break;
		case BPF_RET:
			REQUIRE(BPF_RVAL(f->code) == BPF_K ||
			    BPF_RVAL(f->code) == BPF_A);
			return BPF_RVAL(f->code) == BPF_K ? f->k : a;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			ck_abort_msg("code 0x%x", f->code);
		}
	}
	ck_abort_msg("fell off the end of the program");
	return 0;
}

/* ---- the inputs ---------------------------------------------------------- */

static const uint32_t arches[] = {
	AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, 0,
	AUDIT_ARCH_X86_64 ^ 1U, 0xffffffffU
};

/* Numbers at the edges: x32's bit, -1, the marker, the sign bit. */
static const uint32_t edge_nrs[] = {
	0x3fffffffU, 0x7fffffffU, 0x80000000U, 0xbfffffffU, 0xc0000000U,
	0xfffffffeU, 0xffffffffU, 0x40000000U + 0x3fffffffU, 4095, 65535,
	0x40000000U | 0xffffU
};

/* The values the rules test (tty ioctls, namespace flags, AF_UNIX). */
static const uint64_t lows[] = {
	0, 1, 2, 3, 10, 16, 0x11, 0x5412, 0x541c, 0x540e, 0x5413, 0x5411,
	CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET,
	CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP, 0x80 /* NEWTIME */,
	CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD,
	CLONE_VFORK | CLONE_VM | 0x11, 0x7fffffff, 0x80000000, 0xffffffff,
	0xfffffffe
};

static void
check_same(const struct sock_fprog *mine, const struct sock_fprog *ref,
    const char *what, uint32_t arch, uint32_t nr, const uint64_t args[6])
{
	struct seccomp_data d = { 0 };
	uint32_t got, want;

	d.nr = (int)nr;
	d.arch = arch;
	d.instruction_pointer = 0x401000;
	memcpy(d.args, args, sizeof(d.args));
	got = run(mine, &d);
	want = run(ref, &d);
	if (got != want)
		ck_abort_msg("%s: arch 0x%x nr 0x%x args %#llx %#llx %#llx: "
		    "bpf.c 0x%08x, libseccomp 0x%08x", what, arch, nr,
		    (unsigned long long)args[0], (unsigned long long)args[1],
		    (unsigned long long)args[2], got, want);
}

/*
 * The arguments matter only where a program reads one: a path that reads
 * none with arguments 0 is the path for every argument (the loads before
 * the first argument load are the same), so only those calls are run
 * again with every argument vector.
 */
static void
check_nr(const struct sock_fprog *mine, const struct sock_fprog *ref,
    const char *what, uint32_t arch, uint32_t nr)
{
	uint64_t args[6] = { 0 };
	static const uint64_t highs[] = { 0, 1ULL << 32, 0xffffffffULL << 32,
		1ULL << 63 };

	read_args = false;
	check_same(mine, ref, what, arch, nr, args);
	if (!read_args)
		return;
	checked_args++;
	for (size_t h = 0; h < N(highs); h++) {
		for (size_t v = 0; v < N(lows); v++) {
			uint64_t val = highs[h] | lows[v];

			for (int i = 0; i < 3; i++) {
				memset(args, 0, sizeof(args));
				args[i] = val;
				check_same(mine, ref, what, arch, nr, args);
			}
			for (int i = 0; i < 6; i++)
				args[i] = val;
			check_same(mine, ref, what, arch, nr, args);
		}
	}
}

/* Compile @spec both ways and compare them everywhere. */
static void
compare(const struct gx_filter_spec *spec, const char *what)
{
	struct sock_fprog mine = { 0 }, ref = { 0 };
	int rc;

	rc = bpf_compile(spec, &mine);
	ck_assert_msg(rc == 0, "%s: bpf_compile: %s", what, strerror(-rc));
	rc = filter_ref_compile(spec, &ref);
	ck_assert_msg(rc == 0, "%s: libseccomp: %s", what, strerror(-rc));
	for (size_t a = 0; a < N(arches); a++) {
		for (uint32_t nr = 0; nr < 1100; nr++) {
			check_nr(&mine, &ref, what, arches[a], nr);
			check_nr(&mine, &ref, what, arches[a], nr | 0x40000000U);
		}
		for (size_t i = 0; i < N(edge_nrs); i++)
			check_nr(&mine, &ref, what, arches[a], edge_nrs[i]);
	}
	free(mine.filter);
	free(ref.filter);
}

/* ---- the specs: the guard's every variant, and policies' ------------------ */

START_TEST(test_guard)
{
	struct gx_diag d = { 0 };
	struct gx_filter_spec spec;
	bool net = _i & 1, no_ns = _i & 2;
	char what[64];

	ck_assert_int_eq(filter_spec_guard(net, no_ns, &spec, &d), 0);
	snprintf(what, sizeof(what), "guard net=%d no_ns=%d", net, no_ns);
	checked_args = 0;
	compare(&spec, what);
	/* ioctl on three ABIs at least: the tty checks were exercised */
	ck_assert_uint_ge(checked_args, 3);
	filter_spec_free(&spec);
}
END_TEST

#define HEAD "version = 1;\nname = \"t\";\n"

static const char *const policies[] = {
	/* agent.cfg's syscalls */
	HEAD "syscalls: { default_action = \"errno\"; errno = \"EPERM\";\n"
	"allow = [ \"@default\", \"@file-read\", \"@file-write\", \"@process\","
	" \"@signal\", \"@ipc\", \"@time\", \"@network\" ];\n"
	"deny = [ \"@debug\", \"@mount\", \"@module\", \"@keyring\","
	" \"@privileged\", \"@io-uring\" ]; };\n",
	HEAD "syscalls: { default_action = \"kill\"; allow = [ \"@default\" ]; };\n",
	HEAD "syscalls: { default_action = \"log\";\n"
	"allow = [ \"@default\", \"@process\", \"unshare\", \"setns\" ]; };\n",
	/* every group: clone, unshare and setns with their checks */
	HEAD "syscalls: { errno = \"ENOENT\"; allow = [ \"@default\","
	" \"@file-read\", \"@file-write\", \"@process\", \"@signal\","
	" \"@network\", \"@ipc\", \"@time\", \"@privileged\", \"@debug\","
	" \"@module\", \"@mount\", \"@keyring\", \"@io-uring\" ]; };\n",
	/* the ENOSYS list partly allowed, partly denied */
	HEAD "syscalls: { allow = [ \"@default\", \"clone3\", \"statx\" ];"
	" deny = [ \"openat2\", \"@debug\" ]; };\n",
	/* exit and exit_group added though not listed */
	HEAD "syscalls: { allow = [ \"read\", \"write\" ]; };\n",
	HEAD "syscalls: { allow = [ \"clone\" ]; errno = 38; };\n",
	/* no syscalls group at all (learn builds one anyway) */
	HEAD,
};


static void
compare_policy(const struct gx_policy *pol, const char *name)
{
	static const enum gx_filter_variant vs[] = { GX_VARIANT_PLAIN,
		GX_VARIANT_NOTIFY, GX_VARIANT_LEARN };
	struct gx_diag d = { 0 };

	for (size_t v = 0; v < N(vs); v++) {
		struct gx_filter_spec spec;
		char what[256];

		ck_assert_int_eq(filter_spec_policy(pol, vs[v], &spec, &d), 0);
		snprintf(what, sizeof(what), "%s variant %zu", name, v);
		compare(&spec, what);
		filter_spec_free(&spec);
	}
}

START_TEST(test_policy)
{
	struct gx_policy pol;
	char name[32];

	unit_load_policy(policies[_i], &pol);
	snprintf(name, sizeof(name), "policy %d", _i);
	compare_policy(&pol, name);
	policy_free(&pol);
}
END_TEST

/* Every shipped policy, as shipped (TOP_SRCDIR from make check). */
START_TEST(test_shipped)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[4096], path[4200];
	struct dirent *e;
	DIR *dp;
	int n = 0;

	if (top == NULL) {
		printf("# SKIP TOP_SRCDIR unset: shipped policies not compared\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/policies", top);
	dp = opendir(dir);
	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp)) != NULL) {
		struct gx_diag d = { 0 };
		struct gx_policy pol;
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".cfg") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (policy_load(path, false, &pol, &d) != 0)
			ck_abort_msg("%s: %s", path, d.msgs[0]);
		compare_policy(&pol, e->d_name);
		policy_free(&pol);
		n++;
	}
	closedir(dp);
	ck_assert_int_gt(n, 0);
}
END_TEST

/*
 * The comparison itself catches a wrong program: one instruction of the
 * agent filter changed must show as a difference somewhere.
 */
START_TEST(test_detects_difference)
{
	struct gx_policy pol;
	struct gx_diag d = { 0 };
	struct gx_filter_spec spec;
	struct sock_fprog mine = { 0 }, ref = { 0 };
	size_t diffs = 0, rets = 0;

	unit_load_policy(policies[0], &pol);
	ck_assert_int_eq(filter_spec_policy(&pol, GX_VARIANT_PLAIN, &spec, &d),
	    0);
	ck_assert_int_eq(bpf_compile(&spec, &mine), 0);
	ck_assert_int_eq(filter_ref_compile(&spec, &ref), 0);
	/* Each "ret ALLOW" in turn made "ret ERRNO": some call must differ. */
	for (size_t i = 0; i < mine.len; i++) {
		struct sock_filter *f = &mine.filter[i];
		bool differs = false;

		if (f->code != (BPF_RET | BPF_K) || f->k != SECCOMP_RET_ALLOW)
			continue;
		rets++;
		f->k = SECCOMP_RET_ERRNO | EPERM;
		for (uint32_t nr = 0; nr < 1100 && !differs; nr++) {
			struct seccomp_data sd = { 0 };

			sd.nr = (int)nr;
			sd.arch = AUDIT_ARCH_X86_64;
			differs = run(&mine, &sd) != run(&ref, &sd);
		}
		f->k = SECCOMP_RET_ALLOW;
		diffs += differs;
	}
	ck_assert_uint_gt(rets, 0);
	/* A leaf may be reached only with arguments this loop leaves 0. */
	ck_assert_uint_ge(diffs * 10, rets * 9);
	free(mine.filter);
	free(ref.filter);
	filter_spec_free(&spec);
	policy_free(&pol);
}
END_TEST

/* A rule bpf.c cannot express is refused, never compiled wrong. */
START_TEST(test_unsupported)
{
	struct gx_filter_spec spec = { 0 };
	struct gx_rule r = { "ioctl", 16, SECCOMP_RET_ERRNO | 1,
		GX_OP_MASKED_EQ, 1, 0xffffffffffULL, 0x5412 };
	struct sock_fprog p = { 0 };

	spec.def = SECCOMP_RET_ALLOW;
	spec.badarch = SECCOMP_RET_KILL_PROCESS;
	spec.arches = GX_ARCHES_NATIVE;
	spec.rules = &r;
	spec.n = 1;
	ck_assert_int_eq(bpf_compile(&spec, &p), -ENOTSUP);
	r.op = GX_OP_NE;
	r.val = 1ULL << 40;
	ck_assert_int_eq(bpf_compile(&spec, &p), -ENOTSUP);
	ck_assert_ptr_null(p.filter);
}
END_TEST

Suite *
bpf_suite(void)
{
	Suite *s = suite_create("bpf");
	TCase *tc;

	tc = tcase_create("differential");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_guard, 0, 4);
	tcase_add_loop_test(tc, test_policy, 0, (int)N(policies));
	tcase_add_test(tc, test_shipped);
	tcase_add_test(tc, test_detects_difference);
	tcase_add_test(tc, test_unsupported);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(bpf_suite)
