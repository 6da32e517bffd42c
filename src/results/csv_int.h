/* csv_int.h: what the results file's reader and writer (csv.c) share with
 * its appender (csv_append.c), and nothing another room may use: csv.h is
 * the interface. */
#ifndef RS_CSV_INT_H
#define RS_CSV_INT_H

#include <stddef.h>

#include "results/csv.h"

/* The most fields a record may have. */
#define CSV_MAXF 256

/* The columns rsweep knows, in its header's order, and the name of c. */
size_t csv_ncols(void);
const char *csv_col_name(size_t c);

/* Row r as a line in the columns cols[0..ncols) of header hdr (cols NULL:
 * every column of rsweep's header, as csv_format_row); the length, or -1
 * with err naming the row. */
int csv_format_in(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
		  char *buf, size_t size, struct rs_err *err);

/* Map the header's fields f[0..nhdr) to the columns (map[i]: field i's
 * column, or -1); sets info->rsweep_header.  0, or -1 with err (FILE:1). */
int csv_header_map(const struct csv_field *f, size_t nhdr, const char *name, int *map,
		   struct csv_info *info, struct rs_err *err);

/* The header record at *pos into f and *nhdr, its newlines into *nl.  0,
 * or -1 with err (FILE:1). */
int csv_header_read(const char *buf, size_t len, const char *name, size_t *pos, char *scratch,
		    struct csv_field *f, size_t *nhdr, unsigned *nl, struct rs_err *err);

/* s (at most max bytes) made printable for a message, into buf. */
const char *csv_show_str(char *buf, size_t size, const char *s, size_t max);

#endif
