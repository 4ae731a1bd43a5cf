/* SPDX-License-Identifier: ISC */
#ifndef GX_UNIT_RUNNER_H
#define GX_UNIT_RUNNER_H

#include <check.h>

/*
 * The one runner of every unit test binary: each tests/unit/check_X.c
 * exposes X_suite() and ends with UNIT_MAIN(X_suite).
 */

/*
 * Run @s in Check's fork mode (each test in its own process: die tests
 * exit, the rlimit tests change limits), print the results, free it.
 * Returns EXIT_SUCCESS when every test passed, else EXIT_FAILURE.
 */
int unit_run(Suite *s);

/*
 * The temporary directory of a TCase: unit_tmp_setup() makes it (under
 * $TMPDIR when absolute, else /tmp; its real path, so that paths compare
 * lexically) and aborts when it cannot; unit_tmp_teardown() removes it
 * with all it holds.  For tcase_add_unchecked_fixture(), which runs them
 * in the parent, so every test of the TCase sees the same unit_tmpdir.
 */
extern char unit_tmpdir[4096];
void unit_tmp_setup(void);
void unit_tmp_teardown(void);

/*
 * Load the policy @text (as if from a file "t.cfg" in "/") into @pol;
 * the test fails with the loader's first message when it is refused.
 */
struct gx_policy;
void unit_load_policy(const char *text, struct gx_policy *pol);

#define UNIT_MAIN(suite_fn) \
	int main(void); \
	int main(void) { return unit_run(suite_fn()); }

#endif
