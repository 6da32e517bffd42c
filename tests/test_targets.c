/* test_targets.c: --target LABEL=URI and --spawn-args, parsed from strings. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/target.h"
#include "net/targets.h"

/* Parse one spec that must fail; returns the message. */
static const char *bad(const char *spec)
{
	static struct rs_err err;
	struct targets_def d;

	cr_assert_eq(targets_parse_one(spec, &d, &err), -1, "'%s' was accepted", spec);
	targets_def_free(&d);
	cr_assert_eq(err.kind, RS_E_USAGE, "%s", err.msg);
	return err.msg;
}

Test(targets, every_scheme)
{
	struct targets_def d;
	struct rs_err err;

	cr_assert_eq(targets_parse_one("a=unix:///run/redis.sock", &d, &err), 0, "%s", err.msg);
	cr_assert_str_eq(d.label, "a");
	cr_assert_eq(d.kind, TARGETS_UNIX);
	cr_assert_str_eq(d.path, "/run/redis.sock");
	cr_assert_str_eq(d.uri, "unix:///run/redis.sock");
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("tcp=redis://10.0.0.2", &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.kind, TARGETS_TCP);
	cr_assert_str_eq(d.host, "10.0.0.2");
	cr_assert_eq(d.port, 6379);
	cr_assert_eq(d.has_db, 0);
	cr_assert_null(d.password);
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("b=redis://bob:s%40cret@h:6380/3", &d, &err), 0, "%s", err.msg);
	cr_assert_str_eq(d.user, "bob");
	cr_assert_str_eq(d.password, "s@cret");
	cr_assert_eq(d.port, 6380);
	cr_assert_eq(d.has_db, 1);
	cr_assert_eq(d.dbnum, 3);
	cr_assert_str_eq(d.uri, "redis://bob@h:6380/3");
	targets_def_free(&d);

	/* redis-cli -u: a userinfo without ':' is the password. */
	cr_assert_eq(targets_parse_one("c=redis://pw@[::1]:7000", &d, &err), 0, "%s", err.msg);
	cr_assert_null(d.user);
	cr_assert_str_eq(d.password, "pw");
	cr_assert_str_eq(d.host, "::1");
	cr_assert_eq(d.port, 7000);
	cr_assert_str_eq(d.uri, "redis://[::1]:7000");
	cr_assert_eq(d.tls, 0);
	targets_def_free(&d);

	/* rediss://: TLS on, the rest as redis://. */
	cr_assert_eq(targets_parse_one("t=rediss://bob:pw@h:6390/2", &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.kind, TARGETS_TCP);
	cr_assert_eq(d.tls, 1);
	cr_assert_str_eq(d.host, "h");
	cr_assert_str_eq(d.password, "pw");
	cr_assert_eq(d.port, 6390);
	cr_assert_str_eq(d.uri, "rediss://bob@h:6390/2");
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("s=spawn:", &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.kind, TARGETS_SPAWN);
	cr_assert_null(d.path);
	targets_def_free(&d);
	cr_assert_eq(targets_parse_one("s=spawn+tcp:/opt/redis/bin/redis-server", &d, &err), 0);
	cr_assert_eq(d.kind, TARGETS_SPAWN_TCP);
	cr_assert_str_eq(d.path, "/opt/redis/bin/redis-server");
	targets_def_free(&d);
}

