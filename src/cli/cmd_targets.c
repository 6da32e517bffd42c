/* cmd_targets.c: the servers of one run (cmd_targets.h): which targets
 * stand, the TLS checks that depend on them, and each one's struct target,
 * spawned where asked for. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_targets.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "net/target_build.h"
#include "sweep/sweep_config.h"

void cmd_targets_settle(struct rs_config *cfg)
{
	if (opts_origin(cfg, "target") == ORIGIN_FILE &&
	    (opts_origin(cfg, "socket") == ORIGIN_ARGV || opts_origin(cfg, "host") == ORIGIN_ARGV ||
	     opts_origin(cfg, "port") == ORIGIN_ARGV || opts_origin(cfg, "spawn") == ORIGIN_ARGV)) {
		for (size_t i = 0; i < cfg->target.n; i++)
			free(cfg->target.v[i]);
		cfg->target.n = 0;
	}
}

int cmd_targets_check_tls(const struct rs_config *cfg, struct rs_err *err)
{
	static const char *const opt[] = { "sni", "cacert", "cacertdir", "cert", "key", "insecure",
					   "tls-ciphers", "tls-ciphersuites" };
	int on = cfg->tls;

	for (size_t i = 0; i < cfg->target.n; i++) {
		const char *eq = strchr(cfg->target.v[i], '=');

		/* Without its LABEL= it is still a TLS target, and the missing
		 * label is what the target checks then say. */
		on += strncmp(eq != NULL ? eq + 1 : cfg->target.v[i], "rediss://", 9) == 0;
	}
	/* One name for every server would verify B's certificate for A's. */
	if (on > 1 && opts_given(cfg, "sni"))
		return rs_err_set(err, "--sni names one server, and %d rediss:// targets are given: "
				  "give each its host name in its URI instead", on);
	/* Silently ignoring a --cacert would measure a connection the user
	 * did not ask for. */
	for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
		if (opts_given(cfg, opt[i]) && !on)
			return rs_err_set(err, "--%s is a TLS option: add --tls (or a rediss:// target)",
					  opt[i]);
	/* A spawned TLS server's connections are TLS too. */
	if (opts_given(cfg, "tls-resume") && !on && !cfg->spawn_tls)
		return rs_err_set(err, "--tls-resume is a TLS option: add --tls (or a rediss:// "
				  "target, or --spawn-tls)");
	return cmd_tls_files_check(cfg, err);
}

/* What the target column says of the server the options name: its
 * address, or for --spawn what it is (its socket is a new temporary path
 * every run, which would mean nothing in a row and differ on --resume). */
static void cmd_targets_desc(const struct rs_config *cfg, char *buf, size_t size)
{
	struct target t = { .socket = cfg->socket, .host = cfg->host, .port = (unsigned)cfg->port,
			    .tls.on = cfg->tls };

	if (cfg->spawn) {
		snprintf(buf, size, "spawned redis-server (%s)", cfg->spawn_tls ? "TLS 127.0.0.1" :
			 cfg->spawn_tcp ? "TCP 127.0.0.1" : "UNIX socket");
		return;
	}
	target_describe(&t);
	targets_row(NULL, &t, NULL, cfg->insecure, buf, size);
}

/* The alternatives of one word: "1|2|4" three, a word without '|' one. */
static size_t cmd_targets_word_choices(const char *word)
{
	size_t k = 1;

	for (; *word; word++)
		k += *word == '|';
	return k;
}

/* How many choices the alternatives of words make (a word "1|2|4" three;
 * several such words their product), or 0 past CMD_TARGETS_MAX_CHOICES. */
static size_t cmd_targets_nchoices(const char *const *words)
{
	size_t n = 1;

	for (size_t i = 0; words != NULL && words[i] != NULL; i++) {
		n *= cmd_targets_word_choices(words[i]);
		if (n > CMD_TARGETS_MAX_CHOICES)
			return 0;
	}
	return n;
}

/* Choice c of words into g: each word with alternatives replaced by one
 * of them (the last word's alternatives turning fastest).  0, or -1 (err)
 * for an empty alternative. */
static int cmd_targets_choose(struct cmd_target *g, const char *const *words, size_t c,
			      struct rs_err *err)
{
	size_t n = 0;

