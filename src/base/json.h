/* json.h: a strict reader of JSON text (RFC 8259), for the files peers
 * write (memtier_benchmark's --json-out-file), and the one writer of JSON
 * strings (json_write.c); the rest of rsweep's JSON output is printed
 * where it is made.
 *
 * json_parse turns a buffer into a tree kept in one array of nodes; strings
 * are decoded (escapes, \uXXXX to UTF-8) into one pool.  Nothing is read
 * but the bytes given: no I/O, no locale.  Refused, with "NAME:LINE:
 * reason": anything but exactly one value and white space, trailing
 * commas, comments, single quotes, control characters in strings, lone
 * surrogates and \u0000 (a name must be a C string), numbers outside a
 * double's range, nesting deeper than JSON_MAX_DEPTH and more than
 * JSON_MAX_NODES values.  A name given twice in one object: the last
 * member counts, as jq and Python's json read it; the earlier ones are
 * dropped from the tree. */
#ifndef RS_JSON_H
#define RS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

#define JSON_MAX_DEPTH 64
#define JSON_MAX_NODES (1u << 22)

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
		 JSON_OBJECT };

/* One value.  Children of an array or object are linked through next;
 * indices are into json_doc.v, 0 meaning none (the root is node 0, and
 * never anyone's child). */
struct json_node {
	unsigned char type;       /* enum json_type */
	unsigned line;            /* 1-based, where the value starts */
	uint32_t first, next;     /* first child; next sibling */
	uint32_t key;             /* a member's name: offset into str; else UINT32_MAX */
	uint32_t n;               /* children of an array or object */
	union {
		double num;       /* JSON_NUMBER */
		uint32_t s;       /* JSON_STRING: offset into str */
	} u;
};

struct json_doc {
	struct json_node *v;
	size_t n, cap;
	char *str;                /* NUL-terminated strings, back to back */
	size_t slen, scap;
};

/* Parse buf[0..len), named name in messages, into doc.  Returns 0, or -1
 * with err "name:line: reason" and doc empty.  Release with json_free. */
int json_parse(const char *buf, size_t len, const char *name, struct json_doc *doc,
	       struct rs_err *err);
/* The next of several values one after another (JSON Lines, files
 * concatenated): parse the value at buf[*pos..len) (white space before it
 * skipped) into doc, and move *pos past it and the white space after it,
 * *line (1 at the start) to the line there.  0, or -1 as json_parse. */
int json_parse_next(const char *buf, size_t len, size_t *pos, unsigned *line, const char *name,
		    struct json_doc *doc, struct rs_err *err);
/* Release doc (NULL allowed); a zeroed doc is empty. */
void json_free(struct json_doc *doc);

/* The root value, or NULL for an empty doc. */
const struct json_node *json_root(const struct json_doc *doc);
/* The first child of node (an array's element, an object's member), and
 * the sibling after node; NULL when there is none. */
const struct json_node *json_first(const struct json_doc *doc, const struct json_node *node);
const struct json_node *json_next(const struct json_doc *doc, const struct json_node *node);
/* A member's name ("" for a node that is none). */
const char *json_key(const struct json_doc *doc, const struct json_node *node);
/* A string's text, or NULL for a node of another type. */
const char *json_str(const struct json_doc *doc, const struct json_node *node);
/* The member of obj named key (one: see above), or NULL (also when obj is NULL or no
 * object). */
const struct json_node *json_get(const struct json_doc *doc, const struct json_node *obj,
				 const char *key);

/* s as a JSON string to fp.  JSON text is UTF-8: labels and test names
 * come from CSV files in any encoding, so each byte that is not part of
 * well-formed UTF-8 becomes U+FFFD (as a decoder would show it), and what
 * JSON forbids raw is escaped. */
void json_write_str(FILE *fp, const char *s);
/* ,"key":v to fp, v with prec digits after the point (num_fmt), or
 * ,"key":null when v is not finite: a member after the object's first. */
void json_write_num(FILE *fp, const char *key, double v, int prec);

#endif
