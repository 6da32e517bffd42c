/* test_opts.c: the option table: defaults, parsing, every bad-input case, files. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "chart/chart.h"
#include "formats/import.h"
#include "cli/opts.h"
#include "render/render.h"
#include "report/report.h"
#include "analysis/series.h"
#include "sweep/sweep.h"

static int parse(enum opts_cmd cmd, struct rs_config *cfg, struct rs_err *err, ...)
{
	static char store[32][64];
	char *argv[33];
	int argc = 0;
	va_list ap;
	const char *a;

	/* getopt wants char *: give it copies. */
	strcpy(store[argc], "run");
	argv[argc] = store[argc];
	argc++;
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)) != NULL) {
		snprintf(store[argc], sizeof store[argc], "%s", a);
		argv[argc] = store[argc];
		argc++;
	}
	va_end(ap);
	argv[argc] = NULL;
	cr_assert_eq(opts_defaults(cmd, cfg, err), 0);
	return opts_parse_argv(cmd, argc, argv, cfg, err);
}

Test(opts, defaults_are_redis_benchmarks)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, NULL), 0);
	cr_assert_str_eq(cfg.host, "127.0.0.1");
	cr_assert_eq(cfg.port, 6379);
	cr_assert_eq(cfg.clients_axis.n, 1);
	cr_assert_eq(cfg.clients_axis.v[0], 50);
	cr_assert_eq(cfg.requests, 100000);
	cr_assert_eq(cfg.data_size_axis.v[0], 3);
	cr_assert_eq(cfg.threads_axis.v[0], 1);
	cr_assert_eq(cfg.pipeline.n, 1);
	cr_assert_eq(cfg.pipeline.v[0], 1);
	cr_assert_eq(cfg.flush, GUARD_FLUSH_ALL);
	opts_free(&cfg);
}

Test(opts, values_parse)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "-c", "10", "-P", "1..64:x2", "-n", "5k",
			   "--duration=2.5", "--order", "shuffled", "--spawn", "-t", "get,set", "--",
			   "SET", "k", "v", NULL), 0, "%s", err.msg);
	cr_assert_eq(cfg.clients_axis.v[0], 10);
	cr_assert_eq(cfg.pipeline.n, 7);
	cr_assert_eq(cfg.pipeline.v[6], 64);
	cr_assert_eq(cfg.requests, 5000);
	cr_assert_float_eq(cfg.duration, 2.5, 1e-12);
	cr_assert_eq(cfg.order, SWEEP_ORDER_SHUFFLED);
	cr_assert(cfg.spawn);
	cr_assert_null(cfg.spawn_path);
	cr_assert(cfg.dashdash);
	cr_assert_eq(cfg.nargs, 3);
	cr_assert_str_eq(cfg.args[0], "SET");
	cr_assert(opts_given(&cfg, "clients"));
	cr_assert(!opts_given(&cfg, "port"));
	opts_free(&cfg);
}

Test(opts, bad_input_names_option_and_reason)
{
	static const struct {
		const char *a, *b, *msg;
	} cases[] = {
		{ "-P", "0", "option -P/--pipeline: '0': depth 0 is not a pipeline" },
		{ "-c", "0", "option -c/--clients: 0 is out of range" },
		{ "-n", "-5", "option -n/--requests: '-5' is not a non-negative whole number" },
		{ "-d", "600000000", "option -d/--data-size: 600000000 is out of range" },
		{ "-c", "ten", "option -c/--clients: 'ten' is not a non-negative whole number" },
		{ "-c", "10x", "option -c/--clients: '10x' is not a whole number" },
		{ "--pause", "1,5", "option --pause: '1,5' is not a number" },
		{ "--order", "random", "option --order: 'random' is not one of sequential|shuffled" },
		{ "-P", "5..1", "option -P/--pipeline: '5..1': descending range" },
		{ "-P", "1..5000", "option -P/--pipeline: '1..5000': more than 4096 depths" },
		{ "--bogus", NULL, "unknown option --bogus" },
		{ "-c", NULL, "option -c needs an argument" },
		{ "--resume=yes", NULL, "option --resume takes no argument" },
		{ "--passwd=s3cret", NULL, "unknown option --passwd" },
		{ "--pipline", "4", "unknown option --pipline; did you mean --pipeline?" },
		{ "--cleints", "4", "unknown option --cleints; did you mean --clients?" },
		{ "--requets=5", NULL, "unknown option --requets; did you mean --requests?" },
		{ "-P", "1-8", "option -P/--pipeline: '1-8' is not a depth; a range is written 1..8" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rs_config cfg;
		struct rs_err err = { 0 };

		cr_assert_eq(parse(CMD_RUN, &cfg, &err, cases[i].a, cases[i].b, NULL), -1,
			     "case %zu accepted", i);
		cr_assert(strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) == 0,
			  "case %zu: '%s' does not start with '%s'", i, err.msg, cases[i].msg);
		cr_assert(strstr(err.msg, "s3cret") == NULL, "case %zu echoes a password", i);
		opts_free(&cfg);
	}
}

