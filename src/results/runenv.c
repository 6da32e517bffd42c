/* runenv.c: the environment sidecar of a results CSV (runenv.h): append a
 * line, read the records back. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/json.h"
#include "base/redact.h"
#include "base/sbuf.h"
#include "base/xalloc.h"
#include "results/csv.h"
#include "results/runenv.h"

static char *runenv_path(const char *csv_path)
{
	struct sbuf path;

	sbuf_heap(&path);
	sbuf_printf(&path, "%s%s", csv_path, RUNENV_SUFFIX);
	return path.s;
}

/* Where the sidecar open as fd, end bytes long, ends after its last whole
 * line (a crash may have left half a one). */
static off_t runenv_whole(int fd, off_t end)
{
	char c;

	while (end > 0) {
		if (pread(fd, &c, 1, end - 1) != 1)
			return 0;
		if (c == '\n')
			return end;
		end--;
	}
	return 0;
}

int runenv_append(const char *csv_path, int empty_first, const char *const *keys,
		  const char *const *values, size_t n, struct rs_err *err)
{
	char *path = runenv_path(csv_path), *line = NULL;
	size_t len = 0, off = 0;
	FILE *mem;
	off_t end = 0;
	int fd, rc = 0;

	fd = csv_open_file(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW, "the environment", err);
	if (fd < 0) {
		free(path);
		return -1;
	}
	if ((mem = open_memstream(&line, &len)) == NULL) {
		rc = rs_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	fputc('{', mem);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (values[i] == NULL || values[i][0] == '\0')
			continue;
		fputs(k++ ? "," : "", mem);
		json_write_str(mem, keys[i]);
		fputc(':', mem);
		json_write_str(mem, values[i]);
	}
	fputs("}\n", mem);
	if (fclose(mem) != 0) {
		rc = rs_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if ((end = lseek(fd, 0, SEEK_END)) < 0) {
		rc = rs_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	{
		off_t keep = empty_first ? 0 : runenv_whole(fd, end);

		if (keep != end && ftruncate(fd, keep) != 0) {
			rc = rs_err_set(err, "%s: cannot cut it back: %s", path, strerror(errno));
			goto out;
		}
		end = keep;
	}
	while (off < len && rc == 0) {
		ssize_t w = write(fd, line + off, len - off);

		if (w > 0)
			off += (size_t)w;
		else if (!(w < 0 && errno == EINTR))
			rc = rs_err_set(err, "%s: cannot write: %s", path,
					w < 0 ? strerror(errno) : "no progress");
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = rs_err_set(err, "%s: cannot sync: %s", path, strerror(errno));
	if (rc != 0 && ftruncate(fd, end) != 0)
		rs_err_prefix(err, "and cannot cut back a half line (%s)", strerror(errno));
out:
	free(line);
	close(fd);
	free(path);
	return rc;
}

const char *runenv_get(const struct runenv *e, const char *key)
{
	for (size_t i = 0; e != NULL && i < e->n; i++)
		if (strcmp(e->v[i].key, key) == 0)
			return e->v[i].value;
	return "";
}

/* What a sidecar may hold: a run writes some thirty members a line and
 * a record for each target of each run (--runs up to ROW_MAX_RUN); more
 * is no sidecar of rsweep's, and would cost reading it the square of its
 * size. */
#define RUNENV_MAX_KEYS 256
#define RUNENV_MAX_RECORDS 8192

/* Set key = value in e, replacing an earlier value.  0, or -1 when e
 * holds RUNENV_MAX_KEYS other keys already. */
static int runenv_put(struct runenv *e, const char *key, const char *value)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->v[i].key, key) == 0) {
			free(e->v[i].value);
			e->v[i].value = xstrdup(value);
			return 0;
		}
	if (e->n >= RUNENV_MAX_KEYS)
		return -1;
	e->v = xreallocarray(e->v, e->n + 1, sizeof *e->v);
	e->v[e->n].key = xstrdup(key);
	e->v[e->n].value = xstrdup(value);
	e->n++;
	return 0;
}

/* The record of set from src with the label, target and started_at of
 * doc's object root; made when there is none. */
