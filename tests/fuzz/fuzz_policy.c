/* SPDX-License-Identifier: ISC */
/* libFuzzer: policy text -> policy_load_stream (parse + validate). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct gx_diag d = { 0 };
	struct gx_policy pol;
	char *buf = malloc(size + 1);
	FILE *f;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\n';
	f = fmemopen(buf, size + 1, "r");
	if (f != NULL) {
		if (policy_load_stream(f, "fuzz.cfg", "/", NULL, &pol, &d) == 0) {
			FILE *null = fopen("/dev/null", "w");

			/* Printing must hold for whatever validated. */
			if (null != NULL) {
				policy_print(&pol, null, NULL);
				fclose(null);
			}
			policy_free(&pol);
		} else if (d.n == 0) {
			abort();        /* a failure must say why */
		}
		fclose(f);
	}
	diag_free(&d);
	free(buf);
	return 0;
}