Test(targets, spawn_tls_is_a_spawned_server_of_its_own)
{
	struct targets_def d;
	struct rs_err err;
	struct targets ts;
	char *specs[] = { "a=spawn+tls:", "b=spawn+tls:" };
	char *args[] = { "b=--tls-protocols TLSv1.3" };
	char *cert[] = { "b=--tls-cert-file /etc/other.pem" };
	char *auth[] = { "--tls-auth-clients yes" };

	cr_assert_eq(targets_parse_one("s=spawn+tls:", &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.kind, TARGETS_SPAWN_TLS);
	cr_assert_null(d.path);
	cr_assert_str_eq(d.uri, "spawn+tls:");
	targets_def_free(&d);
	cr_assert_eq(targets_parse_one("s=spawn+tls:/opt/redis/bin/redis-server", &d, &err), 0);
	cr_assert_eq(d.kind, TARGETS_SPAWN_TLS);
	cr_assert_str_eq(d.path, "/opt/redis/bin/redis-server");
	targets_def_free(&d);
	cr_assert(targets_spawned(TARGETS_SPAWN_TLS) && targets_spawned(TARGETS_SPAWN_TCP) &&
		  targets_spawned(TARGETS_SPAWN));
	cr_assert(!targets_spawned(TARGETS_TCP) && !targets_spawned(TARGETS_UNIX));
	/* Each starts a server of its own: two are no address given twice. */
	cr_assert_eq(targets_parse(specs, 2, &ts, &err), 0, "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, args, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(ts.v[1].nargs, 2);
	/* Its certificate is the one the client trusts, and the client shows none. */
	cr_assert_eq(targets_spawn_args(&ts, cert, 1, &err), -1);
	cr_assert(strstr(err.msg, "--tls-cert-file"), "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, auth, 1, &err), -1);
	cr_assert(strstr(err.msg, "--tls-auth-clients"), "%s", err.msg);
	targets_free(&ts);
	/* A sweep file may say spawn+tls:, but not which program to run. */
	cr_assert_eq(targets_file_ok("a=spawn+tls:", &err), 0, "%s", err.msg);
	cr_assert_eq(targets_file_ok("a=spawn+tls:/tmp/evil", &err), -1);
	cr_assert(strstr(err.msg, "write a=spawn+tls:,"), "%s", err.msg);
	cr_assert(strstr(bad("a=spawn+tlsx"), "spawn+tls:[PATH]"));
}

Test(targets, malformed_uris_name_the_target_and_never_the_password)
{
	cr_assert(strstr(bad("unix:///x.sock"), "no label"));
	cr_assert(strstr(bad("=unix:///x.sock"), "no label"));
	cr_assert(strstr(bad("a=http://h:1"), "target 'a'"));
	cr_assert(strstr(bad("a=unix://"), "no socket path"));
	cr_assert(strstr(bad("a=redis://:6379"), "no host"));
	cr_assert(strstr(bad("a=redis://h:0"), "port"));
	cr_assert(strstr(bad("a=redis://h:65536"), "port"));
	cr_assert(strstr(bad("a=redis://h:63x"), "port"));
	cr_assert(strstr(bad("a=redis://h:1/x"), "database"));
	cr_assert(strstr(bad("a=redis://h:1/2000000"), "database"));
	cr_assert(strstr(bad("a=redis://[::1:5"), "'['"));
	cr_assert(strstr(bad("a,b=spawn:"), "comma"));
	cr_assert(strstr(bad("-a=spawn:"), "'-'"));
	cr_assert(strstr(bad("a=redis://u:bad%zzsecret@h"), "escape"));
	cr_assert_null(strstr(bad("a=redis://u:hunter2@h:0"), "hunter2"));
	cr_assert_null(strstr(bad("a=ftp://u:hunter2@h"), "hunter2"));
	cr_assert_null(strstr(bad("redis://u:hunter2@h"), "hunter2"));
	/* No label, and an '=' inside the password (base64): the '=' after
	 * "://" is the URI's, and nothing of the password is quoted. */
	cr_assert(strstr(bad("redis://default:c2VjcmV0==@db:6379"), "no label"));
	cr_assert_null(strstr(bad("redis://default:c2VjcmV0==@db:6379"), "c2Vj"));
	/* A label that holds what a URI holds is refused without quoting past
	 * the first character a label may not have. */
	cr_assert_null(strstr(bad("x:hunter2=redis://h"), "hunter2"));
	cr_assert(strstr(bad("x:hunter2=redis://h"), "':'"));
}

Test(targets, a_label_or_an_address_given_twice)
{
	struct targets ts;
	struct rs_err err;
	char *dup_label[] = { "a=spawn:", "a=unix:///x" };
	char *dup_addr[] = { "a=redis://h:6379", "b=redis://h" };
	char *dup_sock[] = { "a=unix:///x", "b=unix:///x" };
	char *other_db[] = { "a=redis://h", "b=redis://h/1" };
	char *two_spawns[] = { "a=spawn:", "b=spawn:" };

	cr_assert_eq(targets_parse(dup_label, 2, &ts, &err), -1);
	cr_assert(strstr(err.msg, "target 'a'") && strstr(err.msg, "twice"), "%s", err.msg);
	targets_free(&ts);
	cr_assert_eq(targets_parse(dup_addr, 2, &ts, &err), -1);
	cr_assert(strstr(err.msg, "target 'b'") && strstr(err.msg, "'a' again"), "%s", err.msg);
	targets_free(&ts);
	cr_assert_eq(targets_parse(dup_sock, 2, &ts, &err), -1);
	targets_free(&ts);
	cr_assert_eq(targets_parse(other_db, 2, &ts, &err), 0, "%s", err.msg);
	targets_free(&ts);
	cr_assert_eq(targets_parse(two_spawns, 2, &ts, &err), 0, "%s", err.msg);
	cr_assert_eq(ts.n, 2);
	targets_free(&ts);
}

Test(targets, spawn_args_split_quote_and_refuse_what_rsweep_sets)
{
	struct targets ts;
	struct rs_err err;
	char *specs[] = { "a=spawn:", "b=spawn+tcp:", "c=unix:///x" };
	char *one[] = { "a=--appendonly yes --io-threads 2" };
	char *all[] = { "--save '' --maxmemory \"1 gb\"" };
	char *port[] = { "b=--port 7000" };
	char *bind[] = { "--BIND 0.0.0.0" };
	char *notspawn[] = { "c=--appendonly yes" };
	char *nosuch[] = { "z=--appendonly yes" };
	char *unclosed[] = { "a=--save 'x" };
	char *file[] = { "a=/etc/redis.conf" };

	cr_assert_eq(targets_parse(specs, 3, &ts, &err), 0, "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, one, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(ts.v[0].nargs, 4);
	cr_assert_str_eq(ts.v[0].args[3], "2");
	cr_assert_null(ts.v[0].args[4]);
	cr_assert_eq(ts.v[1].nargs, 0);
	cr_assert_eq(targets_spawn_args(&ts, all, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(ts.v[1].nargs, 4);
	cr_assert_str_eq(ts.v[1].args[1], "");
	cr_assert_str_eq(ts.v[1].args[3], "1 gb");
	cr_assert_eq(ts.v[2].nargs, 0);
	cr_assert_eq(targets_spawn_args(&ts, port, 1, &err), -1);
	cr_assert(strstr(err.msg, "target 'b'") && strstr(err.msg, "--port"), "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, bind, 1, &err), -1);
	cr_assert_eq(targets_spawn_args(&ts, notspawn, 1, &err), -1);
	cr_assert(strstr(err.msg, "not a spawned server"), "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, nosuch, 1, &err), -1);
	cr_assert(strstr(err.msg, "'z'"), "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, unclosed, 1, &err), -1);
	cr_assert(strstr(err.msg, "unclosed"), "%s", err.msg);
	cr_assert_eq(targets_spawn_args(&ts, file, 1, &err), -1);
	/* What failed left the arguments before it in place. */
	cr_assert_eq(ts.v[0].nargs, 4);
	targets_free(&ts);
}

Test(targets, sweep_files_hold_no_program_and_no_password)
{
	struct rs_err err;

	cr_assert_eq(targets_file_ok("a=spawn:", &err), 0);
	cr_assert_eq(targets_file_ok("a=spawn+tcp:", &err), 0);
	cr_assert_eq(targets_file_ok("a=redis://h:1/2", &err), 0);
	cr_assert_eq(targets_file_ok("a=redis://bob@h:1", &err), -1);
	cr_assert_eq(targets_file_ok("a=spawn:/tmp/evil", &err), -1);
	cr_assert(strstr(err.msg, "program"), "%s", err.msg);
	cr_assert_eq(targets_file_ok("a=redis://bob:pw@h:1", &err), -1);
	cr_assert(strstr(err.msg, "password") && !strstr(err.msg, "pw@"), "%s", err.msg);
	cr_assert_eq(targets_file_ok("a=bogus", &err), -1);
}

Test(targets, the_password_is_blanked_in_place)
{
	char a[] = "a=redis://bob:hunter2@h:6379/0";
	char b[] = "b=redis://hunter2@h";
	char c[] = "c=unix:///x@y";
	char d[] = "d=redis://h:1";
	char e[] = "redis://default:c2VjcmV0==@db:6379";

	targets_blank_password(a);
	targets_blank_password(b);
	targets_blank_password(c);
	targets_blank_password(d);
	cr_assert_str_eq(a, "a=redis://bob:*******@h:6379/0");
	cr_assert_str_eq(b, "b=redis://*******@h");
	cr_assert_str_eq(c, "c=unix:///x@y");
	cr_assert_str_eq(d, "d=redis://h:1");
	/* Without a label (a mistake the parser refuses) it is blanked all
	 * the same, before anything shows argv. */
	targets_blank_password(e);
	cr_assert_str_eq(e, "redis://default:**********@db:6379");
}

Test(targets, every_scheme_is_blanked)
{
	char a[] = "t=rediss://:hunter2@h:6380";
	char b[] = "rediss://bob:hunter2@h";
	char c[] = "ftp://:hunter2@x";
	char d[] = "unix:///tmp/a@b";

	targets_blank_password(a);
	targets_blank_password(b);
	targets_blank_password(c);
	targets_blank_password(d);
	cr_assert_str_eq(a, "t=rediss://:*******@h:6380");
	cr_assert_str_eq(b, "rediss://bob:*******@h");
	cr_assert_str_eq(c, "ftp://:*******@x");
	cr_assert_str_eq(d, "unix:///tmp/a@b");
}

/* A definition into a struct target: the URI's address and what it gives,
 * the caller's defaults where it gives nothing, and a spawned kind's
 * address left to the caller. */
Test(targets, apply_to_target)
{
	struct targets_def d;
	struct target t;
	struct rs_err err;

	cr_assert_eq(targets_parse_one("a=rediss://bob:pw@h.example:7000/3", &d, &err), 0, "%s",
		     err.msg);
	memset(&t, 0, sizeof t);
	t.dbnum = 9;
	t.user = "default-user";
	t.password = "default-pw";
	t.tls.cacert = "ca.pem";
	targets_apply(&d, &t);
	cr_assert_null(t.socket);
	cr_assert_str_eq(t.host, "h.example");
	cr_assert_eq(t.port, 7000);
	cr_assert_eq(t.dbnum, 3);
	cr_assert_str_eq(t.user, "bob");
	cr_assert_str_eq(t.password, "pw");
	cr_assert_eq(t.tls.on, 1);
	cr_assert_str_eq(t.tls.cacert, "ca.pem", "the other TLS settings are the caller's");
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("b=unix:///run/r.sock", &d, &err), 0, "%s", err.msg);
	memset(&t, 0, sizeof t);
	t.dbnum = 9;
	t.user = "default-user";
	t.password = "default-pw";
	t.tls.on = 1;
	targets_apply(&d, &t);
	cr_assert_str_eq(t.socket, "/run/r.sock");
	cr_assert_eq(t.tls.on, 0);
	cr_assert_eq(t.dbnum, 9, "no /db in the URI: the caller's database");
	cr_assert_str_eq(t.user, "default-user");
	cr_assert_str_eq(t.password, "default-pw");
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("c=spawn+tcp:", &d, &err), 0, "%s", err.msg);
	memset(&t, 0, sizeof t);
	t.host = "127.0.0.1";
	t.port = 41000;
	targets_apply(&d, &t);
	cr_assert_str_eq(t.host, "127.0.0.1", "a spawned server's address is the caller's");
	cr_assert_eq(t.port, 41000);
	targets_def_free(&d);
}

/* The options' server as an agent reaches it, and every URI written by the
 * one rule: an IPv6 host in brackets (redis://::1:6379 would not parse
 * back), never a user or password, the database only when asked for. */
Test(targets, uri_of_an_address_parses_back)
{
	struct target t = { .host = "::1", .port = 6390, .dbnum = 4, .user = "bob",
			    .password = "pw" };
	struct targets_def d;
	struct rs_err err;
	char buf[TARGETS_URI_MAX], spec[TARGETS_URI_MAX + 8];

	targets_uri(&t, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "redis://[::1]:6390/4");
	snprintf(spec, sizeof spec, "a=%s", buf);
	cr_assert_eq(targets_parse_one(spec, &d, &err), 0, "%s", err.msg);
	cr_assert_str_eq(d.uri, buf, "the parser writes the URI as targets_uri does");
	cr_assert_str_eq(d.host, "::1");
	targets_def_free(&d);

	t.host = "10.0.0.2";
	t.tls.on = 1;
	targets_uri(&t, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "rediss://10.0.0.2:6390");
	t.socket = "/run/r.sock";
	targets_uri(&t, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "unix:///run/r.sock");
	targets_uri(&t, 1, buf, 8);
	cr_assert_str_eq(buf, "unix://", "cut to fit");
}

/* The CSV's target column: a definition's URI, a spawned one's binary and
 * arguments quoted as they read back, the options' address, and
 * "(insecure)" after any TLS server's under --insecure only. */
Test(targets, row_says_what_each_server_is)
{
	struct targets_def d;
	struct target t = { .host = "10.0.0.2", .port = 6390 };
	struct rs_err err;
	char buf[TARGETS_URI_MAX], **w;
	size_t n;

	cr_assert_eq(targets_parse_one("a=rediss://bob:pw@h.example:7000/3", &d, &err), 0, "%s",
		     err.msg);
	targets_row(&d, NULL, NULL, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "rediss://bob@h.example:7000/3 (insecure)");
	targets_row(&d, NULL, NULL, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "rediss://bob@h.example:7000/3");
	targets_def_free(&d);
	cr_assert_eq(targets_parse_one("a=redis://h.example", &d, &err), 0, "%s", err.msg);
	targets_row(&d, NULL, NULL, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "redis://h.example:6379", "no TLS: nothing unverified");
	targets_def_free(&d);

	cr_assert_eq(targets_parse_one("s=spawn+tls:", &d, &err), 0, "%s", err.msg);
	cr_assert_eq(targets_split("--save '' --dir-like \"it's\" --x 'a b'", &d.args, &d.nargs,
				   &err), 0, "%s", err.msg);
	targets_row(&d, NULL, "/usr/bin/redis-server", 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "spawn+tls:/usr/bin/redis-server --save '' --dir-like \"it's\" "
			 "--x 'a b'");
	/* What the row shows reads back as the same words. */
	cr_assert_eq(targets_split(strchr(buf, ' ') + 1, &w, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, d.nargs);
	for (size_t i = 0; i < n; i++) {
		cr_assert_str_eq(w[i], d.args[i]);
		free(w[i]);
	}
	free(w);
	targets_def_free(&d);

	target_describe(&t);
	targets_row(NULL, &t, NULL, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "10.0.0.2:6390", "the options' plain server: its address");
	t.tls.on = 1;
	targets_row(NULL, &t, NULL, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "rediss://10.0.0.2:6390 (insecure)");
	t.host = "::1";
	target_describe(&t);
	targets_row(NULL, &t, NULL, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "rediss://[::1]:6390");
}

/* "An empty password means none", whichever source gives it. */
Test(targets, an_empty_password_is_none)
{
	struct targets_def d;
	struct rs_err err;

	cr_assert_null(targets_password(NULL));
	cr_assert_null(targets_password(""));
	cr_assert_str_eq(targets_password("pw"), "pw");
	cr_assert_eq(targets_parse_one("a=redis://bob:@h", &d, &err), 0, "%s", err.msg);
	cr_assert_null(d.password);
	targets_def_free(&d);
	setenv("REDISCLI_AUTH", "", 1);
	cr_assert_null(targets_env_password());
	setenv("REDISCLI_AUTH", "pw", 1);
	cr_assert_str_eq(targets_env_password(), "pw");
	unsetenv("REDISCLI_AUTH");
	cr_assert_null(targets_env_password());
}
