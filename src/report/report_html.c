/* report_html.c: the report as one self-contained HTML page
 * (report_html.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_env.h"
#include "report/report_html.h"

void report_html_escape(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default:
			fputc(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c == 0x7f ? ' ' : c, fp);
		}
	}
}

static const char report_html_style[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;line-height:1.45;"
	"max-width:72rem;margin:0 auto;padding:1rem;color:#1a1a1a;background:#fff}\n"
	"h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}\n"
	"pre{overflow-x:auto;font-size:.78rem;background:#f6f6f6;padding:.6rem;line-height:1.3}\n"
	"figure{margin:1rem 0}figure svg{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.9rem;color:#444}\n"
	"table{border-collapse:collapse;font-size:.85rem;display:block;overflow-x:auto}\n"
	"th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}\n"
	"tr.differs td,tr.differs th{background:#fff3cd}\n"
	".answer p{font-size:1.05rem}\n"
	"@media print{body{max-width:none}pre{white-space:pre-wrap;overflow:visible}"
	"figure{break-inside:avoid}table{display:table}}\n";

/* The labels, "a, b and c", escaped. */
static void report_html_labels(FILE *fp, const struct report_opts *o)
{
	for (size_t i = 0; i < o->nenvs; i++) {
		fputs(i == 0 ? "" : i + 1 == o->nenvs ? " and " : ", ", fp);
		report_html_escape(fp, o->envs[i].label);
	}
}

/* The answer: the overall figure per label, each comparison's sentence;
 * without comparisons, the text report's saturation table says it (below). */
static void report_html_answer(FILE *fp, const struct analysis_result *r)
{
	char buf[2048];
	int any = 0;

	fputs("<section class=\"answer\" id=\"answer\">\n<h2>The answer</h2>\n", fp);
	for (size_t li = 0; li < r->nlabels; li++)
		if (report_overall_words(r, li, 0, buf, sizeof buf) > 0) {
			fputs("<p><strong>", fp);
			report_html_escape(fp, buf);
			fputs("</strong></p>\n", fp);
			any = 1;
		}
	for (size_t i = 0; i < r->ncmps; i++)
		if (report_prose(r, &r->cmps[i], buf, sizeof buf) > 0) {
			fputs(any++ ? "<p>" : "<p>", fp);
			report_html_escape(fp, buf);
			fputs("</p>\n", fp);
		}
	if (!any)
		fputs("<p>One label: each series' saturation is in the tables below.</p>\n", fp);
	fputs("</section>\n", fp);
}

/* The environments side by side, a row a field any label has, the rows
 * that differ marked. */
