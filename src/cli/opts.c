/* opts.c: the one parser that applies the option table (opts_table.c) to
 * argv, sweep/plot files and defaults alike, and what it says of the
 * options given.  The usage text is opts_help.c's. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/near.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "cli/opts.h"
#include "cli/opts_int.h"
#include "net/targets.h"

/* OT_OPTSTRING's value, the char * after its int flag: placed alike for
 * every such option. */
#define OPTS_OPTVAL_GAP (offsetof(struct rs_config, spawn_path) - offsetof(struct rs_config, spawn))
_Static_assert(offsetof(struct rs_config, until_decided_budget) -
	       offsetof(struct rs_config, until_decided) == OPTS_OPTVAL_GAP,
	       "an OT_OPTSTRING's value follows its flag as spawn_path follows spawn");

static char **opts_optval(char *flag)
{
	return (char **)(void *)(flag + OPTS_OPTVAL_GAP);
}

/* Index of value in the NULL-terminated names, or -1. */
static int opts_choice(const char *const *names, const char *value)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], value) == 0)
			return i;
	return -1;
}

/* "WxH" into *w and *h, each side in [min, max]. */
static int opts_size(const char *s, double min, double max, unsigned *w, unsigned *h,
		     struct rs_err *err)
{
	const char *x = strchr(s, 'x');
	char buf[32];
	uint64_t a, b;
	struct rs_err e;

	if (x == NULL || (size_t)(x - s) >= sizeof buf)
		return rs_err_set(err, "'%s' is not WIDTHxHEIGHT", s);
	memcpy(buf, s, (size_t)(x - s));
	buf[x - s] = '\0';
	if (num_parse_u64(buf, (uint64_t)min, (uint64_t)max, 0, &a, &e) < 0 ||
	    num_parse_u64(x + 1, (uint64_t)min, (uint64_t)max, 0, &b, &e) < 0)
		return rs_err_set(err, "'%s': %s", s, e.msg);
	*w = (unsigned)a;
	*h = (unsigned)b;
	return 0;
}

/* Apply value to option d of cfg. */
static int opts_apply(const struct opt_def *d, const char *value, struct rs_config *cfg,
		      struct rs_err *err)
{
	char *field = (char *)cfg + d->off;
	struct rs_err e;

	switch (d->type) {
	case OT_FLAG: {
		int v = 1;

		/* In files a flag may say "yes" or "no"; on the command line it
		 * takes no value at all. */
		if (value != NULL && *value != '\0') {
			static const char *const no_yes[] = { "no", "yes", NULL };

			v = opts_choice(no_yes, value);
			if (v < 0)
				return rs_err_set(err, "'%s': a flag is yes or no", value);
		}
		*(int *)(void *)field = v;
		return 0;
	}
	case OT_UINT: {
		uint64_t v;

		if (num_parse_u64(value, (uint64_t)d->min, (uint64_t)d->max, 1, &v, &e) < 0)
			return rs_err_set(err, "%s", e.msg);
		*(uint64_t *)(void *)field = v;
		return 0;
	}
	case OT_DOUBLE:
	case OT_PERCENT: {
		char num[64];
		double v;

		/* "3%" is what people write for a percentage. */
		if (d->type == OT_PERCENT && value != NULL && strlen(value) < sizeof num) {
			snprintf(num, sizeof num, "%s", value);
			if (num[0] != '\0' && num[strlen(num) - 1] == '%')
				num[strlen(num) - 1] = '\0';
			value = num;
		}
		if (num_parse_double(value, d->min, d->max, &v, &e) < 0)
			return rs_err_set(err, "%s", e.msg);
		*(double *)(void *)field = v;
		return 0;
	}
	case OT_STRING:
		if (value == NULL || *value == '\0')
			return rs_err_set(err, "empty value");
		free(*(char **)(void *)field);
		*(char **)(void *)field = xstrdup(value);
		return 0;
	case OT_OPTSTRING: {
		/* A flag and its optional value (--spawn[=PATH],
		 * --until-decided[=BUDGET]); in a file "yes" and "no" read as
		 * for any flag. */
		char **val = opts_optval(field);

		free(*val);
		*val = NULL;
		if (value != NULL && strcmp(value, "no") == 0) {
			*(int *)(void *)field = 0;
			return 0;
		}
		if (value != NULL && strcmp(value, "yes") == 0)
			value = NULL;
		*(int *)(void *)field = 1;
		*val = value && *value ? xstrdup(value) : NULL;
		return 0;
	}
	case OT_ENUM: {
		int v = opts_choice(d->choices, value ? value : "");

		if (v < 0)
			return rs_err_set(err, "'%s' is not one of %s", value ? value : "",
					  opts_choices(d));
		*(int *)(void *)field = v;
		return 0;
	}
	case OT_DEPTHS:
		return depths_parse(value, (struct depth_list *)(void *)field, err);
	case OT_AXIS:
		return axis_parse(value, (uint64_t)d->min, (uint64_t)d->max,
				  (struct axis_list *)(void *)field, err);
	case OT_SIZE:
		return opts_size(value, d->min, d->max, &cfg->width, &cfg->height, err);
	case OT_LIST: {
		struct opt_list *l = (struct opt_list *)(void *)field;

		if (value == NULL || *value == '\0')
			return rs_err_set(err, "empty value");
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		l->v[l->n++] = xstrdup(value);
		return 0;
	}
	}
	return rs_err_set(err, "unknown option type");
}

