/* opts.h: every option of every subcommand, declared once.
 *
 * One table (opts_table.c) drives getopt_long, the --help text, the keys
 * accepted in sweep and plot files, and the man-page check in make check.
 * Values are checked by one parser per type (opts.c) that rejects, never
 * clamps. */
#ifndef RS_OPTS_H
#define RS_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/axis.h"
#include "base/depths.h"
#include "base/err.h"

enum opts_cmd {
	CMD_RUN = 1 << 0,
	CMD_PLOT = 1 << 1,
	CMD_REPORT = 1 << 2,
	CMD_IMPORT = 1 << 3,
	CMD_AGENT = 1 << 4,
	CMD_EXPORT = 1 << 5,
	CMD_CLEAN = 1 << 6,
};

enum opt_type {
	OT_FLAG,                  /* int, set to 1 */
	OT_UINT,                  /* uint64_t in [min, max]; k/M/G suffixes */
	OT_DOUBLE,                /* double in [min, max] */
	OT_PERCENT,               /* a double in [min, max] percent: "3" or "3%" */
	OT_STRING,                /* char *, owned by the config */
	OT_OPTSTRING,             /* --opt or --opt=VALUE: int flag + char * (next field,
				   * as spawn and spawn_path are placed) */
	OT_ENUM,                  /* int index into choices ("a|b|c") */
	OT_DEPTHS,                /* struct depth_list */
	OT_SIZE,                  /* "WxH" into two unsigned, each in [min, max] */
	OT_LIST,                  /* struct opt_list: each use adds a value */
	OT_AXIS,                  /* struct axis_list: values in [min, max] in -P's syntax */
};

/* Where a value came from; later sources override earlier ones. */
enum opt_origin { ORIGIN_DEFAULT, ORIGIN_FILE, ORIGIN_ARGV };

/* Rows the option table may hold (given[] and origin[] below). */
#define OPTS_MAX_ROWS 192

struct opt_def {
	const char *name;         /* long name; also the sweep/plot file key */
	int short_name;           /* 0 if none */
	const char *arg;          /* argument name for help and man, NULL for flags;
				   * one that says URI marks a value whose userinfo
				   * may hold a password (blanked in argv) */
	enum opt_type type;
	unsigned cmds;            /* enum opts_cmd mask */
	size_t off;               /* into struct rs_config */
	double min, max;          /* OT_UINT, OT_DOUBLE, OT_PERCENT, OT_SIZE */
	const char *const *choices; /* OT_ENUM: the room's names, in its enum's order,
				     * NULL-terminated; the field gets the index */
	const char *def;          /* default, parsed like a user's value; NULL = none */
	int in_file;              /* may appear in sweep/plot files */
	const char *help;
};

/* The values of a repeatable option, in the order given. */
struct opt_list {
	char **v;
	size_t n;
};

