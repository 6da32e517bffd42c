/* csv.c: writing and reading result rows (RFC 4180, columns by header name). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/csv.h"
#include "results/csv_int.h"
#include "base/depths.h"
#include "base/infile.h"
#include "base/num.h"
#include "base/platform.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

enum csv_type { CT_STR, CT_UINT, CT_I64, CT_DBL };

struct csv_col {
	const char *name;
	enum csv_type type;
	size_t off;
	size_t size;              /* CT_STR: buffer size */
	int prec;                 /* CT_DBL: digits after '.' */
	int required;             /* the reader needs it */
};

#define COL_S(n, f) { #n, CT_STR, offsetof(struct rs_row, f), sizeof(((struct rs_row *)0)->f), 0, 0 }
#define COL_U(n, f) { #n, CT_UINT, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_I(n, f) { #n, CT_I64, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_D(n, f, p) { #n, CT_DBL, offsetof(struct rs_row, f), 0, p, 0 }

/* The schema, in the order rsweep writes it.  The first 15 are the contract
 * every later command and every user script relies on: never reorder them. */
static const struct csv_col csv_cols[] = {
	{ "label", CT_STR, offsetof(struct rs_row, label), ROW_STR, 0, 1 },
	{ "test", CT_STR, offsetof(struct rs_row, test), ROW_STR, 0, 1 },
	{ "pipeline", CT_UINT, offsetof(struct rs_row, pipeline), 0, 0, 1 },
	COL_I(clients, clients),
	COL_I(requests, requests),
	COL_U(repeat, repeat),
	COL_D(seconds, seconds, 6),
	{ "rps", CT_DBL, offsetof(struct rs_row, rps), 0, 2, 1 },
	COL_D(avg_ms, avg_ms, 4),
	COL_D(min_ms, min_ms, 4),
	COL_D(p50_ms, p50_ms, 4),
	COL_D(p95_ms, p95_ms, 4),
	COL_D(p99_ms, p99_ms, 4),
	COL_D(max_ms, max_ms, 4),
	COL_I(errors, errors),
	/* Everything below may grow; readers find columns by name. */
	COL_D(p999_ms, p999_ms, 4),
	COL_I(misses, misses),
	COL_I(server_calls, server_calls),
	COL_I(order, order),
	COL_I(threads, threads),
	COL_I(data_size, data_size),
	COL_I(keyspace, keyspace),
	COL_S(mode, mode),
	COL_S(target, target),
	COL_S(redis_version, redis_version),
	COL_S(server_arch, server_arch),
	COL_S(server_os, server_os),
	COL_S(client_cpu, client_cpu),
	COL_S(started_at, started_at),
	COL_D(server_cpu_s, server_cpu_s, 6),
	COL_D(client_cpu_s, client_cpu_s, 6),
	COL_D(steal_pct, steal_pct, 2),
	COL_I(client_nivcsw, client_nivcsw),
	COL_D(drift_pct, drift_pct, 1),
	COL_D(other_cpus, other_cpus, 2),
	/* Clients differ by 2-3x at shallow depths: a comparison must know. */
	COL_S(client, client),
	/* Open loop (--rate): empty in closed-loop rows. */
	COL_D(rate_offered, rate_offered, 2),
	COL_I(rate_short, rate_short),
	COL_S(arrivals, arrivals),
	COL_D(svc_p50_ms, svc_p50_ms, 4),
	COL_D(svc_p99_ms, svc_p99_ms, 4),
	COL_D(svc_p999_ms, svc_p999_ms, 4),
	/* TLS handshakes are timed apart from the window. */
	COL_D(connect_ms, connect_ms, 3),
	/* Redis Cluster (--cluster): empty for a single server. */
	COL_I(redirects, redirects),
	COL_I(masters, masters),
	COL_S(busy_master, busy_master),
	COL_D(busy_cpu_s, busy_cpu_s, 6),
	COL_S(master_rps, master_rps),
	/* Agents (--control --agents): empty for a load from rsweep run itself. */
	COL_I(agents_ok, agents_ok),
	COL_I(agents_expected, agents_expected),
	COL_D(skew_ms, skew_ms, 3),
	COL_S(agent_rps, agent_rps),
	/* The server as it names itself: redis_version is, for most servers
	 * other than Redis, a compatibility claim (target_server.h). */
	COL_S(server_name, server_name),
	COL_S(server_version, server_version),
	/* --key-prefix: the server held other data (row.h). */
	COL_S(key_prefix, key_prefix),
	/* --runs: runs are a level of the evidence (analysis.h). */
	COL_I(run, run),
	/* --key-dist: how the point drew its keys (row.h). */
	COL_S(key_dist, key_dist),
	/* Axes of server settings: a spawned server's --spawn-args (row.h). */
	COL_S(server_args, server_args),
	/* Reads that found nothing, as the server counts them (row.h). */
	COL_I(server_hits, server_hits),
	COL_I(server_misses, server_misses),
	/* Mixes: each member's share, sent and counted (row.h). */
	COL_S(mix, mix),
	COL_S(mix_sent, mix_sent),
	COL_S(mix_calls, mix_calls),
	/* Values sized per request (row.h). */
	COL_S(data_size_range, data_size_range),
	/* TTLs (row.h). */
	COL_I(expire, expire),
	/* Placement of a spawned server and the load generator (row.h). */
	COL_S(server_cpus, server_cpus),
	COL_S(client_cpus, client_cpus),
	/* The generator's own lag (row.h), and --slo's search (slo.h). */
	COL_D(slip_p50_ms, slip_p50_ms, 4),
	COL_D(slip_p99_ms, slip_p99_ms, 4),
	COL_S(slo, slo),
	COL_S(slo_phase, slo_phase),
	COL_S(slo_verdict, slo_verdict),
	COL_D(slo_ms, slo_ms, 4),
	COL_D(slo_lo_ms, slo_lo_ms, 4),
	COL_D(slo_hi_ms, slo_hi_ms, 4),
	/* Pub/sub with subscribers (row.h). */
	COL_I(subscribers, subscribers),
	COL_I(channels, channels),
	COL_S(sub_mode, sub_mode),
	COL_I(delivered, delivered),
	COL_D(delivered_rps, delivered_rps, 2),
	COL_I(lost, lost),
	COL_I(dup, dup),
	COL_I(receivers, receivers),
	COL_D(deliver_p50_ms, deliver_p50_ms, 4),
	COL_D(deliver_p99_ms, deliver_p99_ms, 4),
	COL_D(deliver_p999_ms, deliver_p999_ms, 4),
	COL_D(deliver_max_ms, deliver_max_ms, 4),
	COL_D(sub_cpu_s, sub_cpu_s, 6),
	/* Connection churn (row.h). */
	COL_I(reconnect_every, reconnect_every),
	COL_I(connects, connects),
	COL_D(connects_per_s, connects_per_s, 1),
	/* Reads from replicas: where they went, each replica's calls, the lag (row.h). */
	COL_S(read_from, read_from),
	COL_S(replica_calls, replica_calls),
	COL_I(repl_lag, repl_lag),
	/* Connection churn: each connect's setup, TLS sessions resumed (row.h). */
	COL_D(connect_p50_ms, connect_p50_ms, 4),
	COL_D(connect_p99_ms, connect_p99_ms, 4),
	COL_I(tls_resumed, tls_resumed),
	/* Last, and quoted when it holds text (csv_format_row): a row a crash
	 * cut short inside it never reads as whole. */
	COL_S(first_error, first_error),
};
#define CSV_RESERVE_MAX 16384    /* rows reserved before parsing, at most */
#define CSV_NCOLS (sizeof csv_cols / sizeof csv_cols[0])
#define CSV_NCONTRACT 15
/* Larger figures are refused by the reader (see csv_set_field). */
#define CSV_MAX_FIGURE 1e15

