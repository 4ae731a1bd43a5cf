/* SPDX-License-Identifier: ISC */
/* libFuzzer: the size and duration parsers. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rlimits.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t v;
	double d;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (limits_parse_size(s, &v) == 0) {
		/* Accepted: digits first, and plain digits mean bytes. */
		if (s[0] < '0' || s[0] > '9')
			abort();
		if (strspn(s, "0123456789") == strlen(s) &&
		    strtoull(s, NULL, 10) != v)
			abort();
	} else if (errno != EINVAL && errno != ERANGE) {
		abort();
	}
	if (limits_parse_duration(s, &d) == 0 && !(d >= 0))
		abort();
	free(s);
	return 0;
}
