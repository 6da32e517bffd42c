/* test_spec.c: the "key = value" format of sweep and plot files (spec.h):
 * what each line becomes, each refused line's FILE:LINE message, and how
 * a bare name is found. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/spec.h"

static void parse_ok(const char *text, struct spec *s)
{
	struct rs_err err = { 0 };

	cr_assert_eq(spec_parse(text, strlen(text), "t.sweep", s, &err), 0, "%s", err.msg);
}

static void expect_entry(const struct spec *s, size_t i, const char *key, const char *value,
			 size_t section, unsigned line)
{
	cr_assert_lt(i, s->n, "entry %zu of %zu", i, s->n);
	cr_assert_str_eq(s->v[i].key, key, "entry %zu", i);
	cr_assert_str_eq(s->v[i].value, value, "entry %zu (%s)", i, key);
	cr_assert_eq(s->v[i].section, section, "entry %zu (%s)", i, key);
	cr_assert_eq(s->v[i].line, line, "entry %zu (%s)", i, key);
}

Test(spec, keys_values_flags_sections_and_comments)
{
	struct spec s;

	parse_ok("# a sweep\n"
		 "tests = get,set\n"
		 "  pipeline=1..16   # trailing comment\n"
		 "\n"
		 "force-flush\n"
		 "label = a b  \n"
		 "[ Lists ]\n"
		 "tests = lpush\n"
		 "[Sets]\n"
		 "kind=speedup\n"
		 "title =\n"
		 "data_size = 3", &s);
	cr_assert_str_eq(s.name, "t.sweep");
	cr_assert_eq(s.n, 8);
	expect_entry(&s, 0, "tests", "get,set", 0, 2);
	expect_entry(&s, 1, "pipeline", "1..16", 0, 3);
	expect_entry(&s, 2, "force-flush", "", 0, 5);
	expect_entry(&s, 3, "label", "a b", 0, 6);
	expect_entry(&s, 4, "tests", "lpush", 1, 8);
	expect_entry(&s, 5, "kind", "speedup", 2, 10);
	expect_entry(&s, 6, "title", "", 2, 11);
	expect_entry(&s, 7, "data_size", "3", 2, 12);
	cr_assert_eq(s.nsections, 2);
	cr_assert_str_eq(s.sections[0], "Lists", "section titles are trimmed");
	cr_assert_str_eq(s.sections[1], "Sets");
	spec_free(&s);
	spec_free(&s);  /* freed twice, or NULL: harmless */
	spec_free(NULL);
}

Test(spec, empty_and_comment_only_files)
{
	struct spec s;

	parse_ok("", &s);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(s.nsections, 0);
	spec_free(&s);
	parse_ok("# nothing\n\n   \t\n#x = y\n", &s);
	cr_assert_eq(s.n, 0);
	spec_free(&s);
}

Test(spec, crlf_line_ends)
{
	struct spec s;

	parse_ok("a = 1\r\n[P]\r\nb\r\n", &s);
	cr_assert_eq(s.n, 2);
	expect_entry(&s, 0, "a", "1", 0, 1);
	expect_entry(&s, 1, "b", "", 1, 3);
	cr_assert_str_eq(s.sections[0], "P");
	spec_free(&s);
}

/* Only the first '=' splits: a value may hold more. */
Test(spec, value_keeps_later_equals)
{
	struct spec s;

	parse_ok("relabel = a=b,c=d\n", &s);
	expect_entry(&s, 0, "relabel", "a=b,c=d", 0, 1);
	spec_free(&s);
}

/* One refused file and the message it must get. */
struct spec_bad {
	char text[64];
	char msg[96];
};

