/* report_notes.c: the notes on the series, one line each: a model that
 * does not fit, a level below the top depths, no noise to learn, not
 * saturated, the unstable points with their likely causes, an open loop
 * that fell short, the busiest shard, a mix's members as sent, another
 * client (report_int.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cause.h"
#include "analysis/mixshare.h"
#include "report/report_int.h"
#include "results/row.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* Notes: one line each, "label test: what". */
/* An unstable point of series (its index), for the narrow report's worst. */
struct report_worst {
	size_t series;
	const struct analysis_unstable *u;
};
/* More unstable points than this are summarised, not listed. */
#define REPORT_UNSTABLE_LIST 6

void report_client_note(const struct analysis_result *r, size_t other, const char *base_client,
			char *buf, size_t size)
{
	const struct series *s = r->series[other].rps;

	snprintf(buf, size, "%s was measured by %s and %s by %s: every comparison between them "
		 "includes the difference between the two clients", s->label, s->first->client,
		 r->baseline, base_client);
}

static int report_unstable_by_cv(const void *x, const void *y)
{
	const struct analysis_unstable *a = *(const struct analysis_unstable *const *)x;
	const struct analysis_unstable *b = *(const struct analysis_unstable *const *)y;

	if (a->cv != b->cv)
		return a->cv > b->cv ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

static int report_unstable_by_depth(const void *x, const void *y)
{
	const struct analysis_unstable *a = *(const struct analysis_unstable *const *)x;
	const struct analysis_unstable *b = *(const struct analysis_unstable *const *)y;

	return (a->depth > b->depth) - (a->depth < b->depth);
}

/* The notes on a's unstable points into v (room for REPORT_UNSTABLE_LIST
 * + 1); returns how many.  One line a point, with its likely cause; past
 * REPORT_UNSTABLE_LIST, a line that counts them by cause, then the worst. */
static size_t report_unstable_notes(const struct analysis_series *a, const struct report_opts *o,
				    char **v)
{
	const struct series *s = a->rps;
	const struct analysis_unstable **u;
	size_t n = 0, show = a->nunstable;
	char buf[512], x[32], why[160];

	if (a->nunstable == 0)
		return 0;
	u = xcalloc(a->nunstable, sizeof *u);
	for (size_t k = 0; k < a->nunstable; k++)
		u[k] = &a->unstable[k];
	if (a->nunstable > REPORT_UNSTABLE_LIST) {
		size_t count[CAUSE_UNKNOWN + 1] = { 0 };
		struct sbuf sb;

		for (size_t k = 0; k < a->nunstable; k++)
			count[a->unstable[k].cause.kind]++;
		sbuf_fixed(&sb, buf, sizeof buf);
		sbuf_printf(&sb, "%s %s: unstable (CV above %s%%) at %zu of %zu depths; likely causes: ",
			    s->label, s->test, report_fnum(x, sizeof x, 100 * o->cv_limit, 1), a->nunstable,
			    s->npts);
		for (int c = 0, first = 1; c <= CAUSE_UNKNOWN; c++)
			if (count[c] > 0) {
				sbuf_printf(&sb, "%s%s at %zu", first ? "" : ", ",
					    cause_name((enum cause_kind)c), count[c]);
				first = 0;
			}
		sbuf_printf(&sb, "; the %d worst:", REPORT_UNSTABLE_LIST);
		v[n++] = xstrdup(buf);
		qsort(u, a->nunstable, sizeof *u, report_unstable_by_cv);
		show = REPORT_UNSTABLE_LIST;
		qsort(u, show, sizeof *u, report_unstable_by_depth);
	}
	for (size_t k = 0; k < show; k++) {
		cause_format(&u[k]->cause, why, sizeof why);
		snprintf(buf, sizeof buf, "%s %s P=%u: CV %s%% over %zu repeats: %s", s->label, s->test,
			 u[k]->depth, report_fnum(x, sizeof x, 100 * u[k]->cv, 1), u[k]->n, why);
		v[n++] = xstrdup(buf);
	}
	free(u);
	return n;
}

static int report_unstable_worst(const void *x, const void *y)
{
	const struct report_worst *a = x, *b = y;

	if (a->u->cv != b->u->cv)
		return a->u->cv > b->u->cv ? -1 : 1;
	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return (a->u->depth > b->u->depth) - (a->u->depth < b->u->depth);
}

/* The narrow report's notes for every series at once, into v (room for
 * REPORT_UNSTABLE_LIST + 2): how many series are not saturated, and the
 * unstable points counted by likely cause with the worst few; returns how
 * many. */
static size_t report_summary_notes(const struct analysis_result *r, const struct report_opts *o,
				   char **v)
{
	size_t count[CAUSE_UNKNOWN + 1] = { 0 }, nopen = 0, npts = 0, nu = 0, n = 0, nopen_loop = 0;
	unsigned deepest = 0;
	int same_depth = 1;
	struct report_worst *w;
	char buf[512], x[32], why[160];
	struct sbuf sb;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		unsigned d = a->rps->pts[a->rps->npts - 1].depth;

		npts += a->rps->npts;
		nu += a->nunstable;
		/* An open loop has no saturation over depths to find. */
		if (isfinite(report_rate(o, a->rps))) {
			nopen_loop++;
			continue;
		}
		if (a->saturated != KNEE_SAT_NO)
			continue;
		same_depth &= nopen == 0 || d == deepest;
		deepest = d;
		nopen++;
	}
	if (nopen > 0) {
		if (same_depth)
			snprintf(buf, sizeof buf, "%zu of %zu series not saturated by P=%u: sweep deeper",
				 nopen, r->nseries - nopen_loop, deepest);
		else
			snprintf(buf, sizeof buf, "%zu of %zu series not saturated by their deepest depth: "
				 "sweep deeper", nopen, r->nseries - nopen_loop);
		v[n++] = xstrdup(buf);
	}
	if (nu == 0)
		return n;
	w = xcalloc(nu, sizeof *w);
	nu = 0;
	for (size_t i = 0; i < r->nseries; i++)
		for (size_t k = 0; k < r->series[i].nunstable; k++) {
			w[nu].series = i;
			w[nu++].u = &r->series[i].unstable[k];
			count[r->series[i].unstable[k].cause.kind]++;
		}
	sbuf_fixed(&sb, buf, sizeof buf);
	sbuf_printf(&sb, "unstable: %zu of %zu points (CV above %s%%); causes: ", nu, npts,
		    report_fnum(x, sizeof x, 100 * o->cv_limit, 1));
	for (int c = 0, first = 1; c <= CAUSE_UNKNOWN; c++)
		if (count[c] > 0) {
			sbuf_printf(&sb, "%s%s at %zu", first ? "" : ", ", cause_name((enum cause_kind)c),
				    count[c]);
			first = 0;
		}
	if (nu > REPORT_UNSTABLE_LIST)
		sbuf_printf(&sb, "; worst:");
	v[n++] = xstrdup(buf);
	qsort(w, nu, sizeof *w, report_unstable_worst);
	for (size_t k = 0; k < nu && k < REPORT_UNSTABLE_LIST; k++) {
		const struct series *s = r->series[w[k].series].rps;

		cause_format(&w[k].u->cause, why, sizeof why);
		snprintf(buf, sizeof buf, "%s %s P=%u: CV %s%% over %zu repeats: %s", s->label, s->test,
			 w[k].u->depth, report_fnum(x, sizeof x, 100 * w[k].u->cv, 1), w[k].u->n, why);
		v[n++] = xstrdup(buf);
	}
	free(w);
	return n;
}

