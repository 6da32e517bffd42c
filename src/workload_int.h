/* workload_int.h: the catalogue's entries, shared by workload.c (which
 * builds their commands) and workload_catalogue.c (which holds them). */
#ifndef RS_WORKLOAD_INT_H
#define RS_WORKLOAD_INT_H

#include <stddef.h>

#include "workload.h"

struct workload_entry {
	const char *name;
	const char *group;        /* extra -t name that selects it, or NULL */
	const char *cmdstat;
	enum workload_prep prep;
	unsigned expect;
	unsigned keys;            /* bit i set: argv[i] is a key (a --key-prefix goes in front) */
	const char *argv[24];
};

/* The key is argument 1; MSET's are arguments 1, 3, ... 19. */
#define WORKLOAD_KEY1 (1u << 1)
#define WORKLOAD_KEYS_MSET 0xaaaaau

extern const struct workload_entry workload_catalogue[];
extern const size_t workload_ncat;

#endif
