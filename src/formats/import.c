/* import.c: the whole input of rsweep import: lines cut as a terminal
 * shows them, each given to the reader of its form (import_csv.c,
 * import_quiet.c, import_full.c and import_valkey.c) or to import_noise.c, results grouped
 * into runs, unreadable lines reported or listed. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/import_int.h"
#include "base/strtab.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* ---- lines ---- */

/* The text a terminal would show for line s[0..n): what follows the last
 * carriage return that is followed by something other than blanks. */
static void import_visible(const char **s, size_t *n)
{
	const char *start = *s, *end = *s + *n;

	for (;;) {
		const char *seg = end, *q;

		while (seg > start && seg[-1] != '\r')
			seg--;
		for (q = seg; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < end || seg == start) {
			start = seg;
			break;
		}
		end = seg - 1;    /* a blank segment: look before its '\r' */
	}
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*s = start;
	*n = (size_t)(end - start);
}

/* Copy s[0..n) into buf without terminal escape sequences (a script(1)
 * capture of an interactive shell holds colour and bracketed-paste codes). */
static size_t import_strip_escapes(const char *s, size_t n, char *buf)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\033') {
			buf[w++] = s[i];
			continue;
		}
		if (i + 1 < n && s[i + 1] == '[') {          /* CSI: ESC [ params final */
			for (i += 2; i < n && !(s[i] >= 0x40 && s[i] <= 0x7e); i++)
				;
		} else if (i + 1 < n && s[i + 1] == ']') {   /* OSC: to BEL or ESC \ */
			for (i += 2; i < n && s[i] != '\a'; i++)
				if (s[i] == '\033' && i + 1 < n && s[i + 1] == '\\') {
					i++;
					break;
				}
		} else if (i + 1 < n) {
			i++;
		}
	}
	return w;
}

/* ---- the whole input ---- */

struct import_state {
	struct import_result *out;
	const char *name;
	int skip_bad;
	struct strtab titles;     /* raw titles of the current run */
	struct import_run next;   /* what the capture shows for the runs to come */
	int new_run;              /* the next point starts a run */
	struct import_block blk;
	struct import_csv csv;
	int csv_seen;
};

/* A command line seen but silent on -c, -n or -d ran with the program's
 * defaults: the run takes them, marked as such (r->defaulted). */
static void import_run_defaults(struct import_run *r)
{
	if (r->clients < 0) {
		r->clients = IMPORT_DEFAULT_CLIENTS;
		r->defaulted |= IMPORT_DEF_CLIENTS;
	}
	if (r->requests < 0) {
		r->requests = IMPORT_DEFAULT_REQUESTS;
		r->defaulted |= IMPORT_DEF_REQUESTS;
	}
	if (r->data_size < 0) {
		r->data_size = IMPORT_DEFAULT_DATA_SIZE;
		r->defaulted |= IMPORT_DEF_DATA_SIZE;
	}
}

static int import_bad_line(struct import_result *out, const char *name, unsigned line,
			   int skip_bad, struct rs_err *lerr, struct rs_err *err)
{
	struct import_bad *b;

	if (!skip_bad)
		return rs_err_set(err, "%s:%u: %s", name, line, lerr->msg);
	out->bad = vec_reserve(out->bad, &out->capbad, out->nbad + 1, sizeof *out->bad, 0);
	b = &out->bad[out->nbad++];
	b->line = line;
	xstrlcpy(b->reason, lerr->msg, sizeof b->reason);
	return 0;
}

/* Add point p, titled raw as printed, read as kind: a title the current run
 * has shown already starts the next run. */
static void import_add(struct import_state *st, struct import_point *p, const char *raw,
		       enum import_kind kind)
{
	struct import_result *out = st->out;
	int added = 1;
	uint32_t id;

	if (!st->new_run && strtab_intern(&st->titles, raw, strlen(raw), &id, &added) < 0)
		abort();   /* past 2^31 titles: more than the input's size allows */
	if (st->new_run || !added) {
		out->runs = vec_reserve(out->runs, &out->capruns, out->nruns + 1, sizeof *out->runs, 0);
		out->runs[out->nruns] = st->next;
		out->runs[out->nruns].line = p->line;
		out->nruns++;
		st->new_run = 0;
		strtab_free(&st->titles);
		if (strtab_intern(&st->titles, raw, strlen(raw), &id, NULL) < 0)
			abort();
	}
	p->run = (unsigned)(out->nruns - 1);
	if (out->kind == IMPORT_AUTO || out->n == 0)
		out->kind = kind;
	out->v = vec_reserve(out->v, &out->cap, out->n + 1, sizeof *out->v, 0);
	out->v[out->n++] = *p;
}

