/* redis_helper.h: the redis-server a Criterion test starts, and a skip
 * that says why when there is none (header-only: each test program is one
 * file).
 *
 * A test that needs a server calls redis_server() for its path, which
 * skips the test, with the reason, when neither $REDIS_SERVER nor PATH has
 * one; redis_start() starts it and points a target at it.  A program
 * that includes this header gets its own main: exit 77
 * (automake's SKIP) when tests were skipped and none failed, so that a
 * machine without redis-server shows SKIP in make check, not PASS or FAIL. */
#ifndef RS_TESTS_REDIS_HELPER_H
#define RS_TESTS_REDIS_HELPER_H

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/spawn.h"
#include "net/target.h"

/* The executable redis-server to start: $REDIS_SERVER when set (a path,
 * or a name looked up in PATH), else redis-server from PATH.  Returns a
 * static buffer, or NULL with why in reason when there is none. */
static inline const char *redis_server_find(char *reason, size_t size)
{
	static char found[4096];
	const char *want = getenv("REDIS_SERVER");
	const char *path = getenv("PATH");

	if (want == NULL || *want == '\0')
		want = "redis-server";
	if (strchr(want, '/') != NULL) {
		if (access(want, X_OK) == 0)
			return want;
		snprintf(reason, size, "REDIS_SERVER=%s is not an executable file", want);
		return NULL;
	}
	while (path != NULL && *path != '\0') {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		snprintf(found, sizeof found, "%.*s/%s", (int)n, n ? path : ".", want);
		if (access(found, X_OK) == 0)
			return found;
		path = end ? end + 1 : NULL;
	}
	snprintf(reason, size, "no %s in PATH (apt-get install redis-server, or set REDIS_SERVER)",
		 want);
	return NULL;
}

/* The path of the redis-server to start; skips the calling test when
 * there is none. */
static inline const char *redis_server(void)
{
	char reason[256];
	const char *path = redis_server_find(reason, sizeof reason);

	if (path == NULL)
		cr_skip_test("%s", reason);
	return path;
}

/* Start a private redis-server on a UNIX socket (spawn.h; extra: further
 * "--name value" arguments, or NULL) into srv, and set t to reach it: the
 * socket, a connect timeout of 5 s, commands 10 s, described.  Skips the
 * test when there is no redis-server, fails it when one does not start;
 * the caller stops it (spawn_stop). */
static inline void redis_start(struct spawn *srv, struct target *t, const char *const *extra)
{
	struct rs_err err = { 0 };

	cr_assert_eq(spawn_start(srv, redis_server(), SPAWN_UNIX, extra, 10, &err), 0, "%s",
		     err.msg);
	memset(t, 0, sizeof *t);
	t->socket = srv->socket;
	t->connect_timeout = 5;
	t->timeout = 10;
	target_describe(t);
}

static size_t redis_helper_skipped;

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	redis_helper_skipped = stats->tests_skipped;
}

int main(int argc, char *argv[]);
int main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	int ok = 1;

	if (criterion_handle_args(argc, argv, 1))
		ok = criterion_run_all_tests(tests);
	criterion_finalize(tests);
	if (!ok)
		return 1;
	if (redis_helper_skipped > 0) {
		char reason[256] = "see --verbose for the reasons";

		redis_server_find(reason, sizeof reason);
		fprintf(stderr, "SKIP: %zu test%s skipped: %s\n", redis_helper_skipped,
			redis_helper_skipped == 1 ? "" : "s", reason);
		return 77;
	}
	return 0;
}

#endif
