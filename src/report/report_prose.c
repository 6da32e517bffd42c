/* report_prose.c: a comparison as the sentence a reader quotes: every
 * difference with its ratio, its interval and the one verdict rule's word
 * beside it (knee_verdict_of), also with one measurement a side; at P=1,
 * at the peaks and along the depths the two labels share, or at --depth
 * alone. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/report_int.h"

/* Most runs of one verdict along the depths told one by one; past it the
 * depths are counted by verdict. */
#define PROSE_MAX_SEGMENTS 4

/* A ratio's estimate and ends, each into a buffer of 32. */
static void prose_ci(const struct stats_ci *ci, char *x, char *y, char *z)
{
	analysis_fmt_ratio(x, 32, ci->est);
	if (isfinite(ci->lo) && isfinite(ci->hi) && ci->hi > ci->lo) {
		report_ratio_ends(ci, y, z);
	} else {
		analysis_fmt_ratio(y, 32, ci->lo);
		analysis_fmt_ratio(z, 32, ci->hi);
	}
}

/* Whether the point of s at depth was measured more than once. */
static int prose_repeated(const struct series *s, unsigned depth)
{
	const struct series_point *p = s != NULL ? series_at(s, depth) : NULL;

	return p != NULL && p->n > 1;
}

/* Whether d has no interval because nothing varied (identical repeats, or
 * series whose noise the core knows to be zero), not for want of
 * measurements. */
static int prose_no_spread(const struct analysis_result *r, const struct analysis_cmp *c,
			   const struct analysis_delta *d)
{
	const struct analysis_series *sa = &r->series[c->other], *sb = &r->series[c->base];

	if (prose_repeated(sa->rps, d->depth) && prose_repeated(sb->rps, d->base_depth))
		return 1;
	return sa->knee.ok && sb->knee.ok && sa->knee.res.noise != KNEE_NOISE_NONE &&
	       sb->knee.res.noise != KNEE_NOISE_NONE;
}

/* The throughput part of c's sentence for delta d, where (" at P=1",
 * " at the peaks (...)", or "") after its numbers. */
static void prose_thr(const struct analysis_result *r, const struct analysis_cmp *c,
		      const struct analysis_delta *d, const char *where, char *buf, size_t size)
{
	char k[64], x[32], y[32], z[32], sp[32];
	const char *dir = d->d_rps >= 0 ? "higher" : "lower";

	report_fshort(k, sizeof k, d->d_rps / 1000, 2);
	prose_ci(&d->ci, x, y, z);
	switch (d->verdict) {
	case KNEE_FASTER:
	case KNEE_SLOWER:
		snprintf(buf, size, "a %sk %s throughput (%sx, 95%% interval %sx..%sx: %s)%s", k, dir,
			 x, y, z, knee_verdict_name(d->verdict), where);
		break;
	case KNEE_FASTER_UNSURE:
	case KNEE_SLOWER_UNSURE:
		snprintf(buf, size, "a %sk %s throughput (%sx, 95%% interval %sx..%sx: %s, by how "
			 "much is unsure)%s", k, dir, x, y, z,
			 d->verdict == KNEE_FASTER_UNSURE ? "faster" : "slower", where);
		break;
	case KNEE_SAME:
		snprintf(buf, size, "the same throughput (%sx, 95%% interval %sx..%sx, within "
			 UTF8_PLUSMINUS "%.0f%%)%s", x, y, z, 100 * KNEE_CMP_BAND, where);
		break;
	case KNEE_CANNOT_TELL:
		report_fshort(sp, sizeof sp, report_halfwidth(&d->ci), 0);
		snprintf(buf, size, "a %sk %s throughput (%sx, 95%% interval %sx..%sx, "
			 UTF8_PLUSMINUS "%s%%: cannot tell)%s", k, dir, x, y, z, sp, where);
		break;
	case KNEE_UNKNOWN:
		if (prose_no_spread(r, c, d))
			snprintf(buf, size, "a %sk %s throughput (%sx; the measurements do not "
				 "vary at all: no interval, cannot tell)%s", k, dir, x, where);
		else
			/* The doubt is said once, at the sentence's end
			 * (prose_one_each). */
			snprintf(buf, size, "a %sk %s throughput (%sx)%s", k, dir, x, where);
		break;
	}
}

