/* test_workload_format.c: a preparation hiredis cannot format is an
 * error the caller handles, not an abort.
 *
 * redisFormatCommandArgv fails only when its allocation does, which
 * cannot be provoked from outside: this program defines it (the
 * executable's definition wins for the workload room linked into it) and
 * fails on demand, otherwise calling hiredis' own through dlsym. */
#define _GNU_SOURCE
#include "config.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload.h"

static int refuse_format;

int redisFormatCommandArgv(char **target, int argc, const char **argv, const size_t *argvlen)
{
	int (*real)(char **, int, const char **, const size_t *);

	if (refuse_format)
		return -1;
	*(void **)&real = dlsym(RTLD_NEXT, "redisFormatCommandArgv");
	if (real == NULL)
		abort();
	return real(target, argc, argv, argvlen);
}

Test(workload_format, a_preparation_that_cannot_be_formatted_fails_with_a_message)
{
	struct workload w;
	struct rs_err err = { 0 };
	char *buf = NULL;
	size_t len = 7, ncmds = 7;

	/* Needs hiredis itself, so the linker keeps it for dlsym to find. */
	redisReaderFree(redisReaderCreate());
	cr_assert_eq(workload_select("lpop", 3, &w, &err), 0, "%s", err.msg);
	refuse_format = 1;
	cr_assert_eq(workload_prepare_cmds(&w.v[0], 2500, 0, 3, &buf, &len, &ncmds, &err), -1);
	refuse_format = 0;
	cr_assert(strstr(err.msg, "cannot format") != NULL, "%s", err.msg);
	cr_assert_null(buf, "nothing half-built is handed back");
	cr_assert_eq(len, 0);
	cr_assert_eq(ncmds, 0);
	workload_free(&w);
}
