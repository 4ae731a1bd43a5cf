/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer: the log reader never crashes on random bytes, and never
 * calls a tampered log intact: a valid three-record chain is mutated by
 * the input (offset, new byte pairs) and must then fail the chain check
 * unless the bytes came out unchanged.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "audit.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* The chain check guardexec-audit verify makes; 0 intact, -1 not. */
static int
chain_ok(const char *buf, size_t len, bool strict)
{
	char expect[65] = GX_ZERO_HASH, prev[65], hash[65];
	const char *why, *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl == NULL)
			return -1;      /* torn */
		if ((strict ? audit_check_line : audit_check_line_fast)(p,
		    (size_t)(nl - p), prev, hash, &why) < 0 ||
		    strcmp(prev, expect) != 0)
			return -1;
		memcpy(expect, hash, sizeof(expect));
		p = nl + 1;
	}
	return 0;
}

static char *good;
static size_t good_len;

static void
make_good(void)
{
	static char *av[] = { "ls", "-la", NULL };
	struct gx_record_in in = { .argv = av, .cwd = "/tmp" };
	char prev[65] = GX_ZERO_HASH;

	good = calloc(1, 1);
	for (int i = 0; i < 3; i++) {
		json_t *rec = audit_build(&in);
		char *line = audit_format(rec, prev);
		size_t l = strlen(line);

		memcpy(prev, audit_line_hash(line, l), 64);
		good = realloc(good, good_len + l + 1);
		memcpy(good + good_len, line, l + 1);
		good_len += l;
		free(line);
		json_decref(rec);
	}
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *copy;

	/* Random bytes: no crash, either answer. */
	(void)chain_ok((const char *)data, size, false);
	(void)chain_ok((const char *)data, size, true);

	if (good == NULL)
		make_good();
	if (size < 3)
		return 0;
	copy = malloc(good_len);
	memcpy(copy, good, good_len);
	for (size_t i = 0; i + 2 < size; i += 3) {
		size_t at = ((size_t)data[i] << 8 | data[i + 1]) % good_len;

		copy[at] = (char)data[i + 2];
	}
	if (memcmp(copy, good, good_len) != 0 &&
	    (chain_ok(copy, good_len, false) == 0 ||
	    chain_ok(copy, good_len, true) == 0))
		abort();        /* tampered, yet intact */
	free(copy);
	return 0;
}
