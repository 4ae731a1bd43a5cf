/* SPDX-License-Identifier: ISC */
/*
 * A transient systemd scope per run, over D-Bus (sd-bus): the way
 * systemd-run --scope asks for a cgroup.  With Delegate=yes the subtree
 * below the scope is guardexec's, so it can enable the pids and memory
 * controllers for a leaf holding only the command (see cgroup.c).
 *
 * See systemd's StartTransientUnit() in org.freedesktop.systemd1(5) and
 * https://systemd.io/CGROUP_DELEGATION/.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scope.h"

bool
scope_systemd_running(void)
{
	struct stat st;

	/* What sd_booted() checks, without linking for it. */
	return lstat("/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode);
}

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-bus.h>

/* How long the manager may take to start the scope. */
#define SCOPE_WAIT_MS 5000

struct job_wait {
	const char *path;           /* our job's object path */
	bool done;
	char result[32];            /* "done" on success */
};

static int
on_job_removed(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct job_wait *w = arg;
	const char *path, *unit, *result;
	uint32_t id;

	(void)e;
	if (sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (w->path != NULL && strcmp(path, w->path) == 0) {
		w->done = true;
		snprintf(w->result, sizeof(w->result), "%s", result);
	}
	return 0;
}

/*
 * A connection to the manager: its private socket first (no D-Bus
 * daemon needed, as systemctl does), else the bus.
 */
static int
connect_manager(bool user, const char *runtime_dir, sd_bus **out)
{
	char addr[4200];
	sd_bus *bus = NULL;
	int r;

	if (user)
		snprintf(addr, sizeof(addr), "unix:path=%s/systemd/private",
		    runtime_dir);
	else
		snprintf(addr, sizeof(addr),
		    "unix:path=/run/systemd/private");
	if ((r = sd_bus_new(&bus)) < 0)
		return r;
	if ((r = sd_bus_set_address(bus, addr)) >= 0 &&
	    (r = sd_bus_start(bus)) >= 0) {
		*out = bus;
		return 0;
	}
	sd_bus_unref(bus);
	bus = NULL;
	r = user ? sd_bus_open_user(&bus) : sd_bus_open_system(&bus);
	if (r < 0)
		return r;
	*out = bus;
	return 0;
}

static long
elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	    (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static int
call_start(sd_bus *bus, const char *unit, sd_bus_message **reply,
    sd_bus_error *e)
{
	sd_bus_message *m = NULL;
	int r;

	r = sd_bus_message_new_method_call(bus, &m, "org.freedesktop.systemd1",
	    "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
	    "StartTransientUnit");
	if (r < 0)
		return r;
	if ((r = sd_bus_message_append(m, "ss", unit, "fail")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'a', "(sv)")) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "Description", "s",
	    "guardexec run")) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "PIDs", "au", 1,
	    (uint32_t)getpid())) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "Delegate", "b", 1)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "CollectMode", "s",
	    "inactive-or-failed")) < 0 ||
	    (r = sd_bus_message_close_container(m)) < 0 ||
	    (r = sd_bus_message_append(m, "a(sa(sv))", 0)) < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	r = sd_bus_call(bus, m, 2 * 1000 * 1000, e, reply);
	sd_bus_message_unref(m);
	return r;
}

int
scope_start(const char *unit, bool user, const char *runtime_dir,
    char *why, size_t whylen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	struct job_wait w = { 0 };
	struct timespec t0;
	sd_bus *bus = NULL;
	const char *job;
	int r;

	if (!scope_systemd_running()) {
		snprintf(why, whylen, "systemd is not the service manager");
		return -1;
	}
	if (user && runtime_dir == NULL) {
		snprintf(why, whylen, "no XDG_RUNTIME_DIR for the user manager");
		return -1;
	}
	if ((r = connect_manager(user, runtime_dir, &bus)) < 0) {
		snprintf(why, whylen, "cannot reach the %s manager: %s",
		    user ? "user's systemd" : "systemd", strerror(-r));
		return -1;
	}
	/* Listen before starting, so the job's end cannot be missed. */
	r = sd_bus_match_signal(bus, NULL, "org.freedesktop.systemd1",
	    "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
	    "JobRemoved", on_job_removed, &w);
	if (r >= 0)
		r = call_start(bus, unit, &reply, &e);
	if (r < 0) {
		snprintf(why, whylen, "systemd refused the scope: %s",
		    e.message ? e.message : strerror(-r));
		goto out;
	}
	if ((r = sd_bus_message_read(reply, "o", &job)) < 0) {
		snprintf(why, whylen, "systemd's answer: %s", strerror(-r));
		goto out;
	}
	w.path = job;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!w.done) {
		long left = SCOPE_WAIT_MS - elapsed_ms(&t0);

		if (left <= 0) {
			snprintf(why, whylen, "systemd did not start the scope "
			    "within %d ms", SCOPE_WAIT_MS);
			r = -ETIMEDOUT;
			goto out;
		}
		r = sd_bus_process(bus, NULL);
		if (r < 0) {
			snprintf(why, whylen, "D-Bus: %s", strerror(-r));
			goto out;
		}
		if (r == 0 && (r = sd_bus_wait(bus, (uint64_t)left * 1000)) < 0) {
			snprintf(why, whylen, "D-Bus: %s", strerror(-r));
			goto out;
		}
	}
	if (strcmp(w.result, "done") != 0) {
		snprintf(why, whylen, "the scope's start job ended \"%s\"",
		    w.result);
		r = -EIO;
		goto out;
	}
	r = 0;
out:
	sd_bus_error_free(&e);
	sd_bus_message_unref(reply);
	sd_bus_flush_close_unref(bus);
	return r < 0 ? -1 : 0;
}

#else

int
scope_start(const char *unit, bool user, const char *runtime_dir,
    char *why, size_t whylen)
{
	(void)unit;
	(void)user;
	(void)runtime_dir;
	snprintf(why, whylen, "built without libsystemd");
	return -1;
}

#endif
