/* report_gate.c: the verdicts a CI reads: --fail-on, the exit status it
 * decides, and the short verdict table a pull-request comment opens with. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "report/report.h"
#include "report/report_int.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

int report_fail_on_parse(const char *spec, double *pct, struct rs_err *err)
{
	const char *colon = strchr(spec, ':'), *p;
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec), digits = 0;

	*pct = 0;
	if (n != 6 || strncmp(spec, "slower", 6) != 0)
		return rs_err_set(err, "'%s' is not slower or slower:PCT", spec);
	if (colon == NULL)
		return 0;
	/* Plain decimal digits, an optional fraction and '%': strtod alone
	 * took "0x10" as 16 and " 5" as 5. */
	for (p = colon + 1; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (digits > 0 && *p == '.') {
		const char *f = ++p;

		while (*p >= '0' && *p <= '9')
			p++;
		if (p == f)
			digits = 0;
	}
	if (digits == 0 || (*p != '\0' && strcmp(p, "%") != 0) ||
	    num_parse_double_n(colon + 1, (size_t)(p - colon - 1), pct) < 0 || !(*pct < 100))
		return rs_err_set(err, "'%s': PCT must be a percentage from 0 to below 100 in "
				  "decimal digits (5, 2.5 or 5%%)", spec);
	return 0;
}

/* Whether d fails --fail-on slower:pct: slower by the one verdict rule,
 * and with pct its whole interval below 1 - pct / 100. */
static int report_fails(const struct analysis_delta *d, double pct)
{
	return d->valid && d->verdict == KNEE_SLOWER && d->ci.hi < 1 - pct / 100;
}

int report_fail_on_check(const struct analysis_result *r, double pct, struct rs_err *err)
{
	struct sbuf b;
	char msg[RS_ERR_LEN], x[32], ci[96];
	size_t nfail = 0;

	/* Nothing compared passes no gate: a new run that wrote nothing, or
	 * the wrong file, leaves only the baseline's rows. */
	if (r->ncmps == 0)
		return rs_err_setk(err, RS_E_INPUT, "--fail-on: nothing to compare: every series is "
				   "%s's (the baseline); is the new run's file empty, or another?",
				   r->baseline);
	for (size_t i = 0; i < r->ncmps; i++)
		if (analysis_cmp_delta(r, &r->cmps[i])->valid)
			break;
		else if (i + 1 == r->ncmps)
			return rs_err_setk(err, RS_E_INPUT, "--fail-on: nothing to compare at "
					   "pipeline depth %u: no label has a point there beside %s's",
					   r->depth, r->baseline);
	sbuf_fixed(&b, msg, sizeof msg);
	for (size_t i = 0; i < r->ncmps; i++) {
		const struct analysis_cmp *c = &r->cmps[i];
		const struct analysis_delta *d = analysis_cmp_delta(r, c);

		if (!report_fails(d, pct))
			continue;
		sbuf_item(&b, ", ", "%s %s %sx (%s)", r->series[c->other].rps->label,
			  r->series[c->other].rps->test, analysis_fmt_ratio(x, sizeof x, d->ratio),
			  report_fratio_ci(ci, sizeof ci, &d->ci));
		nfail++;
	}
	if (nfail == 0)
		return 0;
	if (pct > 0)
		snprintf(x, sizeof x, " by more than %g%%", pct);
	else
		x[0] = '\0';
	rs_err_setk(err, RS_E_REGRESSION, "--fail-on: %zu comparison%s slower than %s%s: %s%s",
		    nfail, nfail == 1 ? "" : "s", r->baseline, x, msg, b.cut ? "..." : "");
	return -1;
}

/* Slower first (the worst ratio first), then slower by an unsure amount,
 * cannot tell, then the rest. */
static int report_gate_rank(const struct analysis_delta *d)
{
	switch (d->verdict) {
	case KNEE_SLOWER: return 0;
	case KNEE_SLOWER_UNSURE: return 1;
	case KNEE_CANNOT_TELL: return 2;
	case KNEE_FASTER_UNSURE: return 3;
	case KNEE_FASTER: return 4;
	case KNEE_SAME: return 5;
	case KNEE_UNKNOWN: break;
	}
	return 6;
}

struct report_gate_row {
	const struct analysis_cmp *c;
	const struct analysis_delta *d;
};

static int report_gate_cmp(const void *pa, const void *pb)
{
	const struct report_gate_row *a = pa, *b = pb;
	int ra = report_gate_rank(a->d), rb = report_gate_rank(b->d);

	if (ra != rb)
		return ra - rb;
	if (a->d->ratio != b->d->ratio)
		return a->d->ratio < b->d->ratio ? -1 : 1;
	return (a->c > b->c) - (a->c < b->c);
}

void report_verdict_table(FILE *fp, const struct analysis_result *r)
{
	struct report_gate_row *v;
	size_t ns = 0;

	if (r->ncmps == 0)
		return;
	v = xcalloc(r->ncmps, sizeof *v);
	for (size_t i = 0; i < r->ncmps; i++) {
		v[i].c = &r->cmps[i];
		v[i].d = analysis_cmp_delta(r, &r->cmps[i]);
		ns += v[i].d->verdict == KNEE_SLOWER;
	}
	qsort(v, r->ncmps, sizeof *v, report_gate_cmp);
	fprintf(fp, "## Verdicts against %s", r->baseline);
	if (r->depth)
		fprintf(fp, " at pipeline depth %u\n\n", r->depth);
	else
		fputs(", peak to peak\n\n", fp);
	fprintf(fp, "%zu slower, %zu compared.\n\n", ns, r->ncmps);
	fputs("| test | label | ratio | 95% interval | verdict |\n|---|---|--:|--:|---|\n", fp);
	for (size_t i = 0; i < r->ncmps; i++) {
		char x[32], ci[96], w[64];

		fprintf(fp, "| %s | %s | %sx | %s | %s%s%s |\n", r->series[v[i].c->other].rps->test,
			r->series[v[i].c->other].rps->label,
			analysis_fmt_ratio(x, sizeof x, v[i].d->ratio),
			report_fratio_ci(ci, sizeof ci, &v[i].d->ci),
			v[i].d->verdict == KNEE_SLOWER ? "**" : "",
			report_verdict_words(w, sizeof w, v[i].d),
			v[i].d->verdict == KNEE_SLOWER ? "**" : "");
	}
	fputc('\n', fp);
	free(v);
}
