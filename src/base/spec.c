/* spec.c: parsing "key = value" files with [sections]. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/near.h"
#include "base/infile.h"
#include "base/platform.h"
#include "base/sbuf.h"
#include "base/spec.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define SPEC_MAX_LINE 4096

static char *spec_trim(char *s, char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

static int spec_key_ok(const char *k)
{
	if (*k == '\0')
		return 0;
	for (; *k; k++)
		if (!isalnum((unsigned char)*k) && *k != '-' && *k != '_')
			return 0;
	return 1;
}

int spec_parse(const char *buf, size_t len, const char *name, struct spec *out,
	       struct rs_err *err)
{
	char line[SPEC_MAX_LINE + 1];
	size_t pos = 0, capv = 0, capsections = 0;
	unsigned lineno = 0;

	memset(out, 0, sizeof *out);
	out->name = xstrdup(name);
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *s, *eq, *hash;

		lineno++;
		if (n > SPEC_MAX_LINE) {
			spec_free(out);
			return rs_err_set(err, "%s:%u: line longer than %d characters", name, lineno,
					  SPEC_MAX_LINE);
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		pos += n + (nl != NULL);
		if (memchr(line, '\0', n) != NULL) {
			spec_free(out);
			return rs_err_set(err, "%s:%u: NUL byte in line", name, lineno);
		}
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		s = spec_trim(line, line + strlen(line));
		if (*s == '\0')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (close == NULL || close[1] != '\0' || close == s + 1) {
				spec_free(out);
				return rs_err_set(err, "%s:%u: a section is written [name]", name, lineno);
			}
			*close = '\0';
			out->sections = vec_reserve(out->sections, &capsections, out->nsections + 1,
						    sizeof *out->sections, 0);
			out->sections[out->nsections++] = xstrdup(spec_trim(s + 1, close));
			continue;
		}
		eq = strchr(s, '=');
		out->v = vec_reserve(out->v, &capv, out->n + 1, sizeof *out->v, 0);
		{
			struct spec_entry *e = &out->v[out->n];
			char *key = eq ? spec_trim(s, eq) : s;

			if (!spec_key_ok(key)) {
				spec_free(out);
				return rs_err_set(err, "%s:%u: '%s' is not a key (letters, digits, '-')",
						  name, lineno, key);
			}
			e->key = xstrdup(key);
			e->value = xstrdup(eq ? spec_trim(eq + 1, eq + 1 + strlen(eq + 1)) : "");
			e->section = out->nsections;
			e->line = lineno;
			out->n++;
		}
	}
	return 0;
}

int spec_read_file(const char *path, struct spec *out, struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	if (infile_slurp(path, (size_t)1 << 20, &buf, &len, err) < 0)
		return -1;
	rc = spec_parse(buf, len, path, out, err);
	free(buf);
	return rc;
}

void spec_free(struct spec *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].value);
	}
	for (size_t i = 0; i < s->nsections; i++)
		free(s->sections[i]);
	free(s->sections);
	free(s->v);
	free(s->name);
	memset(s, 0, sizeof *s);
}

/* The directory one up from the running binary's: for src/rsweep in a
 * build tree, the tree itself, whose sweeps/ and plots/ serve an rsweep
 * not installed yet.  -1 where the system cannot tell the binary's path. */
static int spec_tree_dir(char *buf, size_t size)
{
	char *slash;

	if (platform_exe_path(buf, size) < 0)
		return -1;
	for (int up = 0; up < 2; up++) {
		if ((slash = strrchr(buf, '/')) == NULL)
			return -1;
		*slash = '\0';
	}
	return 0;
}

/* Candidate k (0 to 3) for name: as given, the installed data directory,
 * the build tree's, the source tree's.  Returns 0, or -1 when there is no
 * such candidate. */
static int spec_candidate(int k, const char *name, const char *dir, const char *ext, char *buf,
			  size_t size)
{
	char tree[1024];
	const char *add = strstr(name, ext) ? "" : ext;

	switch (k) {
	case 0:
		snprintf(buf, size, "%s", name);
		return 0;
	case 1:
		snprintf(buf, size, "%s/%s/%s%s", RS_DATADIR, dir, name, add);
		return 0;
	case 2:
		if (spec_tree_dir(tree, sizeof tree) < 0)
			return -1;
		snprintf(buf, size, "%s/%s/%s%s", tree, dir, name, add);
		return 0;
	case 3:
		/* The source tree this rsweep was built from, for a build in a
		 * separate directory (make distcheck). */
		if (spec_tree_dir(tree, sizeof tree) == 0 && strcmp(tree, RS_TOP_SRCDIR) == 0)
			return -1;
		snprintf(buf, size, "%s/%s/%s%s", RS_TOP_SRCDIR, dir, name, add);
		return 0;
	}
	return -1;
}

void spec_find(const char *name, const char *dir, const char *ext, char *buf, size_t size)
{
	if (strchr(name, '/') == NULL)
		for (int k = 0; k < 4; k++)
			if (spec_candidate(k, name, dir, ext, buf, size) == 0 && access(buf, F_OK) == 0)
				return;
	snprintf(buf, size, "%s", name);
}

/* The installed or shipped file (of the directories of candidates 1 to
 * 3) whose name, without ext, is nearest to name, into near (size bytes):
 * "" when none is a likely typo of it. */
static void spec_nearest(const char *name, const char *dir, const char *ext, char *near,
			 size_t size)
{
	char path[1024], *slash;
	size_t bestd = SIZE_MAX, n = strlen(name), ne = strlen(ext);

	near[0] = '\0';
	if (n > ne && strcmp(name + n - ne, ext) == 0)
		n -= ne;
	for (int k = 1; k < 4; k++) {
		struct dirent *e;
		DIR *d;

		if (spec_candidate(k, "x", dir, ext, path, sizeof path) < 0 ||
		    (slash = strrchr(path, '/')) == NULL)
			continue;
		*slash = '\0';
		if ((d = opendir(path)) == NULL)
			continue;
		while ((e = readdir(d)) != NULL) {
			size_t len = strlen(e->d_name), dist;
			char stem[NEAR_NAME_MAX + 1];

			if (len <= ne || len - ne > NEAR_NAME_MAX || strcmp(e->d_name + len - ne, ext) != 0)
				continue;
			memcpy(stem, e->d_name, len - ne);
			stem[len - ne] = '\0';
			dist = near_distance(name, n, stem);
			if (dist < bestd && near_likely(dist, n)) {
				bestd = dist;
				snprintf(near, size, "%s", stem);
			}
		}
		closedir(d);
	}
}

int spec_not_found(const char *name, const char *dir, const char *ext, struct rs_err *err)
{
	char path[1024], looked[4200], near[NEAR_NAME_MAX + 1];
	struct sbuf b;

	sbuf_fixed(&b, looked, sizeof looked);
	for (int k = 0; k < 4 && strchr(name, '/') == NULL; k++)
		if (spec_candidate(k, name, dir, ext, path, sizeof path) == 0)
			sbuf_item(&b, ", ", "%s", path);
	if (b.len == 0)
		return rs_err_set(err, "%s: no such file", name);
	spec_nearest(name, dir, ext, near, sizeof near);
	return rs_err_set(err, "%s: no such %s file%s%s%s (looked for %s)", name, ext + 1,
			  near[0] ? "; did you mean " : "", near, near[0] ? "?" : "", looked);
}