/* The note on an open-loop series' points whose achieved rate fell short
 * of the offered one, into buf; 0 when there are none. */
static int report_short_note(const struct series *s, char *buf, size_t size)
{
	struct sbuf b;
	size_t n = 0;

	sbuf_fixed(&b, buf, size);
	sbuf_printf(&b, "%s %s: the achieved rate fell short of the offered rate at P=", s->label,
		  s->test);
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].rate_short > 0)
			sbuf_printf(&b, "%s%u", n++ ? "," : "", s->pts[i].depth);
	sbuf_printf(&b, ": the server saturated below that rate");
	return n > 0;
}

/* The note on a series whose reads found nothing often (1% or more, by the
 * server's keyspace_misses), into buf; 0 when they did not, or the rows do
 * not say.  A read that misses costs the server less than one that hits,
 * and a GETBIT or HMGET that misses still gets a reply that is no nil. */
static int report_miss_note(const struct series *s, char *buf, size_t size)
{
	int64_t reads = 0, missed = 0, nils = 0;

	for (size_t i = 0; i < s->npts; i++) {
		if (s->pts[i].reads < 0)
			return 0;
		reads += s->pts[i].reads;
		missed += s->pts[i].read_misses;
		nils += s->pts[i].nils;
	}
	if (reads <= 0 || missed * 100 < reads)
		return 0;
	snprintf(buf, size, "%s %s: %.0f%% of its reads found nothing (the server's "
		 "keyspace_misses: %lld of %lld), %lld of them with a nil reply: a miss costs the "
		 "server less than a hit, so this rate is not one of reads that hit", s->label,
		 s->test, 100.0 * (double)missed / (double)reads, (long long)missed,
		 (long long)reads, (long long)(nils < missed ? nils : missed));
	return 1;
}

