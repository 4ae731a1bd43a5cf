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

#define UNIT_MAIN(suite_fn) \
	int main(void); \
	int main(void) { return unit_run(suite_fn()); }

#endif
