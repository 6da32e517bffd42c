/* test_spawn_tls.c: spawn_start's TLS server (spawn+tls:), checked with a
 * client that is not rsweep's: Debian's redis-cli, which speaks TLS. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net/spawn.h"
#include "redis_helper.h"

static struct spawn srv = { .pid = -1 };

static void teardown(void)
{
	spawn_stop(&srv);
}

/* Run a shell command line; its last line of output into out (a reply's
 * value: CONFIG GET prints the name, then the value), its exit status
 * returned. */
static int run(const char *cmd, char *out, size_t size)
{
	FILE *fp = popen(cmd, "r");
	char line[512];
	int status;

	cr_assert_not_null(fp, "%s", cmd);
	out[0] = '\0';
	while (fgets(line, sizeof line, fp) != NULL)
		if (line[0] != '\n')
			snprintf(out, size, "%.*s", (int)strcspn(line, "\n"), line);
	status = pclose(fp);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* redis-cli against the spawned server: opts before the command. */
static int cli(const char *opts, const char *command, char *out, size_t size)
{
	char cmd[1024];

	cr_assert(access("/usr/bin/redis-cli", X_OK) == 0 || system("command -v redis-cli "
		  ">/dev/null") == 0, "no redis-cli: apt-get install redis-tools");
	snprintf(cmd, sizeof cmd, "redis-cli %s -h 127.0.0.1 -p %u %s 2>&1", opts, srv.port,
		 command);
	return run(cmd, out, size);
}

TestSuite(spawn_tls, .fini = teardown);

Test(spawn_tls, answers_over_tls_verified)
{
	struct rs_err err = { 0 };
	char opts[512], out[512];
	struct stat st;

	cr_assert_eq(spawn_start(&srv, redis_server(), SPAWN_TLS, NULL, 10, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(srv.transport, SPAWN_TLS);
	cr_assert_str_empty(srv.socket);
	cr_assert(srv.port > 0);
	cr_assert_str_not_empty(srv.version);
	/* The CA a client trusts is the certificate, in the private directory. */
	cr_assert(strncmp(srv.cafile, srv.dir, strlen(srv.dir)) == 0, "%s", srv.cafile);
	cr_assert_eq(stat(srv.cafile, &st), 0, "%s", srv.cafile);
	cr_assert_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(stat(srv.dir, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0700);
	/* Verified against that file alone, not the system's CAs. */
	snprintf(opts, sizeof opts, "--tls --cacert %s", srv.cafile);
	cr_assert_eq(cli(opts, "PING", out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "PONG");
	/* No client certificate asked for, no plain port, no persistence. */
	cr_assert_eq(cli(opts, "CONFIG GET tls-auth-clients", out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "no");
	cr_assert_eq(cli(opts, "CONFIG GET port", out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "0");
	cr_assert_eq(cli(opts, "CONFIG GET appendonly", out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, "no");
	cr_assert_eq(cli(opts, "CONFIG GET tls-ca-cert-file", out, sizeof out), 0, "%s", out);
	cr_assert_str_eq(out, srv.cafile);
}

Test(spawn_tls, no_plain_port_and_no_other_ca)
{
	struct rs_err err = { 0 };
	char out[512];

	cr_assert_eq(spawn_start(&srv, redis_server(), SPAWN_TLS, NULL, 10, &err), 0, "%s",
		     err.msg);
	/* Plain text on the TLS port gets no PONG... */
	cli("", "PING", out, sizeof out);
	cr_assert_str_neq(out, "PONG", "the TLS port answered in plain text");
	/* ...and the system's CAs do not vouch for a throwaway certificate. */
	cli("--tls", "PING", out, sizeof out);
	cr_assert_str_neq(out, "PONG", "verified without its own CA: %s", out);
	cr_assert(strstr(out, "certificate verify failed") != NULL, "%s", out);
}

Test(spawn_tls, stop_removes_key_and_certificate)
{
	struct rs_err err = { 0 };
	char dir[sizeof srv.dir], key[sizeof srv.keyfile];
	pid_t pid;

	cr_assert_eq(spawn_start(&srv, redis_server(), SPAWN_TLS, NULL, 10, &err), 0, "%s",
		     err.msg);
	memcpy(dir, srv.dir, sizeof dir);
	memcpy(key, srv.keyfile, sizeof key);
	pid = srv.pid;
	cr_assert_eq(access(key, F_OK), 0, "%s", key);
	spawn_stop(&srv);
	cr_assert_neq(access(key, F_OK), 0, "the key outlived its server");
	cr_assert_neq(access(dir, F_OK), 0, "%s outlived its server", dir);
	cr_assert_neq(kill(pid, 0), 0, "the server outlived spawn_stop");
}

Test(spawn_tls, plain_spawns_have_no_certificate)
{
	struct rs_err err = { 0 };

	cr_assert_eq(spawn_start(&srv, redis_server(), SPAWN_TCP, NULL, 10, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(srv.transport, SPAWN_TCP);
	cr_assert_str_empty(srv.cafile);
	spawn_stop(&srv);
	cr_assert_eq(spawn_start(&srv, redis_server(), SPAWN_UNIX, NULL, 10, &err), 0, "%s",
		     err.msg);
	cr_assert_str_empty(srv.cafile);
	cr_assert_str_not_empty(srv.socket);
}
