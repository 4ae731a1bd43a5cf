/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "policy.h"
#include "relay.h"
#include "sys.h"

/*
 * Every write to fd 1 or 2 is non-blocking, so a slow or stopped reader
 * (a full pipe, a terminal stopped with tcflow(TCOOFF) by the command
 * itself) never blocks the loop: the timeout, signals and the kill are
 * served meanwhile.  A pipe or a terminal is reopened through /proc as a
 * separate, non-blocking open file description (O_NOCTTY: never our
 * controlling terminal), so the caller's description keeps its flags;
 * where that fails, O_NONBLOCK is set on the shared description and
 * restored at the end.  A socket gets MSG_DONTWAIT; a regular file is
 * written as it is.
 */
static void
sink_open(struct gx_sink *s, int fd)
{
	char path[64];
	struct stat st;
	int nfd, fl;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->last_nl = true;
	if (fstat(fd, &st) < 0) {
		s->dead = true;
		return;
	}
	if (S_ISSOCK(st.st_mode)) {
		s->sock = true;
		return;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (nfd >= 0) {
		s->fd = nfd;
		s->own_fd = true;
		return;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && !(fl & O_NONBLOCK) &&
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0) {
		s->restore_fl = fl;
		s->restore = true;
	}
}

/* One non-blocking write. */
static ssize_t
sink_put(const struct gx_sink *s, const char *buf, size_t n)
{
	if (s->sock)
		return send(s->fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	return write(s->fd, buf, n);
}

/* The sink could not take more: note since when. */
static void
sink_blocked(struct gx_sink *s)
{
	if (s->stuck_since == 0)
		s->stuck_since = sys_now_ms();
}

static void
sink_flush(struct gx_sink *s)
{
	while (!s->dead && s->pend_off < s->pend_len) {
		ssize_t n = sink_put(s, s->pend + s->pend_off,
		    s->pend_len - s->pend_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			sink_blocked(s);
			return;
		}
		if (n <= 0) {
			s->dead = true;
			break;
		}
		s->pend_off += (size_t)n;
		s->stuck_since = 0;
	}
	s->pend_off = s->pend_len = 0;
}

static bool
sink_busy(const struct gx_sink *s)
{
	return !s->dead && s->pend_off < s->pend_len;
}

/* Queue @n bytes behind what is pending. */
static void
sink_queue(struct gx_sink *s, const char *buf, size_t n)
{
	if (s->pend_off > 0) {
		memmove(s->pend, s->pend + s->pend_off,
		    s->pend_len - s->pend_off);
		s->pend_len -= s->pend_off;
		s->pend_off = 0;
	}
	if (s->pend_len + n > s->pend_cap) {
		s->pend = xreallocarray(s->pend, s->pend_len + n, 1);
		s->pend_cap = s->pend_len + n;
	}
	memcpy(s->pend + s->pend_len, buf, n);
	s->pend_len += n;
}

/* Write what can be written now; queue the rest (at most one read). */
static void
sink_write(struct gx_sink *s, const char *buf, size_t n)
{
	if (n == 0)
		return;
	s->any = true;
	s->last_nl = buf[n - 1] == '\n';
	if (s->dead)
		return;
	if (!sink_busy(s)) {
		s->pend_off = s->pend_len = 0;
		while (n > 0) {
			ssize_t w = sink_put(s, buf, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				sink_blocked(s);
				break;
			}
			if (w <= 0) {
				s->dead = true;
				return;
			}
			buf += w;
			n -= (size_t)w;
		}
		if (n == 0)
			return;
	}
	sink_queue(s, buf, n);
}

/*
 * Wait until everything pending is written (end of run), but give up
 * after GX_RELAY_STUCK_MS without progress: a reader that stopped (or
 * was stopped by the command) must not keep the run from ending.
 */
static void
sink_drain(struct gx_sink *s)
{
	while (sink_busy(s)) {
		struct pollfd p = { s->fd, POLLOUT, 0 };
		double left;

		sink_blocked(s);
		left = s->stuck_since + GX_RELAY_STUCK_MS - sys_now_ms();
		if (left <= 0) {
			s->dropped += s->pend_len - s->pend_off;
			s->dead = true;
			break;
		}
		if (poll(&p, 1, (int)left + 1) < 0 && errno != EINTR)
			break;
		sink_flush(s);
	}
}

void
relay_init(struct gx_relay *r, const struct gx_policy *pol, int out_fd,
    int err_fd)
{
	memset(r, 0, sizeof(*r));
	r->pol = pol;
	sink_open(&r->sink[0], out_fd);
	sink_open(&r->sink[1], err_fd);
	if (pol->max_bytes == 0)
		return;
	if (pol->keep == GX_KEEP_HEAD) {
		r->head = pol->max_bytes;
		return;
	}
	r->head = pol->max_bytes / 2;
	r->ring_cap = pol->max_bytes - r->head;
	if (r->ring_cap > 0) {
		r->ring = xmalloc((size_t)r->ring_cap);
		r->tag = xmalloc((size_t)r->ring_cap);
	}
}

bool
relay_busy(const struct gx_relay *r, int stream)
{
	return sink_busy(&r->sink[stream]);
}

bool
relay_stuck(const struct gx_relay *r)
{
	double now = sys_now_ms();

	for (int i = 0; i < 2; i++)
		if (sink_busy(&r->sink[i]) && r->sink[i].stuck_since > 0 &&
		    now - r->sink[i].stuck_since >= GX_RELAY_STUCK_MS)
			return true;
	return false;
}

void
relay_abandon(struct gx_relay *r)
{
	for (int i = 0; i < 2; i++) {
		struct gx_sink *s = &r->sink[i];

		if (!sink_busy(s))
			continue;
		s->dropped += s->pend_len - s->pend_off;
		s->pend_off = s->pend_len = 0;
		s->dead = true;
	}
}

void
relay_flush(struct gx_relay *r)
{
	for (int i = 0; i < 2; i++)
		sink_flush(&r->sink[i]);
}

static void
marker(struct gx_relay *r, const char *text)
{
	struct gx_sink *e = &r->sink[1];

	if (e->any && !e->last_nl)
		sink_write(e, "\n", 1);
	sink_write(e, text, strlen(text));
}

static void
ring_push(struct gx_relay *r, int stream, const char *buf, size_t n)
{
	if (r->ring_cap == 0)
		return;
	if (n >= r->ring_cap) {
		buf += n - r->ring_cap;
		n = (size_t)r->ring_cap;
	}
	for (size_t i = 0; i < n; ) {
		size_t chunk = (size_t)(r->ring_cap - r->ring_pos);

		if (chunk > n - i)
			chunk = n - i;
		memcpy(r->ring + r->ring_pos, buf + i, chunk);
		memset(r->tag + r->ring_pos, stream, chunk);
		r->ring_pos = (r->ring_pos + chunk) % r->ring_cap;
		i += chunk;
	}
	r->ring_len = r->ring_len + n > r->ring_cap ? r->ring_cap :
	    r->ring_len + n;
}

void
relay_data(struct gx_relay *r, int stream, const char *buf, size_t n)
{
	uint64_t max = r->pol->max_bytes;

	if (max == 0) {
		sink_write(&r->sink[stream], buf, n);
		return;
	}
	if (r->total < r->head) {
		size_t k = (size_t)(r->head - r->total < n ? r->head - r->total :
		    n);

		sink_write(&r->sink[stream], buf, k);
		r->total += k;
		buf += k;
		n -= k;
	}
	if (n == 0)
		return;
	r->total += n;
	if (r->pol->keep == GX_KEEP_HEAD_TAIL)
		ring_push(r, stream, buf, n);
	if (r->total > max) {
		r->truncated = true;
		if (r->pol->keep == GX_KEEP_HEAD && !r->marker_done) {
			char text[96];

			snprintf(text, sizeof(text), "[guardexec: output truncated "
			    "at %llu bytes]\n", (unsigned long long)max);
			marker(r, text);
			r->marker_done = true;
		}
		if (r->pol->on_overflow == GX_OVERFLOW_KILL)
			r->overflow_kill = true;
	}
}

/* head_tail: the omitted-bytes marker, then the ring in stream runs. */
static void
write_tail(struct gx_relay *r)
{
	uint64_t omitted = r->total - r->head - r->ring_len;
	uint64_t start = (r->ring_pos + r->ring_cap - r->ring_len) %
	    (r->ring_cap ? r->ring_cap : 1);

	if (omitted > 0) {
		char text[96];

		snprintf(text, sizeof(text), "[guardexec: %llu bytes "
		    "omitted]\n", (unsigned long long)omitted);
		marker(r, text);
	}
	for (uint64_t i = 0; i < r->ring_len; ) {
		uint64_t at = (start + i) % r->ring_cap, run = 1;
		int stream = r->tag[at];

		while (i + run < r->ring_len && at + run < r->ring_cap &&
		    r->tag[at + run] == stream)
			run++;
		sink_write(&r->sink[stream], r->ring + at, (size_t)run);
		sink_drain(&r->sink[stream]);
		i += run;
	}
}

void
relay_finish(struct gx_relay *r)
{
	if (r->pol->keep == GX_KEEP_HEAD_TAIL && r->total > r->head)
		write_tail(r);
	for (int i = 0; i < 2; i++) {
		sink_drain(&r->sink[i]);
		if (r->sink[i].own_fd)
			close(r->sink[i].fd);
		if (r->sink[i].restore)
			(void)fcntl(r->sink[i].fd, F_SETFL, r->sink[i].restore_fl);
		free(r->sink[i].pend);
	}
	free(r->ring);
	free(r->tag);
}
