/* test_plotfile.c: plot files (plotfile.h): global keys become plot
 * options, sections become panels with their title, tests and kind, and
 * each refused line gets a FILE:LINE message. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart.h"
#include "cli/opts.h"
#include "chart/plotfile.h"
#include "analysis/series.h"

static struct rs_config cfg;

static void setup(void)
{
	struct rs_err err = { 0 };

	cr_assert_eq(opts_defaults(CMD_PLOT, &cfg, &err), 0, "%s", err.msg);
}

static void teardown(void)
{
	opts_free(&cfg);
}

/* The setter rsweep plot gives the parser: a global key is a plot option. */
static int set(void *ud, const char *file, unsigned line, const char *key, const char *value,
	       struct rs_err *err)
{
	return opts_set_file_key(CMD_PLOT, ud, file, line, key, value, err);
}

static int parse(const char *text, struct plotfile *pf, struct rs_err *err)
{
	return plotfile_parse(text, strlen(text), "t.plot", set, &cfg, pf, err);
}

Test(plotfile, options_and_panels, .init = setup, .fini = teardown)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(parse("metric = p99\n"
			   "size = 640x480\n"
			   "\n"
			   "[Regular keys]\n"
			   "tests = get,set\n"
			   "[Lists]\n"
			   "title = Lists, pushed and popped\n"
			   "tests = lpush,lrange_*\n"
			   "kind = speedup\n"
			   "[Everything]\n", &pf, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg.metric, SM_P99);
	cr_assert_eq(cfg.width, 640);
	cr_assert_eq(cfg.height, 480);
	cr_assert(opts_given(&cfg, "metric"));
	cr_assert_str_eq(pf.name, "t.plot");
	cr_assert_eq(pf.n, 3);
	cr_assert_str_eq(pf.v[0].title, "Regular keys");
	cr_assert_str_eq(pf.v[0].tests, "get,set");
	cr_assert_eq(pf.v[0].kind, -1, "no kind: the command's --kind");
	cr_assert_eq(pf.v[0].line, 5);
	cr_assert_str_eq(pf.v[1].title, "Lists, pushed and popped", "title replaces the name");
	cr_assert_str_eq(pf.v[1].tests, "lpush,lrange_*");
	cr_assert_eq(pf.v[1].kind, CHART_SPEEDUP);
	cr_assert_eq(pf.v[1].line, 7);
	cr_assert_str_eq(pf.v[2].title, "Everything");
	cr_assert_null(pf.v[2].tests, "no tests: every test");
	cr_assert_eq(pf.v[2].kind, -1);
	plotfile_free(&pf);
	plotfile_free(&pf);
	plotfile_free(NULL);
}

Test(plotfile, no_sections_no_panels, .init = setup, .fini = teardown)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(parse("kind = lines\n# only options\n", &pf, &err), 0, "%s", err.msg);
	cr_assert_eq(pf.n, 0);
	cr_assert_eq(cfg.kind, CHART_LINES);
	plotfile_free(&pf);
	cr_assert_eq(parse("", &pf, &err), 0, "%s", err.msg);
	cr_assert_eq(pf.n, 0);
	plotfile_free(&pf);
}

Test(plotfile, the_last_of_a_repeated_panel_key_wins, .init = setup, .fini = teardown)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(parse("[P]\ntests = get\ntests = set\nkind = speedup\nkind = lines\n", &pf,
			   &err), 0, "%s", err.msg);
	cr_assert_str_eq(pf.v[0].tests, "set");
	cr_assert_eq(pf.v[0].kind, CHART_LINES);
	plotfile_free(&pf);
}

static void expect_refused(const char *text, const char *msg)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(parse(text, &pf, &err), -1, "accepted: %s", text);
	cr_assert_str_eq(err.msg, msg, "for: %s", text);
	plotfile_free(&pf);
}

Test(plotfile, refused_panel_keys, .init = setup, .fini = teardown)
{
	expect_refused("[P]\nkind = bars\n", "t.plot:2: kind 'bars' is not one of lines|speedup");
	expect_refused("[P]\n\ncolour = red\n",
		       "t.plot:3: unknown panel key 'colour' (title, tests, kind)");
	expect_refused("[P]\ntests\n", "t.plot:2: panel key 'tests' needs a value");
	expect_refused("[P]\ntitle =\n", "t.plot:2: panel key 'title' needs a value");
	expect_refused("[P\n", "t.plot:1: a section is written [name]");
}

/* Global keys are plot options: the option's own message, at its line. */
Test(plotfile, refused_options_name_their_line, .init = setup, .fini = teardown)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(parse("# x\nmetric = speed\n", &pf, &err), -1);
	cr_assert_eq(strncmp(err.msg, "t.plot:2: ", 10), 0, "%s", err.msg);
	cr_assert(strstr(err.msg, "speed") != NULL, "%s", err.msg);
	plotfile_free(&pf);
	cr_assert_eq(parse("size = 0x0\n", &pf, &err), -1);
	cr_assert_eq(strncmp(err.msg, "t.plot:1: ", 10), 0, "%s", err.msg);
	plotfile_free(&pf);
	cr_assert_eq(parse("no-such-option = 1\n", &pf, &err), -1);
	cr_assert_eq(strncmp(err.msg, "t.plot:1: ", 10), 0, "%s", err.msg);
	cr_assert(strstr(err.msg, "no-such-option") != NULL, "%s", err.msg);
	plotfile_free(&pf);
	/* An option of rsweep run is no plot option. */
	cr_assert_eq(parse("clients = 5\n", &pf, &err), -1);
	cr_assert_eq(strncmp(err.msg, "t.plot:1: ", 10), 0, "%s", err.msg);
	plotfile_free(&pf);
}

Test(plotfile, read_names_the_file, .init = setup, .fini = teardown)
{
	char path[] = "/tmp/rsweep-plotfile-XXXXXX";
	int fd = mkstemp(path);
	struct plotfile pf;
	struct rs_err err = { 0 };
	char want[256];

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "[A]\ntests = get\n[B]\nkind = pie\n", 31), 31);
	close(fd);
	cr_assert_eq(plotfile_read(path, set, &cfg, &pf, &err), -1);
	snprintf(want, sizeof want, "%s:4: kind 'pie' is not one of lines|speedup", path);
	cr_assert_str_eq(err.msg, want);
	plotfile_free(&pf);
	unlink(path);
	cr_assert_eq(plotfile_read(path, set, &cfg, &pf, &err), -1);
	cr_assert(strstr(err.msg, path) != NULL, "%s", err.msg);
	plotfile_free(&pf);
}

/* The installed plot file reads as its comment says: four panels of rps. */
Test(plotfile, the_shipped_m1_article_plot, .init = setup, .fini = teardown)
{
	struct plotfile pf;
	struct rs_err err = { 0 };

	cr_assert_eq(plotfile_read(RS_TOP_SRCDIR "/plots/m1-article.plot", set, &cfg, &pf, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(cfg.metric, SM_RPS);
	cr_assert_eq(pf.n, 4);
	cr_assert_str_eq(pf.v[1].title, "Commands for lists");
	cr_assert_str_eq(pf.v[1].tests, "lpush,rpush,lpop,rpop,lrange_*");
	plotfile_free(&pf);
}