size_t csv_ncols(void)
{
	return CSV_NCOLS;
}

const char *csv_col_name(size_t c)
{
	return csv_cols[c].name;
}

const char *csv_header(void)
{
	static char hdr[1024];

	if (hdr[0] == '\0') {
		struct sbuf b;

		sbuf_fixed(&b, hdr, sizeof hdr);
		for (size_t i = 0; i < CSV_NCOLS; i++)
			sbuf_item(&b, ",", "%s", csv_cols[i].name);
		sbuf_add(&b, "\n", 1);
	}
	return hdr;
}

static int csv_check_values(const struct rs_row *r, struct rs_err *err);
static int csv_check_line(const char *hdr, const char *line, size_t n, struct rs_err *err);

/* The bytes that make a field need quotes. */
#define CSV_SPECIAL ",\"\r\n"

/* Append s to buf, quoted if it holds a comma, quote, CR or LF, or if
 * always is set and s is not empty. */
static int csv_put_str(char *buf, size_t size, size_t *n, const char *s, int always)
{
	int quote = (always && *s) || strpbrk(s, CSV_SPECIAL) != NULL;

	if (quote) {
		if (*n + 1 >= size)
			return -1;
		buf[(*n)++] = '"';
	}
	for (; *s; s++) {
		if (*n + 2 >= size)
			return -1;
		if (*s == '"')
			buf[(*n)++] = '"';
		buf[(*n)++] = *s;
	}
	if (quote) {
		if (*n + 1 >= size)
			return -1;
		buf[(*n)++] = '"';
	}
	return 0;
}

