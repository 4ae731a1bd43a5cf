/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy.h"
#include "runner.h"
#include "util.h"

int
unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

char unit_tmpdir[4096];

void
unit_tmp_setup(void)
{
	const char *t = getenv("TMPDIR");
	char tmpl[4096], *real;

	snprintf(tmpl, sizeof(tmpl), "%s/gx-check.XXXXXX",
	    t != NULL && t[0] == '/' ? t : "/tmp");
	if (mkdtemp(tmpl) == NULL) {
		perror("mkdtemp");
		abort();
	}
	real = realpath(tmpl, NULL);
	if (real == NULL) {
		perror("realpath");
		abort();
	}
	snprintf(unit_tmpdir, sizeof(unit_tmpdir), "%s", real);
	free(real);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void
unit_tmp_teardown(void)
{
	if (unit_tmpdir[0] != '\0')
		nftw(unit_tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	unit_tmpdir[0] = '\0';
}

void
unit_load_policy(const char *text, struct gx_policy *pol)
{
	struct gx_diag d = { 0 };
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(f);
	if (policy_load_stream(f, "t.cfg", "/", NULL, pol, &d) != 0)
		ck_abort_msg("%s", d.msgs[0]);
	fclose(f);
}