/* A suggestion only for a near miss, and only of the command's options. */
Test(opts, did_you_mean_is_for_near_misses)
{
	struct rs_config cfg;
	struct rs_err err = { 0 };

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--bogus", NULL), -1);
	cr_assert_str_eq(err.msg, "unknown option --bogus");
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--xy", NULL), -1);
	cr_assert_str_eq(err.msg, "unknown option --xy");
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_REPORT, &cfg, &err, "--fromat", "json", NULL), -1);
	cr_assert_str_eq(err.msg, "unknown option --fromat; did you mean --format?");
	opts_free(&cfg);
	/* --format is not an option of run. */
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--fromat", "json", NULL), -1);
	cr_assert_str_eq(err.msg, "unknown option --fromat");
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--a-very-long-option-name-beyond-any-in-the-table",
			   NULL), -1);
	opts_free(&cfg);
}

/* The help text of run's -q says what it does: one line per point. */
Test(opts, quiet_help_says_one_line_per_point)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, "quiet") == 0 && (t[i].cmds & CMD_RUN))
			cr_assert(strstr(t[i].help, "one line per point") != NULL, "%s", t[i].help);
}

/* Each command's --help lists its own options, with defaults and words
 * that apply to it: -o says which file for each command; import's -c, -n,
 * -d and -P have no default of run's (it records what the capture shows);
 * agent and clean, which write no rows, do not speak of a target column
 * or a --target they do not take. */
Test(opts, help_of_each_command_speaks_of_its_own_options)
{
	static const struct {
		enum opts_cmd cmd;
		const char *has, *hasnt;
	} c[] = {
		{ CMD_RUN, "-o, --output FILE            write the rows to the CSV FILE", NULL },
		{ CMD_PLOT, "-o, --output FILE            write the chart to FILE, .png, .pdf or .svg",
		  "CSV" },
		{ CMD_REPORT, "-o, --output FILE            write the text to FILE", ".png" },
		{ CMD_EXPORT, "-o, --output FILE            write the text to FILE", ".png" },
		{ CMD_IMPORT, "-c, --clients N              the connections the input was measured "
		  "with", "[50]" },
		{ CMD_IMPORT, "default: the input's name", "[100000]" },
		{ CMD_IMPORT, "no summary", "one line per point" },
		{ CMD_IMPORT, "-P, --pipeline DEPTHS", "[1]\n" },
		{ CMD_IMPORT, "-d, --data-size BYTES", "[3]" },
		{ CMD_AGENT, "--insecure", "target column" },
		{ CMD_AGENT, "--sni", "-o, --output" },
		{ CMD_CLEAN, "--tls", "--target" },
		{ CMD_CLEAN, "clean every master", "load, guard" },
		{ CMD_CLEAN, "--insecure", "target column" },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		cr_assert_not_null(fp);
		opts_usage(c[i].cmd, fp);
		fclose(fp);
		cr_expect(strstr(buf, c[i].has) != NULL, "%s --help lacks '%s':\n%s",
			  opts_cmd_name(c[i].cmd), c[i].has, buf);
		if (c[i].hasnt != NULL)
			cr_expect(strstr(buf, c[i].hasnt) == NULL, "%s --help says '%s':\n%s",
				  opts_cmd_name(c[i].cmd), c[i].hasnt, buf);
		free(buf);
	}
}