	while (words[n] != NULL)
		n++;
	g->extra_own = xcalloc(n + 1, sizeof *g->extra_own);
	for (size_t i = n; i-- > 0;) {
		const char *w = words[i], *end;
		size_t k = cmd_targets_word_choices(w), pick, len;

		if (k == 1) {
			g->extra_own[i] = xstrdup(w);
			continue;
		}
		pick = c % k;
		c /= k;
		for (; pick > 0; pick--)
			w = strchr(w, '|') + 1;
		len = (end = strchr(w, '|')) != NULL ? (size_t)(end - w) : strlen(w);
		if (len == 0) {
			for (size_t j = i + 1; j < n; j++)
				free(g->extra_own[j]);
			free(g->extra_own);
			g->extra_own = NULL;
			return rs_err_setk(err, RS_E_USAGE, "target '%s': --spawn-args '%s' has an empty "
					   "alternative", g->label, words[i]);
		}
		g->extra_own[i] = xmalloc(len + 1);
		memcpy(g->extra_own[i], w, len);
		g->extra_own[i][len] = '\0';
	}
	g->extra = (const char *const *)g->extra_own;
	g->alternatives = 1;
	return 0;
}

/* g->extra said as one line into g->server_args, for every spawned
 * server, alternatives or not (issue 44: a CI comparison of
 * "--appendfsync always" said only the version).  0, or -1 (err) when it
 * does not fit. */
static int cmd_targets_args_line(struct cmd_target *g, struct rs_err *err)
{
	size_t at = 0;

	g->server_args[0] = '\0';
	for (size_t i = 0; g->spawned && g->extra != NULL && g->extra[i] != NULL; i++) {
		const char *w = g->extra[i];

		/* Quoted as targets_split reads them back (targets_row): a word
		 * that is empty or has blanks or quotes in it. */
		at += (size_t)snprintf(g->server_args + at, at < sizeof g->server_args ?
				       sizeof g->server_args - at : 0,
				       *w == '\0' || strpbrk(w, " \t'\"") ? strchr(w, '\'') ?
				       "%s\"%s\"" : "%s'%s'" : "%s%s", i ? " " : "", w);
	}
	if (at >= sizeof g->server_args)
		return rs_err_setk(err, RS_E_USAGE, "target '%s': --spawn-args is longer than %zu "
				   "characters", g->label, sizeof g->server_args - 1);
	return 0;
}

/* Each spawned target with alternatives in its --spawn-args becomes one
 * target a choice (cmd_targets_build).  0, or -1 (err). */
static int cmd_targets_choices(struct cmd_targets *ts, struct rs_err *err)
{
	size_t total = 0;
	struct cmd_target *v;

	for (size_t k = 0; k < ts->n; k++) {
		size_t c = ts->v[k].spawned ? cmd_targets_nchoices(ts->v[k].extra) : 1;

		if (c == 0)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': --spawn-args' alternatives "
					   "make more than %d servers", ts->v[k].label,
					   CMD_TARGETS_MAX_CHOICES);
		total += c;
	}
	if (total == ts->n)
		goto lines;
	v = xcalloc(total, sizeof *v);
	for (size_t k = 0, at = 0; k < ts->n; k++) {
		const struct cmd_target *g = &ts->v[k];
		size_t c = g->spawned ? cmd_targets_nchoices(g->extra) : 1;

		for (size_t i = 0; i < c; i++) {
			v[at] = *g;
			if (c > 1 && cmd_targets_choose(&v[at], g->extra, i, err) < 0) {
				free(ts->v);
				ts->v = v;
				ts->n = at + 1;
				return -1;
			}
			at++;
		}
	}
	free(ts->v);
	ts->v = v;
	ts->n = total;
lines:
	for (size_t k = 0; k < ts->n; k++)
		if (cmd_targets_args_line(&ts->v[k], err) < 0)
			return -1;
	return 0;
}

int cmd_targets_read_from(const struct rs_config *cfg)
{
	/* --replica sends reads to its replicas unless told otherwise. */
	return opts_given(cfg, "read-from") || cfg->replica.n == 0 ? cfg->read_from :
	       SWEEP_READ_REPLICAS;
}

/* --replica, --spawn-replicas and --read-from into ts (cmd_targets_build).
 * 0, or -1 (err, RS_E_USAGE). */
static int cmd_targets_replicas(const struct rs_config *cfg, struct cmd_targets *ts,
				struct rs_err *err)
{
	size_t n = cfg->replica.n ? cfg->replica.n : (size_t)cfg->spawn_replicas;

