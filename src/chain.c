/* SPDX-License-Identifier: ISC */
/* The audit log's hash chain: formatting a line and checking one. */
#include "config.h"

#include <sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "log.h"
#include "util.h"

#define HASH_KEY ",\"hash\":\""
#define PREV_KEY ",\"prev\":\""

static void
sha256_hex(const char *buf, size_t n, char *out)
{
	unsigned char d[SHA256_DIGEST_LENGTH];
	SHA2_CTX ctx;

	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)buf, n);
	SHA256Final(d, &ctx);
	hex_encode(d, sizeof(d), out);
}

char *
audit_format(json_t *rec, const char *prev)
{
	char hash[65], *text, *line;
	size_t n;

	json_object_del(rec, "hash");
	if (json_object_set_new(rec, "prev", json_string(prev)) < 0)
		die("out of memory (json)");
	text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	if (text == NULL)
		die("out of memory (json)");
	n = strlen(text);
	/* text ends in '}': the hash covers everything before it. */
	sha256_hex(text, n - 1, hash);
	line = xasprintf("%.*s" HASH_KEY "%s\"}\n", (int)(n - 1), text, hash);
	free(text);
	return line;
}

const char *
audit_line_hash(const char *line, size_t len)
{
	if (len > 0 && line[len - 1] == '\n')
		len--;
	/* '<64 hex>"}' ends the line */
	return line + len - 2 - 64;
}

bool
audit_is_hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

bool
audit_ends_in_hash(const char *s, size_t len, char *hash)
{
	const char *t;

	if (len < GX_HASH_TAIL_LEN)
		return false;
	t = s + len - GX_HASH_TAIL_LEN;
	if (memcmp(t, HASH_KEY, sizeof(HASH_KEY) - 1) != 0 ||
	    !audit_is_hex64(t + sizeof(HASH_KEY) - 1) ||
	    memcmp(s + len - 2, "\"}", 2) != 0)
		return false;
	memcpy(hash, audit_line_hash(s, len), 64);
	hash[64] = '\0';
	return true;
}

/* Whether @hash is the sha256 of the line's bytes before its hash key. */
static bool
hash_matches(const char *line, size_t len, const char *hash)
{
	char want[65];

	sha256_hex(line, len - GX_HASH_TAIL_LEN, want);
	return strcmp(want, hash) == 0;
}

/* The last key of @obj is "hash" and "prev" holds 64 hex: copy it out. */
static bool
keys_in_place(json_t *obj, char *prev)
{
	const char *key = NULL;
	json_t *p;

	for (void *it = json_object_iter(obj); it != NULL;
	    it = json_object_iter_next(obj, it))
		key = json_object_iter_key(it);
	p = json_object_get(obj, "prev");
	if (key == NULL || strcmp(key, "hash") != 0 || !json_is_string(p) ||
	    strlen(json_string_value(p)) != 64 ||
	    !audit_is_hex64(json_string_value(p)))
		return false;
	memcpy(prev, json_string_value(p), 65);
	return true;
}

int
audit_check_line(const char *line, size_t len, char *prev, char *hash,
    const char **why)
{
	json_error_t jerr;
	json_t *obj;
	bool ok;

	if (len < GX_HASH_TAIL_LEN + 2 || line[0] != '{' ||
	    !audit_ends_in_hash(line, len, hash)) {
		*why = "does not end in a \"hash\" key";
		return -1;
	}
	obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (obj == NULL || !json_is_object(obj)) {
		json_decref(obj);
		*why = "not a JSON object";
		return -1;
	}
	/* "hash" must be the last key: nothing may hide after it. */
	ok = keys_in_place(obj, prev);
	json_decref(obj);
	if (!ok) {
		*why = "\"hash\" is not the last key or \"prev\" is missing";
		return -1;
	}
	if (!hash_matches(line, len, hash)) {
		*why = "hash does not match the line's bytes";
		return -1;
	}
	return 0;
}

int
audit_check_line_fast(const char *line, size_t len, char *prev, char *hash,
    const char **why)
{
	/* ',"prev":"' + 64 hex + '"' then the hash tail */
	const size_t prev_len = sizeof(PREV_KEY) - 1 + 64 + 1;
	const char *p;

	if (len < GX_HASH_TAIL_LEN + prev_len + 2 || line[0] != '{' ||
	    !audit_ends_in_hash(line, len, hash)) {
		*why = "does not end in a \"hash\" key";
		return -1;
	}
	p = line + len - GX_HASH_TAIL_LEN - prev_len;
	if (memcmp(p, PREV_KEY, sizeof(PREV_KEY) - 1) != 0 ||
	    !audit_is_hex64(p + sizeof(PREV_KEY) - 1) || p[prev_len - 1] != '"') {
		*why = "\"prev\" does not stand right before \"hash\"";
		return -1;
	}
	if (!hash_matches(line, len, hash)) {
		*why = "hash does not match the line's bytes";
		return -1;
	}
	memcpy(prev, p + sizeof(PREV_KEY) - 1, 64);
	prev[64] = '\0';
	return 0;
}
