/* workload_seq.c: the command after -- as valkey-benchmark takes it:
 * commands separated by ";" words, a repeat count before one, the
 * placeholders __key__, __data__ and __rand_int__, and MULTI/EXEC around
 * the whole with --transaction.  A sequence is one request of several
 * replies (struct workload_test's sequence); the engine sends its bytes
 * as it sends any command's.  It never touches a socket. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sbuf.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

#define WORKLOAD_SEQ_SEP ";"

/* Whether word is a repeat count (digits only): 1 with *out, 0 when it
 * is not a number, -1 with err when it is one out of range (a sign, "-5",
 * is one: no command's name is a number). */
static int workload_seq_count(const char *word, unsigned *out, struct rs_err *err)
{
	unsigned long long v = 0;
	const char *d = word + (*word == '-' || *word == '+');

	if (*d == '\0')
		return 0;
	for (const char *p = d; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	if (d != word)
		return rs_err_setk(err, RS_E_USAGE, "repeat count %s has a sign: digits only, 1 to %u",
				   word, WORKLOAD_SEQ_REPEAT_MAX);
	for (const char *p = word; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		if (v <= WORKLOAD_SEQ_REPEAT_MAX)
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (v == 0 || v > WORKLOAD_SEQ_REPEAT_MAX)
		return rs_err_setk(err, RS_E_USAGE, "repeat count %s is out of range (1 to %u)", word,
				   WORKLOAD_SEQ_REPEAT_MAX);
	*out = (unsigned)v;
	return 1;
}

/* One command, argv[0..argc) as given, its placeholders expanded, as the
 * next of parts. */
static int workload_seq_part(struct workload *parts, int argc, char **argv, const char *data,
			     size_t data_len, struct rs_err *err)
{
	char **av = xcalloc((size_t)argc + 1, sizeof *av);
	int rc;

	for (int i = 0; i < argc; i++)
		av[i] = workload_expand(argv[i], data, data_len);
	rc = workload_custom_fill(workload_push(parts), argc, av, argv, err);
	for (int i = 0; i < argc; i++)
		free(av[i]);
	free(av);
	return rc;
}

void workload_seq_join(struct workload_test *t, struct workload *parts, const unsigned *counts)
{
	size_t len = 0, nrand = 0, ncopy = 0, off = 0, r = 0, c = 0;

	for (size_t i = 0; i < parts->n; i++) {
		const struct workload_test *p = &parts->v[i];

		len += p->len * counts[i];
		nrand += p->nrand * counts[i];
		ncopy += (p->ncopy + (p->key_from != 0)) * counts[i];
		t->replies += counts[i];
		t->ndata += p->ndata * counts[i];
		t->key_per_request += p->key_per_request * counts[i];
		t->key_any |= p->key_any;
	}
	t->cmd = xmalloc(len + 1);
	t->rand_off = nrand ? xreallocarray(NULL, nrand, sizeof *t->rand_off) : NULL;
	t->copy_off = ncopy ? xreallocarray(NULL, ncopy, sizeof *t->copy_off) : NULL;
	for (size_t i = 0; i < parts->n; i++) {
		const struct workload_test *p = &parts->v[i];

		for (unsigned k = 0; k < counts[i]; k++) {
			memcpy(t->cmd + off, p->cmd, p->len);
			for (size_t q = 0; q < p->nrand; q++) {
				/* A later command's key repeats the first one's. */
				if (p->key_from != 0 && p->rand_off[q] == p->key_from && t->key_from != 0)
					t->copy_off[c++] = off + p->rand_off[q];
				else
					t->rand_off[r++] = off + p->rand_off[q];
			}
			if (p->key_from != 0 && t->key_from == 0)
				t->key_from = off + p->key_from;
			for (size_t q = 0; q < p->ncopy; q++)
				t->copy_off[c++] = off + p->copy_off[q];
			off += p->len;
		}
	}
	t->cmd[len] = '\0';
	t->len = len;
	t->nrand = r;
	t->ncopy = c;
	t->members = parts->v;
	t->nmembers = parts->n;
	memcpy(t->weights, counts, parts->n * sizeof *counts);
	t->sequence = 1;
	t->prep = PREP_NONE;
}

int workload_sequence(int argc, char **argv, uint64_t data_size, int transaction,
		      struct workload *out, struct rs_err *err)
{
	struct workload parts = { 0 };
	unsigned counts[WORKLOAD_MIX_MAX], total = 0;
	size_t most = WORKLOAD_MIX_MAX - (transaction ? 2 : 0);
	char *data = xmalloc(data_size + 1), *multi[] = { "MULTI" }, *exec[] = { "EXEC" };
	struct workload_test *t;
	struct sbuf b;
	int rc = 0;

	memset(out, 0, sizeof *out);
	memset(data, 'x', data_size);
	data[data_size] = '\0';
	if (argc < 1)
		rc = rs_err_setk(err, RS_E_USAGE, "no command after --");
	if (rc == 0 && transaction && (rc = workload_seq_part(&parts, 1, multi, "", 0, err)) == 0)
		counts[parts.n - 1] = 1;
	for (int i = 0; i < argc && rc == 0;) {
		int j = i, from = i;
		unsigned count = 1;

		while (j < argc && strcmp(argv[j], WORKLOAD_SEQ_SEP) != 0)
			j++;
		if (j == i || (j == argc - 1)) {
			rc = rs_err_setk(err, RS_E_USAGE, "an empty command in the sequence after -- "
					 "(';' at an end, or two in a row)");
			break;
		}
		/* "4 GET k": a count needs a command after it. */
		if ((rc = workload_seq_count(argv[i], &count, err)) != 0) {
			if (rc < 0)
				break;
			if (j - i < 2) {
				rc = rs_err_setk(err, RS_E_USAGE, "repeat count %s in the sequence after "
						 "-- has no command after it", argv[i]);
				break;
			}
			rc = 0;
			from = i + 1;
		}
		if (parts.n - (transaction ? 1 : 0) == most) {
			rc = rs_err_setk(err, RS_E_USAGE, "more than %zu commands in the sequence after "
					 "--", most);
			break;
		}
		total += count;
		if (total > WORKLOAD_SEQ_MAX) {
			rc = rs_err_setk(err, RS_E_USAGE, "the sequence after -- sends more than %u "
					 "commands a request", WORKLOAD_SEQ_MAX);
			break;
		}
		if ((rc = workload_seq_part(&parts, j - from, argv + from, data, data_size, err)) < 0)
			break;
		counts[parts.n - 1] = count;
		i = j + 1;
	}
	if (rc == 0 && transaction && (rc = workload_seq_part(&parts, 1, exec, "", 0, err)) == 0)
		counts[parts.n - 1] = 1;
	free(data);
	if (rc < 0) {
		workload_free(&parts);
		return rs_err_as(err, RS_E_USAGE);
	}
	/* One command, sent once: the custom test it always was. */
	if (parts.n == 1 && counts[0] == 1) {
		*out = parts;
		return 0;
	}
	t = workload_push(out);
	sbuf_fixed(&b, t->name, sizeof t->name);
	if (transaction)
		sbuf_printf(&b, "MULTI ; ");
	for (int i = 0; i < argc; i++)
		sbuf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	if (transaction)
		sbuf_printf(&b, " ; EXEC");
	for (char *p = t->name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	workload_seq_join(t, &parts, counts);
	t->custom = 1;
	return 0;
}
