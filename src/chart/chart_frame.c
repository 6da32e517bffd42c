/* chart_frame.c: what every chart kind draws around its plot: the title
 * and subtitle, the legend, the footer of each label's setup, and the open
 * triangle of a line still rising.  It lays out text and takes the space
 * it covers (chart_place.c); it knows no kind. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/num.h"
#include "base/xalloc.h"

/* Split text at sep (" · " in a footer, "; " in a subtitle) into lines
 * no wider than maxw; returns the number of lines (at most max) written
 * into lines[] (owned). */
static size_t chart_wrap_at(struct chart_lay *L, const char *text, const char *sep, double size,
			    double maxw, char **lines, size_t max)
{
	size_t nl = 0;
	char *cur = NULL;
	const char *p = text;

	while (*p && nl < max) {
		const char *q = strstr(p, sep);
		size_t len = q ? (size_t)(q - p) : strlen(p);
		char *piece = xmalloc(len + 1), *joined;

		memcpy(piece, p, len);
		piece[len] = '\0';
		if (cur == NULL) {
			cur = piece;
		} else {
			joined = xmalloc(strlen(cur) + strlen(sep) + len + 1);
			sprintf(joined, "%s%s%s", cur, sep, piece);
			if (chart_tw(L, joined, size) <= maxw) {
				free(cur);
				cur = joined;
				free(piece);
			} else {
				free(joined);
				lines[nl++] = cur;
				cur = piece;
			}
		}
		p = q ? q + strlen(sep) : p + len;
	}
	if (cur != NULL) {
		if (nl < max)
			lines[nl++] = cur;
		else
			free(cur);
	}
	return nl;
}

static size_t chart_wrap(struct chart_lay *L, const char *text, double size, double maxw,
			 char **lines, size_t max)
{
	return chart_wrap_at(L, text, " " UTF8_DOT " ", size, maxw, lines, max);
}

/* How big a point of the label of row first was, into buf: "100000
 * requests per point" when every row of that label has that many (what
 * -n gives), "1 s per point" when their requests differ but their timed
 * windows agree within 25% (--duration's: the window's length, shortest
 * first, is the duration, not the count it happened to reach), else the
 * range of requests; "" when the rows do not say. */
static void chart_footer_size(const struct chart_lay *L, const struct rs_rec *first, char *buf,
			      size_t size)
{
	const struct rs_rows *rows = L->in->rows;
	int64_t nlo = first->requests, nhi = first->requests;
	double slo = INFINITY, shi = -INFINITY;

	buf[0] = '\0';
	/* The windows only where the counts differ: a pass over a million
	 * rows decoding each one's seconds costs a tenth of a second. */
	for (int pass = 0; pass < 2 && rows != NULL && (pass == 0 || nlo != nhi); pass++)
		for (size_t k = 0; k < rows->n; k++) {
			const struct rs_rec *r = &rows->v[k];
			double s;

			/* Labels are interned: the pointer is the name, but for
			 * rows relabelled or from another pool. */
			if (r->requests < 0 ||
			    (r->label != first->label && strcmp(r->label, first->label) != 0))
				continue;
			if (pass == 0) {
				nlo = nlo < 0 || r->requests < nlo ? r->requests : nlo;
				nhi = r->requests > nhi ? r->requests : nhi;
			} else if (isfinite(s = rows_fig(rows, r, ROW_SECONDS)) && s > 0) {
				slo = fmin(slo, s);
				shi = fmax(shi, s);
			}
		}
	if (nlo < 0)
		return;
	if (nlo == nhi) {
		snprintf(buf, size, "%lld requests per point", (long long)nlo);
	} else if (isfinite(slo) && shi <= 1.25 * slo) {
		int n = num_fmt_g(buf, size, slo, 2);

		if (n >= 0 && (size_t)n < size)
			snprintf(buf + n, size - (size_t)n, " s per point");
	} else {
		snprintf(buf, size, "%lld" UTF8_EN_DASH "%lld requests per point", (long long)nlo,
			 (long long)nhi);
	}
}

/* The target column as a footer says it, into buf: as the row has it,
 * but for an address that was a spawned server's and means nothing once
 * it is gone.  Rows since a spawned server was named for what it is say
 * "spawned redis-server (UNIX socket)" or "spawn:PATH" themselves; older
 * ones hold its temporary socket, unix:DIR/rsweep-XXXXXX/redis.sock
 * (spawn.c's directory), said "spawned server (UNIX socket)", or a port
 * the kernel chose on the loopback (--spawn-tcp's), which an older row
 * cannot tell from a server of the user's on such a port: any loopback
 * address on a port of the ephemeral range (32768 and up, Linux's and the
 * BSDs') is said "TCP loopback". */
