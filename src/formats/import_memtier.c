/* import_memtier.c: the reader of memtier_benchmark's --json-out-file
 * (import.h), as its run_stats.cpp and memtier_benchmark.cpp write it
 * (RedisLabs/memtier_benchmark 2f74d61183f8, 2.2.0-28): a "configuration"
 * object of the command line, "run information", and per results section
 * ("ALL STATS", or with --run-count "RUN #K RESULTS", "BEST RUN RESULTS",
 * "WORST RUN RESULTS", "AGGREGATED AVERAGE RESULTS (N runs)") a "Runtime"
 * and one object per command with "Count", "Ops/sec", "Misses/sec",
 * "Average Latency", "Min Latency", "Max Latency" and "Percentile
 * Latencies" ("p50.00", "p99.00", "p99.90": memtier prints "p%.3f" into
 * seven bytes), in ms.  A figure that is null (rsweep export writes one
 * for what it does not know) stays unknown. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/import_int.h"
#include "base/json.h"
#include "base/num.h"
#include "base/redact.h"
#include "base/vec.h"
#include "base/xalloc.h"

struct memtier_in {
	const struct json_doc *d;
	const char *name;
	struct rs_err *err;
	/* rsweep export's mix: its test and members ("get=80,set=20") from
	 * the configuration; NULL for memtier's own files and plain tests. */
	const char *own_test, *own_mix;
};

int import_is_json(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	return i < len && buf[i] == '{';
}

/* Member key of obj as a figure into *out: NAN when absent or null; 0, or
 * -1 (err set) for one that is no non-negative number. */
static int memtier_fig(const struct memtier_in *in, const struct json_node *obj, const char *what,
		       const char *key, double *out)
{
	const struct json_node *v = json_get(in->d, obj, key);

	*out = NAN;
	if (v == NULL || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_NUMBER || !(v->u.num >= 0))
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: \"%s\" is not a number of 0 or "
				   "more", in->name, v->line, what, key);
	*out = v->u.num;
	return 0;
}

/* Member key of obj as a whole number in [min, max] into *out (-1 when
 * absent or null). */
static int memtier_count(const struct memtier_in *in, const struct json_node *obj,
			 const char *what, const char *key, double min, double max, int64_t *out)
{
	const struct json_node *v = json_get(in->d, obj, key);

	*out = -1;
	if (v == NULL || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_NUMBER || v->u.num != floor(v->u.num) || v->u.num < min ||
	    v->u.num > max)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: \"%s\" is not a whole number "
				   "from %.0f to %.0f", in->name, v->line, what, key, min, max);
	*out = (int64_t)v->u.num;
	return 0;
}

/* A command member's name as a test: "Gets" GET, "Lpushs" LPUSH. */
static int memtier_test(const struct memtier_in *in, const struct json_node *m, char *test)
{
	const char *key = json_key(in->d, m);
	size_t n = strlen(key);
	struct rs_err e;

	if (n > 1 && key[n - 1] == 's')
		n--;
	if (import_test_name(key, n, test, ROW_STR, &e) < 0)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: command \"%s\": %s", in->name, m->line,
				   key, e.msg);
	return 0;
}

/* "Percentile Latencies": the ones rsweep has columns for.  memtier writes
 * the key as "p%.3f" cut to six characters, so 99.9 is "p99.90"; each key
 * is read as its number, whatever its digits. */
static int memtier_percentiles(const struct memtier_in *in, const struct json_node *pl,
			       const char *what, struct rs_row *r)
{
	static const struct {
		double q;
		size_t off;
	} want[] = {
		{ 50, offsetof(struct rs_row, p50_ms) }, { 95, offsetof(struct rs_row, p95_ms) },
		{ 99, offsetof(struct rs_row, p99_ms) }, { 99.9, offsetof(struct rs_row, p999_ms) },
	};

	if (pl == NULL || pl->type == JSON_NULL)
		return 0;
	if (pl->type != JSON_OBJECT)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: \"Percentile Latencies\" is not "
				   "an object", in->name, pl->line, what);
	for (const struct json_node *m = json_first(in->d, pl); m; m = json_next(in->d, m)) {
		const char *key = json_key(in->d, m);
		double q;

		/* "Histogram log format" sits inside it too. */
		if (key[0] != 'p' || num_parse_double_n(key + 1, strlen(key + 1), &q) < 0)
			continue;
		for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
			double *dst = (double *)((char *)r + want[k].off);

			if (fabs(q - want[k].q) > 1e-9)
				continue;
			if (m->type == JSON_NULL)
				break;
			if (m->type != JSON_NUMBER || !(m->u.num >= 0))
				return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: percentile \"%s\" "
						   "is not a number of 0 or more", in->name, m->line,
						   what, key);
			*dst = m->u.num;
		}
	}
	return 0;
}

