/* along.h: the series of one label and test that differ along an axis
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
#ifndef RS_ALONG_H
#define RS_ALONG_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "results/row.h"

struct along_group {
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

struct along_groups {
	struct along_group *v;
	size_t n;
};

/* Group r's series (open loop's excepted: each runs at one offered rate,
 * from rows, which may be NULL).  A series without axes is a group of its
 * own when plain is set, else in none.  O(series x groups).  Release with
 * along_groups_free (which accepts a zeroed set). */
void along_groups_make(const struct analysis_result *r, const struct rs_rows *rows, int plain,
		      struct along_groups *out);
void along_groups_free(struct along_groups *g);
/* Whether some group has two series or more: a setting varies. */
int along_groups_any(const struct along_groups *g);

/* The group's name: label, base and the values held ("vm GET",
 * "vm GET, data size 1024"), into buf. */
const char *along_group_name(const struct along_group *g, const struct analysis_result *r,
			    char *buf, size_t size);
/* A cell of series s at depth as words say it: "P=16 with 4 clients",
 * "P=16 with 1 client", "P=8 with 1024-byte values", "P=8 with 2
 * threads", "P=8 with io-threads 4", "P=8 with the server's defaults";
 * "P=16" for axis -1. */
const char *along_cell_words(const struct series *s, int axis, unsigned depth, char *buf,
			    size_t size);
/* The JSON key of axis a, as the result CSV names its column:
 * "clients", "data_size", "threads", "server_args". */
const char *along_json_key(int a);
/* s's value on axis a as a JSON value: a number, the server's arguments
 * as a string ("" for none), null when unknown or a is none. */
void along_json_value(FILE *fp, const struct series *s, int a);
/* ",\"held\":{\"data_size\":1024}": the values g holds, as a member of
 * a JSON object after a comma ({} when none). */
void along_json_held(FILE *fp, const struct along_group *g, const struct analysis_result *r);
/* ",\"base\":\"GET\",\"axes\":{\"clients\":4}": the base and the
 * values of series s on the axes its name carries, as members of its JSON
 * object after a comma; nothing for a series without axes. */
void along_json_series(FILE *fp, const struct series *s);
/* Throughput short, as the report's sentences say it: "412k", "1.25M",
 * "9.87k", "950"; "-" when not finite. */
const char *along_fmt_rps(char *buf, size_t size, double v);

#endif
