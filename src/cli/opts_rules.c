/* opts_rules.c: the rules between options, one row each, beside the
 * option table (opts_table.c), and the one function that checks them.  A rule's
 * message is what the user reads: tests/cli greps it, so a row changes
 * only with its tests. */
#include "config.h"

#include "cli/opts.h"

#define RUN CMD_RUN
#define RULES_CLUSTER "--cluster takes one node's TCP address (-h/-p or a --target redis:// " \
	"URI), closed loop, database 0: drop "
#define RULES_AGENTS "--agents loads one server the agents reach (a --target redis://, " \
	"rediss:// or unix://, or -h/-p/-s): drop "
#define RULES_SPAWN "--spawn starts its own server: drop -h, -p and -s"
#define RULES_DECIDE "--until-decided decides a comparison: give two --target LABEL=URI or " \
	"more (or --spawn-args A|B alternatives)"
#define RULES_TARGET "--target names every server of the sweep: drop -h, -p, -s and --spawn"

/* Checked in this order, and the first broken one is reported: where one
 * option breaks several rows (--cluster, --agents), the message names the
 * first option to drop. */
static const struct opts_rule opts_rule_table[] = {
	{ RUN, "cluster", OPTS_EXCLUDES, "spawn", NULL, RULES_CLUSTER "--spawn" },
	{ RUN, "cluster", OPTS_EXCLUDES, "socket", NULL, RULES_CLUSTER "-s" },
	{ RUN, "cluster", OPTS_ONE, "target", NULL, RULES_CLUSTER "the other --target" },
	{ RUN, "cluster", OPTS_EXCLUDES, "rate", NULL, RULES_CLUSTER "--rate" },
	{ RUN, "cluster", OPTS_EXCLUDES, "dbnum", NULL, RULES_CLUSTER "--dbnum" },
	{ RUN, "spawn", OPTS_EXCLUDES, "socket", NULL, RULES_SPAWN },
	{ RUN, "spawn", OPTS_EXCLUDES, "host", NULL, RULES_SPAWN },
	{ RUN, "spawn", OPTS_EXCLUDES, "port", NULL, RULES_SPAWN },
	/* A target says how a spawned server listens in its own URI. */
	{ RUN, "spawn-tcp", OPTS_EXCLUDES, "target", NULL,
	  "--spawn-tcp goes with --spawn: a target says spawn+tcp:" },
	{ RUN, "spawn-tcp", OPTS_NEEDS, "spawn", NULL, "--spawn-tcp goes with --spawn" },
	{ RUN, "spawn-tls", OPTS_EXCLUDES, "target", NULL,
	  "--spawn-tls goes with --spawn: a target says spawn+tls:" },
	{ RUN, "spawn-tls", OPTS_NEEDS, "spawn", NULL, "--spawn-tls goes with --spawn" },
	{ RUN, "spawn-tls", OPTS_EXCLUDES, "spawn-tcp", NULL,
	  "--spawn-tcp and --spawn-tls exclude each other (TLS is on TCP)" },
	{ RUN, "target", OPTS_EXCLUDES, "spawn", NULL, RULES_TARGET },
	{ RUN, "target", OPTS_EXCLUDES, "socket", NULL, RULES_TARGET },
	{ RUN, "target", OPTS_EXCLUDES, "host", NULL, RULES_TARGET },
	{ RUN, "target", OPTS_EXCLUDES, "port", NULL, RULES_TARGET },
	{ RUN, "target", OPTS_EXCLUDES, "label", NULL,
	  "--label names a single server's rows: a --target is labelled LABEL=URI" },
	{ RUN, "spawn-args", OPTS_NEEDS, "spawn", "target",
	  "--spawn-args goes with --spawn or a spawn: target" },
	{ RUN, "tls", OPTS_EXCLUDES, "target", NULL,
	  "--tls is for -h and -p: a --target says rediss://HOST:PORT" },
	{ RUN, "tls", OPTS_EXCLUDES, "spawn", NULL,
	  "--tls with --spawn: say --spawn-tls (a spawned TLS server is trusted by its own "
	  "certificate)" },
	{ RUN, "tls", OPTS_EXCLUDES, "socket", NULL,
	  "--tls is for TCP (-h, -p), not a UNIX socket (-s)" },
	{ RUN, "key", OPTS_NEEDS, "cert", NULL, "--key goes with --cert" },
	{ RUN, "resume", OPTS_NEEDS, "output", NULL, "--resume needs -o FILE.csv" },
	/* What the rows keep does not tell this apart yet (row_way.c): a
	 * count of sessions resumed is no setting (a server may refuse). */
	{ RUN, "resume", OPTS_EXCLUDES, "tls-resume", NULL,
	  "--resume cannot tell rows measured with --tls-resume from rows without: use another "
	  "--label" },
	{ RUN, "resume", OPTS_EXCLUDES, "overwrite", NULL,
	  "--resume and --overwrite exclude each other" },
	{ RUN, "tests", OPTS_NO_COMMAND, NULL, NULL,
	  "-t and a custom command after -- exclude each other" },
	/* --ratio is a -t of its own: one or the other says what is run. */
	{ RUN, "ratio", OPTS_EXCLUDES, "tests", NULL,
	  "--ratio S:G is -t mix:set=S,get=G: give one of them (or put the mix in -t)" },
	{ RUN, "ratio", OPTS_NO_COMMAND, NULL, NULL,
	  "--ratio and a custom command after -- exclude each other" },
	{ RUN, "transaction", OPTS_NEEDS_COMMAND, NULL, NULL,
	  "--transaction wraps the command after -- in MULTI and EXEC: give one "
	  "(-- SET k v ';' GET k)" },
	/* A command file says what is run, as -t, --ratio and -- do. */
	{ RUN, "commands", OPTS_EXCLUDES, "tests", NULL,
	  "--commands FILE and -t exclude each other: the file says what is run" },
	{ RUN, "commands", OPTS_EXCLUDES, "ratio", NULL,
	  "--commands FILE and --ratio exclude each other: the file says what is run" },
	{ RUN, "commands", OPTS_NO_COMMAND, NULL, NULL,
	  "--commands FILE and a custom command after -- exclude each other" },
	{ RUN, "control", OPTS_TOGETHER, "agents", NULL, "--control and --agents go together" },
	/* A run's agents are started for it and let go at its end. */
	{ RUN, "agents", OPTS_EXCLUDES, "runs", NULL,
	  "--agents measures one run at a time: drop --runs (measure the next run into another "
	  "-o file: two files of one label are two runs)" },
	{ RUN, "run-pause", OPTS_NEEDS, "runs", NULL, "--run-pause goes with --runs" },
	{ RUN, "key-prefix", OPTS_EXCLUDES, "flush", NULL,
	  "--key-prefix deletes only its own keys between points: drop --flush" },
	{ RUN, "key-prefix", OPTS_EXCLUDES, "force-flush", NULL,
	  "--key-prefix never flushes: drop --force-flush" },
	{ RUN, "key-prefix", OPTS_NO_COMMAND, NULL, NULL,
	  "--key-prefix takes the catalogue's tests (-t): a command after -- names its own keys" },
	{ RUN, "agents-key", OPTS_NEEDS, "control", NULL, "--agents-key goes with --control" },
	{ RUN, "agents-wait", OPTS_NEEDS, "agents", NULL, "--agents-wait goes with --agents" },
	{ RUN, "agents", OPTS_EXCLUDES, "spawn", NULL, RULES_AGENTS "--spawn" },
	{ RUN, "agents", OPTS_EXCLUDES, "cluster", NULL, RULES_AGENTS "--cluster" },
	/* Churn (engine_job.reconnect_every): a closed loop of one engine. */
	{ RUN, "reconnect-every", OPTS_EXCLUDES, "rate", NULL,
	  "--reconnect-every is for the closed loop: drop --rate" },
	{ RUN, "reconnect-every", OPTS_EXCLUDES, "slo", NULL,
	  "--reconnect-every is for the closed loop, and --slo's probes are open loop: drop --slo" },
	{ RUN, "reconnect-every", OPTS_EXCLUDES, "cluster", NULL,
	  "--reconnect-every does not reconnect a cluster's connections yet: drop --cluster" },
	{ RUN, "reconnect-every", OPTS_EXCLUDES, "agents", NULL,
	  "--reconnect-every is not handed to agents yet: drop --agents" },
	{ RUN, "tls-resume", OPTS_NEEDS, "reconnect-every", NULL,
	  "--tls-resume resumes sessions across reconnects: add --reconnect-every" },
	/* TTLs of the catalogue's writes (workload_expire). */
	{ RUN, "expire", OPTS_NO_COMMAND, NULL, NULL,
	  "--expire sets the catalogue's TTLs: write EX or EXPIRE into the command after -- "
	  "instead" },
	{ RUN, "expire", OPTS_EXCLUDES, "commands", NULL,
	  "--expire sets the catalogue's TTLs: write EX or EXPIRE into the command file instead" },
	/* Values sized per request (engine.h's vmin..vmax). */
	{ RUN, "data-size-range", OPTS_EXCLUDES, "data-size", NULL,
	  "--data-size-range and -d exclude each other: the range says the values' sizes" },
	{ RUN, "commands", OPTS_EXCLUDES, "key-prefix", NULL,
	  "--key-prefix takes the catalogue's tests (-t): a command file names its own keys" },
	{ RUN, "agents", OPTS_ONE, "target", NULL, RULES_AGENTS "the other --target" },
	{ RUN, "arrivals", OPTS_NEEDS, "rate", "slo", "--arrivals goes with --rate or --slo" },
	{ RUN, "key-dist", OPTS_NEEDS, "keyspace", NULL,
	  "--key-dist draws the keys of -r N: give -r N" },
	{ RUN, "key-dist", OPTS_EXCLUDES, "cluster", NULL,
	  "--cluster draws each master's keys uniformly: drop --key-dist" },
	{ RUN, "precision", OPTS_EXCLUDES, "rate", NULL,
	  "--precision narrows a point's throughput, which --rate fixes at the rate offered: "
	  "drop --precision (--repeat measures a rate's latency again)" },
	/* --until-decided: one rule of its own for extra repeats, a comparison
	 * to decide, its budget in its own value. */
	{ RUN, "until-decided", OPTS_EXCLUDES, "precision", NULL,
	  "--until-decided and --precision pick the points to measure again by different rules: "
	  "give one" },
	{ RUN, "until-decided", OPTS_EXCLUDES, "budget", NULL,
	  "--until-decided takes its budget as --until-decided=BUDGET: drop --budget" },
	{ RUN, "until-decided", OPTS_EXCLUDES, "rate", NULL,
	  "--until-decided compares throughput, which --rate fixes at the rate offered: drop "
	  "--until-decided" },
	{ RUN, "until-decided", OPTS_NEEDS, "target", "spawn-args", RULES_DECIDE },
	/* --slo searches the rate itself (slo.h). */
	{ RUN, "slo", OPTS_EXCLUDES, "rate", NULL,
	  "--slo searches the rate itself: drop --rate (or drop --slo to measure fixed rates)" },
	{ RUN, "slo", OPTS_EXCLUDES, "precision", NULL,
	  "--slo repeats the probes it is unsure of: drop --precision" },
	{ RUN, "slo", OPTS_EXCLUDES, "cluster", NULL,
	  "--cluster runs closed loop only, and --slo's probes are open loop: drop --slo" },
	{ RUN, "slo-probes", OPTS_NEEDS, "slo", NULL, "--slo-probes goes with --slo" },
	{ RUN, "slo", OPTS_EXCLUDES, "until-decided", NULL,
	  "--slo searches each depth's rate, --until-decided compares targets' throughput: give one" },
	/* Pub/sub (-t publish): which tests publish is cmd_run_plan.c's check. */
	{ RUN, "channels", OPTS_NEEDS, "subscribers", NULL,
	  "--channels spreads -t publish's subscribers: give --subscribers N" },
	{ RUN, "psubscribe", OPTS_NEEDS, "subscribers", NULL,
	  "--psubscribe says how -t publish's subscribers subscribe: give --subscribers N" },
	/* Reads from replicas (issue 47): a standalone primary's, named or
	 * spawned.  --read-from needs replicas from one of three options
	 * (--replica, --spawn-replicas, --cluster): cmd_targets_replicas says so. */
	{ RUN, "replica", OPTS_EXCLUDES, "spawn-replicas", NULL,
	  "--replica names replicas of a server you run, --spawn-replicas starts them for a "
	  "spawned one: give one of them" },
	{ RUN, "replica", OPTS_EXCLUDES, "cluster", NULL,
	  "--replica is for a standalone primary: on a cluster, --read-from replicas finds each "
	  "master's" },
	{ RUN, "spawn-replicas", OPTS_NEEDS, "spawn", "target",
	  "--spawn-replicas goes with --spawn --spawn-tcp or a spawn+tcp: target" },
	{ RUN, "replica", OPTS_ONE, "target", NULL,
	  "--replica names the replicas of one primary: give one --target" },
	{ RUN, "spawn-replicas", OPTS_ONE, "target", NULL,
	  "--spawn-replicas starts the replicas of one primary: give one --target" },
	{ RUN, "replica", OPTS_EXCLUDES, "agents", NULL, RULES_AGENTS "--replica" },
	{ RUN, "spawn-replicas", OPTS_EXCLUDES, "agents", NULL, RULES_AGENTS "--spawn-replicas" },
	{ CMD_EXPORT, "split", OPTS_EXCLUDES, "output", NULL,
	  "--split DIR writes a file a point into DIR: drop -o" },
};

