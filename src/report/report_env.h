/* report_env.h: the environments of the labels compared (the runs'
 * records, runenv.h), as the report says them: what differs between the
 * labels, first, and which of those differences nobody asked about and
 * could explain a verdict (io-threads, appendfsync, a VM against bare
 * metal, another server version). */
#ifndef RS_REPORT_ENV_H
#define RS_REPORT_ENV_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "results/row.h"
#include "results/runenv.h"

/* One label's environment. */
struct report_env {
	const char *label;        /* points into the analysis' series */
	const struct runenv *env; /* NULL: none recorded (an import, an older file) */
};

/* The fields a report shows, in order: key (runenv's), name ("io-threads"),
 * and whether a difference in it could explain a verdict. */
struct report_env_field {
	const char *key;
	const char *name;
	int explains;
};
extern const struct report_env_field report_env_fields[];

/* Each label of r, in the series' order, with the environment of its
 * first row's run (runenv_find: the row's file, target and server
 * arguments) from set: *out (free it) of *n. */
void report_env_collect(const struct analysis_result *r, const struct runenv_set *set,
			struct report_env **out, size_t *n);

/* Each label of rows, in the order the rows first have it, with the
 * environment of its first row's run from set (as report_env_collect):
 * *out (free it; labels point into rows) of *n. */
void report_env_collect_rows(const struct rs_rows *rows, const struct runenv_set *set,
			     struct report_env **out, size_t *n);

/* Whether field key differs between the labels that have an environment
 * (two or more). */
int report_env_differs(const struct report_env *e, size_t n, const char *key);
/* key's value of one environment as the prose says it ("4 cores",
 * "performance governor", "a VM (kvm)", "io-threads 4"); "unknown
 * io-threads" when it has none. */
const char *report_env_phrase(const struct runenv *env, const char *key, char *buf, size_t size);

/* Text or markdown (which the report writes after its verdict table, the
 * text before anything): "Environment: a: 8 cores, performance governor; b: 4
 * cores, powersave governor" and, when comparisons have verdicts, the
 * differences not asked about that could explain them (a setting no
 * label's server arguments set, a server or virtualisation no label
 * names), then a blank line; nothing with fewer than two environments or
 * none that differ. */
void report_env_block(FILE *fp, const struct analysis_result *r, const struct report_env *e,
		      size_t n, int md);
/* The same two sentences into buf ("" when there is nothing to say):
 * what differs, and (explain) what could explain the verdicts. */
void report_env_words(const struct report_env *e, size_t n, int explain, char *buf, size_t size);
/* A chart footer's line into buf: for each label with an environment,
 * the machine fields that differ between them (CPU, cores, governor,
 * virtualisation, server), "m1: 8 cores, performance governor; intel: 4
 * cores, powersave governor"; "" with fewer than two environments or
 * none of those fields differing.  Cut with "..." at size. */
void report_env_short(const struct report_env *e, size_t n, char *buf, size_t size);
/* json: ,"environment":{"LABEL":{"key":"value",...},...}, labels without
 * one left out; nothing when none has one. */
void report_env_json(FILE *fp, const struct report_env *e, size_t n);

#endif