/* The latency's part of c's sentence into latw (size): at one common
 * depth, named when it is not the throughput's; every difference with its
 * verdict; nothing for one measurement a side (the throughput's words say
 * it); of the average, or of the p50 as d->lat_metric says. */
static void prose_latency(const struct analysis_result *r, const struct analysis_cmp *c,
			  const struct analysis_delta *d, char *latw, size_t size)
{
	char at[2 * ROW_STR + 96] = "", lat[64], x[32], y[32], z[32];
	const struct analysis_series *sb = &r->series[c->base], *sa = &r->series[c->other];
	unsigned deeper = sb->sat_depth > sa->sat_depth ? sb->sat_depth : sa->sat_depth;
	const struct analysis_series *open = sb->saturated == KNEE_SAT_NO ? sb : sa;
	/* The rows' average, or their p50 where a side has none (an imported
	 * redis-benchmark -q run): the words say which. */
	int p50 = d->lat_metric == SM_P50;
	const char *what = p50 ? "p50" : "average";
	const char *dir = d->d_avg >= 0 ? "higher" : "lower";

	latw[0] = '\0';
	if (!isfinite(d->d_avg))
		return;
	if (d->avg_verdict == KNEE_UNKNOWN &&
	    !(prose_repeated(p50 ? sa->p50 : sa->avg, d->avg_depth) &&
	      prose_repeated(p50 ? sb->p50 : sb->avg, d->avg_depth)))
		return;
	if (!r->depth && (d->base_depth != 1 || d->depth != 1)) {
		if (sb->saturated == KNEE_SAT_NO && sa->saturated == KNEE_SAT_NO)
			snprintf(at, sizeof at, " at P=%u (neither saturated by P=%u)", d->avg_depth,
				 d->avg_depth);
		else if (sb->saturated == KNEE_SAT_NO || sa->saturated == KNEE_SAT_NO)
			/* One saturation depth: the other is past the data. */
			snprintf(at, sizeof at, " at P=%u (%s%s; %s not saturated by P=%u)",
				 d->avg_depth, d->avg_depth == deeper ? "the saturation depth of "
				 : "the common depth nearest the saturation depth of ",
				 open == sb ? sa->rps->label : sb->rps->label, open->rps->label,
				 open->rps->pts[open->rps->npts - 1].depth);
		else
			snprintf(at, sizeof at, " at P=%u (%s)", d->avg_depth,
				 d->avg_depth == deeper ? "the deeper saturation depth"
				 : "the common depth nearest the deeper saturation depth");
	}
	report_fshort(lat, sizeof lat, d->d_avg, 3);
	prose_ci(&d->avg_ci, x, y, z);
	if (!isfinite(d->avg_ci.est))
		analysis_fmt_ratio(x, sizeof x, d->avg / d->base_avg);
	switch (d->avg_verdict) {
	case KNEE_FASTER:
	case KNEE_SLOWER:
		snprintf(latw, size, " and a %sms %s %s latency (%sx, 95%% interval %sx..%sx)%s",
			 lat, dir, what, x, y, z, at);
		break;
	case KNEE_FASTER_UNSURE:
	case KNEE_SLOWER_UNSURE:
		snprintf(latw, size, " and a %sms %s %s latency (%sx, 95%% interval %sx..%sx: "
			 "by how much is unsure)%s", lat, dir, what, x, y, z, at);
		break;
	case KNEE_SAME:
		snprintf(latw, size, ", with the same %s latency (%sx, 95%% interval "
			 "%sx..%sx)%s", what, x, y, z, at);
		break;
	case KNEE_CANNOT_TELL:
		snprintf(latw, size, ", with a %sms %s %s latency (%sx, 95%% interval %sx..%sx: "
			 "cannot tell)%s", lat, dir, what, x, y, z, at);
		break;
	case KNEE_UNKNOWN:
		/* Repeats that do not vary (redis-benchmark's p50 in steps of
		 * 8 us): no zero-width interval. */
		snprintf(latw, size, ", with a %sms %s %s latency (%sx; its repeats identical: "
			 "no interval)%s", lat, dir, what, x, at);
		break;
	}
}