/* The rows report_busy_note can use (a cluster's, with a busy master),
 * sorted by label, test, depth, then file order: each series finds its
 * own with a binary search instead of a scan of every row, which made the
 * notes quadratic in the number of series (issue 25, T2). */
struct report_busy {
	const struct rs_rows *rows;
	const struct rs_rec **v;  /* by label, test, depth (report_busy_note
				   * moves a series' rows first among them) */
	size_t n;
};

static void report_busy_index(const struct rs_rows *rows, struct report_busy *b)
{
	b->rows = rows;
	b->v = NULL;
	b->n = 0;
	if (rows == NULL)
		return;
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), m = rows_fig(rows, r, ROW_MASTERS);

		if (!(m >= 2) || !(secs > 0) || isnan(rows_fig(rows, r, ROW_BUSY_CPU_S)) ||
		    isnan(rows_fig(rows, r, ROW_SERVER_CPU_S)) || r->extra->busy_master[0] == '\0')
			continue;
		if (b->v == NULL)
			b->v = xmalloc((rows->n - i) * sizeof *b->v);
		b->v[b->n++] = r;
	}
	if (b->n > 1)
		qsort(b->v, b->n, sizeof *b->v, rows_point_cmp);
}

/* A master limits a cluster when it is busy at least this much CPU and
 * this many times the mean of the others. */
#define REPORT_BUSY_CPU 0.8
#define REPORT_BUSY_CPU_TEXT "0.8"
#define REPORT_BUSY_TIMES 1.5

/* A cluster's series at depth (its saturation depth, else its deepest):
 * the busiest master (the rows' busy_master: the most server CPU), its
 * CPU and its share of the masters' (busy_cpu_s of server_cpu_s) against
 * an even share, the mean of the others, and whether it stands out: one
 * shard limits the cluster (REPORT_BUSY_CPU and REPORT_BUSY_TIMES), it
 * stands out below the limit, or none does (nor when the repeats name
 * different masters).  Means over the point's repeats.  Returns 1 with
 * the note in buf, or 0 for a series that is no cluster's. */
