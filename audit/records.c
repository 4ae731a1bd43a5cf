/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

int
records_each(int n, char **logs, records_fn fn, void *arg,
    unsigned long *bad)
{
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(logs[i], "re");
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		int rc = 0;

		if (f == NULL) {
			fprintf(stderr, "guardexec-audit: %s: %s\n", logs[i],
			    strerror(errno));
			return 2;
		}
		while ((len = getline(&line, &cap, f)) > 0) {
			json_error_t jerr;
			json_t *rec;

			if (line[len - 1] == '\n')
				line[--len] = '\0';
			rec = json_loadb(line, (size_t)len, 0, &jerr);
			if (rec == NULL || !json_is_object(rec)) {
				(*bad)++;
				json_decref(rec);
				continue;
			}
			fn(rec, line, arg);
			json_decref(rec);
		}
		if (ferror(f)) {
			fprintf(stderr, "guardexec-audit: %s: %s\n", logs[i],
			    strerror(errno));
			rc = 2;
		}
		free(line);
		fclose(f);
		if (rc != 0)
			return rc;
	}
	return 0;
}

const char *
records_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}
