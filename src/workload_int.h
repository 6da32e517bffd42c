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
	const char *argv[24];
};

extern const struct workload_entry workload_catalogue[];
extern const size_t workload_ncat;

#endif