/* A verdict's class along the depths: a direction whether or not its size
 * is sure (the unsure are named inside their run), the same, cannot tell,
 * no interval. */
enum prose_class { PC_FASTER, PC_SLOWER, PC_SAME, PC_CANNOT, PC_NONE, PC_N };

static enum prose_class prose_class_of(enum knee_verdict v)
{
	switch (v) {
	case KNEE_FASTER:
	case KNEE_FASTER_UNSURE: return PC_FASTER;
	case KNEE_SLOWER:
	case KNEE_SLOWER_UNSURE: return PC_SLOWER;
	case KNEE_SAME: return PC_SAME;
	case KNEE_CANNOT_TELL: return PC_CANNOT;
	case KNEE_UNKNOWN: break;
	}
	return PC_NONE;
}

static const char *const prose_class_words[PC_N] = { "faster", "slower", "the same",
						     "cannot tell", "no interval" };

/* ", the size unsure at P=12, 31" or " (the size unsure at 5 of them)"
 * for the unsure verdicts of k[i..j), into buf; "" when there are none;
 * all of them: *all set. */
static void prose_unsure(const unsigned *dep, const struct knee_cmp *k, size_t i, size_t j,
			 char *buf, size_t size, int *all)
{
	size_t n = 0, len;

	for (size_t q = i; q < j; q++)
		n += k[q].verdict == KNEE_FASTER_UNSURE || k[q].verdict == KNEE_SLOWER_UNSURE;
	buf[0] = '\0';
	*all = n == j - i;
	if (n == 0 || *all)
		return;
	if (n > 3) {
		snprintf(buf, size, "; by how much unsure at %zu of them", n);
		return;
	}
	len = (size_t)snprintf(buf, size, "; by how much unsure at P=");
	for (size_t q = i, m = 0; q < j && len < size; q++)
		if (k[q].verdict == KNEE_FASTER_UNSURE || k[q].verdict == KNEE_SLOWER_UNSURE)
			len += (size_t)snprintf(buf + len, size - len, "%s%u", m++ ? ", " : "", dep[q]);
}

/* Each common depth's verdict (analysis_point_ratio, the rule at one
 * depth) into v and k; returns how many (at most max). */
static size_t prose_along_points(const struct analysis_result *r, const struct analysis_cmp *c,
				 unsigned *dep, struct knee_cmp *k, size_t max)
{
	const struct analysis_series *sa = &r->series[c->other], *sb = &r->series[c->base];
	size_t n = 0;

	for (size_t i = 0; i < sa->rps->npts && n < max; i++) {
		unsigned d = sa->rps->pts[i].depth;

		if (series_at(sb->rps, d) == NULL ||
		    analysis_point_ratio(sa, d, sb, d, &k[n]) < 0)
			continue;
		if (!isfinite(k[n].ratio.lo))
			k[n].verdict = KNEE_UNKNOWN;
		dep[n++] = d;
	}
	return n;
}

/* "; along the 40 depths they share: faster at P=1..4 (1.30x-1.60x),
 * the same from P=16 on (0.99x-1.02x)" into buf: runs of one verdict
 * (a direction counts as one whether or not its size is sure, the unsure
 * named inside), or the depths counted by verdict when they change more
 * than PROSE_MAX_SEGMENTS times; "" when the labels share fewer than 3
 * depths, or none has an interval. */