/* The parsed options of one invocation.  Strings are owned (opts_free). */
struct rs_config {
	/* connection */
	char *host;
	uint64_t port;
	char *socket;
	char *user;
	char *password;
	uint64_t dbnum;
	double connect_timeout;
	double timeout;
	/* TLS, as redis-cli's options mean it (target.h: struct target_tls) */
	int tls;
	char *sni, *cacert, *cacertdir, *cert, *key;
	int insecure;
	char *tls_ciphers, *tls_ciphersuites;
	int spawn;
	char *spawn_path;         /* follows spawn: OT_OPTSTRING */
	int spawn_tcp;
	int spawn_tls;
	struct opt_list target;   /* --target LABEL=URI (targets.h) */
	struct opt_list spawn_args;
	struct opt_list replica;  /* --replica URI: the target's replicas */
	uint64_t spawn_replicas;  /* --spawn-replicas N */
	int read_from;            /* enum sweep_read_from */
	char *cpus;               /* --cpus SERVER:CLIENT|none|auto (cpus.h); NULL: auto */
	struct opt_list allow_target; /* agent: --allow-target URI|PATTERN */
	/* load */
	uint64_t clients;         /* import's -c; run's is clients_axis */
	/* run: -c, -d and --threads, each a value or a list to sweep (axis.h) */
	struct axis_list clients_axis, data_size_axis, threads_axis;
	struct depth_list pipeline;
	uint64_t requests;
	double duration;
	uint64_t threads;
	int mode;                 /* enum engine_mode */
	char *rate;               /* --rate's list, parsed by rates_parse */
	int arrivals;             /* enum engine_arrivals */
	uint64_t reconnect_every; /* --reconnect-every K (engine_job); 0: connections last */
	int tls_resume;           /* --tls-resume (engine_job) */
	uint64_t keyspace;
	char *key_dist;           /* --key-dist's spec, parsed by keydist_parse */
	char *data_size_range;    /* --data-size-range MIN..MAX (run_values) */
	uint64_t value_min, value_max; /* its MIN and MAX as run's check read them; 0 without */
	uint64_t expire;          /* --expire SECONDS (workload_expire); 0: none */
	uint64_t subscribers;     /* -t publish: --subscribers N; 0: not given (1) */
	uint64_t channels;        /* --channels K; 0: not given (1) */
	int psubscribe;           /* --psubscribe */
	uint64_t data_size;
	char *tests;
	char *ratio;              /* --ratio S:G: -t mix:set=S,get=G (workload_ratio) */
	int transaction;          /* --transaction: MULTI/EXEC around the command after -- */
	char *commands;           /* --commands FILE: a mix of custom commands
				   * (workload_commands_file) */
	int no_prepare;
	/* sweep */
	char *label;
	char *output;
	int overwrite;
	int resume;
	uint64_t repeat;
	uint64_t runs;            /* --runs N: the plan N times over */
	double run_pause;         /* seconds between runs */
	double precision;         /* percent; 0: off */
	uint64_t max_repeats;
	double budget;
	int until_decided;        /* --until-decided[=BUDGET] */
	char *until_decided_budget; /* follows until_decided: OT_OPTSTRING */
	char *slo;                /* --slo, slo_parse's */
	uint64_t slo_probes;
	int order;                /* enum sweep_order */
	uint64_t seed;
	double pause;
	double warmup;
	int flush;                /* enum guard_flush */
	int force_flush;
	const char *key_prefix;   /* --key-prefix: PREFIX, or "auto" */
	int cluster;              /* --cluster */
	char *control;            /* --control URI: the control Redis (agents) */
	char *agents_key;         /* --agents-key FILE: signs the agents' messages */
	uint64_t agents;          /* --agents N: the leader's agents; 0: none */
	double agents_wait;       /* --agents-wait SECONDS */
	char *id;                 /* agent --id NAME */
	uint64_t retries;
	int fail_on_error;
	int dry_run;
	char *sweep;
	/* plot and report */
	char *plot;
	int metric;               /* enum series_metric */
	struct depth_list depths;
	struct depth_list points; /* --kind latency-cdf's depths */
	uint64_t depth;
	char *title;
	unsigned width, height;   /* OT_SIZE */
	int kind;                 /* enum chart_kind */
	int fit;                  /* enum chart_fit */
	int heat_x, heat_y;       /* --kind heatmap: enum grid_axis */
	int heat_z;               /* --kind heatmap: enum series_metric */
	int log_x;
	int split;
	char *font;
	uint64_t scale;
	struct opt_list relabel;  /* --relabel [FILE:]OLD=NEW, each use in order */
	char *by;                 /* plot --by AXIS (series_axis_parse) */
	char *baseline;
	char *fail_on;            /* report --fail-on slower[:PCT] */
	double knee;
	double cv_limit;
	int format;               /* enum report_format */
	int prose;
	int wide;                 /* report: the full text layout */
	char *latency_budget;     /* budget_parse's */
	int budget_metric;        /* SM_AVG + index into the choices */
	int goal;                 /* enum goal_kind */
	/* import */
	int from;                 /* enum import_kind */
	int skip_bad;
	char *hdr_file_prefix;    /* import: memtier's --hdr-file-prefix files */
	/* export */
	int export_format;        /* enum export_format */
	char *export_split;       /* export --split DIR: a file a point */
	/* everywhere */
	int quiet;
	int verbose;
	int help;
	int version;

	/* which options were given (argv or file), and where from, by table
	 * index (opts_table.c asserts the table fits) */
	unsigned char given[OPTS_MAX_ROWS];
	unsigned char origin[OPTS_MAX_ROWS];
	/* operands left after the options (files, or a custom command after --) */
	char **args;
	int nargs;
	/* The command's words as parsed (argv[0] the subcommand), a password
	 * in them blanked: what a run records as the command that made its
	 * rows (runenv.h).  NULL when the options came from elsewhere. */
	char **argv;
	int argc;
	int dashdash;             /* operands came after "--" */
};

