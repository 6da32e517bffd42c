/* opts_table.c: the option table, every option of every subcommand
 * declared once (one row each), and the subcommands' names.  The table
 * drives getopt, --help, the sweep and plot file keys (opts.c), bash
 * completion and the man-page check (opts_table()); the rules between
 * options are opts_rules.c's. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "analysis/budget.h"
#include "analysis/goal.h"
#include "analysis/series.h"
#include "base/near.h"
#include "base/sbuf.h"
#include "chart/chart.h"
#include "cli/opts.h"
#include "cli/opts_int.h"
#include "formats/export.h"
#include "formats/import.h"
#include "render/render.h"
#include "report/report.h"
#include "sweep/sweep.h"

#define OFF(f) offsetof(struct rs_config, f)
#define RUN CMD_RUN
#define PLOT CMD_PLOT
#define REPORT CMD_REPORT
#define IMPORT CMD_IMPORT
#define AGENT CMD_AGENT
#define EXPORT CMD_EXPORT
#define CLEAN CMD_CLEAN
#define ALL (CMD_RUN | CMD_PLOT | CMD_REPORT | CMD_IMPORT | CMD_AGENT | CMD_EXPORT | CMD_CLEAN)
#define BIG 1e15

/* name, short, arg, type, commands, field, min, max, choices, default, in files, help.
 * Keep it sorted by theme: --help and the man page list options in this order. */
