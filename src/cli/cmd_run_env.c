/* cmd_run_env.c: the environment of a run (runenv.h): the client machine
 * (host_env.h) and each target's server (target_env.h) read once the
 * servers have passed their guards, written to the CSV's sidecar with a
 * target's first row of the run, and the load at its end. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/redact.h"
#include "base/sbuf.h"
#include "base/xalloc.h"
#include "cli/cmd_run_int.h"
#include "net/target_env.h"
#include "os/host_env.h"
#include "results/runenv.h"

/* One target's line. */
struct run_env_target {
	char label[ROW_STR];
	char target[ROW_STR];
	struct target_env srv;
	char server_cpus[HOST_ENV_STR];
	char server_args[256];    /* as recorded: a password in them blanked */
	char raw_args[256];       /* as the rows have them, to know its rows */
	int written;              /* its line is in the sidecar for this run */
};

struct run_env {
	const char *csv;          /* the -o file */
	int fresh;                /* the run made or emptied it: empty the sidecar first */
	char agents[32];          /* what generates the load: "this machine", or "N agents" */
	char started_at[40];
	struct host_env host;
	char *command;
	struct run_env_target *v;
	size_t n;
};

/* The command as a shell line: "rsweep run -P 1..32 -o r.csv", words
 * quoted where the shell would split or expand them, passwords out. */
static char *run_env_command(const struct rs_config *cfg)
{
	struct sbuf b;

	sbuf_heap(&b);
	sbuf_printf(&b, "rsweep");
	for (int i = 0; cfg->argv != NULL && i < cfg->argc; i++) {
		char *w = xstrdup(cfg->argv[i]);

		redact_target(w);
		redact_args(w);
		if (w[0] != '\0' && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				       "0123456789-_./:=,+@%") == strlen(w)) {
			sbuf_printf(&b, " %s", w);
		} else {
			sbuf_add(&b, " '", 2);
			for (const char *p = w; *p; p++)
				if (*p == '\'')
					sbuf_printf(&b, "'\\''");
				else
					sbuf_add(&b, p, 1);
			sbuf_add(&b, "'", 1);
		}
		free(w);
	}
	return b.s;
}

/* The CPUs of the server process a target reaches, when it runs here:
 * spawned, or behind a UNIX socket (INFO's process_id, when that process
 * is a server by its name). */
static void run_env_server_cpus(const struct cmd_target *g, const struct target_env *e, char *buf,
				size_t size)
{
	long pid = g->spawned ? (long)g->sp.pid : g->t.socket != NULL ? e->process_id : 0;
	char comm[64];

	buf[0] = '\0';
	if (pid <= 0)
		return;
	if (!g->spawned) {
		host_env_proc_comm("", pid, comm, sizeof comm);
		if (strstr(comm, "redis") == NULL && strstr(comm, "valkey") == NULL &&
		    strstr(comm, "keydb") == NULL && strstr(comm, "server") == NULL)
			return;
	}
	host_env_proc_cpus("", pid, buf, size);
}

struct run_env *run_env_open(const struct rs_config *cfg, const struct run_job *job, int fresh)
{
	struct run_env *re;
	struct timespec ts;
	struct tm tm;
	char sec[24];