/* End the open block: its result if it has one. */
static int import_block_close(struct import_state *st, struct rs_err *err)
{
	struct import_block *b = &st->blk;
	struct rs_err lerr;

	if (!b->open)
		return 0;
	b->open = 0;
	if (!isnan(b->p.rps)) {
		import_add(st, &b->p, b->raw, IMPORT_FULL);
		return 0;
	}
	rs_err_set(&lerr, "test %s: its block has no requests per second (an interrupted run?)",
		   b->p.test);
	return import_bad_line(st->out, st->name, b->p.line, st->skip_bad, &lerr, err);
}

static void import_skipped(struct import_state *st, unsigned line, const char *s, size_t n)
{
	struct import_result *out = st->out;

	if (out->nskipped++ == 0) {
		size_t k = n < sizeof out->skip_text ? n : sizeof out->skip_text - 1;

		out->skip_line = line;
		memcpy(out->skip_text, s, k);
		out->skip_text[k] = '\0';
		/* What is shown in a message stays one printable line. */
		for (size_t i = 0; i < k; i++)
			if ((unsigned char)out->skip_text[i] < 0x20 || out->skip_text[i] == 0x7f)
				out->skip_text[i] = '?';
	}
}

/* One visible line s[0..n) (not blank).  Returns 0, or -1 (err set) for a
 * bad line without skip_bad. */