static void report_html_env(FILE *fp, const struct report_opts *o, int explain)
{
	char words[4096];
	size_t have = 0;

	for (size_t i = 0; i < o->nenvs; i++)
		have += o->envs[i].env != NULL;
	fputs("<section id=\"environment\">\n<h2>The environment</h2>\n", fp);
	if (have == 0) {
		fputs("<p>No environment was recorded with these results (an import, or a file "
		      "written before rsweep kept one).</p>\n</section>\n", fp);
		return;
	}
	report_env_words(o->envs, o->nenvs, explain, words, sizeof words);
	if (words[0] != '\0') {
		fputs("<p>", fp);
		report_html_escape(fp, words);
		fputs("</p>\n", fp);
	}
	fputs("<table>\n<tr><th></th>", fp);
	for (size_t i = 0; i < o->nenvs; i++) {
		fputs("<th>", fp);
		report_html_escape(fp, o->envs[i].label);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (size_t f = 0; report_env_fields[f].key != NULL; f++) {
		const char *key = report_env_fields[f].key;
		int any = 0;

		if (strcmp(key, "command") == 0)
			continue;
		for (size_t i = 0; i < o->nenvs; i++)
			any |= o->envs[i].env != NULL && runenv_get(o->envs[i].env, key)[0] != '\0';
		if (!any)
			continue;
		fprintf(fp, "<tr%s><th>", report_env_fields[f].explains >= 0 &&
			report_env_differs(o->envs, o->nenvs, key) ? " class=\"differs\"" : "");
		report_html_escape(fp, report_env_fields[f].name);
		fputs("</th>", fp);
		for (size_t i = 0; i < o->nenvs; i++) {
			const char *v = o->envs[i].env ? runenv_get(o->envs[i].env, key) : "";

			fputs("<td>", fp);
			report_html_escape(fp, v[0] ? v : o->envs[i].env != NULL &&
					   strcmp(key, "server_args") == 0 ? "none" : "unknown");
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n</section>\n", fp);
}

static void report_html_charts(FILE *fp, const struct report_html *h)
{
	if (h->ncharts == 0 && h->charts_note == NULL)
		return;
	fputs("<section id=\"charts\">\n<h2>The charts</h2>\n", fp);
	if (h->charts_note != NULL) {
		fputs("<p>", fp);
		report_html_escape(fp, h->charts_note);
		fputs("</p>\n", fp);
	}
	for (size_t i = 0; i < h->ncharts; i++) {
		const char *svg = strstr(h->charts[i].svg, "<svg");

		fputs("<figure>\n", fp);
		fputs(svg != NULL ? svg : "", fp);
		fputs("<figcaption>", fp);
		report_html_escape(fp, h->charts[i].title);
		fputs("</figcaption>\n</figure>\n", fp);
	}
	fputs("</section>\n", fp);
}

/* The text report, its tables and notes, as it prints in a terminal. */
static int report_html_tables(FILE *fp, const struct analysis_result *r,
			      const struct report_opts *o, struct rs_err *err)
{
	struct report_opts t = *o;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	if (mem == NULL)
		return rs_err_set(err, "%s", strerror(errno));
	t.format = FORMAT_TEXT;
	/* Said above already: the environments, and the comparisons' words. */
	t.prose = 0;
	t.envs = NULL;
	t.nenvs = 0;
	rc = report_write(mem, r, &t, err);
	fclose(mem);
	if (rc == 0) {
		fputs("<section id=\"tables\">\n<h2>The tables</h2>\n<pre>", fp);
		report_html_escape(fp, text ? text : "");
		fputs("</pre>\n</section>\n", fp);
	}
	free(text);
	return rc;
}

/* The commands that made the data, each once. */
static void report_html_commands(FILE *fp, const struct report_opts *o)
{
	int any = 0;

	for (size_t i = 0; i < o->nenvs; i++) {
		const char *c = o->envs[i].env ? runenv_get(o->envs[i].env, "command") : "";
		size_t j;

		if (c[0] == '\0')
			continue;
		for (j = 0; j < i; j++)
			if (o->envs[j].env && strcmp(runenv_get(o->envs[j].env, "command"), c) == 0)
				break;
		if (j < i)
			continue;
		if (!any++)
			fputs("<section id=\"commands\">\n<h2>The commands</h2>\n<p>What made the "
			      "data, to run it again (a password is never recorded):</p>\n", fp);
		fputs("<pre>", fp);
		report_html_escape(fp, c);
		fputs("</pre>\n", fp);
	}
	if (any)
		fputs("</section>\n", fp);
}

int report_html_write(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		      const struct report_html *h, struct rs_err *err)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"rsweep " PACKAGE_VERSION "\">\n<title>", fp);
	fputs("rsweep report: ", fp);
	report_html_labels(fp, o);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", report_html_style);
	fputs("rsweep report: ", fp);
	report_html_labels(fp, o);
	fputs("</h1>\n", fp);
	report_html_answer(fp, r);
	report_html_env(fp, o, r->ncmps > 0);
	report_html_charts(fp, h);
	if (report_html_tables(fp, r, o, err) < 0)
		return -1;
	report_html_commands(fp, o);
	fputs("<footer><p><small>Written by rsweep " PACKAGE_VERSION ". One file: nothing in it "
	      "is fetched from elsewhere.</small></p></footer>\n</body>\n</html>\n", fp);
	if (ferror(fp))
		return rs_err_set(err, "%s", strerror(errno ? errno : EIO));
	return 0;
}