int opts_defaults(enum opts_cmd cmd, struct rs_config *cfg, struct rs_err *err)
{
	memset(cfg, 0, sizeof *cfg);
	for (size_t i = 0; i < opts_nrows; i++) {
		const struct opt_def *d = &opts_rows[i];

		if (d->def == NULL || !(d->cmds & cmd))
			continue;
		if (opts_apply(d, d->def, cfg, err) < 0)
			return rs_err_prefix(err, "default of --%s", d->name);
	}
	return 0;
}

/* The long option of cmd nearest to name[0..n), if it is a likely typo:
 * at most two edits, and fewer than half the name.  NULL if none. */
static const char *opts_nearest(enum opts_cmd cmd, const char *name, size_t n)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	for (size_t i = 0; i < opts_nrows; i++)
		if (opts_rows[i].cmds & cmd)
			near_keep(name, n, opts_rows[i].name, &best, &bestd);
	return near_likely(bestd, n) ? best : NULL;
}

static const struct opt_def *opts_find(enum opts_cmd cmd, const char *name, size_t *idx)
{
	for (size_t i = 0; i < opts_nrows; i++)
		if ((opts_rows[i].cmds & cmd) && strcmp(opts_rows[i].name, name) == 0) {
			*idx = i;
			return &opts_rows[i];
		}
	return NULL;
}

/* A name may have a row for each of several commands (-o, -c, --tls):
 * only the rows of the command parsed can be given, so the name is given
 * when any of its rows is. */
int opts_given(const struct rs_config *cfg, const char *name)
{
	for (size_t i = 0; i < opts_nrows; i++)
		if (strcmp(opts_rows[i].name, name) == 0 && cfg->given[i])
			return 1;
	return 0;
}

size_t opts_count(enum opts_cmd cmd, const struct rs_config *cfg, const char *name)
{
	size_t i;
	const struct opt_def *d = opts_find(cmd, name, &i);
	const char *field;

	if (d == NULL || !cfg->given[i])
		return 0;
	field = (const char *)cfg + d->off;
	switch (d->type) {
	case OT_FLAG:
	case OT_OPTSTRING:
		return *(const int *)(const void *)field != 0;
	case OT_UINT:
		return *(const uint64_t *)(const void *)field != 0;
	case OT_DOUBLE:
	case OT_PERCENT:
		return *(const double *)(const void *)field != 0;
	case OT_STRING:
		return *(char *const *)(const void *)field != NULL;
	case OT_LIST:
		return ((const struct opt_list *)(const void *)field)->n;
	case OT_ENUM:
	case OT_DEPTHS:
	case OT_AXIS:
	case OT_SIZE:
		break;
	}
	/* Every value of these is a choice the user made. */
	return 1;
}