static void chart_footer_target(const char *target, char *buf, size_t size)
{
	static const char *const loop[] = { "127.0.0.1:", "localhost:", "[::1]:" };
	const char *slash = strrchr(target, '/');

	if (strncmp(target, "unix:", 5) == 0 && slash != NULL && strcmp(slash, "/redis.sock") == 0) {
		const char *dir = slash;

		while (dir > target && dir[-1] != '/')
			dir--;
		if (slash - dir == 13 && strncmp(dir, "rsweep-", 7) == 0) {
			snprintf(buf, size, "spawned server (UNIX socket)");
			return;
		}
	}
	for (size_t k = 0; k < sizeof loop / sizeof *loop; k++) {
		size_t n = strlen(loop[k]);
		uint64_t port;

		if (strncmp(target, loop[k], n) == 0 &&
		    num_parse_u64(target + n, 32768, 65535, 0, &port, NULL) == 0) {
			snprintf(buf, size, "TCP loopback");
			return;
		}
	}
	snprintf(buf, size, "%s", target);
}

/* The first row of label l: its first series', or for a heat map (whose
 * grids keep no row) or a --slo chart the first of in->rows with the
 * label; NULL if none. */
static const struct rs_rec *chart_label_first(const struct chart_lay *L, size_t l)
{
	const struct rs_rows *rows = L->in->rows;

	for (size_t i = 0; i < L->in->nseries; i++)
		if (L->label_of[i] == l)
			return L->in->series[i]->first;
	for (size_t k = 0; (L->in->kind == CHART_HEATMAP || L->in->kind == CHART_SLO) &&
	     rows != NULL && k < rows->n; k++)
		if (strcmp(rows->v[k].label, L->labels[l]) == 0)
			return &rows->v[k];
	return NULL;
}

/* A heat map's rows vary in clients, value size or threads (its axes, and
 * those its grids hold): widen [*lo, *hi] (-1: unknown) by the values on
 * axis a of every row of first's label. */
static void chart_footer_range(const struct chart_lay *L, const struct rs_rec *first,
			       enum grid_axis a, int64_t *lo, int64_t *hi)
{
	const struct rs_rows *rows = L->in->rows;

	for (size_t k = 0; L->in->kind == CHART_HEATMAP && rows != NULL && k < rows->n; k++) {
		int64_t v;

		if (rows->v[k].label != first->label && strcmp(rows->v[k].label, first->label) != 0)
			continue;
		v = grid_axis_value(&rows->v[k], a);
		if (v >= 0 && (*lo < 0 || v < *lo))
			*lo = v;
		*hi = v > *hi ? v : *hi;
	}
}

/* The footer's axes, in the order it says them. */
static const enum grid_axis chart_footer_axes[3] = { GRID_CLIENTS, GRID_DATA_SIZE, GRID_THREADS };

/* What the footer says of r's label after its name, into part (size
 * bytes): " redis 6.2.6 · 50 clients · ...", without the trailing " ·".
 * The clients, value size and threads are lo[k]..hi[k] (over the rows of
 * a heat map, or the labels of one footer line); with axes 0 they are
 * left out, so that two labels differing only in them compare equal. */