ParameterizedTestParameters(spec, refused)
{
	static struct spec_bad cases[] = {
		{ "a = 1\n[oops\n", "t.sweep:2: a section is written [name]" },
		{ "[]\n", "t.sweep:1: a section is written [name]" },
		{ "[a] b\n", "t.sweep:1: a section is written [name]" },
		{ "\n\nx y = 1\n", "t.sweep:3: 'x y' is not a key (letters, digits, '-')" },
		{ "= 1\n", "t.sweep:1: '' is not a key (letters, digits, '-')" },
		{ "key.name = 1\n", "t.sweep:1: 'key.name' is not a key (letters, digits, '-')" },
		{ "a\nb\x01 = 1\n", "t.sweep:2: 'b\\x01' is not a key (letters, digits, '-')" },
	};

	return cr_make_param_array(struct spec_bad, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct spec_bad *c, spec, refused)
{
	struct spec s;
	struct rs_err err = { 0 };

	cr_assert_eq(spec_parse(c->text, strlen(c->text), "t.sweep", &s, &err), -1, "'%s' accepted",
		     c->text);
	cr_assert_str_eq(err.msg, c->msg);
	cr_assert_eq(s.n, 0, "entries left after a failure");
	cr_assert_null(s.v);
}

Test(spec, nul_byte_and_long_line)
{
	static char big[5000];
	struct spec s;
	struct rs_err err = { 0 };

	cr_assert_eq(spec_parse("a = 1\nb = x\0y\n", 13, "f", &s, &err), -1);
	cr_assert_str_eq(err.msg, "f:2: NUL byte in line");
	memset(big, 'x', sizeof big);
	cr_assert_eq(spec_parse(big, sizeof big, "f", &s, &err), -1);
	cr_assert_str_eq(err.msg, "f:1: line longer than 4096 characters");
	/* 4096 characters exactly are one line still. */
	cr_assert_eq(spec_parse(big, 4096, "f", &s, &err), 0, "%s", err.msg);
	cr_assert_eq(s.n, 1);
	spec_free(&s);
}

Test(spec, read_file_names_the_file)
{
	char path[] = "/tmp/rsweep-spec-XXXXXX";
	int fd = mkstemp(path);
	struct spec s;
	struct rs_err err = { 0 };
	char want[256];

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "a = 1\n[x\n", 9), 9);
	close(fd);
	cr_assert_eq(spec_read_file(path, &s, &err), -1);
	snprintf(want, sizeof want, "%s:2: a section is written [name]", path);
	cr_assert_str_eq(err.msg, want);
	unlink(path);
	cr_assert_eq(spec_read_file(path, &s, &err), -1);
	cr_assert(strstr(err.msg, path) != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "No such file") != NULL, "%s", err.msg);
}

Test(spec, find_a_path_or_a_name)
{
	char buf[1024], dir[] = "/tmp/rsweep-spec-XXXXXX", cwd[1024];
	size_t n;

	/* With a '/', the name is a path, found or not. */
	spec_find("./no/such.sweep", "sweeps", ".sweep", buf, sizeof buf);
	cr_assert_str_eq(buf, "./no/such.sweep");
	/* A bare name of a file here is that file. */
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	fclose(fopen("m1-article", "w"));
	spec_find("m1-article", "sweeps", ".sweep", buf, sizeof buf);
	cr_assert_str_eq(buf, "m1-article");
	unlink("m1-article");
	/* Else the installed file, or this tree's: this binary is tests/
	 * in a build tree, whose sweeps/ (or its source tree's) holds it. */
	spec_find("m1-article", "sweeps", ".sweep", buf, sizeof buf);
	n = strlen(buf);
	cr_assert(n > 24 && strcmp(buf + n - 24, "/sweeps/m1-article.sweep") == 0, "%s", buf);
	cr_assert_eq(access(buf, R_OK), 0, "%s", buf);
	spec_find("m1-article.sweep", "sweeps", ".sweep", buf, sizeof buf);
	cr_assert(strstr(buf, ".sweep.sweep") == NULL, "the extension was added twice: %s", buf);
	cr_assert_eq(access(buf, R_OK), 0, "%s", buf);
	/* Found nowhere: the name as typed, for the error. */
	spec_find("nosuch", "sweeps", ".sweep", buf, sizeof buf);
	cr_assert_str_eq(buf, "nosuch");
	cr_assert_eq(chdir(cwd), 0);
	rmdir(dir);
}

Test(spec, not_found_lists_where_it_looked)
{
	struct rs_err err = { 0 };
	char want[1024];

	cr_assert_eq(spec_not_found("nosuch", "plots", ".plot", &err), -1);
	snprintf(want, sizeof want, "nosuch: no such plot file (looked for nosuch, %s/plots/nosuch.plot, ",
		 RS_DATADIR);
	cr_assert_eq(strncmp(err.msg, want, strlen(want)), 0, "%s", err.msg);
	cr_assert(strstr(err.msg, RS_TOP_SRCDIR "/plots/nosuch.plot)") != NULL ||
		  strstr(err.msg, "/plots/nosuch.plot)") != NULL, "%s", err.msg);
	cr_assert_eq(spec_not_found("a/b.plot", "plots", ".plot", &err), -1);
	cr_assert_str_eq(err.msg, "a/b.plot: no such file");
}