/* What every row of the file shares, from "configuration" into base. */
static int memtier_config(const struct memtier_in *in, const struct json_node *root,
			  struct rs_row *base, struct import_memtier *out)
{
	const struct json_node *c = json_get(in->d, root, "configuration"), *v;
	int64_t pipeline, clients, threads, size;
	const char *s;

	if (c == NULL || c->type != JSON_OBJECT)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: no \"configuration\" object: not "
				   "memtier_benchmark's --json-out-file", in->name, root->line);
	if (memtier_count(in, c, "configuration", "pipeline", 1, 1000000, &pipeline) < 0 ||
	    memtier_count(in, c, "configuration", "clients", 1, 1e9, &clients) < 0 ||
	    memtier_count(in, c, "configuration", "threads", 1, 1e6, &threads) < 0 ||
	    memtier_count(in, c, "configuration", "data_size", 0, 1e12, &size) < 0)
		return -1;
	if (pipeline < 0)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: the configuration gives no "
				   "\"pipeline\"", in->name, c->line);
	base->pipeline = (unsigned)pipeline;
	base->threads = threads;
	/* memtier's clients are per thread. */
	base->clients = clients >= 0 && threads >= 0 ? clients * threads : -1;
	/* With a range or a list of sizes data_size is not the size. */
	s = json_str(in->d, json_get(in->d, c, "data_size_range"));
	if ((s && strcmp(s, "0:0") != 0) ||
	    ((s = json_str(in->d, json_get(in->d, c, "data_size_list"))) && *s))
		size = -1;
	base->data_size = size;
	if ((s = json_str(in->d, json_get(in->d, c, "unix socket"))) && *s) {
		snprintf(base->target, sizeof base->target, "unix:%s", s);
	} else if ((s = json_str(in->d, json_get(in->d, c, "server"))) && *s) {
		v = json_get(in->d, c, "port");
		if (v && v->type == JSON_NUMBER && v->u.num >= 1 && v->u.num <= 65535)
			snprintf(base->target, sizeof base->target, "%s:%u", s, (unsigned)v->u.num);
	}
	/* A server given as a URI may hold its password: never written. */
	redact_target(base->target);
	if ((s = json_str(in->d, json_get(in->d, c, "ratio"))))
		xstrlcpy(out->ratio, s, sizeof out->ratio);
	return 0;
}

