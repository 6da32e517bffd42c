/* workload_int.h: what the workload's files share: the catalogue's entries
 * (workload_catalogue.c holds them, workload_build.c builds their
 * commands), and each file's functions for the others.  They call one way
 * only, down to workload_build.c, which calls none of them
 * (tests/build/circles.sh checks it). */
#ifndef RS_WORKLOAD_INT_H
#define RS_WORKLOAD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

struct workload_entry {
	const char *name;
	const char *group;        /* extra -t name that selects it, or NULL */
	const char *cmdstat;
	enum workload_prep prep;
	unsigned expect;
	unsigned keys;            /* bit i set: argv[i] is a key (a --key-prefix goes in front) */
	const char *argv[24];
	/* PUBLISH with subscribers (-t publish): never among the tests of a
	 * run without -t, nor a mix's member; its value is at least a stamp
	 * long (pubsub_msg.h) and its channel no key.  1 PUBLISH, 2 SPUBLISH
	 * (sharded). */
	int pubsub;
};

/* The key is argument 1; MSET's are arguments 1, 3, ... 19. */
#define WORKLOAD_KEY1 (1u << 1)
#define WORKLOAD_KEYS_MSET 0xaaaaau

extern const struct workload_entry workload_catalogue[];
extern const size_t workload_ncat;

/* workload_build.c's, for what selects tests (workload.c, workload_mix.c,
 * workload_file.c): append catalogue test c formatted with data behind
 * prefix (once: a test already in w is not added again), and a fresh
 * zeroed slot of w. */
int workload_add(struct workload *w, size_t c, const char *data, size_t data_len,
		 const char *prefix, struct rs_err *err);
struct workload_test *workload_push(struct workload *w);
/* workload_build.c's, for workload_prep.c: a then b in memory the caller frees;
 * a * b + c, UINT64_MAX when it does not fit; the key a preparation of
 * kind prep fills, before any prefix ("mylist"; NULL: none or many). */
char *workload_join(const char *a, const char *b);
uint64_t workload_mac(uint64_t a, uint64_t b, uint64_t c);
const char *workload_prepare_base(enum workload_prep prep);
/* The names -t knows ("ping, ping_inline, ...": workload_spec.c). */
void workload_known(char *out, size_t size);
/* A custom command from argv into t (a fresh zeroed slot): its name (the
 * words of shown, or of argv when shown is NULL, joined by blanks),
 * cmdstat, key counts and bytes, as workload_custom makes one; for
 * workload_file.c's members, named by their line before __data__ becomes
 * bytes.  0, or -1 with err. */
int workload_custom_fill(struct workload_test *t, int argc, char **argv, char *const *shown,
			 struct rs_err *err);

/* The placeholders of a custom command's words (workload_sequence, a
 * command file): word with each __key__ as WORKLOAD_KEY_MARK, which
 * workload_custom_fill makes one key a request, and each __data__ as
 * data_len bytes of data, in memory the caller frees. */
#define WORKLOAD_KEY "__key__"
#define WORKLOAD_DATA "__data__"
#define WORKLOAD_KEY_MARK "__rand_key__"  /* as long as __rand_int__ */
char *workload_expand(const char *word, const char *data, size_t data_len);

/* The catalogue index of name (one test, any case: not a group such as
 * "lrange"), or workload_ncat (workload_spec.c). */
size_t workload_mix_find(const char *name);
/* A mix's items "NAME=WEIGHT" (as -t gives them after "mix:") into their
 * catalogue indices and weights: 2..WORKLOAD_MIX_MAX members, none twice.
 * 0, or -1 with err (RS_E_USAGE) naming the problem. */
int workload_mix_parse(char *const *items, size_t nitems, size_t *cat, unsigned *weight,
		       struct rs_err *err);

/* The sequence of parts, each counts[i] times in a row, as one test t (a
 * fresh slot, its name the caller's): their bytes end to end, their
 * __rand_int__ places and key places (key_from, copy_off) moved to where
 * each copy stands; the first key of all is drawn and every other repeats
 * it.  The parts become t's members (workload_seq.c). */
void workload_seq_join(struct workload_test *t, struct workload *parts, const unsigned *counts);

/* Parse the mix of items (its first member after "mix:", the further
 * NAME=WEIGHT items), as -t gives them, and append it to w: 0, or -1 with
 * err (RS_E_USAGE). */
int workload_mix_add(struct workload *w, char *const *items, size_t nitems, const char *data,
		     size_t data_len, const char *prefix, struct rs_err *err);

#endif