enum opt_origin opts_origin(const struct rs_config *cfg, const char *name)
{
	unsigned char o = ORIGIN_DEFAULT;

	for (size_t i = 0; i < opts_nrows; i++)
		if (strcmp(opts_rows[i].name, name) == 0 && cfg->origin[i] > o)
			o = cfg->origin[i];
	return (enum opt_origin)o;
}

int opts_set_from_file(enum opts_cmd cmd, const char *name, const char *value,
		       struct rs_config *cfg, struct rs_err *err)
{
	size_t i;
	const struct opt_def *d = opts_find(cmd, name, &i);

	if (d == NULL || !d->in_file)
		return rs_err_set(err, "unknown key '%s'", name);
	if (cfg->origin[i] == ORIGIN_ARGV)
		return 0;         /* the command line wins */
	if (d->arg != NULL && d->type != OT_OPTSTRING && *value == '\0')
		return rs_err_set(err, "key '%s' needs a value (%s)", name, d->arg);
	/* A shared file must not run a program: the path of --spawn=PATH only
	 * comes from the command line. */
	if (d->off == offsetof(struct rs_config, spawn) && *value != '\0' &&
	    strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
		return rs_err_set(err, "%s = %s: a sweep file may not name a program to run "
				  "(write %s = yes, or give --%s=PATH on the command line)",
				  name, value, name, name);
	/* Nor hold a password, or a program's path, in a target. */
	if (d->off == offsetof(struct rs_config, target) && targets_file_ok(value, err) < 0)
		return -1;
	if (opts_apply(d, value, cfg, err) < 0)
		return rs_err_prefix(err, "%s", name);
	cfg->given[i] = 1;
	cfg->origin[i] = ORIGIN_FILE;
	return 0;
}

int opts_set_file_key(enum opts_cmd cmd, struct rs_config *cfg, const char *file,
		      unsigned line, const char *key, const char *value, struct rs_err *err)
{
	struct rs_err e;

	if (opts_set_from_file(cmd, key, value, cfg, &e) < 0)
		return rs_err_setk(err, RS_E_INPUT, "%s:%u: %s", file, line, e.msg);
	return 0;
}

/* getopt_long takes "--keys" for --keyspace.  rsweep does not: an option
 * added later whose name starts the same way would change what an old
 * command line means.  1 with err set when the long option d was just
 * read from an abbreviation of its name. */
static int opts_abbreviated(int argc, char **argv, const struct opt_def *d, struct rs_err *err)
{
	/* The option's own word: argv[optind - 1], or the one before it when
	 * the argument came as a word of its own ("--keyspace 10"). */
	int k = optind - 1;
	const char *a;
	size_t n;

	if (k >= 1 && optarg != NULL && optarg == argv[k] && k - 1 >= 1)
		k--;
	if (k < 1 || k >= argc || strncmp(argv[k], "--", 2) != 0)
		return 0;
	a = argv[k] + 2;
	n = strcspn(a, "=");
	if (n == strlen(d->name) && strncmp(a, d->name, n) == 0)
		return 0;
	rs_err_set(err, "unknown option --%.*s (options are never abbreviated: "
		    "did you mean --%s?)", (int)n, a, d->name);
	return 1;
}

int opts_parse_argv(enum opts_cmd cmd, int argc, char **argv, struct rs_config *cfg,
		    struct rs_err *err)
{
	struct option longopts[OPTS_MAX_ROWS + 1];
	char shortopts[2 * OPTS_MAX_ROWS + 4];
	size_t nl = 0, ns = 0;
	int c;

