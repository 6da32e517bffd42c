/* histfile.h: each point's latency histogram in a sidecar of the results
 * CSV, so that repeats (and later several load generators) are combined
 * by adding histograms, never by averaging percentiles.
 *
 * The sidecar of FILE.csv is FILE.csv.hist, itself a CSV with the header
 * HISTFILE_HEADER: the point's key (label, test, pipeline, mode,
 * rate_offered, arrivals, repeat, as in its row), started_at, and the
 * histogram in hist_encode's form.  Its line is written and synced before
 * the row, so every row has one; a row's histogram is the last line with
 * its key (a crash between the two writes leaves a line that --resume
 * measures again), and a line whose key has no row is ignored. */
#ifndef RS_HISTFILE_H
#define RS_HISTFILE_H

#include <stddef.h>

#include "results/csv.h"
#include "base/err.h"
#include "results/hist.h"
#include "results/row.h"
#include "base/sbuf.h"

#define HISTFILE_SUFFIX ".hist"
#define HISTFILE_HEADER "label,test,pipeline,mode,rate_offered,arrivals,repeat,started_at,hist"

/* Append row's histogram h to the sidecar of the CSV o (made, with its
 * header, if missing) and sync it, before the row goes into o.  The CSV is
 * made and locked first (csv_out_ready), so the sidecar is written only
 * under its lock; when that made or emptied the CSV (--overwrite) the
 * sidecar is emptied too; a crash's half last line is cut back first.
 * The sidecar must be a regular file, not a link, that starts with
 * HISTFILE_HEADER.  Returns 0, or -1 with err naming the file and the
 * reason (RS_E_INPUT for a sidecar that is not a regular file or not
 * ours). */
int histfile_append(struct csv_out *o, const struct rs_row *row, const struct hist *h,
		    struct rs_err *err);

/* One sidecar line, row's key and h, appended to b (histfile_append's,
 * and an import's that brings histograms). */
void histfile_format_line(struct sbuf *b, const struct rs_row *row, const struct hist *h);

/* Whether histfile_append could add to the sidecar of csv_path as it is
 * now (absent is fine), to refuse before anything is measured.  Returns 0,
 * or -1 with err as histfile_append's. */
int histfile_check(const char *csv_path, struct rs_err *err);

/* One line of a sidecar as read: the key's fields in a row (the other
 * figures unknown), and the histogram. */
struct histfile_line {
	struct rs_row key;
	struct hist h;
};

/* Parse buf[0..len) (a sidecar named name, for messages) and call fn for
 * each line in order; fn returns 0 to go on, -1 (err set) to stop.
 * Fails with "name:LINE: reason" on a bad header, a malformed line or a
 * histogram hist_decode refuses.  Never touches anything but its
 * arguments. */
int histfile_parse(const char *buf, size_t len, const char *name,
		   int (*fn)(void *ud, const struct histfile_line *l, struct rs_err *err), void *ud,
		   struct rs_err *err);

#endif
