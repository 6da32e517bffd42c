/* sweep_row.h: a measured row's figures that cannot be right, and the
 * rate a point falls short of (sweep_row.c). */
#ifndef RS_SWEEP_ROW_H
#define RS_SWEEP_ROW_H

#include <stddef.h>

#include "results/row.h"

/* Make unknown (NAN, or -1 for counts) the figures of a measured row that
 * cannot be right: negative or not finite, such as a server CPU time or
 * call count that went backwards because the server restarted or CONFIG
 * RESETSTAT ran during the point (but not those unknown names: the
 * server gives none); and note, keeping it, a server_calls below requests (the server did not run what was counted).  Returns how
 * many it dropped or noted; why (size bytes) then names them in one line. */
int sweep_row_sanitise(struct rs_row *row, unsigned unknown, char *why, size_t size);
/* For sweep_row_sanitise's unknown: figures the server does not give at
 * all (found when the sweep opened), left unknown and not noted. */
#define SWEEP_NO_CALLS 1u        /* no INFO commandstats: server_calls */
#define SWEEP_NO_CPU 2u          /* no used_cpu_sys/user in INFO cpu: server_cpu_s */

/* An open-loop point whose achieved rate is below its offered rate by more
 * than this fraction is marked short (rate_short): the target could not
 * keep up with that rate. */
#define SWEEP_RATE_SHORT 0.05

#endif
