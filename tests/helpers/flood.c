/* SPDX-License-Identifier: ISC */
/*
 * flood BYTES [CHUNK] [FD]: write BYTES bytes ('x' lines of CHUNK bytes,
 * default 4096, ending in '\n') to FD (default 1) as fast as possible.
 * A suffix K, M or G multiplies BYTES by powers of 1024.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long
size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	switch (*end) {
	case 'K': return v << 10;
	case 'M': return v << 20;
	case 'G': return v << 30;
	default: return v;
	}
}

int
main(int argc, char **argv)
{
	unsigned long long total, done = 0;
	size_t chunk = 4096;
	int fd = 1;
	char *buf;

	if (argc < 2)
		return 2;
	total = size(argv[1]);
	if (argc > 2)
		chunk = (size_t)size(argv[2]);
	if (argc > 3)
		fd = atoi(argv[3]);
	buf = malloc(chunk);
	if (buf == NULL || chunk == 0)
		return 2;
	memset(buf, 'x', chunk);
	buf[chunk - 1] = '\n';
	while (done < total) {
		size_t n = total - done < chunk ? (size_t)(total - done) : chunk;
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return 1;
		done += (unsigned long long)w;
	}
	return 0;
}