static void chart_footer_body(const struct chart_lay *L, const struct rs_rec *r,
			      const int64_t *lo, const int64_t *hi, int axes, char *part,
			      size_t size)
{
	static const char *const unit[3] = { " clients", "-byte values", " threads" };
	char who[2 * ROW_STR], sz[64], where[ROW_STR], range[3][64];
	size_t n = 0;

	for (int k = 0; k < 3; k++) {
		range[k][0] = '\0';
		if (axes && lo[k] != hi[k] && lo[k] >= 0)
			snprintf(range[k], sizeof range[k], " %lld" UTF8_EN_DASH "%lld%s " UTF8_DOT,
				 (long long)lo[k], (long long)hi[k], unit[k]);
	}
	part[0] = '\0';
#define FOOT(...) do { if (n < size) \
	n += (size_t)snprintf(part + n, size - n, __VA_ARGS__); } while (0)
	/* As the server names itself: "valkey 8.0.1", not its
	 * redis_version, which claims 7.2.4. */
	if (rows_server_desc(r->server, who, sizeof who)[0] != '\0')
		FOOT(" %s " UTF8_DOT, who);
	if (range[0][0])
		FOOT("%s", range[0]);
	else if (axes && r->clients >= 0)
		FOOT(" %lld clients " UTF8_DOT, (long long)r->clients);
	chart_footer_size(L, r, sz, sizeof sz);
	if (sz[0] != '\0')
		FOOT(" %s " UTF8_DOT, sz);
	if (range[1][0])
		FOOT("%s", range[1]);
	else if (r->extra->data_size_range[0] != '\0')
		FOOT(" values of %s bytes " UTF8_DOT, r->extra->data_size_range);
	else if (axes && r->data_size >= 0)
		FOOT(" %lld-byte values " UTF8_DOT, (long long)r->data_size);
	if (range[2][0])
		FOOT("%s", range[2]);
	else if (axes && r->threads > 1)
		FOOT(" %lld threads " UTF8_DOT, (long long)r->threads);
	if (r->server->server_arch[0])
		FOOT(" %s " UTF8_DOT, r->server->server_arch);
	if (r->server->target[0]) {
		chart_footer_target(r->server->target, where, sizeof where);
		FOOT(" %s " UTF8_DOT, where);
	}
#undef FOOT
	if (n >= size)
		n = size - 1;
	/* Drop the trailing " ·". */
	if (n >= strlen(" " UTF8_DOT) && strcmp(part + n - strlen(" " UTF8_DOT), " " UTF8_DOT) == 0)
		n -= strlen(" " UTF8_DOT);
	part[n] = '\0';
}

/* Whether the labels of a and b are one label along an axis, as --by
 * names them ("vm c=1", "vm c=64"): the same up to their last word, and
 * their clients, value size or threads apart. */
static int chart_footer_along(const struct rs_rec *a, const struct rs_rec *b)
{
	const char *sa = strrchr(a->label, ' '), *sb = strrchr(b->label, ' ');
	int apart = 0;

	if (sa == NULL || sb == NULL || sa - a->label != sb - b->label ||
	    strncmp(a->label, b->label, (size_t)(sa - a->label)) != 0)
		return 0;
	for (int k = 0; k < 3; k++)
		apart |= grid_axis_value(a, chart_footer_axes[k]) !=
			 grid_axis_value(b, chart_footer_axes[k]);
	return apart;
}

/* "m1: redis 6.2.6 · 50 clients · ..." for each label, from the first row of
 * its first series.  Labels one after another that differ only in clients,
 * value size or threads (--by's lines: "vm c=1" to "vm c=64") share one
 * line, "vm c=1 to vm c=64: ... 1–64 clients ...", so that the footer's six
 * lines hold every label of such a chart. */