/* The rows of section sec (repeat repeat) into out. */
static int memtier_section(const struct memtier_in *in, const struct json_node *sec,
			   const struct rs_row *base, unsigned repeat, struct import_memtier *out)
{
	const char *title = json_key(in->d, sec);
	const struct json_node *rt = json_get(in->d, sec, "Runtime");
	double start_ms = NAN, duration_ms = NAN;
	char what[ROW_STR + 80];
	size_t before = out->n;

	if (sec->type != JSON_OBJECT)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: \"%s\" is not an object", in->name,
				   sec->line, title);
	if (rt && (memtier_fig(in, rt, title, "Start time", &start_ms) < 0 ||
		   memtier_fig(in, rt, title, "Total duration", &duration_ms) < 0))
		return -1;
	char sent[sizeof base->mix_sent] = "";

	/* rsweep's own mix: one row, its Totals, the members' counts its
	 * mix_sent ("GET=1617;SET=384"). */
	for (const struct json_node *m = json_first(in->d, sec); in->own_mix && m;
	     m = json_next(in->d, m)) {
		const char *key = json_key(in->d, m);
		char test[ROW_STR];
		double count;
		size_t n = strlen(sent);

		if (m->type != JSON_OBJECT || strcmp(key, "Runtime") == 0 ||
		    strcmp(key, "Totals") == 0 || strcmp(key, "Active Clients") == 0)
			continue;
		if (memtier_test(in, m, test) < 0 || memtier_fig(in, m, title, "Count", &count) < 0)
			return -1;
		if (!isnan(count))
			snprintf(sent + n, sizeof sent - n, "%s%s=%.0f", n ? ";" : "", test, count);
	}
	for (const struct json_node *m = json_first(in->d, sec); m; m = json_next(in->d, m)) {
		const char *key = json_key(in->d, m);
		struct rs_row r = *base;
		double count, misses_sec;

		if (m->type != JSON_OBJECT || strcmp(key, "Runtime") == 0 ||
		    (strcmp(key, "Totals") == 0) != (in->own_mix != NULL) ||
		    strcmp(key, "Active Clients") == 0)
			continue;
		snprintf(what, sizeof what, "%s: %s", title, key);
		if (memtier_fig(in, m, what, "Count", &count) < 0)
			return -1;
		if (isnan(count) || count == 0) {
			out->nempty++;
			continue;
		}
		if (count != floor(count) || count > 1e18)
			return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: \"Count\" is not a whole "
					   "number", in->name, m->line, what);
		if (in->own_mix != NULL) {
			xstrlcpy(r.test, in->own_test, sizeof r.test);
			xstrlcpy(r.mix, in->own_mix, sizeof r.mix);
			xstrlcpy(r.mix_sent, sent, sizeof r.mix_sent);
		}
		if ((in->own_mix == NULL && memtier_test(in, m, r.test) < 0) ||
		    memtier_fig(in, m, what, "Ops/sec", &r.rps) < 0 ||
		    memtier_fig(in, m, what, "Average Latency", &r.avg_ms) < 0 ||
		    (isnan(r.avg_ms) && memtier_fig(in, m, what, "Latency", &r.avg_ms) < 0) ||
		    memtier_fig(in, m, what, "Min Latency", &r.min_ms) < 0 ||
		    memtier_fig(in, m, what, "Max Latency", &r.max_ms) < 0 ||
		    memtier_fig(in, m, what, "Misses/sec", &misses_sec) < 0 ||
		    memtier_percentiles(in, json_get(in->d, m, "Percentile Latencies"), what, &r) < 0)
			return -1;
		if (isnan(r.rps))
			return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s: no \"Ops/sec\"", in->name,
					   m->line, what);
		r.requests = (int64_t)count;
		r.repeat = repeat;
		r.line = m->line;
		/* Ops/sec is Count over the run's window: that window at the
		 * figure's precision, else the Runtime's whole milliseconds.
		 * memtier's average of runs sums the counts and averages the
		 * rates: no one window. */
		if (out->aggregate)
			r.seconds = NAN;
		else if (r.rps > 0)
			r.seconds = count / r.rps;
		else if (duration_ms > 0)
			r.seconds = duration_ms / 1e3;
		/* memtier counts hits and misses of its own GET and SET only
		 * (an arbitrary command's are written as 0). */
		if ((strcmp(r.test, "GET") == 0 || strcmp(r.test, "SET") == 0) && !isnan(misses_sec) &&
		    r.seconds > 0) {
			double misses = floor(misses_sec * r.seconds + 0.5);

			r.misses = (int64_t)(misses < count ? misses : count);
		}
		if (start_ms > 0 && start_ms < 253402300800e3) {
			time_t t = (time_t)(start_ms / 1e3);
			struct tm tm;
			char sec_text[24];

			gmtime_r(&t, &tm);
			strftime(sec_text, sizeof sec_text, "%Y-%m-%dT%H:%M:%S", &tm);
			snprintf(r.started_at, sizeof r.started_at, "%.19s.%03uZ", sec_text,
				 (unsigned)fmod(start_ms, 1e3));
		}
		r.order = repeat;
		out->v = vec_reserve(out->v, &out->cap, out->n + 1, sizeof *out->v, 4);
		out->v[out->n++] = r;
	}
	if (out->n - before > 1 && in->own_mix == NULL)
		out->mixed = 1;
	return 0;
}

/* "RUN #K RESULTS": K, else 0. */
static unsigned memtier_run_number(const char *key)
{
	unsigned k = 0;
	int end = 0;

	if (sscanf(key, "RUN #%u RESULTS%n", &k, &end) == 1 && key[end] == '\0' && k > 0 &&
	    k <= ROW_MAX_RUN)
		return k;
	return 0;
}