static void prose_along(const struct analysis_result *r, const struct analysis_cmp *c, char *buf,
			size_t size)
{
	enum { MAXD = 512 };
	unsigned dep[MAXD];
	struct knee_cmp k[MAXD];
	size_t n = prose_along_points(r, c, dep, k, MAXD), nseg = 0, len;
	char un[96];
	int all;

	buf[0] = '\0';
	if (n < 3)
		return;
	for (size_t i = 0; i < n; i++)
		nseg += i == 0 || prose_class_of(k[i].verdict) != prose_class_of(k[i - 1].verdict);
	/* No interval at any depth: the sentence says why once. */
	if (nseg == 1 && k[0].verdict == KNEE_UNKNOWN)
		return;
	len = (size_t)snprintf(buf, size, "; along the %zu depths they share: ", n);
	if (nseg > PROSE_MAX_SEGMENTS) {
		int first = 1;

		for (int pc = 0; pc < PC_N; pc++) {
			size_t cnt = 0, unsure = 0;

			for (size_t i = 0; i < n; i++)
				if ((int)prose_class_of(k[i].verdict) == pc) {
					cnt++;
					unsure += k[i].verdict == KNEE_FASTER_UNSURE ||
						  k[i].verdict == KNEE_SLOWER_UNSURE;
				}
			if (cnt == 0 || len >= size)
				continue;
			len += (size_t)snprintf(buf + len, size - len, "%s%s at %zu depth%s",
						first ? "" : ", ", prose_class_words[pc], cnt,
						cnt == 1 ? "" : "s");
			if (unsure > 0 && len < size)
				len += (size_t)snprintf(buf + len, size - len, " (by how much unsure at "
							"%zu)", unsure);
			first = 0;
		}
		return;
	}
	for (size_t i = 0, s = 0; i < n; i = s) {
		enum prose_class pc = prose_class_of(k[i].verdict);
		double lo = INFINITY, hi = -INFINITY;
		char a[32], b[32], c3[32];
		const char *w = prose_class_words[pc];

		for (s = i; s < n && prose_class_of(k[s].verdict) == pc; s++) {
			lo = fmin(lo, k[s].ratio.est);
			hi = fmax(hi, k[s].ratio.est);
		}
		if (len >= size)
			break;
		prose_unsure(dep, k, i, s, un, sizeof un, &all);
		if (all && (pc == PC_FASTER || pc == PC_SLOWER))
			w = pc == PC_FASTER ? "faster by an unsure amount" : "slower by an unsure amount";
		if (s - i == 1) {
			prose_ci(&k[i].ratio, a, b, c3);
			if (k[i].verdict == KNEE_UNKNOWN)
				len += (size_t)snprintf(buf + len, size - len, "%s%s at P=%u (%sx)",
							i ? ", " : "", w, dep[i], a);
			else
				len += (size_t)snprintf(buf + len, size - len, "%s%s at P=%u (%sx, "
							"%sx..%sx)", i ? ", " : "", w, dep[i], a, b,
							c3);
		} else {
			analysis_fmt_ratio(a, sizeof a, lo);
			analysis_fmt_ratio(b, sizeof b, hi);
			if (s == n && i > 0)
				len += (size_t)snprintf(buf + len, size - len, ", %s from P=%u on "
							"(%sx-%sx%s)", w, dep[i], a, b, un);
			else
				len += (size_t)snprintf(buf + len, size - len, "%s%s at P=%u..%u "
							"(%sx-%sx%s)", i ? ", " : "", w, dep[i],
							dep[s - 1], a, b, un);
		}
	}
}