static int report_busy_note(const struct report_busy *idx, const struct series *s, unsigned depth,
			    char *buf, size_t size)
{
	const struct rs_rows *rows = idx->rows;
	double busy = 0, others = 0, masters = 0, total;
	char share[96] = "";
	const char *who = NULL;
	size_t n = 0, same = 0, lo = 0, hi = idx->n, first;

	if (rows == NULL || depth == 0)
		return 0;
	while (lo < hi) {        /* the first row of (label, test, depth) */
		size_t mid = lo + (hi - lo) / 2;
		const struct rs_rec *r = idx->v[mid];
		int c = strcmp(r->label, s->label);

		if (c == 0)
			c = strcmp(r->test, s->first->test);
		if (c == 0)
			c = (r->pipeline > depth) - (r->pipeline < depth);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	for (size_t i = lo; i < idx->n; i++) {
		const struct rs_rec *r = idx->v[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), m = rows_fig(rows, r, ROW_MASTERS);
		double b = rows_fig(rows, r, ROW_BUSY_CPU_S), all = rows_fig(rows, r, ROW_SERVER_CPU_S);

		if (r->pipeline != depth || strcmp(r->label, s->label) != 0 ||
		    strcmp(r->test, s->first->test) != 0)
			break;
		/* The series' own rows (of the axes it carries) first among the
		 * test's: a swap within rows of one sort key keeps the order. */
		if (!series_holds(s, rows, r))
			continue;
		idx->v[i] = idx->v[first + n];
		idx->v[first + n] = r;
		busy += b / secs;
		others += (all - b) / (m - 1) / secs;
		masters += m;
		n++;
	}
	if (n == 0)
		return 0;
	/* The master named most often (the first seen on a tie): n² in the
	 * repeats, a handful. */
	for (size_t i = first; i < first + n; i++) {
		size_t k = 0;

		for (size_t j = first; j < first + n; j++)
			k += strcmp(idx->v[i]->extra->busy_master,
				    idx->v[j]->extra->busy_master) == 0;
		if (k > same) {
			same = k;
			who = idx->v[i]->extra->busy_master;
		}
	}
	busy /= (double)n;
	others /= (double)n;
	masters /= (double)n;
	total = busy + (masters - 1) * others;
	if (total > 0)
		snprintf(share, sizeof share, " (%.0f%% of the masters' CPU, an even share being "
			 "%.0f%%)", 100 * busy / total, 100 / masters);
	if (same < n) {
		snprintf(buf, size, "%s %s: at P=%u the busiest master differs from repeat to repeat "
			 "(%s in %zu of %zu), at %.2f CPU on average while the others are at %.2f: none "
			 "stands out%s", s->label, s->test, depth, who, same, n, busy, others, share);
		return 1;
	}
	snprintf(buf, size, "%s %s: at P=%u %s at %.2f CPU while the others are at %.2f: %s%s",
		 s->label, s->test, depth, who, busy, others,
		 busy < REPORT_BUSY_TIMES * others ? "the busiest master, but none stands out" :
		 busy >= REPORT_BUSY_CPU ? "one shard limits this cluster" : "the busiest master "
		 "stands out, but below " REPORT_BUSY_CPU_TEXT " CPU it does not limit the cluster",
		 share);
	return 1;
}

struct mixshare **report_mixes(const struct analysis_result *r, const struct report_opts *o)
{
	struct mixshare **v = xcalloc(r->nseries ? r->nseries : 1, sizeof *v);
	const struct rs_rec **idx;
	size_t n = mixshare_index(o->rows, &idx);

	/* Most files hold no mix: nothing to search. */
	for (size_t i = 0; n > 0 && i < r->nseries; i++) {
		struct mixshare *m = xmalloc(sizeof *m);

		mixshare_init(m);
		if (mixshare_series(m, o->rows, idx, n, r->series[i].rps) > 0)
			v[i] = m;
		else
			free(m);
	}
	free(idx);
	return v;
}

void report_free_mixes(struct mixshare **v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* Under --key-prefix the server held other data: one note a label whose
 * rows say so, into v.  Returns how many (at most max). */
static size_t report_prefix_notes(const struct rs_rows *rows, char **v, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; rows != NULL && i < rows->n && n < max; i++) {
		const struct rs_rec *row = &rows->v[i];
		char buf[512];
		size_t k = 0;

		if (row->server->key_prefix[0] == '\0')
			continue;
		/* Labels are interned: one pointer a label. */
		while (k < i && (rows->v[k].label != row->label ||
				 rows->v[k].server->key_prefix[0] == '\0'))
			k++;
		if (k < i)
			continue;
		snprintf(buf, sizeof buf, "%s: measured under --key-prefix '%s' on a server that holds "
			 "other data: its server CPU and call counts include other clients' work",
			 row->label, row->server->key_prefix);
		v[n++] = xstrdup(buf);
	}
	return n;
}

/* A run with replicas (run --replica, --spawn-replicas): one note a label
 * whose rows give the replication lag (repl_lag), into v: where its reads
 * went and the most bytes a replica stood behind the primary right after
 * a point, at which point.  Returns how many (at most max). */
static size_t report_replica_notes(const struct rs_rows *rows, char **v, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; rows != NULL && i < rows->n && n < max; i++) {
		const struct rs_rec *row = &rows->v[i], *worst = row;
		double lag = rows_fig(rows, row, ROW_REPL_LAG);
		char buf[512];
		size_t k = 0;

		if (isnan(lag))
			continue;
		/* Labels are interned: one pointer a label; its first row with a lag. */
		while (k < i && (rows->v[k].label != row->label ||
				 isnan(rows_fig(rows, &rows->v[k], ROW_REPL_LAG))))
			k++;
		if (k < i)
			continue;
		for (size_t j = i + 1; j < rows->n; j++) {
			double l = rows_fig(rows, &rows->v[j], ROW_REPL_LAG);

			if (rows->v[j].label == row->label && l > lag) {
				lag = l;
				worst = &rows->v[j];
			}
		}
		if (lag > 0)
			snprintf(buf, sizeof buf, "%s: read tests from %s (--read-from); replication lag "
				 "at most %.0f bytes right after a point (%s P=%u): the replicas "
				 "were behind the primary", row->label,
				 row_read_from_name(row->read_from), lag, worst->test, worst->pipeline);
		else
			snprintf(buf, sizeof buf, "%s: read tests from %s (--read-from); no replication "
				 "lag right after any point (every replica at the primary's offset)",
				 row->label, row_read_from_name(row->read_from));
		v[n++] = xstrdup(buf);
	}
	return n;
}