	ts->read_from = cmd_targets_read_from(cfg);
	if (opts_given(cfg, "read-from") && n == 0 && !cfg->cluster)
		return rs_err_setk(err, RS_E_USAGE, "--read-from chooses among replicas: name them "
				   "with --replica URI, start them with --spawn-replicas N, or give "
				   "--cluster");
	if (cfg->replica.n > 0 && ts->read_from == SWEEP_READ_MASTERS)
		return rs_err_setk(err, RS_E_USAGE, "--read-from masters with --replica: nothing "
				   "would read from the replicas (drop one of them)");
	if (n == 0)
		return 0;
	ts->rdefs.v = xcalloc(cfg->replica.n ? cfg->replica.n : 1, sizeof *ts->rdefs.v);
	for (size_t i = 0; i < cfg->replica.n; i++) {
		char spec[TARGETS_URI_MAX + 16];
		struct targets_def *d = &ts->rdefs.v[ts->rdefs.n];

		snprintf(spec, sizeof spec, "replica=%s", cfg->replica.v[i]);
		if (targets_parse_one(spec, d, err) < 0) {
			targets_def_free(d);
			return rs_err_prefix(err, "--replica"), rs_err_as(err, RS_E_USAGE);
		}
		ts->rdefs.n++;
		if (targets_spawned(d->kind))
			return rs_err_setk(err, RS_E_USAGE, "--replica %s: a running server's URI "
					   "(redis://, rediss://, unix://); --spawn-replicas starts "
					   "replicas", d->uri);
	}
	for (size_t k = 0; k < ts->n; k++) {
		struct cmd_target *g = &ts->v[k];

		if (cfg->spawn_replicas > 0 && (!g->spawned || g->transport != SPAWN_TCP))
			return rs_err_setk(err, RS_E_USAGE, "--spawn-replicas: the replicas reach "
					   "their primary over TCP: start it with --spawn --spawn-tcp "
					   "or a spawn+tcp: target (target '%s' is %s)", g->label,
					   !g->spawned ? "not spawned" : g->transport == SPAWN_TLS ?
					   "on TLS" : "on a UNIX socket");
		g->replicas = xcalloc(n, sizeof *g->replicas);
		g->nreplicas = n;
		if (cfg->replica.n > 0) {
			g->rdefs = ts->rdefs.v;
			continue;
		}
		g->rsp = xcalloc(n, sizeof *g->rsp);
		for (size_t i = 0; i < n; i++)
			g->rsp[i].pid = -1;
	}
	return 0;
}

int cmd_targets_build(const struct rs_config *cfg, const char *label, struct cmd_targets *ts,
		      struct rs_err *err)
{
	if (cfg->target.n > 0) {
		if (targets_parse(cfg->target.v, cfg->target.n, &ts->defs, err) < 0 ||
		    targets_spawn_args(&ts->defs, cfg->spawn_args.v, cfg->spawn_args.n, err) < 0)
			return -1;
	} else if (cfg->spawn_args.n > 0) {
		struct targets_def d = { .kind = TARGETS_SPAWN };
		struct targets one = { &d, 1 };

		/* --spawn's server takes the words of every --spawn-args. */
		xstrlcpy(d.label, label, sizeof d.label);
		snprintf(d.uri, sizeof d.uri, "spawn:");
		if (targets_spawn_args(&one, cfg->spawn_args.v, cfg->spawn_args.n, err) < 0) {
			targets_def_free(&d);
			return -1;
		}
		ts->spawn_extra = d.args;
		ts->nspawn_extra = d.nargs;
		d.args = NULL;
		d.nargs = 0;
		targets_def_free(&d);
	}
	ts->n = ts->defs.n ? ts->defs.n : 1;
	ts->v = xcalloc(ts->n, sizeof *ts->v);
	for (size_t k = 0; k < ts->n; k++) {
		struct cmd_target *g = &ts->v[k];
		const struct targets_def *d = ts->defs.n ? &ts->defs.v[k] : NULL;

		g->def = d;
		g->sp.pid = -1;
		g->label = d ? d->label : label;
		g->spawned = d ? targets_spawned(d->kind) : cfg->spawn;
		g->binary = d ? d->path : cfg->spawn_path;
		if (d != NULL)
			g->transport = d->kind == TARGETS_SPAWN_TLS ? SPAWN_TLS :
				       d->kind == TARGETS_SPAWN_TCP ? SPAWN_TCP : SPAWN_UNIX;
		else
			g->transport = cfg->spawn_tls ? SPAWN_TLS : cfg->spawn_tcp ? SPAWN_TCP :
				       SPAWN_UNIX;
		g->extra = (const char *const *)(d ? d->args : ts->spawn_extra);
	}
	if (cmd_targets_choices(ts, err) < 0)
		return -1;
	return cmd_targets_replicas(cfg, ts, err);
}

void cmd_targets_row(const struct rs_config *cfg, const struct cmd_target *g, char *buf,
		     size_t size)
{
	if (g->def == NULL)
		cmd_targets_desc(cfg, buf, size);
	else
		targets_row(g->def, NULL, g->abs, cfg->insecure, buf, size);
}