/* A name with a row for each of several commands is given when its
 * command's row is: opts_given does not stop at another command's row. */
Test(opts, given_by_any_row_of_its_name)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_REPORT, &cfg, &err, "-o", "r.txt", NULL), 0, "%s", err.msg);
	cr_assert(opts_given(&cfg, "output"));
	cr_assert_eq(opts_origin(&cfg, "output"), ORIGIN_ARGV);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_IMPORT, &cfg, &err, "-c", "7", NULL), 0, "%s", err.msg);
	cr_assert(opts_given(&cfg, "clients"));
	cr_assert_eq(cfg.clients, 7);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_IMPORT, &cfg, &err, NULL), 0, "%s", err.msg);
	cr_assert(!opts_given(&cfg, "clients"));
	opts_free(&cfg);
}

Test(opts, file_keys_are_long_names_and_command_line_wins)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "-c", "7", NULL), 0);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "clients", "99", &cfg, &err), 0);
	cr_assert_eq(cfg.clients_axis.v[0], 7);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "pipeline", "1..40", &cfg, &err), 0);
	cr_assert_eq(cfg.pipeline.n, 40);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "fail-on-error", "yes", &cfg, &err), 0);
	cr_assert(cfg.fail_on_error);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "clientz", "1", &cfg, &err), -1);
	cr_assert_str_eq(err.msg, "unknown key 'clientz'");
	/* The password never lives in a file that may be shared. */
	cr_assert_eq(opts_set_from_file(CMD_RUN, "password", "x", &cfg, &err), -1);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "pause", "soon", &cfg, &err), -1);
	cr_assert_str_eq(err.msg, "pause: 'soon' is not a number");
	opts_free(&cfg);
}

Test(opts, options_belong_to_their_commands)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "-c", "5", NULL), -1);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_REPORT, &cfg, &err, "--format", "json", "a.csv", NULL), 0);
	cr_assert_eq(cfg.format, FORMAT_JSON);
	cr_assert_eq(cfg.nargs, 1);
	opts_free(&cfg);
}

Test(opts, table_is_consistent)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++) {
		cr_assert(t[i].help && *t[i].help, "--%s has no help", t[i].name);
		cr_assert(t[i].cmds != 0);
		for (size_t j = i + 1; j < n; j++) {
			/* A name may serve two commands that share none (report's and
			 * export's --format). */
			cr_assert(strcmp(t[i].name, t[j].name) != 0 || !(t[i].cmds & t[j].cmds),
				  "--%s twice for one command", t[i].name);
			if (t[i].short_name && (t[i].cmds & t[j].cmds))
				cr_assert_neq(t[i].short_name, t[j].short_name, "-%c twice",
					      t[i].short_name);
		}
	}
}

/* --size takes what both chart formats draw, and the man page says so. */
Test(opts, size_range_is_what_charts_draw)
{
	struct rs_config cfg;
	struct rs_err err = { 0 };
	char max[32], over[32], line[64];
	FILE *fp;
	int said = 0;

	snprintf(max, sizeof max, "%dx%d", RENDER_SIZE_MAX, RENDER_SIZE_MIN);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--size", max, NULL), 0, "%s", err.msg);
	cr_assert_eq(cfg.width, RENDER_SIZE_MAX);
	cr_assert_eq(cfg.height, RENDER_SIZE_MIN);
	opts_free(&cfg);
	snprintf(over, sizeof over, "%dx%d", RENDER_SIZE_MIN, RENDER_SIZE_MAX + 1);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--size", over, NULL), -1);
	cr_assert(strstr(err.msg, "out of range (100 to 14400)") != NULL, "%s", err.msg);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--size", "20000x20000", NULL), -1);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--size", "99x100", NULL), -1);
	opts_free(&cfg);
	snprintf(line, sizeof line, "each side %d to %d ", RENDER_SIZE_MIN, RENDER_SIZE_MAX);
	fp = fopen(RS_TOP_SRCDIR "/man/rsweep.1", "r");
	cr_assert_not_null(fp);
	for (char buf[512]; fgets(buf, sizeof buf, fp) != NULL;)
		said |= strstr(buf, line) != NULL;
	fclose(fp);
	cr_assert(said, "man/rsweep.1 does not say '%s'", line);
}