/* The note of a series whose low deep end was no evidence of a fall
 * (knee_result.fall_unstable): its unstable depths past the peak, their
 * largest CV, and what to do. */
static void report_note_unstable_end(const struct analysis_series *a, char *buf, size_t size)
{
	const struct series *s = a->rps;
	const struct knee_result *k = &a->knee.res;
	char list[256] = "";
	size_t len = 0, shown = 0;
	double worst = 0;

	for (size_t i = 0; i < s->npts; i++) {
		if (s->pts[i].depth <= k->fall_after || !(s->pts[i].n > 1 && s->pts[i].cv > KNEE_UNSTABLE_CV))
			continue;
		if (s->pts[i].cv > worst)
			worst = s->pts[i].cv;
		if (shown < 6 && len < sizeof list - 16)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%u",
						shown ? ", " : "", s->pts[i].depth);
		else if (shown == 6)
			len += (size_t)snprintf(list + len, sizeof list - len, ", ...");
		shown++;
	}
	snprintf(buf, size, "%s %s: %s, the deepest points unstable (P=%s: CV up to %.0f%%): "
		 "their low throughput is within their own noise, not a fall; measure them again "
		 "(--repeat 5)", s->label, s->test, a->saturated == KNEE_SAT_NO ? "not saturated" :
		 "saturation judged without them", list, 100 * worst);
}