static int import_line(struct import_state *st, enum import_kind want, unsigned line,
		       const char *s, size_t n, struct rs_err *err)
{
	struct import_point p;
	struct import_cmd cmd;
	struct rs_err lerr;
	char raw[ROW_STR];
	const char *t;
	size_t tn;
	int rc;

	if (st->blk.open) {
		rc = import_full_line(&st->blk, s, n, &lerr);
		if (rc == 0)
			return 0;
		if (rc == 1) {
			st->blk.open = 0;
			import_add(st, &st->blk.p, st->blk.raw, IMPORT_FULL);
			return 0;
		}
		if (rc < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		if (import_block_close(st, err) < 0)
			return -1;
	}
	import_point_init(&p, line);
	if ((want == IMPORT_AUTO || want == IMPORT_FULL) && import_block_title(s, n, &t, &tn)) {
		if (import_test_name(t, tn, p.test, sizeof p.test, &lerr) < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		memset(&st->blk, 0, sizeof st->blk);
		st->blk.open = 1;
		st->blk.p = p;
		import_raw_title(st->blk.raw, t, tn);
		return 0;
	}
	if (want == IMPORT_CSV || (want == IMPORT_AUTO &&
				   (s[0] == '"' || import_prefix(s, n, "test,") ||
				    (st->csv_seen && memchr(s, ',', n) != NULL &&
				     !import_find(s, n, import_rps_words))))) {
		if (want == IMPORT_AUTO || s[0] == '"' || memchr(s, ',', n) != NULL) {
			rc = import_csv_line(&st->csv, s, n, &p, raw, &lerr);
			if (rc < 0)
				return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
			st->csv_seen = 1;
			if (rc == 0) {
				/* Every run prints its header: a new one after results
				 * is the next run. */
				if (st->out->nruns > 0)
					st->new_run = 1;
				return 0;
			}
			import_add(st, &p, raw, IMPORT_CSV);
			return 0;
		}
	}
	if ((want == IMPORT_AUTO || want == IMPORT_QUIET) &&
	    (import_find(s, n, import_rps_words) || import_find(s, n, ": rps="))) {
		if (import_quiet_line(s, n, &p, raw, &lerr) < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		import_add(st, &p, raw, IMPORT_QUIET);
		return 0;
	}
	if (import_version(s, n, st->next.version, sizeof st->next.version, st->next.program,
			   sizeof st->next.program)) {
		import_skipped(st, line, s, n);
		return 0;
	}
	/* zsh's time line names the command too, but starts no run. */
	if (!import_time_line(s, n) && import_command(s, n, &cmd)) {
		if (cmd.bad_depth) {
			/* Refused even with --skip-bad: the results that follow
			 * would be given some other depth than they were run at. */
			return rs_err_set(err, "%s:%u: redis-benchmark -P %s: a pipeline depth "
					  "must be 1 to 1000000", st->name, line, cmd.depth_text);
		}
		if (!cmd.version) {
			char version[sizeof st->next.version];

			/* A version line printed by the other program is not
			 * this one's version. */
			memcpy(version, st->next.version, sizeof version);
			if (strcmp(st->next.program, cmd.program) != 0)
				version[0] = '\0';
			memset(&st->next, 0, sizeof st->next);
			memcpy(st->next.version, version, sizeof version);
			memcpy(st->next.program, cmd.program, sizeof st->next.program);
			st->next.cmd_line = line;
			st->next.pipeline = cmd.depth;
			st->next.pipeline_implied = cmd.depth_implied;
			memcpy(st->next.target, cmd.target, sizeof st->next.target);
			st->next.clients = cmd.clients;
			st->next.requests = cmd.requests;
			st->next.data_size = cmd.data_size;
			import_run_defaults(&st->next);
			st->new_run = 1;
		}
		import_skipped(st, line, s, n);
		return 0;
	}
	if (import_noise(s, n)) {
		import_skipped(st, line, s, n);
		return 0;
	}
	if (want == IMPORT_QUIET)
		import_quiet_line(s, n, &p, raw, &lerr);
	else if (want == IMPORT_CSV)
		rs_err_set(&lerr, "not a redis-benchmark --csv line");
	else if (want == IMPORT_FULL)
		rs_err_set(&lerr, "not a line of redis-benchmark's default output");
	else
		rs_err_set(&lerr, "not a redis-benchmark result (-q, --csv or the default output)");
	return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
}

/* A line longer than the line buffer is accepted when a terminal would
 * show only a short part of it: redis-benchmark rewrites its progress with
 * '\r' several times a second, so a long test leaves one line of many
 * overwritten segments.  Sets s[0..n) to the last segment that shows
 * something (the one import_visible would choose), escapes and all; returns
 * -1 if that segment itself is longer than IMPORT_LINE.  clean is scratch
 * of IMPORT_LINE bytes.  Each byte is looked at a bounded number of times. */
static int import_last_segment(const char **s, size_t *n, char *clean)
{
	const char *start = *s, *end = *s + *n;

	for (;;) {
		const char *seg = end, *t;
		size_t k;

		while (seg > start && seg[-1] != '\r')
			seg--;
		if ((size_t)(end - seg) > IMPORT_LINE)
			return -1;
		t = seg;
		k = (size_t)(end - seg);
		if (memchr(t, '\033', k) != NULL) {
			k = import_strip_escapes(t, k, clean);
			t = clean;
		}
		while (k > 0 && (t[k - 1] == ' ' || t[k - 1] == '\t'))
			k--;
		while (k > 0 && (*t == ' ' || *t == '\t')) {
			t++;
			k--;
		}
		if (k > 0 || seg == start) {
			*s = seg;
			*n = (size_t)(end - seg);
			return 0;
		}
		end = seg - 1;    /* a blank segment: look before its '\r' */
	}
}

int import_parse(const char *buf, size_t len, const char *name, enum import_kind kind,
		 int skip_bad, struct import_result *out, struct rs_err *err)
{
	struct import_state st;
	char *clean = xmalloc(IMPORT_LINE);
	size_t pos = 0;
	unsigned line = 0;

	memset(out, 0, sizeof *out);
	memset(&st, 0, sizeof st);
	st.out = out;
	st.name = name;
	st.skip_bad = skip_bad;
	st.new_run = 1;
	st.next.clients = st.next.requests = st.next.data_size = -1;
	if (kind == IMPORT_VALKEY) {
		snprintf(st.next.program, sizeof st.next.program, "valkey-benchmark");
		kind = IMPORT_AUTO;
	}
	out->kind = kind;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct rs_err lerr;

		pos += n + (nl != NULL);
		line++;
		if (memchr(s, '\0', n) != NULL) {
			rs_err_set(&lerr, "a NUL byte (not text output of redis-benchmark)");
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		if (n > IMPORT_LINE && import_last_segment(&s, &n, clean) < 0) {
			rs_err_set(&lerr, "line longer than %d characters", IMPORT_LINE);
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		if (memchr(s, '\033', n) != NULL) {
			n = import_strip_escapes(s, n, clean);
			s = clean;
		}
		import_visible(&s, &n);
		if (n == 0)
			continue;
		if (import_line(&st, kind, line, s, n, err) < 0)
			goto fail;
	}
	if (import_block_close(&st, err) < 0)
		goto fail;
	if (out->n == 0) {
		if (out->nbad)
			rs_err_set(err, "%s: no redis-benchmark result in it (%zu unreadable lines, "
				   "the first at line %u: %s)", name, out->nbad, out->bad[0].line,
				   out->bad[0].reason);
		else if (out->nskipped)
			rs_err_set(err, "%s: no redis-benchmark result in it (%zu lines that are not "
				   "results, the first at line %u: '%s')", name, out->nskipped,
				   out->skip_line, out->skip_text);
		else
			rs_err_set(err, "%s: no redis-benchmark result in it", name);
		goto fail;
	}
	strtab_free(&st.titles);
	free(clean);
	return 0;
fail:
	strtab_free(&st.titles);
	free(clean);
	import_result_free(out);
	return -1;
}

void import_result_free(struct import_result *r)
{
	if (r == NULL)
		return;
	free(r->v);
	free(r->bad);
	free(r->runs);
	memset(r, 0, sizeof *r);
}