	/* run stops at the first operand, so that "run -- SET k v" keeps the
	 * custom command whole; the others take files and options in any order. */
	if (cmd == CMD_RUN)
		shortopts[ns++] = '+';
	shortopts[ns++] = ':';    /* report a missing argument as ':' */
	for (size_t i = 0; i < opts_nrows; i++) {
		const struct opt_def *d = &opts_rows[i];

		if (!(d->cmds & cmd))
			continue;
		longopts[nl].name = d->name;
		longopts[nl].has_arg = d->type == OT_OPTSTRING ? optional_argument :
				       d->arg ? required_argument : no_argument;
		longopts[nl].flag = NULL;
		longopts[nl].val = 256 + (int)i;
		nl++;
		if (d->short_name) {
			shortopts[ns++] = (char)d->short_name;
			if (d->arg)
				shortopts[ns++] = ':';
		}
	}
	memset(&longopts[nl], 0, sizeof longopts[nl]);
	shortopts[ns] = '\0';

	optind = 0;               /* 0: reinitialise getopt (tests parse many times) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *d = NULL;
		size_t i = 0;

		if (c == '?') {
			/* Quote only up to '=': "--passwd=secret" must not echo the secret. */
			const char *a = argv[optind - 1];
			int n = (int)strcspn(a, "=");

			if (optopt >= 256)
				return rs_err_set(err, "option %.*s takes no argument", n, a);
			if (optopt)
				return rs_err_set(err, "unknown option -%c", optopt);
			if (strncmp(a, "--", 2) == 0 && n > 2) {
				const char *near = opts_nearest(cmd, a + 2, (size_t)n - 2);

				if (near != NULL)
					return rs_err_set(err, "unknown option %.*s; did you mean --%s?", n,
							  a, near);
			}
			return rs_err_set(err, "unknown option %.*s", n, a);
		}
		if (c == ':')
			return rs_err_set(err, "option %s needs an argument", argv[optind - 1]);
		if (c >= 256) {
			i = (size_t)c - 256;
			d = &opts_rows[i];
			if (opts_abbreviated(argc, argv, d, err))
				return -1;
		} else {
			for (i = 0; i < opts_nrows; i++)
				if (opts_rows[i].short_name == c && (opts_rows[i].cmds & cmd)) {
					d = &opts_rows[i];
					break;
				}
		}
		if (d == NULL)
			return rs_err_set(err, "unknown option -%c", c);
		if (opts_apply(d, d->type == OT_FLAG ? NULL : optarg, cfg, err) < 0) {
			if (d->short_name)
				return rs_err_prefix(err, "option -%c/--%s", d->short_name, d->name);
			return rs_err_prefix(err, "option --%s", d->name);
		}
		cfg->given[i] = 1;
		cfg->origin[i] = ORIGIN_ARGV;
		/* The config holds its own copy of a password: blank the one in argv,
		 * whatever form it came in (-aX, -qa X, --password=X), so that ps and
		 * /proc/PID/cmdline no longer show it. */
		if (d->off == offsetof(struct rs_config, password) && optarg != NULL)
			memset(optarg, '*', strlen(optarg));
		/* One rule for every option that takes a URI (its row says so),
		 * in every form (--control X, --control=X, --target=L=X). */
		if (d->arg != NULL && strstr(d->arg, "URI") != NULL && optarg != NULL)
			targets_blank_password(optarg);
	}
	cfg->dashdash = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	cfg->args = argv + optind;
	cfg->nargs = argc - optind;
	cfg->argv = argv;
	cfg->argc = argc;
	return 0;
}

void opts_free(struct rs_config *cfg)
{
	if (cfg == NULL)
		return;
	for (size_t i = 0; i < opts_nrows; i++) {
		char *field = (char *)cfg + opts_rows[i].off;

		switch (opts_rows[i].type) {
		case OT_STRING:
			free(*(char **)(void *)field);
			*(char **)(void *)field = NULL;
			break;
		case OT_OPTSTRING:
			free(*opts_optval(field));
			*opts_optval(field) = NULL;
			break;
		case OT_DEPTHS:
			depths_free((struct depth_list *)(void *)field);
			break;
		case OT_AXIS:
			axis_free((struct axis_list *)(void *)field);
			break;
		case OT_LIST: {
			struct opt_list *l = (struct opt_list *)(void *)field;

			for (size_t k = 0; k < l->n; k++)
				free(l->v[k]);
			free(l->v);
			l->v = NULL;
			l->n = 0;
			break;
		}
		default:
			break;
		}
	}
}