static struct runenv *runenv_record(struct runenv_set *set, const char *src,
				    const struct json_doc *doc, const struct json_node *root)
{
	static const char *const id[] = { "label", "target", "server_args", "started_at" };
	const char *want[4];
	size_t i, k;

	for (k = 0; k < 4; k++) {
		const struct json_node *m = json_get(doc, root, id[k]);

		want[k] = m != NULL && json_str(doc, m) != NULL ? json_str(doc, m) : "";
	}
	/* From the last: a run's lines of one record follow one another. */
	for (i = set->n; i-- > 0;) {
		for (k = 0; k < 4 && strcmp(runenv_get(&set->v[i], id[k]), want[k]) == 0; k++)
			;
		if (k == 4 && strcmp(set->v[i].src, src) == 0)
			return &set->v[i];
	}
	if (set->n >= RUNENV_MAX_RECORDS)
		return NULL;
	set->v = xreallocarray(set->v, set->n + 1, sizeof *set->v);
	memset(&set->v[set->n], 0, sizeof set->v[set->n]);
	set->v[set->n].src = xstrdup(src);
	return &set->v[set->n++];
}

int runenv_parse(const char *buf, size_t len, const char *name, const char *src,
		 struct runenv_set *set, struct rs_err *err)
{
	size_t pos = 0;
	unsigned line = 1;

	/* A crash's half line is no record. */
	while (len > 0 && buf[len - 1] != '\n')
		len--;
	for (;;) {
		struct json_doc doc = { 0 };
		const struct json_node *root, *m;
		struct runenv *e;
		unsigned at;

		/* Blank lines between records are no records. */
		while (pos < len && (buf[pos] == '\n' || buf[pos] == ' ' || buf[pos] == '\t' ||
				     buf[pos] == '\r'))
			line += buf[pos++] == '\n';
		if (pos >= len)
			break;
		at = line;
		if (json_parse_next(buf, len, &pos, &line, name, &doc, err) < 0)
			return -1;
		root = json_root(&doc);
		if (root == NULL || root->type != JSON_OBJECT) {
			json_free(&doc);
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: not an rsweep environment line "
					   "(an object of strings)", name, at);
		}
		for (m = json_first(&doc, root); m != NULL; m = json_next(&doc, m))
			if (json_str(&doc, m) == NULL) {
				rs_err_setk(err, RS_E_INPUT, "%s:%u: member '%s' is not a string",
					    name, at, json_key(&doc, m));
				json_free(&doc);
				return -1;
			}
		if ((e = runenv_record(set, src, &doc, root)) == NULL) {
			json_free(&doc);
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: more than %d environments: not "
					   "an rsweep sidecar", name, at, RUNENV_MAX_RECORDS);
		}
		for (m = json_first(&doc, root); m != NULL; m = json_next(&doc, m))
			if (runenv_put(e, json_key(&doc, m), json_str(&doc, m)) < 0) {
				json_free(&doc);
				return rs_err_setk(err, RS_E_INPUT, "%s:%u: more than %d members in "
						   "one environment: not an rsweep sidecar", name, at,
						   RUNENV_MAX_KEYS);
			}
		json_free(&doc);
	}
	return 0;
}

int runenv_read(const char *csv_path, struct runenv_set *set, struct rs_err *err)
{
	char *path = runenv_path(csv_path), *buf = NULL;
	size_t len = 0;
	int rc = 0;

	if (access(path, F_OK) == 0) {
		rc = infile_slurp(path, (size_t)64 << 20, &buf, &len, err);
		if (rc == 0)
			rc = runenv_parse(buf, len, path, csv_path, set, err);
	}
	free(buf);
	free(path);
	return rc;
}

const struct runenv *runenv_find(const struct runenv_set *set, const char *src, const char *label,
				 const char *target, const char *server_args)
{
	const struct runenv *best = NULL;
	int best_label = 0;
	char args[512];

	/* The rows keep a spawned server's arguments as given; the sidecar,
	 * a password in them blanked. */
	xstrlcpy(args, server_args, sizeof args);
	redact_args(args);

	for (size_t i = 0; i < set->n; i++) {
		const struct runenv *e = &set->v[i];
		int same_label = strcmp(runenv_get(e, "label"), label) == 0;

		if (strcmp(e->src, src) != 0 || strcmp(runenv_get(e, "target"), target) != 0 ||
		    strcmp(runenv_get(e, "server_args"), args) != 0)
			continue;
		if (best == NULL || same_label > best_label ||
		    (same_label == best_label &&
		     strcmp(runenv_get(e, "started_at"), runenv_get(best, "started_at")) > 0)) {
			best = e;
			best_label = same_label;
		}
	}
	return best;
}

void runenv_set_free(struct runenv_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++) {
		for (size_t k = 0; k < set->v[i].n; k++) {
			free(set->v[i].v[k].key);
			free(set->v[i].v[k].value);
		}
		free(set->v[i].v);
		free(set->v[i].src);
	}
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