#define OPTS_RULE_N (sizeof opts_rule_table / sizeof opts_rule_table[0])

const struct opts_rule *opts_rules(size_t *n)
{
	*n = OPTS_RULE_N;
	return opts_rule_table;
}

int opts_rule_broken(enum opts_cmd cmd, const struct opts_rule *r, const struct rs_config *cfg)
{
	int a = opts_count(cmd, cfg, r->a) > 0;
	int b = r->b != NULL && opts_count(cmd, cfg, r->b) > 0;
	int c = r->c != NULL && opts_count(cmd, cfg, r->c) > 0;

	if (!(r->cmds & cmd))
		return 0;
	switch (r->rel) {
	case OPTS_NEEDS:
		return a && !b && !c;
	case OPTS_EXCLUDES:
		return a && b;
	case OPTS_TOGETHER:
		return a != b;
	case OPTS_ONE:
		return a && r->b != NULL && opts_count(cmd, cfg, r->b) > 1;
	case OPTS_NO_COMMAND:
		return a && cfg->nargs > 0;
	case OPTS_NEEDS_COMMAND:
		return a && cfg->nargs == 0;
	}
	return 0;
}

int opts_rules_check(enum opts_cmd cmd, const struct rs_config *cfg, struct rs_err *err)
{
	for (size_t i = 0; i < OPTS_RULE_N; i++)
		if (opts_rule_broken(cmd, &opts_rule_table[i], cfg))
			return rs_err_setk(err, RS_E_USAGE, "%s", opts_rule_table[i].msg);
	return 0;
}
