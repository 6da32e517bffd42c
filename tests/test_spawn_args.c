/* test_spawn_args.c: --spawn-args settings classed by what they can do,
 * every '|' alternative apart (issue 40). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "net/spawn_args.h"

static enum spawn_args_class cls(const char *name)
{
	return spawn_args_class(name, strlen(name));
}

Test(spawn_args, known_names_by_class)
{
	static const struct {
		const char *name;
		enum spawn_args_class c;
	} known[] = {
		{ "port", SPAWN_ARGS_LISTEN }, { "Port", SPAWN_ARGS_LISTEN },
		{ "unixsocketperm", SPAWN_ARGS_LISTEN }, { "replicaof", SPAWN_ARGS_LISTEN },
		{ "cluster-config-file", SPAWN_ARGS_FILE }, { "dbfilename", SPAWN_ARGS_FILE },
		{ "appenddirname", SPAWN_ARGS_FILE }, { "syslog-enabled", SPAWN_ARGS_FILE },
		{ "loadmodule", SPAWN_ARGS_CODE }, { "enable-protected-configs", SPAWN_ARGS_CODE },
		{ "requirepass", SPAWN_ARGS_SECRET }, { "user", SPAWN_ARGS_SECRET },
		{ "aclfile", SPAWN_ARGS_SECRET }, { "tls-key-file-pass", SPAWN_ARGS_SECRET },
		{ "daemonize", SPAWN_ARGS_PROCESS }, { "supervised", SPAWN_ARGS_PROCESS },
	};

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		cr_assert_eq(cls(known[i].name), known[i].c, "%s: %s", known[i].name,
			     spawn_args_class_name(cls(known[i].name)));
}

/* Names no table holds yet, classed by their words. */
Test(spawn_args, the_next_name_by_its_words)
{
	cr_assert_eq(cls("rdma-port"), SPAWN_ARGS_LISTEN);
	cr_assert_eq(cls("quic-bind"), SPAWN_ARGS_LISTEN);
	cr_assert_eq(cls("cluster-announce-client-ipv4"), SPAWN_ARGS_LISTEN);
	cr_assert_eq(cls("scratch-file-path"), SPAWN_ARGS_FILE);
	cr_assert_eq(cls("audit-logfile"), SPAWN_ARGS_FILE);
	cr_assert_eq(cls("enable-anything"), SPAWN_ARGS_CODE);
	cr_assert_eq(cls("module-load-path"), SPAWN_ARGS_CODE);
	cr_assert_eq(cls("replica-auth"), SPAWN_ARGS_SECRET);
	cr_assert_eq(cls("replica-password"), SPAWN_ARGS_SECRET);
	cr_assert_eq(cls("cluster-user"), SPAWN_ARGS_SECRET);
}

/* Harmless settings near a refused word stay free. */
Test(spawn_args, free_settings)
{
	static const char *const free_names[] = {
		"hz", "save", "appendfsync", "io-threads", "maxmemory", "lazyfree-lazy-user-del",
		"rdb-del-sync-files", "replica-announced", "acllog-max-len", "protected-mode",
		"rename-command", "appendonly", "cluster-enabled", "latency-tracking",
	};

	for (size_t i = 0; i < sizeof free_names / sizeof free_names[0]; i++)
		cr_assert_eq(cls(free_names[i]), SPAWN_ARGS_FREE, "%s: %s", free_names[i],
			     spawn_args_class_name(cls(free_names[i])));
}

/* spawn_args_check of copies of w[0..n). */
static const char *check(const char *const *w, size_t n)
{
	static struct rs_err err;
	char *v[8];
	int rc;

	for (size_t i = 0; i < n; i++)
		v[i] = strdup(w[i]);
	err.msg[0] = '\0';
	rc = spawn_args_check(v, n, &err);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	if (rc == 0)
		return NULL;
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_null(strchr(err.msg, '\n'));
	return err.msg;
}

Test(spawn_args, every_alternative_checked)
{
	const char *a[] = { "--port|--hz", "17958" };
	const char *b[] = { "--hz", "10|--requirepass", "x" };
	const char *c[] = { "--hz 1|--dir /tmp" };
	const char *d[] = { "--hz|port", "1" };
	const char *ok[] = { "--io-threads", "1|2|4", "--save", "" };
	const char *e[] = { "--hz", "10|/etc/x" };

	cr_assert_str_eq(check(a, 2), "--spawn-args may not set --port in '--port|--hz' (listen: "
			 "where the server listens or what it connects to: rsweep keeps it on "
			 "loopback or a private socket)");
	cr_assert(strstr(check(b, 3), "--requirepass in '10|--requirepass' (secret: ") != NULL);
	cr_assert(strstr(check(c, 1), "--dir in '--hz 1|--dir /tmp' (file: ") != NULL);
	cr_assert(strstr(check(d, 2), "must start with a --option, not 'port'") != NULL);
	cr_assert(strstr(check(e, 2), "the value '/etc/x' in '10|/etc/x' (file: ") != NULL);
	cr_assert_null(check(ok, 4));
}
