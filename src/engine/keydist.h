/* keydist.h: how a run draws the numbers of its keys (--key-dist) over -r
 * N keys: uniform, sequential, zipf:S, gaussian:SIGMA,
 * hotspot:FRACTION:SHARE.
 *
 * A spec is parsed once (keydist_parse: no keyspace needed, so that a bad
 * spec is refused before anything connects), a sampler is built once a run
 * for its keyspace (keydist_new), and the engine's loops draw from it with
 * a state of their own each (struct keydist_state): a draw allocates
 * nothing and costs a table look-up, most often (zipf beyond its table's
 * ranks costs a rejection-inversion step).
 *
 * Uniform is never a sampler: the engine's own `rng % keyspace` stays its
 * path (keydist_new gives NULL for it), so that a run without --key-dist
 * draws the same keys at the same cost as before the option. */
#ifndef RS_KEYDIST_H
#define RS_KEYDIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"
#include "base/err.h"

enum keydist_kind {
	KEYDIST_UNIFORM,
	KEYDIST_SEQUENTIAL,
	KEYDIST_ZIPF,
	KEYDIST_GAUSSIAN,
	KEYDIST_HOTSPOT,
};

/* A parsed --key-dist.  zipf: a = S; gaussian: a = SIGMA (below 1 a
 * fraction of -r, else keys); hotspot: a = FRACTION, b = SHARE. */
struct keydist_spec {
	enum keydist_kind kind;
	double a, b;
};

/* The ranks zipf keeps in its alias table, 8 bytes each (2 MiB; 16 more
 * while it is built).  The ranks above it, for a larger -r, are drawn by
 * rejection-inversion, which needs no table but costs a log1p and an exp
 * (about 200 instructions): at S 0.99 one draw in 10 takes it over -r
 * 1000000, one in 3 over 100000000. */
#define KEYDIST_ZIPF_TABLE 262144
/* gaussian's bins (keydist.c): 12 bytes each, 768 KiB. */
#define KEYDIST_GAUSS_BINS 65536
/* The longest spec keydist_format writes, with its NUL. */
#define KEYDIST_NAME_MAX 64

/* Parse "uniform", "sequential", "zipf[:S]" (S > 0, at most 10; default
 * 0.99, YCSB's), "gaussian[:SIGMA]" (SIGMA > 0; default 1/6, memtier's),
 * "hotspot[:FRACTION[:SHARE]]" (FRACTION in (0, 1), SHARE in [0, 1];
 * default 0.2:0.8, YCSB's).  Returns 0, or -1 with a one-line err of kind
 * RS_E_USAGE naming the problem ("zipf:S needs S > 0"). */
int keydist_parse(const char *text, struct keydist_spec *out, struct rs_err *err);
/* The spec as the CSV's key_dist column writes it, defaults spelt out
 * ("zipf:0.99", "hotspot:0.2:0.8"), into buf; returns buf. */
const char *keydist_format(const struct keydist_spec *spec, char *buf, size_t size);

/* One column of zipf's alias table (Vose): draw a column uniformly, keep
 * it when a second uniform falls under thresh (of 2^32), else take alias. */
struct keydist_cell {
	uint32_t thresh;
	uint32_t alias;
};

/* A sampler.  Its fields are keydist.c's: they are here only so that
 * keydist_draw inlines into the engine's loop. */
struct keydist {
	enum keydist_kind kind;
	struct keydist_spec spec; /* what it was built from (keydist_spec_of) */
	uint64_t n;               /* the keyspace */
	/* sequential: the counter all loops claim from (__atomic) */
	uint64_t seq;
	/* zipf: the alias table's columns, ranks 1..nhead and, when the
	 * keyspace is larger, one more for the tail, ranks nhead+1..n, drawn
	 * by rejection-inversion (Hörmann and Derflinger 1996). */
	struct keydist_cell *cells;
	uint32_t ncols, nhead;
	double s, oms;            /* exponent, and 1 - s */
	double t_hx1, t_hn, t_sq; /* the tail's H(a + 1/2) - h(a), H(n + 1/2), squeeze */
	/* gaussian: an alias table of cells over ncols bins of width w from
	 * lo, and each bin's squeeze (keydist.c) */
	double mean, sd, lo, w;
	uint32_t *squeeze;
	/* hotspot: the first hot keys get the draws whose first number is
	 * below share (of 2^64); cold = n - hot */
	uint64_t hot, cold, share;
	int all_hot;              /* SHARE 1: share cannot say 2^64 */
};