const struct opt_def opts_rows[] = {
	/* connection */
	{ "host", 'h', "HOST", OT_STRING, RUN | CLEAN, OFF(host), 0, 0, NULL, "127.0.0.1", 1,
	  "server host name or address" },
	{ "port", 'p', "PORT", OT_UINT, RUN | CLEAN, OFF(port), 1, 65535, NULL, "6379", 1,
	  "server TCP port" },
	{ "socket", 's', "PATH", OT_STRING, RUN | CLEAN, OFF(socket), 0, 0, NULL, NULL, 1,
	  "connect to a UNIX socket instead of TCP" },
	{ "user", 0, "USER", OT_STRING, RUN | CLEAN, OFF(user), 0, 0, NULL, NULL, 1,
	  "ACL user name for AUTH" },
	{ "password", 'a', "PASSWORD", OT_STRING, RUN | CLEAN, OFF(password), 0, 0, NULL, NULL, 0,
	  "password for AUTH (prefer the REDISCLI_AUTH environment variable)" },
	{ "dbnum", 0, "N", OT_UINT, RUN | CLEAN, OFF(dbnum), 0, 1000000, NULL, "0", 1,
	  "database number to SELECT" },
	{ "connect-timeout", 0, "SECONDS", OT_DOUBLE, RUN | AGENT | CLEAN, OFF(connect_timeout),
	  0.001, 3600, NULL, "5", 1, "give up connecting after SECONDS" },
	{ "timeout", 0, "SECONDS", OT_DOUBLE, RUN | AGENT | CLEAN, OFF(timeout), 0, 86400, NULL, "0", 1,
	  "fail when no reply comes for SECONDS (0: 10 s)" },
	{ "tls", 0, NULL, OT_FLAG, RUN, OFF(tls), 0, 0, NULL, NULL, 1,
	  "connect with TLS (-h, -p; a --target says rediss://)" },
	{ "tls", 0, NULL, OT_FLAG, CLEAN, OFF(tls), 0, 0, NULL, NULL, 1,
	  "connect with TLS (-h, -p)" },
	{ "sni", 0, "HOST", OT_STRING, RUN | AGENT | CLEAN, OFF(sni), 0, 0, NULL, NULL, 1,
	  "TLS: the server name to send and to check the certificate against (default: the target's host)" },
	{ "cacert", 0, "FILE", OT_STRING, RUN | AGENT | CLEAN, OFF(cacert), 0, 0, NULL, NULL, 1,
	  "TLS: trust the CA certificates in FILE (PEM) instead of the system's" },
	{ "cacertdir", 0, "DIR", OT_STRING, RUN | AGENT | CLEAN, OFF(cacertdir), 0, 0, NULL, NULL, 1,
	  "TLS: trust the CA certificates in DIR (hashed, as c_rehash makes it)" },
	{ "cert", 0, "FILE", OT_STRING, RUN | AGENT | CLEAN, OFF(cert), 0, 0, NULL, NULL, 1,
	  "TLS: the client certificate (PEM)" },
	{ "key", 0, "FILE", OT_STRING, RUN | AGENT | CLEAN, OFF(key), 0, 0, NULL, NULL, 1,
	  "TLS: the client certificate's private key (PEM; default: in --cert's file)" },
	{ "insecure", 0, NULL, OT_FLAG, RUN, OFF(insecure), 0, 0, NULL, NULL, 1,
	  "TLS: check neither the certificate nor the host name (shown in the target column)" },
	{ "insecure", 0, NULL, OT_FLAG, AGENT | CLEAN, OFF(insecure), 0, 0, NULL, NULL, 1,
	  "TLS: check neither the certificate nor the host name" },
	{ "tls-ciphers", 0, "LIST", OT_STRING, RUN | AGENT | CLEAN, OFF(tls_ciphers), 0, 0, NULL,
	  NULL, 1,
	  "TLS 1.2: the ciphers to offer (OpenSSL's cipher list syntax)" },
	{ "tls-ciphersuites", 0, "LIST", OT_STRING, RUN | AGENT | CLEAN, OFF(tls_ciphersuites), 0,
	  0, NULL, NULL, 1,
	  "TLS 1.3: the cipher suites to offer (OpenSSL's syntax)" },
	{ "spawn", 0, "PATH", OT_OPTSTRING, RUN, OFF(spawn), 0, 0, NULL, NULL, 1,
	  "start a private redis-server (PATH, or the one on PATH) and benchmark it" },
	{ "spawn-tcp", 0, NULL, OT_FLAG, RUN, OFF(spawn_tcp), 0, 0, NULL, NULL, 1,
	  "with --spawn: listen on a free 127.0.0.1 port instead of a UNIX socket" },
	{ "spawn-tls", 0, NULL, OT_FLAG, RUN, OFF(spawn_tls), 0, 0, NULL, NULL, 1,
	  "with --spawn: TLS only, on a free 127.0.0.1 port, with a throwaway certificate" },
	{ "target", 0, "LABEL=URI", OT_LIST, RUN, OFF(target), 0, 0, NULL, NULL, 1,
	  "a server of the sweep (repeat it; unix:///PATH, redis://HOST:PORT[/DB], "
	  "rediss://HOST:PORT[/DB] (TLS), spawn:[PATH], spawn+tcp:[PATH], spawn+tls:[PATH]); "
	  "points alternate between targets" },
	{ "spawn-args", 0, "[LABEL=]ARGS", OT_LIST, RUN, OFF(spawn_args), 0, 0, NULL, NULL, 0,
	  "more redis-server arguments for a spawned target (all of them without LABEL=); "
	  "a word A|B|C starts a server for each" },
	{ "replica", 0, "URI", OT_LIST, RUN, OFF(replica), 0, 0, NULL, NULL, 0,
	  "a replica of the target (repeat it; redis://, rediss://, unix://): read tests load "
	  "it, writes the primary (--read-from)" },
	{ "spawn-replicas", 0, "N", OT_UINT, RUN, OFF(spawn_replicas), 1, 8, NULL, NULL, 1,
	  "with a spawned TCP server (--spawn --spawn-tcp, spawn+tcp:): start N replicas of it "
	  "on 127.0.0.1 ports, caught up before each point" },
	{ "read-from", 0, "WHERE", OT_ENUM, RUN, OFF(read_from), 0, 0, sweep_read_from_names,
	  "masters", 1,
	  "where read tests go: masters, replicas (each replica -c connections and its share "
	  "of -n), or all (the primary counted as one more replica)" },
	{ "cpus", 0, "SERVER:CLIENT|none", OT_STRING, RUN, OFF(cpus), 0, 0, NULL, "auto", 1,
	  "CPUs for spawned servers and the load generator (CPU lists, as 1:0), or none; "
	  "default: apart, when every target is spawned" },
	/* load */
	{ "clients", 'c', "N|LIST", OT_AXIS, RUN, OFF(clients_axis), 1, 100000, NULL, "50", 1,
	  "parallel connections; a list (1,2,4 or 1..64:x2) sweeps them as an axis" },
	{ "clients", 'c', "N", OT_UINT, IMPORT, OFF(clients), 1, 100000, NULL, NULL, 1,
	  "the connections the input was measured with (default: the capture's, else none)" },
	{ "pipeline", 'P', "DEPTHS", OT_DEPTHS, RUN, OFF(pipeline), 0, 0, NULL, "1", 1,
	  "pipeline depths: 16, 1..40, 1..64:x2, 1..16,24,32" },
	{ "pipeline", 'P', "DEPTHS", OT_DEPTHS, IMPORT, OFF(pipeline), 0, 0, NULL, NULL, 1,
	  "the depth the input was measured with, or one per run (default: the capture's, "
	  "else 1 for one run)" },
	{ "requests", 'n', "N", OT_UINT, RUN, OFF(requests), 1, BIG, NULL, "100000", 1,
	  "requests per point (exactly N are sent)" },
	{ "requests", 'n', "N", OT_UINT, IMPORT, OFF(requests), 1, BIG, NULL, NULL, 1,
	  "the requests per test the input was measured with (default: the capture's, else none)" },
	{ "duration", 0, "SECONDS", OT_DOUBLE, RUN, OFF(duration), 0, 86400, NULL, "0", 1,
	  "measure each point for SECONDS instead of a request count (0: use -n)" },
	{ "threads", 0, "N|LIST", OT_AXIS, RUN, OFF(threads_axis), 1, 256, NULL, "1", 1,
	  "client threads, each with its own event loop; a list sweeps them as an axis" },
	{ "mode", 0, "MODE", OT_ENUM, RUN, OFF(mode), 0, 0, engine_mode_names, "lockstep", 1,
	  "what a depth P is: lock-step batches of P, or a window of P in flight" },
	{ "rate", 0, "RATES", OT_STRING, RUN, OFF(rate), 0, 0, NULL, NULL, 1,
	  "open loop: send on a schedule of RATES requests/s (50k, 50k..400k:x2)" },
	{ "slo", 0, "OBJECTIVE", OT_STRING, RUN, OFF(slo), 0, 0, NULL, NULL, 1,
	  "search each depth's highest open-loop rate within a latency objective: "
	  "p99=1ms[,p999=5ms] (p50..p9999; us, ms or s)" },
	{ "slo-probes", 0, "N", OT_UINT, RUN, OFF(slo_probes), 1, 1000, NULL, "12", 1,
	  "with --slo: at most N open-loop probes a depth" },
	{ "arrivals", 0, "KIND", OT_ENUM, RUN, OFF(arrivals), 0, 0, engine_arrivals_names, "uniform", 1,
	  "with --rate or --slo: evenly spaced requests, or Poisson arrivals" },
	{ "reconnect-every", 0, "K", OT_UINT, RUN, OFF(reconnect_every), 1, BIG, NULL, NULL, 1,
	  "close and reopen each connection after K requests, inside the timed window "
	  "(connection churn: K=1 is a connection a request)" },
	{ "tls-resume", 0, NULL, OT_FLAG, RUN, OFF(tls_resume), 0, 0, NULL, NULL, 1,
	  "with --reconnect-every over TLS: each reconnect offers the session of the connection "
	  "it replaces (a resumed, abbreviated handshake)" },
	{ "keyspace", 'r', "N", OT_UINT, RUN, OFF(keyspace), 0, 1e12, NULL, "0", 1,
	  "random keys in 0..N-1 for __rand_int__ (0: fixed keys)" },
	{ "expire", 0, "SECONDS", OT_UINT, RUN, OFF(expire), 1, 315360000, NULL, NULL, 1,
	  "writes set a TTL: SET ... EX, other writes an EXPIRE after each; reads' prepared "
	  "keys get it too" },
	{ "subscribers", 0, "N", OT_UINT, RUN, OFF(subscribers), 1, 10000, NULL, NULL, 1,
	  "-t publish or spublish: N subscribers, each on a connection of its own "
	  "(default 1)" },
	{ "channels", 0, "K", OT_UINT, RUN, OFF(channels), 1, 10000, NULL, NULL, 1,
	  "-t publish or spublish: spread the messages over K channels, each heard by N/K "
	  "subscribers (default 1)" },
	{ "psubscribe", 0, NULL, OT_FLAG, RUN, OFF(psubscribe), 0, 0, NULL, NULL, 1,
	  "-t publish: the subscribers PSUBSCRIBE to a pattern that matches their channel" },
	{ "data-size-range", 0, "MIN..MAX", OT_STRING, RUN, OFF(data_size_range), 0, 0, NULL,
	  NULL, 1, "each request's value MIN to MAX bytes, uniformly, of random bytes "
	  "(memtier's --data-size-range)" },
	{ "key-dist", 0, "DIST", OT_STRING, RUN, OFF(key_dist), 0, 0, NULL, NULL, 1,
	  "how -r's keys are drawn: uniform, sequential, zipf:S, gaussian:SIGMA, "
	  "hotspot:FRACTION:SHARE (default: uniform)" },
	{ "data-size", 'd', "BYTES|LIST", OT_AXIS, RUN, OFF(data_size_axis), 1, 512 * 1024 * 1024,
	  NULL, "3", 1, "value size of SET, GET, LPUSH, ... in bytes; a list sweeps them as an axis" },
	{ "data-size", 'd', "BYTES", OT_UINT, IMPORT, OFF(data_size), 1, 512 * 1024 * 1024,
	  NULL, NULL, 1, "the value size the input was measured with (default: the capture's, "
	  "else none)" },
	{ "tests", 't', "LIST", OT_STRING, RUN | PLOT | REPORT | EXPORT, OFF(tests), 0, 0, NULL, NULL, 1,
	  "comma-separated tests (get,set,lrange,...; default: all); in run, "
	  "mix:get=80,set=20 is one test drawing each request by weight" },
	{ "ratio", 0, "S:G", OT_STRING, RUN, OFF(ratio), 0, 0, NULL, NULL, 1,
	  "memtier's Set:Get ratio: one test, -t mix:set=S,get=G" },
	{ "commands", 0, "FILE", OT_STRING, RUN, OFF(commands), 0, 0, NULL, NULL, 0,
	  "one test: a mix of the file's custom commands, a line each: WEIGHT COMMAND ARGS..." },
	{ "transaction", 0, NULL, OT_FLAG, RUN, OFF(transaction), 0, 0, NULL, NULL, 0,
	  "send the command after -- (or its ';' sequence) between MULTI and EXEC" },
	{ "no-prepare", 0, NULL, OT_FLAG, RUN, OFF(no_prepare), 0, 0, NULL, NULL, 1,
	  "skip the untimed preparation (GET then reads missing keys)" },
	/* sweep */
	{ "label", 'l', "LABEL", OT_STRING, RUN, OFF(label), 0, 0, NULL, NULL, 1,
	  "name of this sweep in the CSV (default: the host name)" },
	{ "label", 'l', "LABEL", OT_STRING, IMPORT, OFF(label), 0, 0, NULL, NULL, 1,
	  "the rows' label (default: the input's name without directory and extension)" },
	/* -o: one option, a different file for each command */
	{ "output", 'o', "FILE", OT_STRING, RUN, OFF(output), 0, 0, NULL, NULL, 1,
	  "write the rows to the CSV FILE (without it they are printed, not saved)" },
	{ "output", 'o', "FILE", OT_STRING, IMPORT, OFF(output), 0, 0, NULL, NULL, 1,
	  "write the rows to the CSV FILE (default: standard output)" },
	{ "output", 'o', "FILE", OT_STRING, PLOT, OFF(output), 0, 0, NULL, NULL, 1,
	  "write the chart to FILE, .png, .pdf or .svg" },
	{ "output", 'o', "FILE", OT_STRING, REPORT | EXPORT, OFF(output), 0, 0, NULL, NULL, 1,
	  "write the text to FILE (default: standard output)" },
	{ "overwrite", 0, NULL, OT_FLAG, RUN | IMPORT, OFF(overwrite), 0, 0, NULL, NULL, 0,
	  "replace an existing non-empty output file" },
	{ "resume", 0, NULL, OT_FLAG, RUN, OFF(resume), 0, 0, NULL, NULL, 0,
	  "skip points already in the output CSV and run the rest" },
	{ "repeat", 0, "K", OT_UINT, RUN, OFF(repeat), 1, 1000, NULL, "3", 1,
	  "measure every point K times" },
	{ "runs", 0, "N", OT_UINT, RUN, OFF(runs), 1, ROW_MAX_RUN, NULL, "1", 1,
	  "measure the whole plan N times, one run after another, each on a new spawned server" },
	{ "run-pause", 0, "SECONDS", OT_DOUBLE, RUN, OFF(run_pause), 0, 3600, NULL, "10", 1,
	  "with --runs: sleep between runs" },
	{ "precision", 0, "PERCENT", OT_PERCENT, RUN, OFF(precision), 0, 100, NULL, "0", 1,
	  "measure points again until each one's 95% interval is within PERCENT (0: off)" },
	{ "max-repeats", 0, "N", OT_UINT, RUN, OFF(max_repeats), 1, 1000, NULL, "10", 1,
	  "with --precision or --until-decided: at most N repeats of a point" },
	{ "budget", 0, "SECONDS", OT_DOUBLE, RUN, OFF(budget), 0, 1e7, NULL, "0", 1,
	  "with --precision: start no new point after SECONDS of the sweep (0: no limit)" },
	{ "until-decided", 0, "BUDGET", OT_OPTSTRING, RUN, OFF(until_decided), 0, 0, NULL, NULL, 1,
	  "with two targets or more: measure again the points whose comparison is undecided, "
	  "until each is decided, a point has --max-repeats (default 20 here) or the sweep has "
	  "run BUDGET (seconds, or 90s, 10m, 1h; default 5m)" },
	{ "order", 0, "ORDER", OT_ENUM, RUN, OFF(order), 0, 0, sweep_order_names, "shuffled", 1,
	  "run order of the points" },
	{ "seed", 0, "N", OT_UINT, RUN, OFF(seed), 0, 4294967295.0, NULL, "1", 1,
	  "seed for --order shuffled and random keys" },
	{ "pause", 0, "SECONDS", OT_DOUBLE, RUN, OFF(pause), 0, 3600, NULL, "0", 1,
	  "sleep between points" },
	{ "warmup", 0, "SECONDS", OT_DOUBLE, RUN, OFF(warmup), 0, 3600, NULL, "0", 1,
	  "untimed load before each point" },
	{ "flush", 0, "MODE", OT_ENUM, RUN, OFF(flush), 0, 0, guard_flush_names, "all", 1,
	  "between points: FLUSHALL, FLUSHDB on --dbnum, or nothing" },
	{ "force-flush", 0, NULL, OT_FLAG, RUN, OFF(force_flush), 0, 0, NULL, NULL, 0,
	  "flush even a server that holds keys rsweep did not write" },
	{ "force-flush", 0, NULL, OT_FLAG, CLEAN, OFF(force_flush), 0, 0, NULL, NULL, 0,
	  "remove every key under the prefix, also those not named as rsweep names its keys" },
	{ "key-prefix", 0, "PREFIX", OT_STRING, RUN, OFF(key_prefix), 0, 0, NULL, NULL, 1,
	  "every key under PREFIX (auto: one of this run's own), and between points delete only "
	  "those, never FLUSHALL: for a server that holds other data" },
	{ "key-prefix", 0, "PREFIX", OT_STRING, CLEAN, OFF(key_prefix), 0, 0, NULL, NULL, 1,
	  "the prefix the run used (the one it printed, for auto): delete its keys" },
	{ "cluster", 0, NULL, OT_FLAG, RUN, OFF(cluster), 0, 0, NULL, NULL, 1,
	  "the target is a node of a Redis Cluster: load, guard and flush every master" },
	{ "cluster", 0, NULL, OT_FLAG, CLEAN, OFF(cluster), 0, 0, NULL, NULL, 1,
	  "the server is a node of a Redis Cluster: clean every master" },
	{ "control", 0, "URI", OT_STRING, RUN | AGENT, OFF(control), 0, 0, NULL, NULL, 0,
	  "the control Redis agents and their leader meet on (redis://, rediss://, unix://)" },
	{ "agents-key", 0, "FILE", OT_STRING, RUN | AGENT, OFF(agents_key), 0, 0, NULL, NULL, 0,
	  "the key that signs the agents' messages, shared by the leader and its agents and "
	  "never sent (a file only its owner can read); needed with --control" },
	{ "agents", 0, "N", OT_UINT, RUN, OFF(agents), 0, 1000, NULL, "0", 0,
	  "with --control: load from N agents (rsweep agent), not from this process" },
	{ "agents-wait", 0, "SECONDS", OT_DOUBLE, RUN, OFF(agents_wait), 0.1, 86400, NULL, "30", 0,
	  "with --agents: how long to wait for them to be heartbeating" },
	{ "allow-target", 0, "URI", OT_LIST, AGENT, OFF(allow_target), 0, 0, NULL, NULL, 0,
	  "agent: a target it may load and send its password to (repeat it; a URI, or a "
	  "pattern with * ? [ ]); needed" },
	{ "id", 0, "NAME", OT_STRING, AGENT, OFF(id), 0, 0, NULL, NULL, 0,
	  "agent: its name on the control Redis (1 to 64 of A-Z a-z 0-9 . _ -)" },
	{ "retries", 0, "N", OT_UINT, RUN, OFF(retries), 0, 100, NULL, "0", 1,
	  "reconnect and measure a failed point again, up to N times" },
	{ "fail-on-error", 0, NULL, OT_FLAG, RUN, OFF(fail_on_error), 0, 0, NULL, NULL, 1,
	  "exit 1 when any reply is an error" },
	{ "dry-run", 0, NULL, OT_FLAG, RUN, OFF(dry_run), 0, 0, NULL, NULL, 0,
	  "print a summary of the plan and its estimated duration (-v: each point), connect to nothing" },
	{ "dry-run", 0, NULL, OT_FLAG, CLEAN, OFF(dry_run), 0, 0, NULL, NULL, 0,
	  "list the keys that would go, and remove nothing" },
	{ "sweep", 0, "FILE", OT_STRING, RUN, OFF(sweep), 0, 0, NULL, NULL, 0,
	  "read options from a sweep file (a path, or the name of an installed one)" },
	/* plot and report */
	{ "plot", 0, "FILE", OT_STRING, PLOT, OFF(plot), 0, 0, NULL, NULL, 0,
	  "read panels and options from a plot file (a path, or an installed name)" },
	{ "metric", 0, "METRIC", OT_ENUM, PLOT, OFF(metric), 0, 0,
	  series_metric_names, "rps", 1, "figure on the y axis" },
	{ "depths", 0, "DEPTHS", OT_DEPTHS, PLOT | REPORT | EXPORT, OFF(depths), 0, 0, NULL, NULL, 1,
	  "use only these depths" },
	{ "depth", 0, "D", OT_UINT, PLOT | REPORT, OFF(depth), 1, DEPTHS_MAX_VALUE, NULL, NULL, 1,
	  "compare at depth D instead of at each series' peak" },
	{ "title", 0, "TEXT", OT_STRING, PLOT, OFF(title), 0, 0, NULL, NULL, 1, "chart title" },
	{ "size", 0, "WxH", OT_SIZE, PLOT, OFF(width), RENDER_SIZE_MIN, RENDER_SIZE_MAX, NULL,
	  "1200x800", 1,
	  "size of one panel in pixels (in PDF, the layout, scaled to fit an A4 page)" },
	{ "kind", 0, "KIND", OT_ENUM, PLOT, OFF(kind), 0, 0, chart_kind_names, "lines", 1,
	  "lines against depth, speed-up bars between two labels, latency charts, heat maps, or "
	  "a --slo search's answer (slo: the default for its data)" },
	{ "x", 0, "AXIS", OT_ENUM, PLOT, OFF(heat_x), 0, 0, grid_axis_names, "depth", 0,
	  "--kind heatmap: the axis across, each value a column" },
	{ "y", 0, "AXIS", OT_ENUM, PLOT, OFF(heat_y), 0, 0, grid_axis_names, "clients", 0,
	  "--kind heatmap: the axis up, each value a row" },
	{ "z", 0, "METRIC", OT_ENUM, PLOT, OFF(heat_z), 0, 0, series_metric_names, "rps", 0,
	  "--kind heatmap: the figure the cells' colours show" },
	{ "latency-budget", 0, "TIME", OT_STRING, PLOT, OFF(latency_budget), 0, 0, NULL, NULL, 1,
	  "--kind heatmap: outline the cells whose --budget-metric is within TIME (1ms, 250us)" },
	{ "budget-metric", 0, "METRIC", OT_ENUM, PLOT, OFF(budget_metric), 0, 0,
	  budget_metric_names, "p99_ms", 1, "with --latency-budget: the latency it bounds" },
	{ "fit", 0, "WHEN", OT_ENUM, PLOT, OFF(fit), 0, 0, chart_fit_names, "auto", 1,
	  "lines: the fitted level with its 95% band, the medians faint: when most points are "
	  "unstable (auto), yes or no" },
	{ "points", 0, "DEPTHS", OT_DEPTHS, PLOT, OFF(points), 0, 0, NULL, NULL, 1,
	  "--kind latency-cdf: the depths whose latency distributions are drawn" },
	{ "log-x", 0, NULL, OT_FLAG, PLOT, OFF(log_x), 0, 0, NULL, NULL, 1,
	  "log2 depth axis (automatic when depths are powers of two)" },
	{ "split", 0, NULL, OT_FLAG, PLOT, OFF(split), 0, 0, NULL, NULL, 1,
	  "PNG, SVG: one file per panel (OUT-1.png, OUT-2.png, ...)" },
	{ "font", 0, "PATH", OT_STRING, PLOT, OFF(font), 0, 0, NULL, NULL, 1,
	  "TrueType font for chart text" },
	{ "scale", 0, "N", OT_UINT, PLOT, OFF(scale), 1, 4, NULL, "1", 1,
	  "PNG pixels per point (2 for high-DPI screens)" },
	{ "relabel", 0, "[FILE:]OLD=NEW", OT_LIST, PLOT | REPORT | EXPORT, OFF(relabel), 0, 0, NULL, NULL, 1,
	  "read rows labelled OLD (in FILE only, with FILE:) as NEW (a list: a=b,c=d; repeat it)" },
	{ "by", 0, "AXIS", OT_STRING, PLOT, OFF(by), 0, 0, NULL, NULL, 1,
	  "a line for each value of AXIS (clients, data-size, threads, server-args), a panel "
	  "for each test" },
	{ "baseline", 0, "LABEL", OT_STRING, PLOT, OFF(baseline), 0, 0, NULL, NULL, 1,
	  "label the others are compared with (default: the first)" },
	{ "baseline", 0, "LABEL", OT_STRING, REPORT, OFF(baseline), 0, 0, NULL, NULL, 1,
	  "label the others are compared with (default: the first), or a CSV file kept from an "
	  "earlier run" },
	{ "fail-on", 0, "slower[:PCT]", OT_STRING, REPORT, OFF(fail_on), 0, 0, NULL, NULL, 1,
	  "exit 3 when a comparison is slower than the baseline (by more than PCT%)" },
	{ "knee", 0, "FRACTION", OT_DOUBLE, PLOT | REPORT, OFF(knee), 0.5, 1, NULL, "0.95", 1,
	  "saturation depth: the smallest whose fitted level reaches FRACTION of the peak" },
	{ "cv-limit", 0, "FRACTION", OT_DOUBLE, REPORT, OFF(cv_limit), 0, 10, NULL, "0.10", 1,
	  "list points whose variation over repeats exceeds FRACTION" },
	{ "format", 0, "FORMAT", OT_ENUM, REPORT, OFF(format), 0, 0, report_format_names,
	  "text", 1, "report format" },
	{ "wide", 0, NULL, OT_FLAG, REPORT, OFF(wide), 0, 0, NULL, NULL, 1,
	  "text: every column of the series and comparison tables, and each series' notes "
	  "(as -v)" },
	{ "prose", 0, NULL, OT_FLAG, REPORT, OFF(prose), 0, 0, NULL, NULL, 1,
	  "add one sentence per test comparing each label with the baseline" },
	{ "latency-budget", 0, "TIME", OT_STRING, REPORT, OFF(latency_budget), 0, 0, NULL, NULL, 1,
	  "for each series, the depth with the most throughput within TIME (1ms, 250us); "
	  "along a swept setting, the best cell" },
	{ "budget-metric", 0, "METRIC", OT_ENUM, REPORT, OFF(budget_metric), 0, 0,
	  budget_metric_names, "p99_ms", 1,
	  "with --latency-budget: the latency it bounds" },
	{ "goal", 0, "GOAL", OT_ENUM, REPORT, OFF(goal), 0, 0, goal_names, "none", 1,
	  "max-rps: the cell of depth (and setting) with the most throughput, and those not told "
	  "apart from it" },
	/* import */
	{ "from", 0, "KIND", OT_ENUM, IMPORT, OFF(from), 0, 0, import_kind_names, "auto", 0,
	  "input: redis-benchmark or valkey-benchmark output, or memtier_benchmark JSON (auto: detect)" },
	{ "skip-bad", 0, NULL, OT_FLAG, IMPORT, OFF(skip_bad), 0, 0, NULL, NULL, 0,
	  "report unreadable lines and go on instead of failing" },
	{ "hdr-file-prefix", 0, "PREFIX", OT_STRING, IMPORT, OFF(hdr_file_prefix), 0, 0, NULL, NULL, 0,
	  "memtier JSON: each row's histogram from memtier's PREFIX_CMD_command_run_K.hgrm" },
	/* export (its --format is not report's: a name may serve two commands
	 * that share none) */
	{ "format", 0, "FORMAT", OT_ENUM, EXPORT, OFF(export_format), 0, 0, export_format_names,
	  "benchstat", 0, "the format to write" },
	{ "split", 0, "DIR", OT_STRING, EXPORT, OFF(export_split), 0, 0, NULL, NULL, 0,
	  "memtier-json: a file a point in DIR (LABEL+TEST+PDEPTH.json), not JSON Lines" },
	/* everywhere */
	{ "quiet", 'q', NULL, OT_FLAG, RUN, OFF(quiet), 0, 0, NULL, NULL, 1,
	  "one line per point, no progress line or estimate" },
	{ "quiet", 'q', NULL, OT_FLAG, IMPORT, OFF(quiet), 0, 0, NULL, NULL, 1,
	  "no summary on standard error" },
	{ "verbose", 'v', NULL, OT_FLAG, ALL, OFF(verbose), 0, 0, NULL, NULL, 1,
	  "say more on stderr" },
	{ "help", 0, NULL, OT_FLAG, ALL, OFF(help), 0, 0, NULL, NULL, 0, "print this help and exit" },
	{ "version", 0, NULL, OT_FLAG, ALL, OFF(version), 0, 0, NULL, NULL, 0,
	  "print the version and exit" },
};
#define OPT_N (sizeof opts_rows / sizeof opts_rows[0])
const size_t opts_nrows = OPT_N;