/* An enum option's value is the owning room's enum itself, read from that
 * room's name table: no mapping to keep in step. */
Test(opts, enum_options_take_their_rooms_values_and_names)
{
	struct rs_config cfg;
	struct rs_err err;
	const struct opt_def *t;
	size_t n;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--flush", "none", "--order", "shuffled", NULL), 0,
		     "%s", err.msg);
	cr_assert_eq(cfg.flush, GUARD_FLUSH_NONE);
	cr_assert_eq(cfg.order, SWEEP_ORDER_SHUFFLED);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_PLOT, &cfg, &err, "--kind", "speedup", "--metric", "p999", NULL), 0,
		     "%s", err.msg);
	cr_assert_eq(cfg.kind, CHART_SPEEDUP);
	cr_assert_eq(cfg.metric, SM_P999);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_REPORT, &cfg, &err, "--format", "markdown", NULL), 0, "%s", err.msg);
	cr_assert_eq(cfg.format, FORMAT_MARKDOWN);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_IMPORT, &cfg, &err, "--from", "quiet", NULL), 0, "%s", err.msg);
	cr_assert_eq(cfg.from, IMPORT_QUIET);
	opts_free(&cfg);
	/* --help and messages show the room's names joined. */
	t = opts_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, "flush") == 0)
			cr_assert_str_eq(opts_choices(&t[i]), "all|db|none");
		if (strcmp(t[i].name, "metric") == 0)
			cr_assert_str_eq(opts_choices(&t[i]), "rps|avg|p50|p95|p99|p999|max");
		if (strcmp(t[i].name, "host") == 0)
			cr_assert_null(opts_choices(&t[i]));
	}
	cr_assert_eq(parse(CMD_REPORT, &cfg, &err, "--format", "yaml", NULL), -1);
	cr_assert_str_eq(err.msg, "option --format: 'yaml' is not one of text|markdown|csv|json|html");
	opts_free(&cfg);
}

/* The option table's option name, if it serves every command of cmds. */
static const struct opt_def *rules_option(unsigned cmds, const char *name)
{
	size_t n;
	const struct opt_def *t = opts_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0 && (t[i].cmds & cmds) == cmds)
			return &t[i];
	return NULL;
}

/* Every option a rule names is one of the option table's, for every
 * command the rule is for; each row has the others its kind reads, and a
 * one-line message. */
Test(rules, name_options_of_the_table)
{
	size_t n;
	const struct opts_rule *r = opts_rules(&n);

	cr_assert_gt(n, 30);
	for (size_t i = 0; i < n; i++) {
		const char *names[] = { r[i].a, r[i].b, r[i].c };

		cr_assert_neq(r[i].cmds, 0, "rule %zu is for no command", i);
		cr_assert_not_null(r[i].a, "rule %zu", i);
		for (size_t k = 0; k < 3; k++)
			cr_assert(names[k] == NULL || rules_option(r[i].cmds, names[k]) != NULL,
				  "rule %zu (%s): no option --%s for all its commands", i, r[i].msg,
				  names[k]);
		switch (r[i].rel) {
		case OPTS_NEEDS:
			cr_assert_not_null(r[i].b, "rule %zu", i);
			break;
		case OPTS_EXCLUDES:
		case OPTS_TOGETHER:
			cr_assert(r[i].b != NULL && r[i].c == NULL, "rule %zu", i);
			break;
		case OPTS_ONE:
			cr_assert(r[i].b != NULL && r[i].c == NULL, "rule %zu", i);
			cr_assert_eq(rules_option(r[i].cmds, r[i].b)->type, OT_LIST,
				     "rule %zu: only a list is given more than once", i);
			break;
		case OPTS_NO_COMMAND:
		case OPTS_NEEDS_COMMAND:
			cr_assert(r[i].b == NULL && r[i].c == NULL, "rule %zu", i);
			break;
		default:
			cr_assert_fail("rule %zu: relation %d", i, (int)r[i].rel);
		}
		cr_assert(r[i].msg != NULL && r[i].msg[0] != '\0' && strchr(r[i].msg, '\n') == NULL,
			  "rule %zu's message", i);
	}
}

