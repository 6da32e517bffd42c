/* mixshare.h: a mix's members and their shares of the requests sent, summed
 * over a series' rows (the mix, mix_sent and mix_calls columns, row.h), and
 * the words the report and the charts say them in: "GET 80.0% and SET
 * 20.0% of its requests as sent (weights 80:20)", "GET 80%, SET 20%".
 *
 * The columns are read, never trusted: a row whose lists do not read (a
 * hand-edited file) adds nothing.  A member's name is as mix_sent gives it,
 * "GET" or a --commands file's line, which may hold ',', ';', '+' or '=':
 * an entry is read as NAME=DIGITS up to the next separator, the name up to
 * the '=' before its digits. */
#ifndef RS_MIXSHARE_H
#define RS_MIXSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "results/row.h"
#include "analysis/series.h"

/* Members of a mix, at most (WORKLOAD_MIX_MAX). */
#define MIXSHARE_MAX 16
/* Bytes of a member's name, its NUL included: longer names are cut. */
#define MIXSHARE_NAME 192

struct mixshare {
	size_t n;                 /* members, in the first row's order */
	char name[MIXSHARE_MAX][MIXSHARE_NAME];
	unsigned weight[MIXSHARE_MAX];
	uint64_t sent[MIXSHARE_MAX]; /* requests sent, summed over the rows */
	/* The server's count of each mix_calls entry (the members sharing a
	 * command, as bits of member indices) against the requests sent of
	 * its members, over the rows that have mix_calls. */
	size_t ngroups;
	uint32_t group[MIXSHARE_MAX];
	uint64_t group_sent[MIXSHARE_MAX], group_calls[MIXSHARE_MAX];
	size_t rows;              /* rows added */
	int differ;               /* the rows' mix columns differ (--commands
				   * files edited between runs) */
	char first_mix[sizeof ((struct rs_row *)0)->mix];
};

/* An empty m. */
void mixshare_init(struct mixshare *m);
/* Add one row's columns.  Returns 1 when they read as a mix, 0 for a row
 * without one ("") or whose lists do not read (m unchanged then). */
int mixshare_add(struct mixshare *m, const char *mix, const char *sent, const char *calls);

/* The share of member i of the requests sent, 0..1; NAN when none was. */
double mixshare_share(const struct mixshare *m, size_t i);

/* The report's words for m, into buf: "GET 80.0% and SET 20.0% of its
 * requests as sent (weights 80:20)", then, for each mix_calls entry whose
 * calls are not its members' requests sent, "; the server counted 1995 SET
 * calls for 2006 sent".  A name holding a blank (a --commands line) is
 * quoted.  Returns 0 with buf "" when m holds no request sent. */
int mixshare_words(const struct mixshare *m, char *buf, size_t size);
/* The charts' words: "GET 80%, SET 20%"; 0 with buf "" as above. */
int mixshare_legend(const struct mixshare *m, char *buf, size_t size);

/* What csv writes: the shares as "GET=79.94;SET=20.06" (percent, two
 * decimals), and the mix_calls entries whose calls are not their members'
 * requests sent as "NAME=CALLS/SENT" ("SET=1995/2006",
 * "LRANGE_100+LRANGE_300=41/40"), ';' between; each "" when none. */
void mixshare_pct_list(const struct mixshare *m, char *buf, size_t size);
void mixshare_differ_list(const struct mixshare *m, char *buf, size_t size);
/* Member names of group g ("LRANGE_100+LRANGE_300"), unquoted, into buf. */
void mixshare_group_name(const struct mixshare *m, size_t g, char *buf, size_t size);

/* The rows of rows that have a mix, by label, test and depth
 * (rows_point_cmp), into *out (free() it); returns how many. */
size_t mixshare_index(const struct rs_rows *rows, const struct rs_rec ***out);
/* Add to m the rows of series s (series_holds) among idx[0..n), an index
 * of mixshare_index: a binary search, then its test's rows.  Returns how
 * many rows read as a mix. */
size_t mixshare_series(struct mixshare *m, const struct rs_rows *rows,
		       const struct rs_rec *const *idx, size_t n, const struct series *s);

#endif
