/* csv_int.h: what the results file's schema (csv.c), its writer
 * (csv_write.c), its reader (csv_read.c) and its appender (csv_append.c)
 * share, and nothing another room may use: csv.h is the interface. */
#ifndef RS_CSV_INT_H
#define RS_CSV_INT_H

#include <stddef.h>

#include "results/csv.h"

/* The most fields a record may have. */
#define CSV_MAXF 256

/* How a column is written and read. */
enum csv_type { CT_STR, CT_UINT, CT_I64, CT_DBL };

struct csv_col {
	const char *name;
	enum csv_type type;
	size_t off;
	size_t size;              /* CT_STR: buffer size */
	int prec;                 /* CT_DBL: digits after '.' */
	int required;             /* the reader needs it */
};

/* The schema: the columns rsweep knows, in its header's order (csv.c),
 * csv_ncols() of them.  The first CSV_NCONTRACT are the contract every
 * later command and every user script relies on. */
extern const struct csv_col csv_cols[];
#define CSV_NCONTRACT 15

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