void csv_put_field(FILE *fp, const char *s)
{
	if (strpbrk(s, CSV_SPECIAL) == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* csv_format_row with the bare reason in err ("rps is negative (-5.00)"),
 * in the columns of hdr: cols[0..ncols) index csv_cols (cols NULL: all of
 * them, hdr csv_header()'s). */
static int csv_format(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
		      char *buf, size_t size, struct rs_err *err)
{
	const char *base = (const char *)r;
	size_t n = 0;

	if (csv_check_values(r, err) < 0)
		return -1;

	for (size_t k = 0; k < ncols; k++) {
		size_t i = cols ? (size_t)cols[k] : k;
		const struct csv_col *c = &csv_cols[i];
		char num[64] = "";
		int rc = 0;

		if (k > 0) {
			if (n + 1 >= size)
				goto full;
			buf[n++] = ',';
		}
		switch (c->type) {
		case CT_STR:
			/* The last field quoted when it holds text: a row a crash cut
			 * short inside it then ends inside quotes, and the reader does
			 * not take it for a whole row. */
			rc = csv_put_str(buf, size, &n, base + c->off, k + 1 == ncols);
			break;
		case CT_UINT:
			snprintf(num, sizeof num, "%u", *(const unsigned *)(const void *)(base + c->off));
			break;
		case CT_I64: {
			int64_t v = *(const int64_t *)(const void *)(base + c->off);

			if (v >= 0)
				snprintf(num, sizeof num, "%lld", (long long)v);
			break;
		}
		case CT_DBL: {
			double v = *(const double *)(const void *)(base + c->off);

			if (isfinite(v))
				num_fmt(num, sizeof num, v, c->prec);
			break;
		}
		}
		if (rc < 0)
			goto full;
		if (c->type != CT_STR) {
			size_t w = strlen(num);

			if (n + w + 1 >= size)
				goto full;
			memcpy(buf + n, num, w);
			n += w;
		}
	}
	if (n + 2 > size)
		goto full;
	buf[n++] = '\n';
	buf[n] = '\0';
	if (csv_check_line(hdr, buf, n, err) < 0)
		return -1;
	return (int)n;
full:
	return rs_err_set(err, "it is longer than the %zu bytes of the line buffer", size);
}

/* csv_format_row in the columns of hdr, as csv_format takes them. */
int csv_format_in(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
		  char *buf, size_t size, struct rs_err *err)
{
	struct rs_err e;
	char show[40];
	int n = csv_format(r, hdr, cols, ncols, buf, size, &e);

	if (n < 0)
		return rs_err_set(err, "row for %s P=%u not written: %s",
				  csv_show_str(show, sizeof show, r->test, sizeof r->test), r->pipeline,
				  e.msg);
	return n;
}

int csv_format_row(const struct rs_row *r, char *buf, size_t size, struct rs_err *err)
{
	return csv_format_in(r, csv_header(), NULL, CSV_NCOLS, buf, size, err);
}

int csv_check_row(const struct rs_row *r, struct rs_err *err)
{
	char line[CSV_LINE_MAX];

	return csv_format(r, csv_header(), NULL, CSV_NCOLS, line, sizeof line, err) < 0 ? -1 : 0;
}

/* ---- reader ---- */

/* How csv_record ended. */
enum csv_rec {
	CSV_REC_BAD = -1,         /* a malformed record (err set) */
	CSV_REC_END = 0,          /* end of input: no record */
	CSV_REC_LINE = 1,         /* a complete record */
	CSV_REC_UNENDED = 2,      /* fields whole, but input ends before the newline */
	CSV_REC_OPEN_QUOTE = 3,   /* input ends inside a quoted field (see below) */
};

/* Parse one record starting at *pos.  Fields' text goes to scratch (which
 * has room for the record).  CSV_REC_OPEN_QUOTE only when the record began
 * on its last line: see below.  *nl counts newlines consumed; on
 * CSV_REC_BAD it counts those before the place the message is about. */
static enum csv_rec csv_record(const char *buf, size_t len, size_t *pos, char *scratch,
		      struct csv_field *f, size_t maxf, size_t *nf, unsigned *nl,
		      struct rs_err *err)
{
	size_t i = *pos, w = 0;

	*nf = 0;
	if (i >= len)
		return CSV_REC_END;
	for (;;) {
		int quoted = 0;
		unsigned open_nl = *nl;   /* newlines before this field's opening quote */

		if (*nf == maxf)
			return rs_err_set(err, "more than %zu fields", maxf);
		f[*nf].s = scratch + w;
		if (i < len && buf[i] == '"') {
			quoted = 1;
			i++;
			for (;;) {
				if (i >= len) {
					/* Only a last line can be a crash's leftover.  A quote
					 * that runs over line ends to the end of the file is a
					 * missing closing quote: taking it for a leftover
					 * would throw away every row after it. */
					if (*nl == 0)
						return CSV_REC_OPEN_QUOTE;
					*nl = open_nl;
					return rs_err_set(err, "unterminated quoted field");
				}
				if (buf[i] == '"') {
					if (i + 1 < len && buf[i + 1] == '"') {
						scratch[w++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (buf[i] == '\n')
					(*nl)++;
				scratch[w++] = buf[i++];
			}
		} else {
			while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
				if (buf[i] == '"')
					return rs_err_set(err, "quote inside an unquoted field");
				scratch[w++] = buf[i++];
			}
		}
		f[*nf].len = (size_t)(scratch + w - f[*nf].s);
		scratch[w++] = '\0';
		(*nf)++;
		if (i >= len)
			return CSV_REC_UNENDED;
		if (buf[i] == ',') {
			i++;
			continue;
		}
		if (buf[i] == '\r') {
			if (i + 1 < len && buf[i + 1] == '\n')
				i++;
			else if (i + 1 >= len)
				return CSV_REC_UNENDED;
			else
				return rs_err_set(err, "stray carriage return");
		}
		if (buf[i] == '\n') {
			(*nl)++;
			*pos = i + 1;
			return CSV_REC_LINE;
		}
		if (quoted && *nl > open_nl) {
			/* Most likely the quote that opened it was never closed. */
			unsigned down = *nl - open_nl;

			*nl = open_nl;
			return rs_err_set(err, "quoted field runs over %u line end%s and is followed by "
					  "'%c' (a missing closing quote?)", down, down == 1 ? "" : "s",
					  buf[i]);
		}
		return rs_err_set(err, "%s field followed by '%c'", quoted ? "quoted" : "a", buf[i]);
	}
}

int csv_split_line(const char *s, size_t n, char *scratch, struct csv_field *f, size_t maxf,
		   struct rs_err *err)
{
	size_t pos = 0, nf = 0;
	unsigned nl = 0;
	enum csv_rec rc;

	if (n == 0) {
		scratch[0] = '\0';
		f[0].s = scratch;
		f[0].len = 0;
		return 1;
	}
	rc = csv_record(s, n, &pos, scratch, f, maxf, &nf, &nl, err);
	if (rc == CSV_REC_BAD)
		return -1;
	if (rc == CSV_REC_OPEN_QUOTE)
		return rs_err_set(err, "unterminated quoted field");
	if (rc == CSV_REC_LINE || nl > 0)
		return rs_err_set(err, "a line end inside the line");
	return (int)nf;
}

/* A field's text fit to quote in a one-line message: at most 32 bytes,
 * control characters (a quoted field may hold a line break) shown as '?'. */
static const char *csv_show(char *buf, size_t size, const struct csv_field *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->len && n + 4 < size && i < 32; i++) {
		unsigned char ch = (unsigned char)f->s[i];

		buf[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (f->len > 32 && n + 4 < size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* csv_show for a string of at most max bytes. */
const char *csv_show_str(char *buf, size_t size, const char *s, size_t max)
{
	struct csv_field f = { (char *)(uintptr_t)s, strnlen(s, max) };

	return csv_show(buf, size, &f);
}

static int csv_has_control(const struct csv_field *f)
{
	for (size_t i = 0; i < f->len; i++)
		if ((unsigned char)f->s[i] < 0x20 || f->s[i] == 0x7f)
			return 1;
	return 0;
}

static int csv_set_field(struct rs_row *r, const struct csv_col *c, const struct csv_field *f,
			 struct rs_err *err)
{
	char *base = (char *)r;
	char show[40];

	if (c->type == CT_STR) {
		if (f->len >= c->size)
			return rs_err_set(err, "%s is longer than %zu characters", c->name, c->size - 1);
		if (memchr(f->s, '\0', f->len) != NULL)
			return rs_err_set(err, "%s holds a NUL byte", c->name);
		/* Label and test name series in charts, reports and messages,
		 * which are made of lines. */
		if ((c->off == offsetof(struct rs_row, label) || c->off == offsetof(struct rs_row, test)) &&
		    csv_has_control(f))
			return rs_err_set(err, "%s '%s' holds a control character", c->name,
					  csv_show(show, sizeof show, f));
		memcpy(base + c->off, f->s, f->len + 1);
		return 0;
	}
	if (f->len == 0) {
		if (c->required)
			return rs_err_set(err, "%s is empty", c->name);
		return 0;         /* stays unknown */
	}
	if (c->type == CT_DBL) {
		double v;

		if (num_parse_double_n(f->s, f->len, &v) < 0)
			return rs_err_set(err, "%s '%s' is not a number", c->name,
					  csv_show(show, sizeof show, f));
		if (v < 0)
			return rs_err_set(err, "%s is negative (%s)", c->name,
					  csv_show(show, sizeof show, f));
		/* No request rate, latency or duration comes near this; refusing it
		 * keeps sums and squares over repeats finite. */
		if (v > CSV_MAX_FIGURE)
			return rs_err_set(err, "%s %s is not a plausible figure (over 1e15)", c->name,
					  csv_show(show, sizeof show, f));
		*(double *)(void *)(base + c->off) = v;
		return 0;
	}
	{
		uint64_t v;
		struct rs_err e2;
		int depth = c->off == offsetof(struct rs_row, pipeline);
		/* Any depth past the engine's is refused by name, below. */
		uint64_t max = depth ? UINT64_MAX : c->type == CT_UINT ? UINT32_MAX : INT64_MAX;
		int plain;

		/* No whole number in range is longer than 20 digits: a longer
		 * field, or one with a line break, is quoted here, shortened and
		 * on one line, rather than whole by num.c. */
		if (f->len > 24 || csv_has_control(f))
			return rs_err_set(err, "%s '%s' is not a whole number", c->name,
					  csv_show(show, sizeof show, f));
		/* Up to 18 plain digits cannot overflow: read here, without
		 * strtoull's locale and base handling (a tenth of reading a
		 * file); anything else, or out of range, goes to num.c for the
		 * checks and their messages. */
		plain = f->len <= 18 && strspn(f->s, "0123456789") == f->len;
		v = 0;
		for (size_t i = 0; plain && i < f->len; i++)
			v = v * 10 + (uint64_t)(f->s[i] - '0');
		if ((!plain || v > max) && num_parse_u64(f->s, 0, max, 0, &v, &e2) < 0) {
			if (depth && f->len > 0 && strspn(f->s, "0123456789") == f->len)
				return rs_err_set(err, "pipeline %s is above %u",
						  csv_show(show, sizeof show, f), DEPTHS_MAX_VALUE);
			return rs_err_set(err, "%s: %s", c->name, e2.msg);
		}
		/* A depth the engine cannot run is no measurement; charts would
		 * lay out an axis for it. */
		if (depth && v > DEPTHS_MAX_VALUE)
			return rs_err_set(err, "pipeline %llu is above %u", (unsigned long long)v,
					  DEPTHS_MAX_VALUE);
		if (c->type == CT_UINT)
			*(unsigned *)(void *)(base + c->off) = (unsigned)v;
		else
			*(int64_t *)(void *)(base + c->off) = (int64_t)v;
	}
	return 0;
}

/* Map the header's fields f[0..nhdr) to csv_cols: map[i] is field i's
 * column, or -1 for a column rsweep does not know.  Sets
 * info->rsweep_header.  Returns 0, or -1 with err set (FILE:1: ...) for a
 * column named twice or a required column missing. */
int csv_header_map(const struct csv_field *f, size_t nhdr, const char *name, int *map,
		   struct csv_info *info, struct rs_err *err)
{
	info->rsweep_header = nhdr >= CSV_NCONTRACT;
	for (size_t i = 0; i < nhdr; i++) {
		map[i] = -1;
		for (size_t c = 0; c < CSV_NCOLS; c++)
			if (strcmp(f[i].s, csv_cols[c].name) == 0) {
				for (size_t j = 0; j < i; j++)
					if (map[j] == (int)c)
						return rs_err_set(err, "%s:1: column %s appears twice", name,
								  f[i].s);
				map[i] = (int)c;
			}
		if (i < CSV_NCONTRACT && (map[i] < 0 || map[i] != (int)i))
			info->rsweep_header = 0;
	}
	for (size_t c = 0; c < CSV_NCOLS; c++) {
		int found = 0;

		if (!csv_cols[c].required)
			continue;
		for (size_t i = 0; i < nhdr; i++)
			found |= map[i] == (int)c;
		if (!found)
			return rs_err_set(err, "%s:1: no '%s' column (not an rsweep results file?)",
					  name, csv_cols[c].name);
	}
	return 0;
}

/* Read the header record at *pos (past a byte-order mark) into f and
 * *nhdr, and count its newlines into *nl.  Returns 0, or -1 with err set
 * (FILE:1: ...) for an empty file or a bad or unfinished header. */
int csv_header_read(const char *buf, size_t len, const char *name, size_t *pos,
		    char *scratch, struct csv_field *f, size_t *nhdr, unsigned *nl,
		    struct rs_err *err)
{
	struct rs_err e;
	enum csv_rec rc;

	/* A UTF-8 byte-order mark from a spreadsheet export is not part of the header. */
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		*pos = 3;
	rc = csv_record(buf, len, pos, scratch, f, CSV_MAXF, nhdr, nl, &e);
	if (rc == CSV_REC_END || (rc == CSV_REC_UNENDED && *nhdr == 1 && f[0].len == 0))
		return rs_err_set(err, "%s: empty file, no CSV header", name);
	if (rc == CSV_REC_BAD)
		return rs_err_set(err, "%s:1: bad header: %s", name, e.msg);
	if (rc != CSV_REC_LINE)
		return rs_err_set(err, "%s:1: header line has no end of line", name);
	return 0;
}

/* At most one row a line: room for that many, so a large file's rows are
 * not copied as the array doubles.  A row is 120 bytes and a line may be
 * one byte, so no more than CSV_RESERVE_MAX up front: a file of newlines
 * must not ask for a hundred times its size. */
static void csv_reserve(struct rs_rows *rows, const char *buf, size_t len, size_t pos)
{
	size_t lines = 1;

	for (const char *q = buf + pos; lines < CSV_RESERVE_MAX &&
	     (q = memchr(q, '\n', len - (size_t)(q - buf))) != NULL; q++)
		lines++;
	rows_reserve(rows, lines);
}

/* Turn the record at line `start` (nf fields, as many as the header's)
 * into a row of rows.  Returns 0, or -1 with err set (FILE:LINE: ...). */
static int csv_row_add(const struct csv_field *f, size_t nf, const int *map, const char *name,
		       const char *src, unsigned start, struct rs_rows *rows, struct rs_err *err)
{
	struct rs_row r;
	struct rs_err e;

	/* The line goes into a full row, then into the rows' compact form. */
	row_init(&r);
	r.src = src;
	r.line = start;
	for (size_t i = 0; i < nf; i++)
		if (map[i] >= 0 && csv_set_field(&r, &csv_cols[map[i]], &f[i], &e) < 0)
			return rs_err_set(err, "%s:%u: %s", name, start, e.msg);
	if (r.pipeline == 0)
		return rs_err_set(err, "%s:%u: pipeline must be at least 1", name, start);
	if (r.test[0] == '\0')
		return rs_err_set(err, "%s:%u: test is empty", name, start);
	if (rows_add(rows, &r, &e) == NULL)
		return rs_err_set(err, "%s:%u: %s", name, start, e.msg);
	return 0;
}

int csv_parse(const char *buf, size_t len, const char *name, struct rs_rows *rows,
	      struct csv_info *info, struct rs_err *err)
{
	struct csv_field f[CSV_MAXF];
	int map[CSV_MAXF];        /* field index -> csv_cols index, or -1 */
	size_t nf, nhdr, pos = 0;
	unsigned line = 1, nl = 0;
	char *scratch = xmalloc(len + CSV_MAXF + 1);
	const char *src = rows_add_name(rows, name);
	struct rs_err e;
	int ret = -1;

	memset(info, 0, sizeof *info);
	if (csv_header_read(buf, len, name, &pos, scratch, f, &nhdr, &nl, err) < 0 ||
	    csv_header_map(f, nhdr, name, map, info, err) < 0)
		goto out;
	csv_reserve(rows, buf, len, pos);
	info->complete_len = pos;
	line += nl;
	for (;;) {
		unsigned start = line;
		enum csv_rec rc;

		nl = 0;
		rc = csv_record(buf, len, &pos, scratch, f, CSV_MAXF, &nf, &nl, &e);
		line += nl;
		if (rc == CSV_REC_END)
			break;
		if (rc == CSV_REC_BAD) {
			rs_err_set(err, "%s:%u: %s", name, line, e.msg);
			goto out;
		}
		if (rc != CSV_REC_LINE) {
			/* The last line, without its newline: what a crash left of a row
			 * when it is less than one.  A whole row there is kept (only its
			 * newline is missing); anything else is an error, like any line. */
			if (nl == 0 && nf < nhdr) {
				info->truncated_tail = 1;
				info->tail_line = start;
				break;
			}
			if (rc == CSV_REC_OPEN_QUOTE) {
				rs_err_set(err, "%s:%u: unterminated quoted field", name, start);
				goto out;
			}
			info->missing_newline = 1;
			info->complete_len = pos = len;
		} else {
			info->complete_len = pos;
		}
		if (nf == 1 && f[0].len == 0)
			continue;         /* blank line */
		if (nf != nhdr) {
			rs_err_set(err, "%s:%u: %zu fields, the header has %zu", name, start, nf, nhdr);
			goto out;
		}
		if (csv_row_add(f, nf, map, name, src, start, rows, err) < 0)
			goto out;
	}
	/* A last line without newline is a line too. */
	info->lines = line - 1 + (info->missing_newline || info->truncated_tail);
	ret = 0;
out:
	free(scratch);
	return ret;
}

const char *csv_info_note(const struct csv_info *info, const char *path, char *buf, size_t size)
{
	if (!info->truncated_tail)
		return NULL;
	snprintf(buf, size, "%s:%u: the last line has no end of line and is less than a row "
		 "(an interrupted sweep?); ignored", path, info->tail_line);
	return buf;
}

/* ---- the writer's checks: what the reader refuses is never written ---- */

/* What formatting would hide: an infinity or an integer below -1 would be
 * written as an empty field and read back as "unknown"; a string without
 * its NUL would run on into the next field. */
static int csv_check_values(const struct rs_row *r, struct rs_err *err)
{
	const char *base = (const char *)r;

	for (size_t i = 0; i < CSV_NCOLS; i++) {
		const struct csv_col *c = &csv_cols[i];
		const void *p = base + c->off;

		if (c->type == CT_STR && memchr(p, '\0', c->size) == NULL)
			return rs_err_set(err, "%s is longer than %zu characters", c->name, c->size - 1);
		if (c->type == CT_I64 && *(const int64_t *)p < -1)
			return rs_err_set(err, "%s is negative (%lld)", c->name,
					  (long long)*(const int64_t *)p);
		if (c->type == CT_DBL && isinf(*(const double *)p))
			return rs_err_set(err, "%s is infinite", c->name);
	}
	return 0;
}

/* The reader's verdict on one formatted row: asking csv_parse itself keeps
 * its rules in one place, whatever they become. */
static int csv_check_line(const char *hdr, const char *line, size_t n, struct rs_err *err)
{
	static const char where[] = "row:2: ";
	size_t hl = strlen(hdr);
	char *buf = xmalloc(hl + n);
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err e;
	int rc;

	memcpy(buf, hdr, hl);
	memcpy(buf + hl, line, n);
	rc = csv_parse(buf, hl + n, "row", &rows, &info, &e);
	if (rc == 0 && (rows.n != 1 || info.complete_len != hl + n))
		rc = rs_err_set(&e, "it does not read back as one row");
	free(buf);
	rows_free(&rows);
	if (rc < 0)
		return rs_err_set(err, "%s", strncmp(e.msg, where, sizeof where - 1) == 0 ?
				  e.msg + sizeof where - 1 : e.msg);
	return 0;
}

int csv_read_file(const char *path, struct rs_rows *rows, struct csv_info *info,
		  struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	if (infile_slurp(path, (size_t)1 << 30, &buf, &len, err) < 0)
		return -1;
	rc = csv_parse(buf, len, path, rows, info, err);
	free(buf);
	return rc;
}

void csv_put_num(FILE *fp, double v, int prec)
{
	char b[64];

	fputc(',', fp);
	if (isfinite(v)) {
		num_fmt(b, sizeof b, v, prec);
		fputs(b, fp);
	}
}
