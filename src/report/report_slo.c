/* report_slo.c: run --slo's answers in words and a table
 * (report_slo.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "base/sbuf.h"
#include "report/report_slo.h"

/* A rate as people say it: 950, 95.2k, 1.25M. */
static const char *report_slo_rate(double v, char *buf, size_t size)
{
	if (!(v > 0))
		snprintf(buf, size, "-");
	else if (v >= 1e6)
		snprintf(buf, size, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, size, "%.3gk", v / 1e3);
	else
		snprintf(buf, size, "%.0f", v);
	return buf;
}

/* "p99" of the objective's first percentile, for the columns' names. */
static void report_slo_pname(const char *slo, char *buf, size_t size)
{
	size_t n = strcspn(slo, "=");

	snprintf(buf, size, "%.*s", (int)(n < 8 ? n : 8), slo);
}

char *report_slo_sentence(const struct slo_group *g, char *buf, size_t size)
{
	char a[16], b[16], c[16], pn[16];
	struct sbuf s;

	sbuf_fixed(&s, buf, size);
	buf[0] = '\0';
	report_slo_pname(g->slo, pn, sizeof pn);
	sbuf_printf(&s, "%s: ", g->test);
	if (g->best == g->nd) {
		sbuf_printf(&s, "no depth met %s at any rate probed", g->slo);
	} else {
		const struct slo_depth *d = &g->d[g->best];

		sbuf_printf(&s, "P=%u sustains %s req/s", d->depth, report_slo_rate(d->met, a, sizeof a));
		if (d->missed > 0)
			sbuf_printf(&s, " (%s..%s)", report_slo_rate(d->met, b, sizeof b),
				    report_slo_rate(d->missed, c, sizeof c));
		else
			sbuf_printf(&s, " (no higher rate was shown to miss)");
		sbuf_printf(&s, " within %s", g->slo);
		if (isfinite(d->ms))
			sbuf_printf(&s, " (%s %.3g ms there, 95%% interval %.3g..%.3g)",
				    strchr(g->slo, ',') ? "the percentile nearest its budget" : pn,
				    d->ms, d->lo_ms, d->hi_ms);
		if (g->second < g->nd)
			sbuf_printf(&s, "; P=%u gives %s (%.2fx)", g->d[g->second].depth,
				    report_slo_rate(g->d[g->second].met, b, sizeof b),
				    g->d[g->second].met / d->met);
		/* Deeper depths the server, not the generator, held lower. */
		size_t deeper = 0;

		for (size_t k = g->best + 1; k < g->nd; k++)
			deeper += g->d[k].generator <= 0;
		if (deeper > 0)
			sbuf_printf(&s, "; deeper pipelines add latency faster than throughput");
		else if (g->best + 1 == g->nd && g->nd > 1)
			sbuf_printf(&s, "; the deepest depth measured gives the most: deeper may give "
				    "more");
	}
	/* The depths whose search the generator ended: their rate is a
	 * floor of the server's, not its answer. */
	for (size_t k = 0, n = 0; k < g->nd; k++) {
		const struct slo_depth *d = &g->d[k];

		if (d->generator <= 0)
			continue;
		sbuf_printf(&s, "%s P=%u from %s/s (send slip p99 %.3g ms)",
			    n++ ? "," : "; rsweep's own load generation, not the server, was the limit at",
			    d->depth, report_slo_rate(d->generator, a, sizeof a), d->slip_p99_ms);
	}
	for (size_t k = 0; k < g->nd; k++)
		if (g->d[k].generator > 0) {
			sbuf_printf(&s, ": those rates are floors; give the generator more (--threads, "
				    "agents)");
			break;
		}
	sbuf_printf(&s, ".");
	return buf;
}

/* One depth's row of the table. */
static void report_slo_row(FILE *fp, const struct slo_group *g, size_t k, int md)
{
	const struct slo_depth *d = &g->d[k];
	char a[16], b[16], c[16], s[16], ms[48], note[96], who[160];

	report_slo_rate(d->start_rps, s, sizeof s);
	report_slo_rate(d->met, a, sizeof a);
	if (d->met > 0 || d->missed > 0)
		snprintf(ms, sizeof ms, "%s..%s", report_slo_rate(d->met, b, sizeof b),
			 d->missed > 0 ? report_slo_rate(d->missed, c, sizeof c) : "?");
	else
		snprintf(ms, sizeof ms, "-");
	snprintf(note, sizeof note, "%s%s", k == g->best ? "best" : "",
		 d->generator > 0 ? (k == g->best ? "; generator-limited" : "generator-limited") :
		 "");
	if (g->axes && g->server_args[0] != '\0')
		snprintf(who, sizeof who, "%s [%s] c=%d t=%d d=%d", g->label, g->server_args,
			 (int)g->clients, (int)g->threads, (int)g->data_size);
	else if (g->axes)
		snprintf(who, sizeof who, "%s c=%d t=%d d=%d", g->label, (int)g->clients,
			 (int)g->threads, (int)g->data_size);
	else
		snprintf(who, sizeof who, "%s", g->label);
	if (md) {
		fprintf(fp, "| %s | %s | %u | %s | %s | %s | ", who, g->test, d->depth, s, a, ms);
		if (isfinite(d->ms))
			fprintf(fp, "%.3f (%.3f..%.3f)", d->ms, d->lo_ms, d->hi_ms);
		else
			fputs("-", fp);
		fprintf(fp, " | %u | %s |\n", d->probes, note);
		return;
	}
	fprintf(fp, "%-16s %-12s %5u %9s %9s %17s ", who, g->test, d->depth, s, a, ms);
	if (isfinite(d->ms))
		snprintf(ms, sizeof ms, "%.3f (%.3f..%.3f)", d->ms, d->lo_ms, d->hi_ms);
	else
		snprintf(ms, sizeof ms, "-");
	fprintf(fp, "%-26s %6u  %s\n", ms, d->probes, note);
}

