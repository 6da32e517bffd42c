/* test_runenv.c: the environment sidecar (runenv.h) written and read
 * back, a server's configuration from INFO and CONFIG GET answers
 * (target_env.h), and no password in a server's arguments (redact.h). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/redact.h"
#include "net/target_env.h"
#include "results/runenv.h"

Test(runenv, lines_of_one_run_merge_and_the_latest_run_wins)
{
	char dir[] = "/tmp/rsweep-runenv-XXXXXX", csv[256], env[300];
	const char *k[] = { "label", "target", "started_at", "cores", "empty" };
	const char *v1[] = { "a", "unix:/s", "2026-01-01T00:00:00Z", "8", "" };
	const char *v2[] = { "a", "unix:/s", "2026-01-02T00:00:00Z", "4", "" };
	const char *end[] = { "a", "unix:/s", "2026-01-02T00:00:00Z", "1.0 1.0 1.0" };
	const char *ke[] = { "label", "target", "started_at", "load_end" };
	struct runenv_set set = { 0 };
	const struct runenv *e;
	struct rs_err err;
	FILE *fp;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(csv, sizeof csv, "%s/r.csv", dir);
	snprintf(env, sizeof env, "%s.env", csv);
	cr_assert_eq(runenv_append(csv, 0, k, v1, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(runenv_append(csv, 0, k, v2, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(runenv_append(csv, 0, ke, end, 4, &err), 0, "%s", err.msg);
	/* A crash's half line: ignored by the reader, cut back by the next append. */
	fp = fopen(env, "a");
	fputs("{\"label\":\"a\",\"tar", fp);
	fclose(fp);
	cr_assert_eq(runenv_read(csv, &set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.n, 2, "two runs, the second's two lines one record");
	e = runenv_find(&set, csv, "relabelled", "unix:/s", "");
	cr_assert_not_null(e);
	cr_assert_str_eq(runenv_get(e, "cores"), "4");
	cr_assert_str_eq(runenv_get(e, "load_end"), "1.0 1.0 1.0");
	cr_assert_str_eq(runenv_get(e, "empty"), "", "an empty value is left out");
	cr_assert_null(runenv_find(&set, csv, "a", "tcp:6379", ""));
	cr_assert_null(runenv_find(&set, "other.csv", "a", "unix:/s", ""));
	runenv_set_free(&set);
	cr_assert_eq(runenv_append(csv, 1, k, v1, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(runenv_read(csv, &set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.n, 1, "empty_first: what the sidecar held went with the rows");
	runenv_set_free(&set);
	unlink(env);
	rmdir(dir);
}

Test(runenv, a_line_not_ours_is_refused_with_its_line)
{
	static const char text[] = "{\"label\":\"a\"}\n[1,2]\n";
	struct runenv_set set = { 0 };
	struct rs_err err;

	cr_assert_eq(runenv_parse(text, strlen(text), "x.csv.env", "x.csv", &set, &err), -1);
	cr_assert(strstr(err.msg, "x.csv.env:2:") != NULL, "%s", err.msg);
	runenv_set_free(&set);
	cr_assert_eq(runenv_parse("{\"a\":1}\n", 8, "y", "y", &set, &err), -1);
	cr_assert(strstr(err.msg, "'a' is not a string") != NULL, "%s", err.msg);
	runenv_set_free(&set);
}

/* Blank lines are no records; a sidecar past what rsweep writes (members
 * of one environment, environments of one file) is refused at once with
 * its line, not read in the square of its size. */
Test(runenv, blank_lines_pass_and_a_hostile_size_is_refused)
{
	static const char blank[] = "\n{\"label\":\"a\",\"cpu\":\"x\"}\n\n  \n{\"label\":\"a\"}\n\n";
	struct runenv_set set = { 0 };
	struct rs_err err;
	char *big;
	size_t len = 0, cap = 1 << 20;

	cr_assert_eq(runenv_parse(blank, strlen(blank), "b", "b.csv", &set, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(set.n, 1);
	cr_assert_str_eq(runenv_get(&set.v[0], "cpu"), "x");
	runenv_set_free(&set);

	big = malloc(cap);
	cr_assert_not_null(big);
	len += (size_t)sprintf(big + len, "{\"label\":\"a\"");
	for (int k = 0; k < 300; k++)
		len += (size_t)sprintf(big + len, ",\"k%d\":\"v\"", k);
	len += (size_t)sprintf(big + len, "}\n");
	cr_assert_eq(runenv_parse(big, len, "m", "m.csv", &set, &err), -1);
	cr_assert(strstr(err.msg, "m:1: more than 256 members") != NULL, "%s", err.msg);
	runenv_set_free(&set);

	len = 0;
	for (int k = 0; k < 8193; k++)
		len += (size_t)sprintf(big + len, "{\"label\":\"l%d\"}\n", k);
	cr_assert_eq(runenv_parse(big, len, "r", "r.csv", &set, &err), -1);
	cr_assert(strstr(err.msg, "r:8193: more than 8192 environments") != NULL, "%s", err.msg);
	runenv_set_free(&set);
	free(big);
}

Test(runenv, server_args_tell_alternatives_apart_and_hold_no_password)
{
	static const char text[] =
		"{\"label\":\"a\",\"target\":\"spawn\",\"server_args\":\"--io-threads 1\",\"io_threads\":\"1\"}\n"
		"{\"label\":\"a\",\"target\":\"spawn\",\"server_args\":\"--io-threads 4\",\"io_threads\":\"4\"}\n"
		"{\"label\":\"a\",\"target\":\"spawn\",\"server_args\":\"--requirepass ******\",\"x\":\"y\"}\n";
	struct runenv_set set = { 0 };
	struct rs_err err;

	cr_assert_eq(runenv_parse(text, strlen(text), "e", "f.csv", &set, &err), 0, "%s", err.msg);
	cr_assert_str_eq(runenv_get(runenv_find(&set, "f.csv", "a", "spawn", "--io-threads 4"),
				    "io_threads"), "4");
	cr_assert_str_eq(runenv_get(runenv_find(&set, "f.csv", "a", "spawn", "--io-threads 1"),
				    "io_threads"), "1");
	/* The rows keep the password; the sidecar, its stars. */
	cr_assert_str_eq(runenv_get(runenv_find(&set, "f.csv", "a", "spawn", "--requirepass secret"),
				    "x"), "y");
	runenv_set_free(&set);
}

Test(runenv, redact_args_blanks_what_follows_a_password_option)
{
	char a[] = "--requirepass s3cret --io-threads 4";
	char b[] = "rsweep run --spawn-args '--masterauth=xyz'";
	char c[] = "--io-threads 4";

	cr_assert_eq(redact_args(a), 1);
	cr_assert_str_eq(a, "--requirepass ****** --io-threads 4");
	cr_assert_eq(redact_args(b), 1);
	cr_assert_str_eq(b, "rsweep run --spawn-args '--masterauth=***'");
	cr_assert_eq(redact_args(c), 0);
	cr_assert_str_eq(c, "--io-threads 4");
}

Test(target_env, info_then_config_answers)
{
	static const char info[] =
		"# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n"
		"process_id:4242\r\n# Persistence\r\naof_enabled:1\r\n# Memory\r\n"
		"maxmemory:1073741824\r\nmaxmemory_human:1.00G\r\nmaxmemory_policy:allkeys-lru\r\n";
	struct target_env e;

	target_env_parse_info(info, &e);
	cr_assert_str_eq(e.server.name, "valkey");
	cr_assert_str_eq(e.server.version, "8.0.1");
	cr_assert_eq(e.process_id, 4242);
	cr_assert_str_eq(e.appendonly, "yes");
	cr_assert_str_eq(e.maxmemory, "1073741824", "not maxmemory_human's");
	cr_assert_str_eq(e.maxmemory_policy, "allkeys-lru");
	cr_assert_str_eq(e.io_threads, "", "INFO does not say: unknown until CONFIG GET");
	target_env_set_config(&e, "io-threads", "4");
	target_env_set_config(&e, "appendfsync", "always");
	target_env_set_config(&e, "save", "");
	target_env_set_config(&e, "requirepass", "secret");
	cr_assert_str_eq(e.io_threads, "4");
	cr_assert_str_eq(e.appendfsync, "always");
	cr_assert_str_eq(e.save, "off", "an empty save is no RDB saves");
	for (size_t i = 0; target_env_config_names[i] != NULL; i++)
		cr_assert(strstr(target_env_config_names[i], "pass") == NULL &&
			  strstr(target_env_config_names[i], "auth") == NULL,
			  "CONFIG GET never asks for a password");
}