int report_prose(const struct analysis_result *r, const struct analysis_cmp *c, char *buf,
		 size_t size)
{
	const struct analysis_delta *d = analysis_cmp_delta(r, c);
	const struct series *b = r->series[c->base].rps, *a = r->series[c->other].rps;
	char thr[1024], thr1[1024] = "", where[2 * ROW_STR + 64] = "", along[1024] = "";
	char latw[2 * ROW_STR + 256] = "", tail[4 * ROW_STR + 256] = "", runs[96] = "";

	if (!d->valid)
		return snprintf(buf, size, "%s: %s has no point at pipeline depth %u to compare.",
				a->test, series_at(a, r->depth) ? b->label : a->label, r->depth);
	if (r->depth)
		snprintf(where, sizeof where, " at pipeline depth %u", r->depth);
	else if (d->base_depth != 1 || d->depth != 1)
		snprintf(where, sizeof where, " at the peaks (%s P=%u, %s P=%u)", a->label, d->depth,
			 b->label, d->base_depth);
	prose_thr(r, c, d, where, thr, sizeof thr);
	/* Without --depth, the words answer at the depths measured too: at
	 * P=1 beside the peaks, and along every depth the labels share. */
	if (!r->depth && where[0] != '\0') {
		if (c->at_1.valid)
			prose_thr(r, c, &c->at_1, " at P=1", thr1, sizeof thr1);
		prose_along(r, c, along, sizeof along);
	}
	if (d->verdict == KNEE_CANNOT_TELL)
		snprintf(tail, sizeof tail, c->runs_apart ? "; measure more runs (--runs) to tell" :
			 "; repeat the points to tell");
	else if (d->verdict == KNEE_UNKNOWN && !prose_no_spread(r, c, d))
		snprintf(tail, sizeof tail, ", one measurement a side%s: cannot tell whether it is the "
			 "difference between %s and %s or the machine's noise; measure again with "
			 "--repeat 5", a->npts > 1 || b->npts > 1 ? " at each depth" : "", a->label,
			 b->label);
	prose_latency(r, c, d, latw, sizeof latw);
	if (c->runs_known)
		snprintf(runs, sizeof runs, " (%zu run%s against %zu)", r->series[c->other].nruns,
			 r->series[c->other].nruns == 1 ? "" : "s", r->series[c->base].nruns);
	else if (c->runs_apart && d->verdict != KNEE_UNKNOWN)
		snprintf(runs, sizeof runs, " (one run each: the drift between runs is not in the "
			 "interval)");
	return snprintf(buf, size, "%s: %s showed %s%s%s%s%s%s%s.", a->test, a->label, thr1,
			thr1[0] ? " and " : "", thr, latw, along, tail, runs);
}

int report_overall_words(const struct analysis_result *r, size_t label_idx, int brief, char *buf,
			 size_t size)
{
	struct analysis_overall ov;
	const char *label = NULL, *verdict, *runs = "";
	char x[32], y[32], z[32], ci[96];

	buf[0] = '\0';
	if (analysis_overall(r, label_idx, &ov) < 0)
		return 0;
	for (size_t i = 0; i < r->ncmps && label == NULL; i++)
		if (r->series[r->cmps[i].other].rps->label_idx == label_idx) {
			label = r->series[r->cmps[i].other].rps->label;
			/* The drift between two runs moves every test alike: the
			 * tests' spread does not hold it. */
			if (r->cmps[i].runs_apart && !r->cmps[i].runs_known)
				runs = " (one run each: the drift between runs is not in the interval)";
		}
	prose_ci(&ov.gm, x, y, z);
	switch (ov.verdict) {
	case KNEE_FASTER_UNSURE: verdict = "faster, by how much is unsure"; break;
	case KNEE_SLOWER_UNSURE: verdict = "slower, by how much is unsure"; break;
	case KNEE_SAME: verdict = "the same"; break;
	default: verdict = knee_verdict_name(ov.verdict); break;
	}
	if (ov.verdict == KNEE_UNKNOWN)
		snprintf(ci, sizeof ci, "no interval");
	else
		snprintf(ci, sizeof ci, "%s%sx..%sx: %s", brief ? "" : "95% interval ", y, z,
			 verdict);
	if (brief)
		return snprintf(buf, size, "Overall: %sx (%s), the geometric mean of %zu tests; %zu "
				"faster, %zu slower, %zu the same, %zu undecided", x, ci, ov.n,
				ov.faster, ov.slower, ov.same, ov.undecided);
	return snprintf(buf, size, "Overall, %s showed %sx the throughput of %s (the geometric mean "
			"of %zu tests' ratios, %s); %zu test%s faster, %zu slower, %zu the same, %zu "
			"undecided%s.", label, x, r->baseline, ov.n, ci, ov.faster,
			ov.faster == 1 ? "" : "s", ov.slower, ov.same, ov.undecided, runs);
}