/* A sampler of spec over keys 0..keyspace-1 (keyspace > 0), in *out;
 * NULL for uniform (the engine's own draw).  Bad input (-1, RS_E_USAGE):
 * a keyspace of 0, a hotspot whose hot or cold set holds no key, a
 * gaussian SIGMA of more keys than the keyspace.  Freed with keydist_free
 * (NULL allowed). */
int keydist_new(const struct keydist_spec *spec, uint64_t keyspace, struct keydist **out,
		struct rs_err *err);
void keydist_free(struct keydist *kd);
/* The spec kd was built from; NULL for NULL (uniform). */
const struct keydist_spec *keydist_spec_of(const struct keydist *kd);
enum keydist_kind keydist_kind(const struct keydist *kd);

/* Sequential: start the next draws at key 0 again (the engine calls it as
 * a run starts, before its threads, so that every point walks the keys
 * from the first).  Nothing for the other kinds. */
void keydist_rewind(struct keydist *kd);

/* One loop's draw state: a zeroed one is ready.  Sequential keeps the
 * numbers its loop claimed (keydist_claim). */
struct keydist_state {
	uint64_t next;            /* sequential: the next key of the claim */
};

/* Before n draws on st: sequential claims n consecutive numbers of the
 * one counter all loops share (one atomic add), so that the draws of all
 * loops together are the counter's numbers, each once, and so cover every
 * key once a pass of N draws, whatever the threads and connections.
 * Nothing for the other kinds. */
void keydist_claim(struct keydist *kd, struct keydist_state *st, uint64_t n);
/* keydist_draw's slower paths: zipf's ranks past the table (a rank);
 * whether gaussian keeps x of bin with u, its uniform of 2^32, when the
 * squeeze could not say (1 or 0). */
uint64_t keydist_zipf_tail(const struct keydist *kd, uint64_t *rng);
int keydist_gauss_keep(const struct keydist *kd, uint32_t bin, uint32_t u, double x);

/* A gaussian key: a bin by the alias table, a point in it, kept under the
 * squeeze (nearly always) or the density (keydist.c). */
static inline uint64_t keydist_gaussian(const struct keydist *kd, uint64_t *rng)
{
	for (;;) {
		unsigned __int128 p = (unsigned __int128)rng_next(rng) * kd->ncols;
		uint32_t col = (uint32_t)(p >> 64);
		const struct keydist_cell *c = &kd->cells[col];
		uint32_t i = (uint32_t)((uint64_t)p >> 32) < c->thresh ? col : c->alias;
		uint64_t r = rng_next(rng);
		double x = kd->lo + ((double)i + (double)(uint32_t)(r >> 32) * 0x1p-32) * kd->w;
		uint32_t u = (uint32_t)r;

		if (u < kd->squeeze[i] || keydist_gauss_keep(kd, i, u, x))
			/* x < n, but for rounding in the last bin */
			return x < (double)kd->n ? (uint64_t)x : kd->n - 1;
	}
}

/* The next key number, in 0..keyspace-1, drawing from *rng
 * (rng_next's xorshift64*).  Inline: the engine calls it per key. */
static inline uint64_t keydist_draw(const struct keydist *kd, struct keydist_state *st,
				    uint64_t *rng)
{
	switch (kd->kind) {
	case KEYDIST_ZIPF: {
		/* One number: the column from the product's high half, the
		 * threshold's uniform from its low half. */
		unsigned __int128 p = (unsigned __int128)rng_next(rng) * kd->ncols;
		uint32_t col = (uint32_t)(p >> 64);
		const struct keydist_cell *c = &kd->cells[col];
		uint32_t k = (uint32_t)((uint64_t)p >> 32) < c->thresh ? col : c->alias;

		return k < kd->nhead ? k : keydist_zipf_tail(kd, rng) - 1;
	}
	case KEYDIST_HOTSPOT:
		if (kd->all_hot || rng_next(rng) < kd->share)
			return rng_next(rng) % kd->hot;
		return kd->hot + rng_next(rng) % kd->cold;
	case KEYDIST_SEQUENTIAL: {
		uint64_t k = st->next;

		st->next = k + 1 == kd->n ? 0 : k + 1;
		return k;
	}
	case KEYDIST_GAUSSIAN:
		return keydist_gaussian(kd, rng);
	case KEYDIST_UNIFORM:
		break;
	}
	return rng_next(rng) % kd->n;
}

#endif
