/* workload_file.c: a command file (--commands FILE) as one mix of custom
 * commands: its parsing, placeholders and name.  One line a command,
 * "WEIGHT COMMAND ARGS...", for what does not fit a command line.  The
 * engine draws the members per request (engine.h's engine_member) as for
 * any mix; this room only says what they are.  It never touches a socket. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "results/csv.h"
#include "base/sbuf.h"
#include "net/targets.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

/* A command file is a few lines: a megabyte is far more than 16 of them
 * need, and a wrong path to a large file is refused at once. */
#define WORKLOAD_FILE_MAX ((size_t)1 << 20)

static void workload_file_free_words(char **w)
{
	for (size_t k = 0; w != NULL && w[k] != NULL; k++)
		free(w[k]);
	free(w);
}

/* The weight word: digits only (strtoul would take a sign or blanks),
 * 1..WORKLOAD_MIX_WEIGHT_MAX. */
static int workload_file_weight(const char *name, unsigned line, const char *word,
				unsigned *out, struct rs_err *err)
{
	unsigned long long v = 0;

	if (*word == '\0')
		return rs_err_setk(err, RS_E_INPUT, "%s:%u: no weight (WEIGHT COMMAND ARGS...)", name,
				   line);
	for (const char *p = word; *p; p++) {
		if (*p < '0' || *p > '9')
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: '%s' is not a weight: a line is "
					   "WEIGHT COMMAND ARGS...", name, line, word);
		if (v <= WORKLOAD_MIX_WEIGHT_MAX)
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (v == 0 || v > WORKLOAD_MIX_WEIGHT_MAX)
		return rs_err_setk(err, RS_E_INPUT, "%s:%u: weight %s is out of range (1 to %u)", name,
				   line, word, WORKLOAD_MIX_WEIGHT_MAX);
	*out = (unsigned)v;
	return 0;
}

/* The mix's name from the file's: MIX_ and its base name without the
 * extension, upper case, any other character than a letter or digit as
 * '_' (a -t list and a series name hold no comma or blank); MIX_FILE when
 * nothing is left (standard input, "-"). */