static char *chart_footer(struct chart_lay *L)
{
	size_t cap = 256, len = 0;
	char *out = xmalloc(cap);

	out[0] = '\0';
	for (size_t l = 0, e; l < L->nlabels; l = e) {
		const struct rs_rec *r = chart_label_first(L, l), *q;
		char key[1024], other[1024], body[1024], part[1200];
		int64_t lo[3], hi[3];
		size_t n;

		e = l + 1;
		if (r == NULL)
			continue;
		for (int k = 0; k < 3; k++) {
			lo[k] = hi[k] = grid_axis_value(r, chart_footer_axes[k]);
			chart_footer_range(L, r, chart_footer_axes[k], &lo[k], &hi[k]);
		}
		chart_footer_body(L, r, lo, hi, 0, key, sizeof key);
		for (; e < L->nlabels && (q = chart_label_first(L, e)) != NULL; e++) {
			chart_footer_body(L, q, lo, hi, 0, other, sizeof other);
			if (strcmp(key, other) != 0 || !chart_footer_along(r, q))
				break;
			for (int k = 0; k < 3; k++) {
				int64_t v = grid_axis_value(q, chart_footer_axes[k]);

				lo[k] = v >= 0 && (lo[k] < 0 || v < lo[k]) ? v : lo[k];
				hi[k] = v > hi[k] ? v : hi[k];
				chart_footer_range(L, q, chart_footer_axes[k], &lo[k], &hi[k]);
			}
		}
		chart_footer_body(L, r, lo, hi, 1, body, sizeof body);
		if (e - l > 1)
			snprintf(part, sizeof part, "%s%s to %s:%s", len ? "\n" : "", r->label,
				 L->labels[e - 1], body);
		else
			snprintf(part, sizeof part, "%s%s:%s", len ? "\n" : "", r->label, body);
		n = strlen(part);
		/* A label with nothing known says nothing. */
		if (body[0] == '\0')
			continue;
		if (len + n + 1 > cap) {
			cap = 2 * (len + n + 1);
			out = xrealloc(out, cap);
		}
		memcpy(out + len, part, n + 1);
		len += n;
	}
	/* Kinds whose legend or panels do not name tests (speed-up bars by
	 * test, the percentile chart's points) say a mix's shares here. */
	if (L->any_mix && (L->in->kind == CHART_SPEEDUP || L->in->kind == CHART_LATENCY_CDF)) {
		const char *lead = "as sent: ";

		for (size_t t = 0; t < L->ntests; t++) {
			size_t n = strlen(L->test_names[t]);

			if (strcmp(L->test_names[t], L->tests[t]) == 0)
				continue;
			if (len + strlen(lead) + n + 8 > cap) {
				cap = 2 * (len + strlen(lead) + n + 8);
				out = xrealloc(out, cap);
			}
			len += (size_t)sprintf(out + len, "%s%s%s", len == 0 ? "" :
					       *lead ? "\n" : " " UTF8_DOT " ", lead, L->test_names[t]);
			lead = "";
		}
	}
	if (L->in->footer_env != NULL && L->in->footer_env[0] != '\0') {
		size_t n = strlen(L->in->footer_env);

		if (len + n + 2 > cap) {
			cap = len + n + 2;
			out = xrealloc(out, cap);
		}
		len += (size_t)sprintf(out + len, "%s%s", len ? "\n" : "", L->in->footer_env);
	}
	return out;
}

/* Footer lines at the bottom; returns the top of the block. */
double chart_footer_block(struct chart_lay *L, double fs)
{
	char *footer = chart_footer(L), *save = NULL;
	char *lines[8];
	size_t nl = 0;
	double maxw = L->in->width - 2 * L->pad;
	double y;

	for (char *p = strtok_r(footer, "\n", &save); p && nl < 6;
	     p = strtok_r(NULL, "\n", &save))
		nl += chart_wrap(L, p, fs, maxw, lines + nl, 6 - nl);
	y = L->in->height - L->pad - (double)nl * 1.35 * fs;
	for (size_t i = 0; i < nl; i++) {
		chart_text(L, ROLE_FOOTER, -1, L->pad, y + (double)(i + 1) * 1.35 * fs - RENDER_DESCENT * fs,
			 lines[i], fs, C_MUTED, RENDER_LEFT, 0);
		free(lines[i]);
	}
	free(footer);
	return y;
}

/* Title and subtitle from the top; returns the y below them. */
double chart_titles(struct chart_lay *L, const char *title, const char *subtitle)
{
	double ts = 19 * L->f, ss = 11.5 * L->f, y = L->pad;

	chart_text(L, ROLE_TITLE, -1, L->pad, y + RENDER_ASCENT * ts, title, ts, C_TEXT, RENDER_LEFT, 0);
	y += (RENDER_ASCENT + RENDER_DESCENT) * ts + 5 * L->f;
	if (subtitle && *subtitle) {
		/* Three lines at most, where one is wider than the chart. */
		char *lines[3];
		size_t nl = chart_wrap_at(L, subtitle, "; ", ss, L->in->width - 2 * L->pad, lines, 3);

		for (size_t i = 0; i < nl; i++) {
			chart_text(L, ROLE_SUBTITLE, -1, L->pad, y + RENDER_ASCENT * ss, lines[i], ss,
				   C_MUTED, RENDER_LEFT, 0);
			y += (RENDER_ASCENT + RENDER_DESCENT) * ss + (i + 1 < nl ? 2 * L->f : 0);
			free(lines[i]);
		}
	}
	return y + 10 * L->f;
}

void chart_rising_mark(struct chart_lay *L, double x, double y, double r, size_t i)
{
	struct render_color none = { 0, 0, 0, 0 };

	chart_mark(L->c, x, y, 2 * r, RENDER_TRIANGLE, none, chart_palette(L->colour_of[i]),
		   1.6 * L->f, (int)i);
	L->c->items[L->c->n - 1].role = ROLE_RISING;
	chart_take(L, (struct chart_box){ x - r, y - r, x + r, y + r });
}

