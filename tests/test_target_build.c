/* test_target_build.c: one builder from a definition to a struct target
 * (issue 43): passwords in their order, TLS settings where TLS is on, a
 * spawned server's address and certificate, the options' server. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "net/target_build.h"

static struct targets_def parse(const char *spec)
{
	struct targets_def d;
	struct rs_err err;

	cr_assert_eq(targets_parse_one(spec, &d, &err), 0, "%s", err.msg);
	return d;
}

Test(target_build, password_order)
{
	struct targets_def uri = parse("a=redis://u:secret@db.example:7000/3");
	struct targets_def bare = parse("b=redis://db.example:7000");
	struct target_settings s = { .password = "dash-a", .env_password = 1, .dbnum = 5,
				     .user = "opt", .timeout = 4, .connect_timeout = 2 };
	struct target t;
	struct rs_err err;

	setenv("REDISCLI_AUTH", "env", 1);
	cr_assert_eq(target_build(&uri, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.password, "secret", "a URI's password wins over -a");
	cr_assert_str_eq(t.user, "u");
	cr_assert_eq(t.dbnum, 3);
	cr_assert_str_eq(t.desc, "db.example:7000");
	cr_assert_eq(t.timeout, 4);
	cr_assert_eq(t.connect_timeout, 2);
	cr_assert_eq(target_build(&bare, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.password, "dash-a", "-a over REDISCLI_AUTH");
	cr_assert_str_eq(t.user, "opt");
	cr_assert_eq(t.dbnum, 5);
	s.password = "";
	cr_assert_eq(target_build(&bare, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_null(t.password, "-a '' is no password, not REDISCLI_AUTH's");
	s.password = NULL;
	cr_assert_eq(target_build(&bare, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.password, "env");
	s.env_password = 0;
	cr_assert_eq(target_build(&bare, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_null(t.password, "the control Redis takes no REDISCLI_AUTH");
	unsetenv("REDISCLI_AUTH");
	targets_def_free(&uri);
	targets_def_free(&bare);
}

Test(target_build, tls_where_on)
{
	struct targets_def plain = parse("a=redis://127.0.0.1:7000");
	struct targets_def tls = parse("b=rediss://cache.example:7001");
	struct target_tls opt = { .on = 0, .cacert = "/ca.pem", .sni = "cache.example" };
	struct target_settings s = { .tls = &opt };
	struct target t;
	struct rs_err err;

	cr_assert_eq(target_build(&plain, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.tls.on, 0);
	cr_assert_null(t.tls.cacert, "TLS settings only where TLS is on");
	cr_assert_eq(target_build(&tls, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.tls.on, 1, "the settings' on does not turn a rediss:// off");
	cr_assert_str_eq(t.tls.cacert, "/ca.pem");
	cr_assert_str_eq(t.tls.sni, "cache.example");
	targets_def_free(&plain);
	targets_def_free(&tls);
}

Test(target_build, spawned)
{
	struct targets_def d = parse("s=spawn+tls:");
	struct targets_def own;
	struct spawn sp = { .transport = SPAWN_TLS, .port = 40001 };
	struct target_tls opt = { .cacert = "/users-ca.pem", .insecure = 1 };
	struct target_settings s = { .password = "pw", .tls = &opt };
	struct target t;
	struct rs_err err;

	strcpy(sp.cafile, "/tmp/x/cert.pem");
	cr_assert_eq(target_build(&d, &s, NULL, &t, &err), -1, "a spawned kind needs its server");
	cr_assert_eq(target_build(&d, &s, &sp, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.host, "127.0.0.1");
	cr_assert_eq(t.port, 40001);
	cr_assert_null(t.socket);
	cr_assert_null(t.password, "rsweep's own server has no password");
	cr_assert_eq(t.tls.on, 1);
	cr_assert_eq(t.tls.insecure, 0, "verified against its own certificate, not --insecure");
	cr_assert_str_eq(t.tls.cacert, "/tmp/x/cert.pem");
	cr_assert_str_eq(t.desc, "127.0.0.1:40001");
	targets_def_free(&d);

	target_build_spawned(&own, SPAWN_UNIX);
	sp.transport = SPAWN_UNIX;
	sp.port = 0;
	strcpy(sp.socket, "/tmp/x/redis.sock");
	cr_assert_eq(target_build(&own, &s, &sp, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.desc, "unix:/tmp/x/redis.sock");
	cr_assert_eq(t.tls.on, 0);
	targets_def_free(&own);
}

Test(target_build, options_address)
{
	struct targets_def d;
	struct target_settings s = { .dbnum = 2 };
	struct target t;
	struct rs_err err;

	target_build_addr(&d, NULL, "::1", 6380, 0);
	cr_assert_eq(target_build(&d, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.desc, "[::1]:6380");
	cr_assert_eq(t.dbnum, 2);
	cr_assert_eq(target_build(&d, &s, &(struct spawn){ .port = 1 }, &t, &err), -1,
		     "an address is not a spawned server");
	targets_def_free(&d);
	target_build_addr(&d, "/run/r.sock", "127.0.0.1", 6379, 0);
	cr_assert_eq(target_build(&d, &s, NULL, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.desc, "unix:/run/r.sock");
	targets_def_free(&d);
}
