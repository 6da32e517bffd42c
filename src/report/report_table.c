/* report_table.c: the tables of the text and markdown reports: aligned
 * columns for a terminal, or a markdown table (report_int.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"

void rtab_init(struct rtab *t, const char *const *head, const char *align)
{
	memset(t, 0, sizeof *t);
	t->head = head;
	t->align = align;
	t->ncols = strlen(align);
}

void rtab_add(struct rtab *t, const char *s)
{
	t->cells = vec_reserve(t->cells, &t->cap, t->ncells + 1, sizeof *t->cells, 64);
	t->cells[t->ncells++] = xstrdup(s);
}

void rtab_addf(struct rtab *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	rtab_add(t, buf);
}

void rtab_free(struct rtab *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* Columns a terminal gives s: UTF-8 continuation bytes take none. */
static size_t rtab_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static void rtab_text_row(FILE *fp, const struct rtab *t, const char *const *row, const size_t *w)
{
	struct sbuf line;

	sbuf_heap(&line);
	sbuf_fill(&line, ' ', 2);
	for (size_t c = 0; c < t->ncols; c++) {
		size_t pad = w[c] - rtab_width(row[c]);

		if (t->align[c] == 'r')
			sbuf_fill(&line, ' ', pad);
		sbuf_add(&line, row[c], strlen(row[c]));
		if (t->align[c] != 'r')
			sbuf_fill(&line, ' ', pad);
		sbuf_fill(&line, ' ', 2);
	}
	/* No trailing blanks: the last column is often left-aligned. */
	while (line.len > 0 && line.s[line.len - 1] == ' ')
		line.len--;
	line.s[line.len] = '\0';
	sbuf_add(&line, "\n", 1);
	fwrite(line.s, 1, line.len, fp);
	free(line.s);
}

static void rtab_text(FILE *fp, const struct rtab *t)
{
	size_t *w = xcalloc(t->ncols, sizeof *w);

	for (size_t c = 0; c < t->ncols; c++)
		w[c] = rtab_width(t->head[c]);
	for (size_t i = 0; i < t->ncells; i++) {
		size_t x = rtab_width(t->cells[i]);

		if (x > w[i % t->ncols])
			w[i % t->ncols] = x;
	}
	rtab_text_row(fp, t, t->head, w);
	for (size_t i = 0; i < t->ncells; i += t->ncols)
		rtab_text_row(fp, t, (const char *const *)&t->cells[i], w);
	free(w);
}

/* A markdown cell: '|' would end it early. */
static void md_cell(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', fp);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
	}
}

static void rtab_markdown(FILE *fp, const struct rtab *t)
{
	fputc('|', fp);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', fp);
		md_cell(fp, t->head[c]);
		fputs(" |", fp);
	}
	fputs("\n|", fp);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->align[c] == 'r' ? " ---: |" : " --- |", fp);
	fputc('\n', fp);
	for (size_t i = 0; i < t->ncells; i += t->ncols) {
		fputc('|', fp);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(' ', fp);
			md_cell(fp, t->cells[i + c]);
			fputs(" |", fp);
		}
		fputc('\n', fp);
	}
}

/* rtab t as text or markdown, then freed. */
void report_table(FILE *fp, struct rtab *t, int md)
{
	if (md)
		rtab_markdown(fp, t);
	else
		rtab_text(fp, t);
	rtab_free(t);
}

