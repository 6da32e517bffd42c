/* cmd_targets.h: the servers of one run, from the options to struct
 * targets that can be connected: --target's definitions (targets.h), or
 * the one server of -h, -p, -s or --spawn; spawned servers started; the
 * TLS options applied.  The run command's own flow (cmd_run.c) opens a
 * sweep on each; nothing here measures, flushes or prints. */
#ifndef RS_CMD_TARGETS_H
#define RS_CMD_TARGETS_H

#include <signal.h>
#include <stddef.h>

#include "base/err.h"
#include "cli/opts.h"
#include "net/spawn.h"
#include "net/target.h"
#include "net/targets.h"

/* One server of the run. */
struct cmd_target {
	const struct targets_def *def; /* NULL: the one of -h, -p, -s or --spawn */
	const char *label;
	int spawned;
	const char *binary;       /* spawned: the path given (NULL: on PATH) */
	enum spawn_transport transport; /* spawned: UNIX socket, TCP or TLS */
	const char *const *extra; /* spawned: --spawn-args, NULL-terminated */
	/* Spawned with --spawn-args alternatives ("--io-threads 1|2|4"): one
	 * target for each choice, its words owned here (extra points to them),
	 * and alternatives set; else NULL and 0. */
	char **extra_own;
	int alternatives;
	/* A spawned server's arguments (its choice of the alternatives), as
	 * one line for the rows' server_args; "" for none, or not spawned. */
	char server_args[128];
	/* spawned: the CPUs its server is placed on (cpus.h), set by the
	 * caller before cmd_targets_start; NULL: rsweep's own */
	const struct cpus *cpus;
	char abs[1024];           /* spawned: the binary's absolute path */
	char version[32];         /* spawned: what its --version says */
	/* def NULL: the definition cmd_targets_start makes of the options'
	 * server, which t points into (cmd_targets_free frees it) */
	struct targets_def own;
	struct target t;          /* filled by cmd_targets_start */
	struct spawn sp;          /* spawned: the server, until cmd_targets_stop */
	/* Its replicas (--replica, --spawn-replicas): nreplicas targets,
	 * allocated by cmd_targets_build, filled by cmd_targets_start; each
	 * --replica's definition in rdefs, or (--spawn-replicas) a server
	 * of its own in rsp, a replica of sp. */
	struct target *replicas;
	size_t nreplicas;
	const struct targets_def *rdefs;
	struct spawn *rsp;
};

/* Every server of the run, in the order given. */
struct cmd_targets {
	struct targets defs;      /* --target; none: the one of -h, -p, -s, --spawn */
	char **spawn_extra;       /* --spawn-args for --spawn */
	size_t nspawn_extra;
	struct cmd_target *v;
	size_t n;
	struct targets rdefs;     /* --replica */
	int read_from;            /* enum sweep_read_from: --read-from, or its default */
};

/* Where read tests go (enum sweep_read_from): --read-from, or without it
 * replicas with --replica, else masters. */
int cmd_targets_read_from(const struct rs_config *cfg);
/* The command line wins over the sweep file: a file's --target gives way
 * to -h, -p, -s or --spawn on the command line (those targets are freed),
 * before any rule judges what stands. */
void cmd_targets_settle(struct rs_config *cfg);
/* The TLS rules the option rules cannot say, since whether TLS is on
 * depends on the targets' URIs: the TLS options only where it is on,
 * --sni for one server only, then the files they name.  Returns 0 or -1
 * with err. */
int cmd_targets_check_tls(const struct rs_config *cfg, struct rs_err *err);
/* The servers cfg names into ts (cmd_targets_free, also after a
 * failure): each --target, or one labelled label (not copied: it must
 * outlive ts).  A spawned target whose --spawn-args hold alternatives, a
 * word with '|' in it ("--io-threads 1|2|4"), is one target a choice,
 * under its label, every combination of the alternatives when several
 * words have them (at most CMD_TARGETS_MAX_CHOICES).  Each has room for
 * the replicas --replica names or --spawn-replicas starts (a spawned TCP
 * server's only: RS_E_USAGE else), and ts->read_from says where read
 * tests go.  Nothing is started or connected.  Returns 0 or -1 with err naming the target. */
#define CMD_TARGETS_MAX_CHOICES 64
int cmd_targets_build(const struct rs_config *cfg, const char *label, struct cmd_targets *ts,
		      struct rs_err *err);
/* Before anything starts or connects: each spawned binary answers as
 * redis-server does (valkey-server, keydb-server too).  Returns 0 or -1
 * (err of kind RS_E_INPUT, naming the target when it is a --target). */
int cmd_targets_probe(struct cmd_targets *ts, struct rs_err *err);
/* g's server into g->t: started, when spawned (cmd_targets_stop ends it), else
 * the address its definition or the options give, with the options' TLS
 * settings, a command timeout of timeout seconds and stop for signals;
 * then its replicas into g->replicas alike, started when spawned (each a
 * REPLICAOF of g's server).  Returns 0 or -1 (err: a server that would not start; RS_E_INPUT for a
 * --target). */
int cmd_targets_start(const struct rs_config *cfg, double timeout, volatile sig_atomic_t *stop,
		      struct cmd_target *g, struct rs_err *err);
/* Stop g's servers, the replicas first (spawn_stop: harmless for one
 * that never started). */
void cmd_targets_stop(struct cmd_target *g);
/* What the target column says of g's server (size bytes into buf): its
 * address, or for a spawned one what it is, stable from run to run. */
void cmd_targets_row(const struct rs_config *cfg, const struct cmd_target *g, char *buf,
		     size_t size);
/* The URI of g's server, as another process reaches it (an agent): the
 * --target's, else the options' (targets_uri, with the database); never
 * a password.  g must have started (cmd_targets_start). */
void cmd_targets_uri(const struct cmd_target *g, char *buf, size_t size);
/* Free ts's definitions and list; servers still running are the caller's
 * to stop first.  A zeroed ts is fine. */
void cmd_targets_free(struct cmd_targets *ts);

#endif