	if (cfg->output == NULL)
		return NULL;
	re = xcalloc(1, sizeof *re);
	re->csv = cfg->output;
	re->fresh = fresh;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	/* To the nanosecond, as the rows' started_at: two runs of --runs may
	 * start within a second, and their records are two. */
	strftime(sec, sizeof sec, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(re->started_at, sizeof re->started_at, "%.19s.%09ldZ", sec, (long)ts.tv_nsec);
	host_env_read("", &re->host);
	/* The load comes from the agents' machines: this one's CPUs, governor
	 * and load do not describe it (the rows leave client_cpus out too). */
	if (cfg->agents > 0) {
		snprintf(re->agents, sizeof re->agents, "%llu agents",
			 (unsigned long long)cfg->agents);
		memset(&re->host, 0, sizeof re->host);
	} else {
		snprintf(re->agents, sizeof re->agents, "this machine");
	}
	re->command = run_env_command(cfg);
	re->v = xcalloc(job->targets.n ? job->targets.n : 1, sizeof *re->v);
	for (size_t k = 0; k < job->targets.n; k++) {
		const struct cmd_target *g = &job->targets.v[k];
		struct run_env_target *e = &re->v[re->n++];
		struct target_conn *c = NULL;
		struct rs_err err;

		xstrlcpy(e->label, g->label, sizeof e->label);
		xstrlcpy(e->target, g->t.row_desc[0] ? g->t.row_desc : g->t.desc, sizeof e->target);
		redact_target(e->target);
		xstrlcpy(e->server_args, g->server_args, sizeof e->server_args);
		xstrlcpy(e->raw_args, g->server_args, sizeof e->raw_args);
		redact_args(e->server_args);
		/* The environment tells; it never stops a run. */
		if (target_connect(&g->t, &c, &err) < 0 || target_env_read(c, &g->t, &e->srv, &err) < 0)
			rs_log(RS_LOG_DEBUG, "target '%s': its configuration is not recorded: %s",
			       g->label, err.msg);
		target_close(c);
		run_env_server_cpus(g, &e->srv, e->server_cpus, sizeof e->server_cpus);
	}
	return re;
}

/* Append one line: e's identity and n more fields. */
static void run_env_line(struct run_env *re, const struct run_env_target *e,
			 const char *const *keys, const char *const *values, size_t n)
{
	const char *k[40], *v[40];
	struct rs_err err;
	size_t m = 0;

	k[m] = "label", v[m++] = e->label;
	k[m] = "target", v[m++] = e->target;
	k[m] = "server_args", v[m++] = e->server_args;
	k[m] = "started_at", v[m++] = re->started_at;
	for (size_t i = 0; i < n && m < 40; i++)
		k[m] = keys[i], v[m++] = values[i];
	if (runenv_append(re->csv, re->fresh, k, v, m, &err) < 0)
		rs_log(RS_LOG_NOTE, "the run's environment is not recorded: %s", err.msg);
	re->fresh = 0;
}

void run_env_point(struct run_env *re, const struct rs_row *r)
{
	for (size_t i = 0; re != NULL && i < re->n; i++) {
		struct run_env_target *e = &re->v[i];
		const struct host_env *h = &re->host;
		char server[2 * TARGET_SERVER_STR + 2];

		if (e->written || strcmp(e->label, r->label) != 0 ||
		    strcmp(e->raw_args, r->server_args) != 0)
			continue;
		target_server_desc(e->srv.server.name, e->srv.server.version, server, sizeof server);
		{
			const char *keys[] = {
				"rsweep", "command", "cpu_model", "cores", "client_cpus", "governor",
				"cpufreq_driver", "turbo", "kernel", "virt", "thp", "load_start",
				"server", "server_cpus", "io_threads", "appendonly",
				"appendfsync", "save", "maxmemory", "maxmemory_policy", "config",
				"load_generator",
			};
			const char *values[] = {
				PACKAGE_VERSION, re->command, h->cpu_model, h->cores, h->cpus,
				h->governor, h->driver, h->turbo, h->kernel, h->virt, h->thp, h->load,
				server, e->server_cpus, e->srv.io_threads,
				e->srv.appendonly, e->srv.appendfsync, e->srv.save, e->srv.maxmemory,
				e->srv.maxmemory_policy, e->srv.config_refused ? "refused" : "",
				re->agents,
			};

			run_env_line(re, e, keys, values, sizeof keys / sizeof keys[0]);
		}
		e->written = 1;
	}
}

void run_env_close(struct run_env *re)
{
	char load[48];
	const char *key = "load_end", *value = load;

	if (re == NULL)
		return;
	if (strcmp(re->agents, "this machine") != 0)
		load[0] = '\0';
	else
		host_env_load("", load, sizeof load);
	for (size_t i = 0; i < re->n; i++)
		if (re->v[i].written)
			run_env_line(re, &re->v[i], &key, &value, 1);
	free(re->command);
	free(re->v);
	free(re);
}