int cmd_targets_probe(struct cmd_targets *ts, struct rs_err *err)
{
	for (size_t k = 0; k < ts->n; k++) {
		struct cmd_target *g = &ts->v[k];

		if (!g->spawned)
			continue;
		if (spawn_probe(g->binary, g->abs, sizeof g->abs, g->version, sizeof g->version,
				err) < 0)
			return g->def ? rs_err_prefix(err, "target '%s'", g->label) : -1;
		rs_log(RS_LOG_DEBUG, "%s: %s is %s", g->label, g->abs, g->version);
	}
	return 0;
}

int cmd_targets_start(const struct rs_config *cfg, double timeout, volatile sig_atomic_t *stop,
		      struct cmd_target *g, struct rs_err *err)
{
	struct target_tls tls = { 0 };
	struct target_settings s = {
		.user = cfg->user, .password = cfg->password, .env_password = 1,
		.dbnum = (unsigned)cfg->dbnum, .tls = &tls,
		.connect_timeout = cfg->connect_timeout, .timeout = timeout, .stop = stop,
	};
	const struct targets_def *d = g->def;

	cmd_tls_settings(cfg, &tls);
	if (d == NULL) {
		/* The one server of the options, as a definition. */
		targets_def_free(&g->own);
		if (g->spawned)
			target_build_spawned(&g->own, g->transport);
		else
			target_build_addr(&g->own, cfg->socket, cfg->host, (unsigned)cfg->port,
					  cfg->tls);
		xstrlcpy(g->own.label, g->label, sizeof g->own.label);
		d = &g->own;
	}
	if (g->spawned &&
	    spawn_start_on(&g->sp, g->abs[0] ? g->abs : g->binary, g->transport, g->extra, g->cpus,
			   SPAWN_START_WAIT, err) < 0)
		return g->def ? rs_err_setk(err, RS_E_INPUT, "target '%s': %s", g->label, err->msg) :
		       -1;
	if (target_build(d, &s, g->spawned ? &g->sp : NULL, &g->t, err) < 0)
		return -1;
	/* Messages name the real socket; rows, the stable description. */
	cmd_targets_row(cfg, g, g->t.row_desc, sizeof g->t.row_desc);
	for (size_t i = 0; i < g->nreplicas; i++) {
		struct targets_def rd;
		char port[16];
		const char *const extra[] = { "--replicaof", "127.0.0.1", port, NULL };

		if (g->rsp == NULL) {
			/* The primary's user, password (its URI's too), database and
			 * TLS settings, where the replica's URI names none. */
			struct target_settings rs = s;

			rs.user = g->t.user;
			rs.password = g->t.password != NULL ? g->t.password : "";
			rs.env_password = 0;
			rs.dbnum = g->t.dbnum;
			if (target_build(&g->rdefs[i], &rs, NULL, &g->replicas[i], err) < 0)
				return -1;
			continue;
		}
		snprintf(port, sizeof port, "%u", g->sp.port);
		if (spawn_start_on(&g->rsp[i], g->abs[0] ? g->abs : g->binary, SPAWN_TCP, extra,
				   g->cpus, SPAWN_START_WAIT, err) < 0)
			return rs_err_setk(err, RS_E_INPUT, "target '%s': replica %zu: %s", g->label,
					   i + 1, err->msg);
		target_build_spawned(&rd, SPAWN_TCP);
		xstrlcpy(rd.label, g->label, sizeof rd.label);
		if (target_build(&rd, &s, &g->rsp[i], &g->replicas[i], err) < 0)
			return -1;
		rs_log(RS_LOG_DEBUG, "%s: replica %zu on %s", g->label, i + 1, g->replicas[i].desc);
	}
	return 0;
}

void cmd_targets_stop(struct cmd_target *g)
{
	for (size_t i = 0; g->rsp != NULL && i < g->nreplicas; i++)
		spawn_stop(&g->rsp[i]);
	spawn_stop(&g->sp);
}

void cmd_targets_uri(const struct cmd_target *g, char *buf, size_t size)
{
	if (g->def != NULL)
		snprintf(buf, size, "%s", g->def->uri);
	else
		targets_uri(&g->t, 1, buf, size);
}

void cmd_targets_free(struct cmd_targets *ts)
{
	targets_free(&ts->defs);
	for (size_t i = 0; i < ts->nspawn_extra; i++)
		free(ts->spawn_extra[i]);
	free(ts->spawn_extra);
	for (size_t k = 0; k < ts->n; k++)
		for (size_t i = 0; ts->v[k].extra_own != NULL && ts->v[k].extra_own[i] != NULL; i++)
			free(ts->v[k].extra_own[i]);
	for (size_t k = 0; k < ts->n; k++) {
		free(ts->v[k].extra_own);
		targets_def_free(&ts->v[k].own);
		free(ts->v[k].replicas);
		free(ts->v[k].rsp);
	}
	targets_free(&ts->rdefs);
	free(ts->v);
	memset(ts, 0, sizeof *ts);
}