_Static_assert(OPT_N <= OPTS_MAX_ROWS, "the option table outgrew OPTS_MAX_ROWS (opts.h)");

const struct opts_cmd_row opts_cmd_rows[] = {
	{ "run", CMD_RUN, "[options] [-- COMMAND ARG...]",
	  "measure throughput over pipeline depths and tests; write a CSV" },
	{ "plot", CMD_PLOT, "[options] FILE.csv... -o OUT.png|OUT.pdf|OUT.svg",
	  "draw requests/s (or latency) against pipeline depth" },
	{ "report", CMD_REPORT, "[options] FILE.csv...",
	  "saturation depth, peak, throughput model and comparisons" },
	{ "import", CMD_IMPORT, "[options] FILE -o OUT.csv",
	  "convert redis-benchmark output or memtier_benchmark JSON into rsweep rows" },
	{ "agent", CMD_AGENT, "--control URI --id NAME [options]",
	  "generate load for a leader (run --control --agents) on another machine" },
	{ "export", CMD_EXPORT, "[options] FILE.csv... [-o OUT]",
	  "write results in another tool's format (benchstat, HdrHistogram, memtier JSON)" },
	{ "clean", CMD_CLEAN, "--key-prefix PREFIX [options]",
	  "remove the keys a run with --key-prefix left under its prefix, and nothing else" },
};
const size_t opts_ncmds = sizeof opts_cmd_rows / sizeof opts_cmd_rows[0];