/* Parse run's argv (NULL-terminated) and say whether it breaks r. */
static int rules_broken(const struct opts_rule *r, ...)
{
	static char store[32][64];
	char *argv[33];
	int argc = 0, broken;
	struct rs_config cfg;
	struct rs_err err;
	va_list ap;
	const char *a;

	argv[argc++] = strcpy(store[0], "run");
	va_start(ap, r);
	while ((a = va_arg(ap, const char *)) != NULL) {
		snprintf(store[argc], sizeof store[argc], "%s", a);
		argv[argc] = store[argc];
		argc++;
	}
	va_end(ap);
	argv[argc] = NULL;
	cr_assert_eq(opts_defaults(CMD_RUN, &cfg, &err), 0);
	cr_assert_eq(opts_parse_argv(CMD_RUN, argc, argv, &cfg, &err), 0, "%s", err.msg);
	broken = opts_rule_broken(CMD_RUN, r, &cfg);
	opts_free(&cfg);
	return broken;
}

Test(rules, needs)
{
	const struct opts_rule r = { CMD_RUN, "resume", OPTS_NEEDS, "output", NULL, "m" };
	const struct opts_rule or = { CMD_RUN, "spawn-args", OPTS_NEEDS, "spawn", "target", "m" };

	cr_assert(rules_broken(&r, "--resume", NULL));
	cr_assert_not(rules_broken(&r, "--resume", "-o", "x.csv", NULL));
	cr_assert_not(rules_broken(&r, "-o", "x.csv", NULL));
	cr_assert_not(rules_broken(&r, NULL));
	/* b or c */
	cr_assert(rules_broken(&or, "--spawn-args", "--save ''", NULL));
	cr_assert_not(rules_broken(&or, "--spawn-args", "--save ''", "--spawn", NULL));
	cr_assert_not(rules_broken(&or, "--spawn-args", "--save ''", "--target", "a=spawn:", NULL));
}

Test(rules, excludes)
{
	const struct opts_rule r = { CMD_RUN, "resume", OPTS_EXCLUDES, "overwrite", NULL, "m" };
	const struct opts_rule db = { CMD_RUN, "cluster", OPTS_EXCLUDES, "dbnum", NULL, "m" };
	const struct opts_rule host = { CMD_RUN, "spawn", OPTS_EXCLUDES, "host", NULL, "m" };

	cr_assert(rules_broken(&r, "--resume", "--overwrite", NULL));
	cr_assert_not(rules_broken(&r, "--resume", NULL));
	cr_assert_not(rules_broken(&r, "--overwrite", NULL));
	/* A number is on when it is not 0: --dbnum 0 is database 0, the default. */
	cr_assert(rules_broken(&db, "--cluster", "--dbnum", "3", NULL));
	cr_assert_not(rules_broken(&db, "--cluster", "--dbnum", "0", NULL));
	/* An option with a default is on only when given. */
	cr_assert_not(rules_broken(&host, "--spawn", NULL));
	cr_assert(rules_broken(&host, "--spawn", "-h", "127.0.0.1", NULL));
}

Test(rules, together)
{
	const struct opts_rule r = { CMD_RUN, "control", OPTS_TOGETHER, "agents", NULL, "m" };

	cr_assert_not(rules_broken(&r, NULL));
	cr_assert(rules_broken(&r, "--control", "redis://c:1", NULL));
	cr_assert(rules_broken(&r, "--agents", "2", NULL));
	cr_assert_not(rules_broken(&r, "--control", "redis://c:1", "--agents", "2", NULL));
	cr_assert_not(rules_broken(&r, "--agents", "0", NULL));
}

Test(rules, one)
{
	const struct opts_rule r = { CMD_RUN, "cluster", OPTS_ONE, "target", NULL, "m" };

	cr_assert_not(rules_broken(&r, "--cluster", NULL));
	cr_assert_not(rules_broken(&r, "--cluster", "--target", "a=redis://h:1", NULL));
	cr_assert(rules_broken(&r, "--cluster", "--target", "a=redis://h:1", "--target",
			       "b=redis://h:2", NULL));
	cr_assert_not(rules_broken(&r, "--target", "a=redis://h:1", "--target", "b=redis://h:2",
				   NULL));
}