void report_slo_write(FILE *fp, const struct slo_answers *a, int md)
{
	const char *slo = NULL;
	char buf[1024], pn[16];

	if (a->n == 0)
		return;
	for (size_t i = 0; i < a->n; i++) {
		size_t seen = 0;

		while (seen < i && strcmp(a->v[seen].slo, a->v[i].slo) != 0)
			seen++;
		if (seen < i)
			continue;
		slo = a->v[i].slo;
		report_slo_pname(slo, pn, sizeof pn);
		if (md)
			fprintf(fp, "\n## Within %s (--slo)\n\nThe highest offered rate each depth "
				"sustained, between the highest that met the objective and the lowest "
				"that did not; the judged percentile at it with its 95%% interval (ms).\n\n"
				"| label | test | depth | closed loop | sustained | met..missed | %s ms "
				"| probes | |\n| --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- |\n",
				slo, pn);
		else
			fprintf(fp, "\nWithin %s (--slo): the highest offered rate each depth sustained "
				"(met..missed: the bracket), the judged percentile there (ms, 95%% "
				"interval)\n%-16s %-12s %5s %9s %9s %17s %-26s %6s\n", slo, "label", "test",
				"depth", "closed", "sustained", "met..missed", pn, "probes");
		for (size_t j = i; j < a->n; j++)
			for (size_t k = 0; strcmp(a->v[j].slo, slo) == 0 && k < a->v[j].nd; k++)
				report_slo_row(fp, &a->v[j], k, md);
		fputs("\n", fp);
		for (size_t j = i; j < a->n; j++) {
			const struct slo_group *g = &a->v[j];

			if (strcmp(g->slo, slo) != 0)
				continue;
			if (g->axes)
				fprintf(fp, "%s%s%s%s%s -c %d --threads %d -d %d: ", md ? "- " : "",
					g->label, g->server_args[0] ? " [" : "", g->server_args,
					g->server_args[0] ? "]" : "", (int)g->clients, (int)g->threads,
					(int)g->data_size);
			else
				fprintf(fp, "%s%s ", md ? "- " : "", g->label);
			fprintf(fp, "%s\n", report_slo_sentence(g, buf, sizeof buf));
		}
	}
}

void report_slo_write_json(FILE *fp, const struct slo_answers *a)
{
	char buf[1024];

	fputs("\"slo\":[", fp);
	for (size_t i = 0; i < a->n; i++) {
		const struct slo_group *g = &a->v[i];

		fputs(i ? ",\n{\"label\":" : "\n{\"label\":", fp);
		json_write_str(fp, g->label);
		fputs(",\"test\":", fp);
		json_write_str(fp, g->test);
		fputs(",\"objective\":", fp);
		json_write_str(fp, g->slo);
		fprintf(fp, ",\"clients\":%d,\"threads\":%d,\"data_size\":%d", (int)g->clients,
			(int)g->threads, (int)g->data_size);
		if (g->best < g->nd)
			fprintf(fp, ",\"best_depth\":%u", g->d[g->best].depth);
		else
			fputs(",\"best_depth\":null", fp);
		fputs(",\"sentence\":", fp);
		json_write_str(fp, report_slo_sentence(g, buf, sizeof buf));
		fputs(",\"depths\":[", fp);
		for (size_t k = 0; k < g->nd; k++) {
			const struct slo_depth *d = &g->d[k];

			fprintf(fp, "%s{\"depth\":%u", k ? "," : "", d->depth);
			json_write_num(fp, "closed_rps", d->start_rps, 2);
			json_write_num(fp, "sustained_rps", d->met, 2);
			json_write_num(fp, "missed_rps", d->missed, 2);
			json_write_num(fp, "ms", d->ms, 4);
			json_write_num(fp, "lo_ms", d->lo_ms, 4);
			json_write_num(fp, "hi_ms", d->hi_ms, 4);
			json_write_num(fp, "generator_rps", d->generator, 2);
			json_write_num(fp, "generator_slip_p99_ms", d->slip_p99_ms, 4);
			fprintf(fp, ",\"probes\":%u,\"unsure\":%u}", d->probes, d->unsure);
		}
		fputs("]}", fp);
	}
	fputs("]", fp);
}