static void workload_file_name(const char *name, char *out, size_t size)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	const char *dot = strrchr(base, '.');
	size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
	struct sbuf b;

	sbuf_fixed(&b, out, size);
	sbuf_printf(&b, "MIX_");
	if (strcmp(name, "-") == 0 || n == 0) {
		sbuf_printf(&b, "FILE");
		return;
	}
	for (size_t i = 0; i < n && i < 60; i++) {
		char c = base[i];

		c = c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
		sbuf_printf(&b, "%c", (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_');
	}
}

/* One line's command (words after the weight) as a member of members: a
 * word alone that names one test of the catalogue ("get", "lrange_100")
 * is that test, prepared as -t prepares it; anything else a custom
 * command. */
static int workload_file_member(struct workload *members, const char *name, unsigned line,
				char **words, size_t n, const char *data, size_t data_len,
				struct rs_err *err)
{
	size_t c = n == 1 ? workload_mix_find(words[0]) : workload_ncat;
	char **argv;
	int rc;

	if (c < workload_ncat) {
		size_t had = members->n;

		if (workload_add(members, c, data, data_len, "", err) < 0)
			return rs_err_prefix(err, "%s:%u", name, line);
		/* workload_add keeps a test once. */
		if (members->n == had)
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: test %s on an earlier line too (add "
					   "their weights)", name, line, workload_catalogue[c].name);
		return 0;
	}
	argv = xcalloc(n + 1, sizeof *argv);

	for (size_t i = 0; i < n; i++)
		argv[i] = workload_expand(words[i], data, data_len);
	rc = workload_custom_fill(workload_push(members), (int)n, argv, words, err);
	workload_file_free_words(argv);
	if (rc < 0)
		return rs_err_prefix(err, "%s:%u", name, line);
	return 0;
}

int workload_commands_parse(const char *buf, size_t len, const char *name, uint64_t data_size,
			    struct workload *out, struct rs_err *err)
{
	struct workload members = { 0 };
	unsigned weights[WORKLOAD_MIX_MAX], lines[WORKLOAD_MIX_MAX];
	char *data = xmalloc(data_size + 1), *copy = xmalloc(len + 1);
	struct workload_test *t;
	unsigned line = 0;
	int rc = 0, any = 0;

	memset(out, 0, sizeof *out);
	memset(data, 'x', data_size);
	data[data_size] = '\0';
	memcpy(copy, buf, len);
	copy[len] = '\0';
	for (char *p = copy, *nl; rc == 0 && p != NULL; p = nl) {
		char **words = NULL;
		size_t nw = 0, ll;
		unsigned weight = 0;

		line++;
		if ((nl = memchr(p, '\n', (size_t)(copy + len - p))) != NULL)
			*nl++ = '\0';
		ll = strlen(p);
		if (ll > 0 && p[ll - 1] == '\r')
			p[--ll] = '\0';
		p += strspn(p, " \t");
		/* A comment is a whole line: '#' may stand inside a key. */
		if (*p == '\0' || *p == '#')
			continue;
		if (members.n == WORKLOAD_MIX_MAX) {
			rc = rs_err_setk(err, RS_E_INPUT, "%s:%u: more than %d commands (the most a "
					 "mix holds)", name, line, WORKLOAD_MIX_MAX);
			break;
		}
		if (targets_split(p, &words, &nw, err) < 0) {
			workload_file_free_words(words);
			rs_err_prefix(err, "%s:%u", name, line);
			rc = rs_err_as(err, RS_E_INPUT);
			break;
		}
		if (workload_file_weight(name, line, nw > 0 ? words[0] : "", &weight, err) < 0)
			rc = -1;
		else if (nw < 2)
			rc = rs_err_setk(err, RS_E_INPUT, "%s:%u: no command after the weight %s", name,
					 line, words[0]);
		else if (words[1][0] == '\0')
			rc = rs_err_setk(err, RS_E_INPUT, "%s:%u: an empty command after the weight %s",
					 name, line, words[0]);
		else if (workload_file_member(&members, name, line, words + 1, nw - 1, data,
					      data_size, err) < 0)
			rc = rs_err_as(err, RS_E_INPUT);
		workload_file_free_words(words);
		if (rc < 0)
			break;
		weights[members.n - 1] = weight;
		lines[members.n - 1] = line;
		/* Two lines of one command would be one member counted twice. */
		for (size_t k = 0; k + 1 < members.n; k++)
			if (strcmp(members.v[k].name, members.v[members.n - 1].name) == 0) {
				rc = rs_err_setk(err, RS_E_INPUT, "%s:%u: the same command as line %u "
						 "(add their weights)", name, line, lines[k]);
				break;
			}
	}
	free(copy);
	free(data);
	if (rc == 0 && members.n == 0)
		rc = rs_err_setk(err, RS_E_INPUT, "%s: no command (a line is WEIGHT COMMAND ARGS...)",
				 name);
	if (rc < 0) {
		workload_free(&members);
		return -1;
	}
	t = workload_push(out);
	workload_file_name(name, t->name, sizeof t->name);
	t->prep = PREP_NONE;
	/* Any member may touch any database: the guard's rules for a custom
	 * command hold for the whole mix (guard.h, sweep_server.c). */
	t->custom = 1;
	t->members = members.v;
	t->nmembers = members.n;
	for (size_t i = 0; i < members.n; i++) {
		t->weights[i] = weights[i];
		t->expect |= members.v[i].expect;
		/* A custom member's replies may be of any kind: so may the mix's. */
		if (members.v[i].expect == 0)
			any = 1;
		if (members.v[i].len > t->len)
			t->len = members.v[i].len;
		t->key_any |= members.v[i].key_any;
	}
	if (any)
		t->expect = 0;
	return 0;
}

int workload_commands_file(const char *path, uint64_t data_size, struct workload *out,
			   struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	if (infile_slurp(path, WORKLOAD_FILE_MAX, &buf, &len, err) < 0) {
		rs_err_prefix(err, "--commands");
		return rs_err_as(err, RS_E_INPUT);
	}
	rc = workload_commands_parse(buf, len, path, data_size, out, err);
	free(buf);
	return rc;
}