const struct opt_def *opts_table(size_t *n)
{
	*n = OPT_N;
	return opts_rows;
}

int opts_cmd_parse(const char *name, enum opts_cmd *cmd)
{
	for (size_t i = 0; i < opts_ncmds; i++)
		if (strcmp(name, opts_cmd_rows[i].name) == 0) {
			*cmd = opts_cmd_rows[i].cmd;
			return 0;
		}
	return -1;
}

const char *opts_cmd_nearest(const char *name)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX, n = strlen(name);

	for (size_t i = 0; i < opts_ncmds; i++)
		near_keep(name, n, opts_cmd_rows[i].name, &best, &bestd);
	return near_likely(bestd, n) ? best : NULL;
}

const char *opts_cmd_name(enum opts_cmd cmd)
{
	for (size_t i = 0; i < opts_ncmds; i++)
		if (opts_cmd_rows[i].cmd == cmd)
			return opts_cmd_rows[i].name;
	return "?";
}

const char *opts_choices(const struct opt_def *d)
{
	/* One buffer per option, made once: the tables never change. */
	static char joined[OPT_N][128];
	size_t k = (size_t)(d - opts_rows);
	struct sbuf b;

	if (d->choices == NULL)
		return NULL;
	if (joined[k][0] == '\0') {
		sbuf_fixed(&b, joined[k], sizeof joined[k]);
		for (size_t i = 0; d->choices[i] != NULL; i++)
			sbuf_item(&b, "|", "%s", d->choices[i]);
	}
	return joined[k];
}
