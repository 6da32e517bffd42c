/* analysis_pool.c: the analysis' work shared over every CPU.  A series'
 * intervals cost milliseconds (knee.h), a comparison's per-depth ones as
 * much again, and a file of thousands of series would otherwise wait on
 * one core.  Each item is computed alone from its own seed into its own
 * slot, so the result is the same however the work is shared. */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include "analysis/analysis_int.h"

#define ANALYSIS_MAX_THREADS 16

struct analysis_pool {
	size_t n, next;           /* items, and the next to take (atomically) */
	void (*fn)(void *ctx, size_t i);
	void *ctx;
};

static void *analysis_pool_worker(void *arg)
{
	struct analysis_pool *w = arg;

	for (;;) {
		size_t i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);

		if (i >= w->n)
			return NULL;
		w->fn(w->ctx, i);
	}
}

void analysis_pool_run(size_t n, size_t per_thread, void (*fn)(void *ctx, size_t i), void *ctx)
{
	struct analysis_pool w = { n, 0, fn, ctx };
	pthread_t tid[ANALYSIS_MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = cpus > 1 ? (size_t)cpus : 1, started = 0;

	if (nt > ANALYSIS_MAX_THREADS)
		nt = ANALYSIS_MAX_THREADS;
	if (per_thread > 0 && nt > n / per_thread)
		nt = n / per_thread;  /* a few items: not worth a thread */
	/* The calling thread works too; a thread that cannot start is simply
	 * not there. */
	for (; started + 1 < nt; started++)
		if (pthread_create(&tid[started], NULL, analysis_pool_worker, &w) != 0)
			break;
	analysis_pool_worker(&w);
	for (size_t i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}