Test(rules, no_command)
{
	const struct opts_rule r = { CMD_RUN, "tests", OPTS_NO_COMMAND, NULL, NULL, "m" };

	cr_assert(rules_broken(&r, "-t", "get", "--", "GET", "k", NULL));
	cr_assert_not(rules_broken(&r, "-t", "get", NULL));
	cr_assert_not(rules_broken(&r, "--", "GET", "k", NULL));
}

Test(rules, only_for_their_commands)
{
	const struct opts_rule r = { CMD_PLOT, "resume", OPTS_NEEDS, "output", NULL, "m" };

	cr_assert_not(rules_broken(&r, "--resume", NULL));
}

/* The table's first broken row is the message, byte for byte what
 * tests/cli and users read. */
Test(rules, check_reports_the_first_broken_row)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--cluster", "--spawn", "-s", "/x", NULL), 0);
	cr_assert_eq(opts_rules_check(CMD_RUN, &cfg, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_str_eq(err.msg, "--cluster takes one node's TCP address (-h/-p or a --target "
			 "redis:// URI), closed loop, database 0: drop --spawn");
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--spawn", "--spawn-tcp", NULL), 0);
	cr_assert_eq(opts_rules_check(CMD_RUN, &cfg, &err), 0, "%s", err.msg);
	opts_free(&cfg);
}

/* What opts_count says of each kind of value: a list counts its values, a
 * flag or number set to no or 0 is off, an enum given is on whatever it
 * names, a default is not given. */
Test(rules, count)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--target", "a=spawn:", "--target", "b=spawn:",
			   "--arrivals", "uniform", "--dbnum", "0", NULL), 0, "%s", err.msg);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "target"), 2);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "arrivals"), 1);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "dbnum"), 0);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "port"), 0);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "no-such-option"), 0);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "cluster", "no", &cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "cluster"), 0);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "tls", "yes", &cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(opts_count(CMD_RUN, &cfg, "tls"), 1);
	opts_free(&cfg);
}

/* --until-decided[=BUDGET] (issue 42): an optional value, as --spawn[=PATH]
 * has, and "yes"/"no"/a budget in a sweep file; its rules. */
Test(opts, until_decided_takes_an_optional_budget)
{
	struct rs_config cfg;
	struct rs_err err;

	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--until-decided", NULL), 0, "%s", err.msg);
	cr_assert(cfg.until_decided);
	cr_assert_null(cfg.until_decided_budget);
	cr_assert_null(cfg.spawn_path);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--until-decided=10m", "--spawn=/bin/x", NULL), 0,
		     "%s", err.msg);
	cr_assert(cfg.until_decided);
	cr_assert_str_eq(cfg.until_decided_budget, "10m");
	cr_assert_str_eq(cfg.spawn_path, "/bin/x");
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, NULL), 0, "%s", err.msg);
	cr_assert_eq(opts_set_from_file(CMD_RUN, "until-decided", "20s", &cfg, &err), 0, "%s",
		     err.msg);
	cr_assert_str_eq(cfg.until_decided_budget, "20s");
	cr_assert_eq(opts_set_from_file(CMD_RUN, "until-decided", "no", &cfg, &err), 0, "%s",
		     err.msg);
	cr_assert(!cfg.until_decided);
	cr_assert_null(cfg.until_decided_budget);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--until-decided", "--precision", "5", NULL), 0);
	cr_assert_eq(opts_rules_check(CMD_RUN, &cfg, &err), -1);
	cr_assert_not_null(strstr(err.msg, "--until-decided and --precision"), "%s", err.msg);
	opts_free(&cfg);
	cr_assert_eq(parse(CMD_RUN, &cfg, &err, "--until-decided", "--spawn", NULL), 0);
	cr_assert_eq(opts_rules_check(CMD_RUN, &cfg, &err), -1);
	cr_assert_not_null(strstr(err.msg, "give two --target"), "%s", err.msg);
	opts_free(&cfg);
}