/* An OT_ENUM's choices as "a|b|c", for help and messages. */
const char *opts_choices(const struct opt_def *d);
/* The table itself, for the man-page check and bash completion. */
const struct opt_def *opts_table(size_t *n);
/* Subcommand name <-> mask. */
int opts_cmd_parse(const char *name, enum opts_cmd *cmd);
const char *opts_cmd_name(enum opts_cmd cmd);
/* The command a mistyped name most likely meant ("reprot": "report"), or
 * NULL when none is near (near.h). */
const char *opts_cmd_nearest(const char *name);

/* Fill cfg with every default of cmd. */
int opts_defaults(enum opts_cmd cmd, struct rs_config *cfg, struct rs_err *err);
/* Parse argv (argv[0] is the subcommand) over cfg.  Operands go to
 * cfg->args.  Errors name the option and the reason. */
int opts_parse_argv(enum opts_cmd cmd, int argc, char **argv, struct rs_config *cfg,
		    struct rs_err *err);
/* Set option name (a file key) from a sweep/plot file; an option already given
 * on the command line is left alone.  Errors are "reason" only: the caller
 * adds file and line. */
int opts_set_from_file(enum opts_cmd cmd, const char *name, const char *value,
		       struct rs_config *cfg, struct rs_err *err);
/* Set key from line of file (a sweep or plot file's global key) as
 * opts_set_from_file does: the one place file keys become options, for
 * every kind of file.  Returns 0, or -1 with err "FILE:LINE: reason" of
 * kind RS_E_INPUT. */
int opts_set_file_key(enum opts_cmd cmd, struct rs_config *cfg, const char *file,
		      unsigned line, const char *key, const char *value, struct rs_err *err);
/* Whether option name was given on the command line or in a file. */
int opts_given(const struct rs_config *cfg, const char *name);
/* How many values option name of cmd holds: a list's count; else 1 when
 * it is on, given (argv or file) with a value other than no, 0 or none (an
 * enum, depth list or size given is on whatever it says); else 0.  So
 * "--dbnum 0" or "cluster = no" in a file turns nothing on. */
size_t opts_count(enum opts_cmd cmd, const struct rs_config *cfg, const char *name);
/* Where option name's value came from. */
enum opt_origin opts_origin(const struct rs_config *cfg, const char *name);
/* The rules between two options, one row each in opts_rules.c's table
 * beside the option table; an option is on as opts_count says.  Rules a
 * row cannot say (numbers against numbers, a URI's scheme, files on disk)
 * are the command's own code. */
enum opts_rel {
	OPTS_NEEDS,               /* a needs b (or c, when c is not NULL) */
	OPTS_EXCLUDES,            /* a and b not both */
	OPTS_TOGETHER,            /* a and b both or neither */
	OPTS_ONE,                 /* with a, b (a list) at most once */
	OPTS_NO_COMMAND,          /* a and a custom command after -- not both */
	OPTS_NEEDS_COMMAND,       /* a needs a custom command after -- */
};

struct opts_rule {
	unsigned cmds;            /* enum opts_cmd mask */
	const char *a;            /* the option the rule is about */
	enum opts_rel rel;
	const char *b, *c;        /* the others, as opts_table names them; NULL: none */
	const char *msg;          /* the one line that says it is broken */
};

/* The table, for its tests. */
const struct opts_rule *opts_rules(size_t *n);
/* Whether cfg, parsed for cmd, breaks r. */
int opts_rule_broken(enum opts_cmd cmd, const struct opts_rule *r, const struct rs_config *cfg);
/* Check cfg against every rule of cmd, in the table's order.  Returns 0,
 * or -1 with err the first broken rule's message (RS_E_USAGE). */
int opts_rules_check(enum opts_cmd cmd, const struct rs_config *cfg, struct rs_err *err);

/* Print usage of cmd (0 = the subcommand list) to fp. */
void opts_usage(enum opts_cmd cmd, FILE *fp);
void opts_free(struct rs_config *cfg);

#endif