/* One document's rows into out. */
static int memtier_doc(const struct memtier_in *in0, struct rs_row *base,
		       struct import_memtier *out)
{
	struct memtier_in mc = *in0;
	const struct memtier_in *in = in0;
	const struct json_doc *doc = in->d;
	const struct json_node *root = json_root(doc), *sec, *agg = NULL;
	const char *label;
	size_t before = out->n;
	unsigned nruns = 0;

	if (root->type != JSON_OBJECT)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: the JSON is no object: not "
				   "memtier_benchmark's --json-out-file", in->name, root->line);
	row_init(base);
	xstrlcpy(base->client, "memtier_benchmark", sizeof base->client);
	if (memtier_config(in, root, base, out) < 0)
		return -1;
	/* rsweep export's own: the label the point had, and a mix's test. */
	label = json_str(doc, json_get(doc, json_get(doc, root, "configuration"), "label"));
	mc.own_test = json_str(doc, json_get(doc, json_get(doc, root, "configuration"), "test"));
	mc.own_mix = json_str(doc, json_get(doc, json_get(doc, root, "configuration"), "mix"));
	if (mc.own_test == NULL || mc.own_mix == NULL || *mc.own_mix == '\0' ||
	    strlen(mc.own_test) >= ROW_STR || strlen(mc.own_mix) >= sizeof base->mix)
		mc.own_test = mc.own_mix = NULL;
	in = &mc;
	if (label && xstrlcpy(base->label, label, sizeof base->label) < 0)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: the label is longer than %d "
				   "characters", in->name, root->line, ROW_STR - 1);
	for (sec = json_first(doc, root); sec; sec = json_next(doc, sec)) {
		unsigned k = memtier_run_number(json_key(doc, sec));

		if (k == 0)
			continue;
		if (out->section[0] == '\0')
			xstrlcpy(out->section, json_key(doc, sec), sizeof out->section);
		nruns++;
		if (memtier_section(in, sec, base, k, out) < 0)
			return -1;
	}
	out->nruns += nruns;
	if (nruns == 0 && (sec = json_get(doc, root, "ALL STATS")) != NULL) {
		if (out->section[0] == '\0')
			xstrlcpy(out->section, "ALL STATS", sizeof out->section);
		if (memtier_section(in, sec, base, 1, out) < 0)
			return -1;
	} else if (nruns == 0) {
		for (sec = json_first(doc, root); sec && !agg; sec = json_next(doc, sec))
			if (sscanf(json_key(doc, sec), "AGGREGATED AVERAGE RESULTS (%u runs)",
				   &out->nruns_avg) == 1)
				agg = sec;
		if (agg == NULL)
			return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: no \"ALL STATS\", \"RUN #K "
					   "RESULTS\" or \"AGGREGATED AVERAGE RESULTS\" section: not "
					   "memtier_benchmark's --json-out-file, or one of a run that "
					   "did not finish", in->name, root->line);
		if (out->section[0] == '\0')
			xstrlcpy(out->section, json_key(doc, agg), sizeof out->section);
		out->aggregate = 1;
		if (memtier_section(in, agg, base, 1, out) < 0)
			return -1;
	}
	if (out->n == before)
		return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: its results hold no command that "
				   "counted anything", in->name, root->line);
	return 0;
}

int import_memtier_parse(const char *buf, size_t len, const char *name,
			 struct import_memtier *out, struct rs_err *err)
{
	struct json_doc doc;
	struct memtier_in in = { &doc, name, err, NULL, NULL };
	struct rs_row *base = xmalloc(sizeof *base);
	size_t pos = 0;
	unsigned line = 1;
	int rc = 0;

	memset(out, 0, sizeof *out);
	/* One document (memtier's file), or several one after another
	 * (rsweep export's JSON Lines, files concatenated). */
	do {
		if (json_parse_next(buf, len, &pos, &line, name, &doc, err) < 0) {
			rc = -1;
			break;
		}
		rc = memtier_doc(&in, base, out);
		out->ndocs++;
		json_free(&doc);
	} while (rc == 0 && pos < len);
	free(base);
	if (rc < 0)
		import_memtier_free(out);
	return rc;
}

void import_memtier_free(struct import_memtier *m)
{
	if (m == NULL)
		return;
	free(m->v);
	memset(m, 0, sizeof *m);
}