size_t report_notes(const struct analysis_result *r, const struct report_opts *o,
			   char ***out)
{
	/* At most nine notes a series and its unstable points, and one for
	 * them all: room for them at once, not a reallocation a note. */
	char **v = xcalloc((9 + REPORT_UNSTABLE_LIST) * r->nseries + 3 * r->nlabels +
			   REPORT_UNSTABLE_LIST + 4, sizeof *v);
	size_t n = 0;
	const char *base_client;
	long other;
	struct report_busy busy;
	size_t nclosed = 0, nsingle = 0;
	struct mixshare **mixes;

	report_busy_index(o->rows, &busy);
	mixes = report_mixes(r, o);
	/* The closed loops', and those of one depth: an open loop's series
	 * (report_rate) has no saturation, gain or model to speak of. */
	for (size_t i = 0; i < r->nseries; i++)
		if (!isfinite(report_rate(o, r->series[i].rps))) {
			nclosed++;
			nsingle += r->series[i].rps->npts == 1;
		}
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		const struct series *s = a->rps;
		int open = isfinite(report_rate(o, s));
		char buf[512], x[32];

		buf[0] = '\0';
		/* A mix first: what the series measured, before how it came out. */
		if (mixes[i] != NULL) {
			char words[2048], *line;
			size_t len;

			mixshare_words(mixes[i], words, sizeof words);
			len = strlen(s->label) + strlen(s->test) + strlen(words) + 4;
			line = xmalloc(len);
			snprintf(line, len, "%s %s: %s", s->label, s->test, words);
			v[n++] = line;
		}
		/* When every series has one depth, one note says it for all. */
		if (open || (s->npts == 1 && nsingle == nclosed))
			;
		else if (s->npts == 1)
			snprintf(buf, sizeof buf, "%s %s: one depth only (P=%u): no saturation to find",
				 s->label, s->test, s->pts[0].depth);
		else if (a->fit.status == FIT_TOO_FEW)
			snprintf(buf, sizeof buf, "%s %s: %zu depths are too few to fit the throughput model",
				 s->label, s->test, s->npts);
		else if (a->fit.status == FIT_POOR)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model does not fit (R² %s < %.1f): no asymptote given",
				 s->label, s->test, report_fnum(x, sizeof x, a->fit.r2, 3), ANALYSIS_MIN_R2);
		else if (a->fit.status == FIT_FALLS)
			snprintf(buf, sizeof buf,
				 "%s %s: throughput falls after its peak: highest measured %s rps at P=%u "
				 "(the model never falls: no asymptote given)", s->label, s->test,
				 report_fnum(x, sizeof x, a->top_rps, 0), a->top_depth);
		else if (a->fit.status == FIT_PATTERN)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model misses the curve's shape (a sharper or "
				 "softer knee): no asymptote given", s->label, s->test);
		else if (a->fit.status == FIT_NONPOSITIVE)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model does not fit (no positive asymptote)",
				 s->label, s->test);
		if (buf[0]) {
			v[n++] = xstrdup(buf);
		}
		if (!open && a->knee.ok && a->knee.res.fall_unstable) {
			report_note_unstable_end(a, buf, sizeof buf);
			v[n++] = xstrdup(buf);
		}
		/* No interval anywhere: say why, rather than leave cells blank. */
		if (!open && s->npts > 1 && a->knee.ok && a->knee.res.noise == KNEE_NOISE_NONE) {
			snprintf(buf, sizeof buf, "%s %s: one measurement at each of %zu depths is too "
				 "little to learn the noise from: no intervals (measure with --repeat 3)",
				 s->label, s->test, s->npts);
			v[n++] = xstrdup(buf);
		}
		if (!open && a->knee.ok && a->knee.res.peak_median) {
			snprintf(buf, sizeof buf,
				 "%s %s: the fitted level lay below every measurement of the deepest %d "
				 "depths: no honest level from %zu depths, so the peak is the highest "
				 "median (%s rps at P=%u)", s->label, s->test,
				 (int)(s->npts < KNEE_SHORT_TOP ? s->npts : KNEE_SHORT_TOP), s->npts,
				 report_fnum(x, sizeof x, a->peak_rps, 0), a->peak_depth);
			v[n++] = xstrdup(buf);
		}
		/* Narrow: the table says it, and one line counts them. */
		if (!open && a->saturated == KNEE_SAT_NO && o->wide) {
			snprintf(buf, sizeof buf, "%s %s: not saturated by P=%u: sweep deeper", s->label,
				 s->test, s->pts[s->npts - 1].depth);
			v[n++] = xstrdup(buf);
		}
		if (o->wide)
			n += report_unstable_notes(a, o, v + n);
		if (report_short_note(s, buf, sizeof buf))
			v[n++] = xstrdup(buf);
		if (report_miss_note(s, buf, sizeof buf))
			v[n++] = xstrdup(buf);
		/* Unsaturated or an open loop: no saturation depth, so the deepest. */
		if (report_busy_note(&busy, s, a->sat_depth && !open ? a->sat_depth :
				     s->pts[s->npts - 1].depth, buf, sizeof buf))
			v[n++] = xstrdup(buf);
	}
	if (nclosed > 0 && nsingle == nclosed) {
		v[n++] = xstrdup(nclosed == r->nseries ? "every series has one depth: no saturation "
				 "depth or model fit, comparisons only" : "every closed-loop series has "
				 "one depth: no saturation depth or model fit, comparisons only");
	}
	if (!o->wide)
		n += report_summary_notes(r, o, v + n);
	for (size_t k = 0; (other = analysis_other_client(r, k, &base_client)) >= 0; k++) {
		char buf[512];

		report_client_note(r, (size_t)other, base_client, buf, sizeof buf);
		v[n++] = xstrdup(buf);
	}
	n += report_prefix_notes(o->rows, v + n, r->nlabels);
	n += report_replica_notes(o->rows, v + n, r->nlabels);
	{
		char buf[512];

		if (report_place_note(o->rows, buf, sizeof buf))
			v[n++] = xstrdup(buf);
	}
	free(busy.v);
	report_free_mixes(mixes, r->nseries);
	*out = v;
	return n;
}

void report_free_notes(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
