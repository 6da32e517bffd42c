/* test_inputs.c: the input pipeline of report, plot and export (inputs.h)
 * and the password taken out of a target (redact.h): no row read keeps a
 * password; an output that is an input, its sidecar, a link to either or
 * another spelling of it is refused; --relabel's FILE may hold '='. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/inputs.h"
#include "base/redact.h"

static void redacts(const char *in, const char *want)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%s", in);
	redact_target(buf);
	cr_expect_str_eq(buf, want, "redact_target(\"%s\")", in);
}

Test(redact, takes_out_the_password_and_nothing_else)
{
	redacts("redis://admin:Sekrit99@10.0.0.1:6379/0", "redis://admin@10.0.0.1:6379/0");
	redacts("redis://Sekrit99@h:6379", "redis://h:6379");
	redacts("redis://:Sekrit99@h:6379", "redis://h:6379");
	redacts("rediss://u:p/w@d@h:6380 (insecure)", "rediss://u@h:6380 (insecure)");
	redacts("Sekrit99@h:6379", "h:6379");
	redacts("redis://h:6379/0", "redis://h:6379/0");
	redacts("127.0.0.1:6379", "127.0.0.1:6379");
	redacts("unix:///tmp/a@b/redis.sock", "unix:///tmp/a@b/redis.sock");
	redacts("unix:/tmp/a@b.sock", "unix:/tmp/a@b.sock");
	redacts("spawn:/usr/bin/redis-server --x a@b", "spawn:/usr/bin/redis-server --x a@b");
	redacts("", "");
}

struct dir {
	char path[40];
	char csv[80], side[96], link[80], eq[80];
};

static void dir_make(struct dir *d)
{
	FILE *fp;

	snprintf(d->path, sizeof d->path, "/tmp/rsweep-inputs-XXXXXX");
	cr_assert_not_null(mkdtemp(d->path));
	snprintf(d->csv, sizeof d->csv, "%s/S.csv", d->path);
	snprintf(d->side, sizeof d->side, "%s/S.csv.hist", d->path);
	snprintf(d->link, sizeof d->link, "%s/L.csv", d->path);
	snprintf(d->eq, sizeof d->eq, "%s/run=2.csv", d->path);
	cr_assert_not_null(fp = fopen(d->csv, "w"));
	fputs("label,test,pipeline,repeat,rps,target\n"
	      "a,GET,1,1,1000,redis://admin:Sekrit99@10.0.0.1:6379/0\n"
	      "a,GET,2,1,1900,redis://Sekrit99@h:6379\n"
	      "a,SET,1,1,900,unix:/tmp/r.sock\n", fp);
	cr_assert_eq(fclose(fp), 0);
	cr_assert_eq(symlink("S.csv", d->link), 0);
	cr_assert_eq(link(d->csv, d->eq), 0);
}

static void dir_free(struct dir *d)
{
	unlink(d->csv);
	unlink(d->side);
	unlink(d->link);
	unlink(d->eq);
	rmdir(d->path);
}

Test(inputs, rows_come_out_without_passwords)
{
	struct dir d;
	struct inputs_opts o = { 0 };
	struct rs_rows rows = { 0 };
	struct rs_err err;
	char *files[1];

	dir_make(&d);
	files[0] = d.csv;
	o.files = files;
	o.nfiles = 1;
	o.quiet = 1;
	cr_assert_eq(inputs_read(&o, &rows, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 3);
	for (size_t i = 0; i < rows.n; i++)
		cr_expect_null(strstr(rows.v[i].server->target, "Sekrit"), "%s",
			       rows.v[i].server->target);
	cr_expect_str_eq(rows.v[0].server->target, "redis://admin@10.0.0.1:6379/0");
	cr_expect_str_eq(rows.v[1].server->target, "redis://h:6379");
	rows_free(&rows);
	dir_free(&d);
}

Test(inputs, picks_tests_depths_and_relabels_a_file_named_with_an_equals_sign)
{
	struct dir d;
	struct inputs_opts o = { 0 };
	struct rs_rows rows = { 0 };
	struct depth_list dl = { 0 };
	struct rs_err err;
	char *files[2], spec[128], *specs[1];

	dir_make(&d);
	files[0] = d.eq;
	o.files = files;
	o.nfiles = 1;
	o.quiet = 1;
	snprintf(spec, sizeof spec, "run=2.csv:a=b");
	specs[0] = spec;
	o.relabel = specs;
	o.nrelabel = 1;
	o.tests = "get";
	cr_assert_eq(depths_parse("2", &dl, &err), 0);
	o.depths = &dl;
	cr_assert_eq(inputs_read(&o, &rows, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	cr_expect_str_eq(rows.v[0].label, "b");
	cr_expect_str_eq(rows.v[0].test, "GET");
	cr_expect_eq(rows.v[0].pipeline, 2);
	rows_free(&rows);
	/* A test the data does not have is named, as report names it. */
	o.tests = "gett";
	o.depths = NULL;
	cr_assert_eq(inputs_read(&o, &rows, NULL, &err), -1);
	cr_expect_not_null(strstr(err.msg, "--tests"), "%s", err.msg);
	cr_expect_eq(err.kind, RS_E_INPUT);
	rows_free(&rows);
	free(dl.v);
	dir_free(&d);
}

Test(inputs, an_output_that_is_an_input_is_refused)
{
	struct dir d;
	struct rs_err err;
	char *files[1], other[96], dotted[96];

	dir_make(&d);
	files[0] = d.csv;
	snprintf(other, sizeof other, "%s/T.csv", d.path);
	snprintf(dotted, sizeof dotted, "%s/./S.csv", d.path);
	cr_expect_eq(inputs_output_check(NULL, files, 1, &err), 0);
	cr_expect_eq(inputs_output_check("-", files, 1, &err), 0);
	cr_expect_eq(inputs_output_check(other, files, 1, &err), 0, "%s", err.msg);
	/* By name, by another spelling, through a link, by a hard link. */
	cr_expect_eq(inputs_output_check(d.csv, files, 1, &err), -1);
	cr_expect_eq(err.kind, RS_E_USAGE);
	cr_expect_eq(inputs_output_check(dotted, files, 1, &err), -1);
	cr_expect_eq(inputs_output_check(d.link, files, 1, &err), -1);
	cr_expect_eq(inputs_output_check(d.eq, files, 1, &err), -1);
	/* Its sidecar, by name before it exists and by inode after. */
	cr_expect_eq(inputs_output_check(d.side, files, 1, &err), -1);
	cr_expect_not_null(strstr(err.msg, "sidecar"), "%s", err.msg);
	fclose(fopen(d.side, "w"));
	snprintf(dotted, sizeof dotted, "%s/./S.csv.hist", d.path);
	cr_expect_eq(inputs_output_check(dotted, files, 1, &err), -1);
	dir_free(&d);
}
