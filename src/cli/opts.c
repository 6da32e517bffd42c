/* opts.c: the option table, and the one parser that applies it to argv,
 * sweep/plot files and defaults alike. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/budget.h"
#include "chart/chart.h"
#include "formats/export.h"
#include "analysis/goal.h"
#include "formats/import.h"
#include "base/near.h"
#include "base/num.h"
#include "cli/opts.h"
#include "render/render.h"
#include "base/sbuf.h"
#include "report/report.h"
#include "analysis/series.h"
#include "sweep/sweep.h"
#include "net/targets.h"
#include "base/xalloc.h"

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
static const struct opt_def opt_table[] = {
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
#define OPT_N (sizeof opt_table / sizeof opt_table[0])

_Static_assert(OPT_N <= OPTS_MAX_ROWS, "the option table outgrew OPTS_MAX_ROWS (opts.h)");

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

static const struct {
	const char *name;
	enum opts_cmd cmd;
	const char *synopsis;
	const char *what;
} opt_cmds[] = {
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

const struct opt_def *opts_table(size_t *n)
{
	*n = OPT_N;
	return opt_table;
}

int opts_cmd_parse(const char *name, enum opts_cmd *cmd)
{
	for (size_t i = 0; i < sizeof opt_cmds / sizeof opt_cmds[0]; i++)
		if (strcmp(name, opt_cmds[i].name) == 0) {
			*cmd = opt_cmds[i].cmd;
			return 0;
		}
	return -1;
}

const char *opts_cmd_nearest(const char *name)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX, n = strlen(name);

	for (size_t i = 0; i < sizeof opt_cmds / sizeof opt_cmds[0]; i++)
		near_keep(name, n, opt_cmds[i].name, &best, &bestd);
	return near_likely(bestd, n) ? best : NULL;
}

const char *opts_cmd_name(enum opts_cmd cmd)
{
	for (size_t i = 0; i < sizeof opt_cmds / sizeof opt_cmds[0]; i++)
		if (opt_cmds[i].cmd == cmd)
			return opt_cmds[i].name;
	return "?";
}

/* Index of value in the NULL-terminated names, or -1. */
static int opts_choice(const char *const *names, const char *value)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], value) == 0)
			return i;
	return -1;
}

const char *opts_choices(const struct opt_def *d)
{
	/* One buffer per option, made once: the tables never change. */
	static char joined[OPT_N][128];
	size_t k = (size_t)(d - opt_table);
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
	for (size_t i = 0; i < OPT_N; i++) {
		const struct opt_def *d = &opt_table[i];

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

	for (size_t i = 0; i < OPT_N; i++)
		if (opt_table[i].cmds & cmd)
			near_keep(name, n, opt_table[i].name, &best, &bestd);
	return near_likely(bestd, n) ? best : NULL;
}

static const struct opt_def *opts_find(enum opts_cmd cmd, const char *name, size_t *idx)
{
	for (size_t i = 0; i < OPT_N; i++)
		if ((opt_table[i].cmds & cmd) && strcmp(opt_table[i].name, name) == 0) {
			*idx = i;
			return &opt_table[i];
		}
	return NULL;
}

/* A name may have a row for each of several commands (-o, -c, --tls):
 * only the rows of the command parsed can be given, so the name is given
 * when any of its rows is. */
int opts_given(const struct rs_config *cfg, const char *name)
{
	for (size_t i = 0; i < OPT_N; i++)
		if (strcmp(opt_table[i].name, name) == 0 && cfg->given[i])
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

	for (size_t i = 0; i < OPT_N; i++)
		if (strcmp(opt_table[i].name, name) == 0 && cfg->origin[i] > o)
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
	struct option longopts[OPT_N + 1];
	char shortopts[2 * OPT_N + 4];
	size_t nl = 0, ns = 0;
	int c;

	/* run stops at the first operand, so that "run -- SET k v" keeps the
	 * custom command whole; the others take files and options in any order. */
	if (cmd == CMD_RUN)
		shortopts[ns++] = '+';
	shortopts[ns++] = ':';    /* report a missing argument as ':' */
	for (size_t i = 0; i < OPT_N; i++) {
		const struct opt_def *d = &opt_table[i];

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
			d = &opt_table[i];
			if (opts_abbreviated(argc, argv, d, err))
				return -1;
		} else {
			for (i = 0; i < OPT_N; i++)
				if (opt_table[i].short_name == c && (opt_table[i].cmds & cmd)) {
					d = &opt_table[i];
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

/* "-c, --clients N" or "    --spawn[=PATH]" */
static void opts_left(const struct opt_def *d, char *buf, size_t size)
{
	const char *open = d->type == OT_OPTSTRING ? "[=" : d->arg ? " " : "";
	const char *close = d->type == OT_OPTSTRING ? "]" : "";

	if (d->short_name)
		snprintf(buf, size, "-%c, --%s%s%s%s", d->short_name, d->name, open,
			 d->arg ? d->arg : "", close);
	else
		snprintf(buf, size, "    --%s%s%s%s", d->name, open, d->arg ? d->arg : "", close);
}

void opts_usage(enum opts_cmd cmd, FILE *fp)
{
	if (cmd == 0) {
		fprintf(fp, "Usage: rsweep COMMAND [options]\n\n"
			"Measure how a Redis server's throughput grows with pipeline depth.\n\n"
			"Commands:\n");
		for (size_t i = 0; i < sizeof opt_cmds / sizeof opt_cmds[0]; i++)
			fprintf(fp, "  %-8s %s\n", opt_cmds[i].name, opt_cmds[i].what);
		fprintf(fp, "  %-8s %s\n", "help", "help COMMAND: the options of COMMAND");
		fprintf(fp, "\n'rsweep COMMAND --help' lists a command's options; 'man rsweep' has it all.\n");
		return;
	}
	for (size_t i = 0; i < sizeof opt_cmds / sizeof opt_cmds[0]; i++)
		if (opt_cmds[i].cmd == cmd)
			fprintf(fp, "Usage: rsweep %s %s\n\n%s.\n\nOptions:\n", opt_cmds[i].name,
				opt_cmds[i].synopsis, opt_cmds[i].what);
	for (size_t i = 0; i < OPT_N; i++) {
		const struct opt_def *d = &opt_table[i];
		char left[64];

		if (!(d->cmds & cmd))
			continue;
		opts_left(d, left, sizeof left);
		fprintf(fp, "  %-28s %s", left, d->help);
		if (d->choices)
			fprintf(fp, " (%s)", opts_choices(d));
		if (d->def)
			fprintf(fp, " [%s]", d->def);
		fputc('\n', fp);
	}
}

void opts_free(struct rs_config *cfg)
{
	if (cfg == NULL)
		return;
	for (size_t i = 0; i < OPT_N; i++) {
		char *field = (char *)cfg + opt_table[i].off;

		switch (opt_table[i].type) {
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
