/* axes.h: the series of one label and test that differ along an axis
 * (series.h: clients, data size, threads, server arguments): the groups
 * that the report's tables along an axis, the frontier within a latency
 * budget (frontier.h) and --goal (goal.h) read.  Computes and names;
 * no I/O but the JSON members' streams.
 *
 * A group is a label, a base test ("GET", "GET window") and, where the
 * label varies more than one setting, the values of all but one held:
 * the axis a group runs along is the first its label varies, in the
 * order of enum series_axis (clients before data size), so that -c
 * 1,4,16 x -d 64,1024 gives one group along clients for each data size.
 * Throughput at two data sizes measures two workloads: no group mixes
 * them.  A label's series are in the order of their axes' values
 * (series.h), and so are a group's. */
#ifndef RS_AXES_H
#define RS_AXES_H

#include <stddef.h>
#include <stdio.h>

#include "analysis.h"
#include "row.h"

struct axes_group {
	const char *label;        /* borrowed from the series */
	const char *base;         /* struct series.base: the test without axes */
	int axis;                 /* the enum series_axis its series differ
				   * along; -1 for a series without axes */
	unsigned held;            /* the label's other axes (bits), whose
				   * values every series of the group shares */
	size_t *v;                /* indices into analysis_result.series, in
				   * its order; owned */
	size_t n;
};

struct axes_groups {
	struct axes_group *v;
	size_t n;
};

/* Group r's series (open loop's excepted: each runs at one offered rate,
 * from rows, which may be NULL).  A series without axes is a group of its
 * own when plain is set, else in none.  O(series x groups).  Release with
 * axes_groups_free (which accepts a zeroed set). */
void axes_groups_make(const struct analysis_result *r, const struct rs_rows *rows, int plain,
		      struct axes_groups *out);
void axes_groups_free(struct axes_groups *g);
/* Whether some group has two series or more: a setting varies. */
int axes_groups_any(const struct axes_groups *g);

/* The group's name: label, base and the values held ("vm GET",
 * "vm GET, data size 1024"), into buf. */
const char *axes_group_name(const struct axes_group *g, const struct analysis_result *r,
			    char *buf, size_t size);
/* A cell of series s at depth as words say it: "P=16 with 4 clients",
 * "P=16 with 1 client", "P=8 with 1024-byte values", "P=8 with 2
 * threads", "P=8 with io-threads 4", "P=8 with the server's defaults";
 * "P=16" for axis -1. */
const char *axes_cell_words(const struct series *s, int axis, unsigned depth, char *buf,
			    size_t size);
/* The JSON key of axis a, as the result CSV names its column:
 * "clients", "data_size", "threads", "server_args". */
const char *axes_json_key(int a);
/* s's value on axis a as a JSON value: a number, the server's arguments
 * as a string ("" for none), null when unknown or a is none. */
void axes_json_value(FILE *fp, const struct series *s, int a);
/* ",\"held\":{\"data_size\":1024}": the values g holds, as a member of
 * a JSON object after a comma ({} when none). */
void axes_json_held(FILE *fp, const struct axes_group *g, const struct analysis_result *r);
/* ",\"base\":\"GET\",\"axes\":{\"clients\":4}": the base and the
 * values of series s on the axes its name carries, as members of its JSON
 * object after a comma; nothing for a series without axes. */
void axes_json_series(FILE *fp, const struct series *s);
/* Throughput short, as the report's sentences say it: "412k", "1.25M",
 * "9.87k", "950"; "-" when not finite. */
const char *axes_fmt_rps(char *buf, size_t size, double v);

#endif
