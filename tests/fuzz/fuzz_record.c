/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer: random argv bytes (split at NUL) -> the record -> one line
 * of valid JSON whose argv gives back the input (exactly for valid UTF-8,
 * through argv_hex otherwise), with a hash that checks.
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[64], *line, prev[65], hash[65];
	struct gx_record_in in = { 0 };
	const char *why;
	size_t n = 0, len;
	json_t *rec, *parsed, *a, *hexes;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *p = buf; n < 63 && p <= buf + size; p += strlen(p) + 1)
		argv[n++] = p;
	argv[n] = NULL;
	in.argv = argv;
	in.cwd = "/";
	rec = audit_build(&in);
	line = audit_format(rec, GX_ZERO_HASH);
	len = strlen(line);
	/* One line: the only newline is the last byte. */
	if (len == 0 || line[len - 1] != '\n' || memchr(line, '\n', len - 1))
		abort();
	if (audit_check_line(line, len - 1, prev, hash, &why) != 0)
		abort();
	parsed = json_loadb(line, len - 1, 0, NULL);
	if (parsed == NULL)
		abort();
	a = json_object_get(parsed, "argv");
	hexes = json_object_get(parsed, "argv_hex");
	if (json_array_size(a) != n)
		abort();
	for (size_t i = 0; i < n; i++) {
		const char *got = json_string_value(json_array_get(a, i));
		char key[24];

		if (got == NULL)
			abort();
		if (utf8_valid(argv[i], strlen(argv[i]))) {
			if (strcmp(got, argv[i]) != 0)
				abort();
		} else {
			size_t l = strlen(argv[i]);
			char *hex = malloc(2 * l + 1);
			const char *h;

			snprintf(key, sizeof(key), "%zu", i);
			h = json_string_value(json_object_get(hexes, key));
			hex_encode((const unsigned char *)argv[i], l, hex);
			if (h == NULL || strcmp(h, hex) != 0)
				abort();
			free(hex);
		}
	}
	json_decref(parsed);
	json_decref(rec);
	free(line);
	free(buf);
	return 0;
}