const char *chart_rising_words(const struct chart_lay *L, size_t i)
{
	size_t n = L->in->series[i]->npts;

	if (n >= 2 && chart_point_value(L, i, n - 1) < chart_point_value(L, i, n - 2))
		return "not saturated";
	return "still rising";
}

int chart_legend_marks(const struct chart_lay *L)
{
	const struct chart_input *in = L->in;
	int marks = 0;

	for (size_t i = 0; i < in->nseries && in->metric == SM_RPS; i++) {
		const struct analysis_series *a = L->an_of[i];

		if (a->saturated != KNEE_SAT_NO && a->sat_depth != 0 &&
		    series_at(in->series[i], a->sat_depth) != NULL)
			marks |= CHART_LEGEND_RING;
		if (a->saturated == KNEE_SAT_NO) {
			marks |= CHART_LEGEND_RISING;
			if (strcmp(chart_rising_words(L, i), "still rising") != 0)
				marks |= CHART_LEGEND_DIP;
		}
	}
	return marks;
}

/* One legend entry: a sample (line and marker), then its name. */
struct legend_entry {
	const char *name;
	int kind;                 /* 0 test, 1 label (line style), 2 saturation ring,
				   * 3 the open triangle of a line still rising */
	size_t idx;
};

/* Lay the legend out in rows from y, wrapping within the chart's width;
 * returns the y below it. */
double chart_legend(struct chart_lay *L, double y, int marks, int by_label)
{
	double ls = 12 * L->f, sw = 26 * L->f, gap = 6 * L->f, space = 20 * L->f;
	double rowh = 19 * L->f, x = L->pad, maxx = L->in->width - L->pad;
	struct legend_entry e[256];
	size_t ne = 0;
	int rows = 1;

	/* Room for the most series a chart draws, the ring and the triangle. */
	for (size_t t = 0; !by_label && t < L->ntests && ne < 200; t++)
		e[ne++] = (struct legend_entry){ L->test_names[t], 0, t };
	for (size_t l = 0; L->nlabels > 1 && l < L->nlabels && ne < 250; l++)
		e[ne++] = (struct legend_entry){ L->labels[l], by_label ? 0 : 1, l };
	if (marks & CHART_LEGEND_RING)
		e[ne++] = (struct legend_entry){ NULL, 2, 0 };
	if (marks & CHART_LEGEND_RISING)
		e[ne++] = (struct legend_entry){ marks & CHART_LEGEND_DIP ?
						 "not saturated by its deepest depth" :
						 "still rising: not saturated by its deepest depth", 3, 0 };
	for (size_t i = 0; i < ne; i++) {
		char ring[64];
		const char *name = e[i].name;
		double w, cy;

		if (e[i].kind == 2) {
			snprintf(ring, sizeof ring, "saturation: first depth at %.0f%% of the fitted peak",
				 100 * L->in->knee);
			name = ring;
		}
		w = sw + gap + chart_tw(L, name, ls);
		if (x > L->pad && x + w > maxx) {
			x = L->pad;
			rows++;
		}
		cy = y + (rows - 0.5) * rowh;
		if (e[i].kind == 0) {
			struct render_color col = chart_palette(e[i].idx);

			chart_seg(L->c, x, cy, x + sw, cy, 2 * L->f, col);
			chart_mark(L->c, x + sw / 2, cy, 7 * L->f, chart_marker(e[i].idx), col, C_WHITE,
				   L->f, -1);
		} else if (e[i].kind == 1) {
			double xy[4] = { x, cy, x + sw, cy };

			chart_line(L->c, xy, 2, 2 * L->f, C_AXIS, (enum render_dash)(e[i].idx % 4), -1);
		} else {
			struct render_color none = { 0, 0, 0, 0 };

			chart_mark(L->c, x + sw / 2, cy, 12 * L->f,
				   e[i].kind == 2 ? RENDER_CIRCLE : RENDER_TRIANGLE, none, C_AXIS,
				   e[i].kind == 2 ? 2 * L->f : 1.6 * L->f, -1);
		}
		chart_text(L, ROLE_LEGEND, -1, x + sw + gap, cy + 0.27 * ls, name, ls,
			   C_TEXT, RENDER_LEFT, 0);
		x += w + space;
	}
	return y + rows * rowh + 6 * L->f;
}
