/* json.c: the strict JSON reader of json.h, by recursive descent bounded
 * by JSON_MAX_DEPTH; every byte is looked at once. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/num.h"
#include "base/strtab.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define JSON_NONE UINT32_MAX

struct json_in {
	const char *s;
	size_t len, pos;
	unsigned line;
	const char *name;
	struct json_doc *doc;
	struct rs_err *err;
};

static int json_fail(struct json_in *in, const char *what)
{
	return rs_err_setk(in->err, RS_E_INPUT, "%s:%u: %s", in->name, in->line, what);
}

static void json_ws(struct json_in *in)
{
	while (in->pos < in->len) {
		char c = in->s[in->pos];

		if (c == '\n')
			in->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		in->pos++;
	}
}

/* A new node of type t at the current line: its index, or -1 past the cap. */
static int64_t json_node_new(struct json_in *in, enum json_type t)
{
	struct json_doc *d = in->doc;
	struct json_node *x;

	if (d->n >= JSON_MAX_NODES)
		return json_fail(in, "more values than the reader takes");
	d->v = vec_reserve(d->v, &d->cap, d->n + 1, sizeof *d->v, 64);
	x = &d->v[d->n];
	memset(x, 0, sizeof *x);
	x->type = (unsigned char)t;
	x->line = in->line;
	x->key = JSON_NONE;
	return (int64_t)d->n++;
}

static void json_put(struct json_doc *d, const char *b, size_t n)
{
	if (n == 0)
		return;
	d->str = vec_reserve(d->str, &d->scap, d->slen + n, 1, 256);
	memcpy(d->str + d->slen, b, n);
	d->slen += n;
}

static int json_hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* The length of the well-formed UTF-8 sequence at s[0..n) (n > 0, s[0] >=
 * 0x80), or 0: no overlong forms, surrogates or values past U+10FFFF. */
static size_t json_utf8_len(const unsigned char *s, size_t n)
{
	size_t k;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return k;
}

/* A string at in->pos (its '"'), decoded and NUL-terminated into the pool:
 * its offset in *off.  0, or -1 (err set). */
static int json_string(struct json_in *in, uint32_t *off)
{
	struct json_doc *d = in->doc;
	size_t start = d->slen;

	in->pos++;
	for (;;) {
		size_t run = in->pos;
		unsigned char c;

		/* Copy the plain bytes in one go. */
		while (run < in->len && in->s[run] != '"' && in->s[run] != '\\' &&
		       (unsigned char)in->s[run] >= 0x20 && (unsigned char)in->s[run] < 0x80)
			run++;
		json_put(d, in->s + in->pos, run - in->pos);
		in->pos = run;
		if (in->pos >= in->len)
			return json_fail(in, "a string is not closed");
		c = (unsigned char)in->s[in->pos];
		if (c == '"') {
			in->pos++;
			break;
		}
		if (c < 0x20)
			return json_fail(in, "a control character inside a string (write it as \\n, "
					 "\\t or \\u00XX)");
		if (c >= 0x80) {
			size_t k = json_utf8_len((const unsigned char *)in->s + in->pos,
						 in->len - in->pos);

			if (k == 0)
				return json_fail(in, "a string is not valid UTF-8");
			json_put(d, in->s + in->pos, k);
			in->pos += k;
			continue;
		}
		/* A backslash. */
		if (in->pos + 1 >= in->len)
			return json_fail(in, "a string is not closed");
		c = (unsigned char)in->s[in->pos + 1];
		if (c != 'u') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *p = c ? strchr(from, c) : NULL;

			if (p == NULL)
				return json_fail(in, "an unknown escape in a string");
			json_put(d, &to[p - from], 1);
			in->pos += 2;
			continue;
		} else {
			unsigned u, lo;
			char b[4];
			size_t k;

			if (in->len - in->pos < 6 || json_hex4(in->s + in->pos + 2, &u) < 0)
				return json_fail(in, "\\u is not followed by four hex digits");
			in->pos += 6;
			if (u >= 0xdc00 && u <= 0xdfff)
				return json_fail(in, "a lone low surrogate in a string");
			if (u >= 0xd800 && u <= 0xdbff) {
				if (in->len - in->pos < 6 || in->s[in->pos] != '\\' ||
				    in->s[in->pos + 1] != 'u' || json_hex4(in->s + in->pos + 2, &lo) < 0 ||
				    lo < 0xdc00 || lo > 0xdfff)
					return json_fail(in, "a high surrogate without its low one in a "
							 "string");
				in->pos += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (u == 0)
				return json_fail(in, "\\u0000 in a string");
			if (u < 0x80) {
				b[0] = (char)u;
				k = 1;
			} else if (u < 0x800) {
				b[0] = (char)(0xc0 | (u >> 6));
				b[1] = (char)(0x80 | (u & 0x3f));
				k = 2;
			} else if (u < 0x10000) {
				b[0] = (char)(0xe0 | (u >> 12));
				b[1] = (char)(0x80 | ((u >> 6) & 0x3f));
				b[2] = (char)(0x80 | (u & 0x3f));
				k = 3;
			} else {
				b[0] = (char)(0xf0 | (u >> 18));
				b[1] = (char)(0x80 | ((u >> 12) & 0x3f));
				b[2] = (char)(0x80 | ((u >> 6) & 0x3f));
				b[3] = (char)(0x80 | (u & 0x3f));
				k = 4;
			}
			json_put(d, b, k);
		}
	}
	json_put(d, "", 1);
	if (d->slen > UINT32_MAX)
		return json_fail(in, "more string text than the reader takes");
	*off = (uint32_t)start;
	return 0;
}

/* A number at in->pos, in JSON's grammar (no '+', no leading zeros, no
 * bare '.', no hex, no inf or nan). */
static int json_number(struct json_in *in, double *out)
{
	const char *s = in->s;
	size_t p = in->pos, n = in->len;

	if (p < n && s[p] == '-')
		p++;
	if (p < n && s[p] == '0') {
		p++;
	} else if (p < n && s[p] >= '1' && s[p] <= '9') {
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
	} else {
		return json_fail(in, "not a JSON value");
	}
	if (p < n && s[p] == '.') {
		if (++p >= n || s[p] < '0' || s[p] > '9')
			return json_fail(in, "a number has no digit after its '.'");
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
	}
	if (p < n && (s[p] == 'e' || s[p] == 'E')) {
		if (++p < n && (s[p] == '+' || s[p] == '-'))
			p++;
		if (p >= n || s[p] < '0' || s[p] > '9')
			return json_fail(in, "a number has no digit in its exponent");
		while (p < n && s[p] >= '0' && s[p] <= '9')
			p++;
	}
	if (num_parse_double_n(s + in->pos, p - in->pos, out) < 0)
		return json_fail(in, "a number out of a double's range");
	in->pos = p;
	return 0;
}

static int json_word(struct json_in *in, const char *w)
{
	size_t k = strlen(w);

	if (in->len - in->pos < k || memcmp(in->s + in->pos, w, k) != 0)
		return json_fail(in, "not a JSON value");
	in->pos += k;
	return 0;
}

/* Whether member m of d is the last of its object with its name. */
static int json_is_last(const struct json_doc *d, uint32_t m)
{
	for (uint32_t k = d->v[m].next; k; k = d->v[k].next)
		if (strcmp(d->str + d->v[k].key, d->str + d->v[m].key) == 0)
			return 0;
	return 1;
}

/* A name given twice in object obj: the last member counts, as jq and
 * Python read it, and the earlier ones are unlinked, so that json_get and
 * a walk over the members both see that one.  A table of the names keeps
 * a large object linear (a scan of the later members would make an
 * object of n members cost n^2); a small one is scanned. */
static void json_dedupe(struct json_doc *d, uint32_t obj)
{
	struct strtab names = { 0 };
	uint32_t *last = NULL, prev = 0, id;
	size_t cap = 0, n = 0;
	int big = d->v[obj].n > 16, added;

	if (d->v[obj].n < 2)
		return;
	for (uint32_t m = d->v[obj].first; big && m; m = d->v[m].next) {
		const char *k = d->str + d->v[m].key;

		if (strtab_intern(&names, k, strlen(k), &id, &added) < 0)
			abort();
		last = vec_reserve(last, &cap, (size_t)id + 1, sizeof *last, 16);
		if (added)
			n++;
		last[id] = m;
	}
	if (big && n == d->v[obj].n) {
		free(last);
		strtab_free(&names);
		return;
	}
	for (uint32_t m = d->v[obj].first, next; m; m = next) {
		const char *k = d->str + d->v[m].key;
		int keep;

		next = d->v[m].next;
		keep = big ? last[strtab_find(&names, k, strlen(k))] == m : json_is_last(d, m);
		if (keep) {
			prev = m;
			continue;
		}
		if (prev)
			d->v[prev].next = next;
		else
			d->v[obj].first = next;
		d->v[m].next = 0;
		d->v[obj].n--;
	}
	free(last);
	strtab_free(&names);
}

/* The value at in->pos (white space skipped before it): its node index, or
 * -1 (err set). */
static int64_t json_value(struct json_in *in, int depth)
{
	struct json_doc *d = in->doc;
	int64_t id;
	char c;

	json_ws(in);
	if (in->pos >= in->len)
		return json_fail(in, "the text ends where a value should be");
	c = in->s[in->pos];
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		uint32_t last = 0;

		if (depth >= JSON_MAX_DEPTH)
			return json_fail(in, "nested deeper than the reader takes");
		if ((id = json_node_new(in, c == '{' ? JSON_OBJECT : JSON_ARRAY)) < 0)
			return -1;
		in->pos++;
		json_ws(in);
		if (in->pos < in->len && in->s[in->pos] == close) {
			in->pos++;
			return id;
		}
		for (;;) {
			uint32_t key = JSON_NONE;
			int64_t kid;

			if (close == '}') {
				json_ws(in);
				if (in->pos >= in->len || in->s[in->pos] != '"')
					return json_fail(in, "a member's name is not a string");
				if (json_string(in, &key) < 0)
					return -1;
				json_ws(in);
				if (in->pos >= in->len || in->s[in->pos] != ':')
					return json_fail(in, "no ':' after a member's name");
				in->pos++;
			}
			if ((kid = json_value(in, depth + 1)) < 0)
				return -1;
			/* d->v may have moved: index, never keep pointers. */
			d->v[kid].key = key;
			if (last)
				d->v[last].next = (uint32_t)kid;
			else
				d->v[id].first = (uint32_t)kid;
			last = (uint32_t)kid;
			d->v[id].n++;
			json_ws(in);
			if (in->pos >= in->len)
				return json_fail(in, close == '}' ? "an object is not closed"
						 : "an array is not closed");
			c = in->s[in->pos++];
			if (c == close && close == '}')
				json_dedupe(d, (uint32_t)id);
			if (c == close)
				return id;
			if (c != ',')
				return json_fail(in, close == '}' ? "no ',' or '}' after a member"
						 : "no ',' or ']' after an element");
			json_ws(in);
			if (in->pos < in->len && in->s[in->pos] == close)
				return json_fail(in, "a ',' before the closing bracket");
		}
	}
	if (c == '"') {
		uint32_t off;
		unsigned line = in->line;

		if (json_string(in, &off) < 0 || (id = json_node_new(in, JSON_STRING)) < 0)
			return -1;
		d->v[id].u.s = off;
		d->v[id].line = line;
		return id;
	}
	if (c == 't' || c == 'f' || c == 'n') {
		enum json_type t = c == 't' ? JSON_TRUE : c == 'f' ? JSON_FALSE : JSON_NULL;

		if (json_word(in, c == 't' ? "true" : c == 'f' ? "false" : "null") < 0)
			return -1;
		return json_node_new(in, t);
	} else {
		double v;

		if (json_number(in, &v) < 0 || (id = json_node_new(in, JSON_NUMBER)) < 0)
			return -1;
		d->v[id].u.num = v;
		return id;
	}
}

int json_parse_next(const char *buf, size_t len, size_t *pos, unsigned *line, const char *name,
		    struct json_doc *doc, struct rs_err *err)
{
	struct json_in in = { buf, len, *pos, *line, name, doc, err };

	memset(doc, 0, sizeof *doc);
	/* A byte-order mark is no part of JSON text, but editors write one. */
	if (in.pos == 0 && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		in.pos = 3;
	if (json_value(&in, 0) < 0) {
		json_free(doc);
		return -1;
	}
	json_ws(&in);
	*pos = in.pos;
	*line = in.line;
	return 0;
}

int json_parse(const char *buf, size_t len, const char *name, struct json_doc *doc,
	       struct rs_err *err)
{
	size_t pos = 0;
	unsigned line = 1;

	if (json_parse_next(buf, len, &pos, &line, name, doc, err) < 0)
		return -1;
	if (pos < len) {
		json_free(doc);
		return rs_err_setk(err, RS_E_INPUT, "%s:%u: more text after the JSON value", name,
				   line);
	}
	return 0;
}

void json_free(struct json_doc *doc)
{
	if (doc == NULL)
		return;
	free(doc->v);
	free(doc->str);
	memset(doc, 0, sizeof *doc);
}

const struct json_node *json_root(const struct json_doc *doc)
{
	return doc->n ? &doc->v[0] : NULL;
}

const struct json_node *json_first(const struct json_doc *doc, const struct json_node *node)
{
	return node && node->first ? &doc->v[node->first] : NULL;
}

const struct json_node *json_next(const struct json_doc *doc, const struct json_node *node)
{
	return node && node->next ? &doc->v[node->next] : NULL;
}

const char *json_key(const struct json_doc *doc, const struct json_node *node)
{
	return node->key == JSON_NONE ? "" : doc->str + node->key;
}

const char *json_str(const struct json_doc *doc, const struct json_node *node)
{
	return node && node->type == JSON_STRING ? doc->str + node->u.s : NULL;
}

const struct json_node *json_get(const struct json_doc *doc, const struct json_node *obj,
				 const char *key)
{
	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (const struct json_node *m = json_first(doc, obj); m; m = json_next(doc, m))
		if (strcmp(json_key(doc, m), key) == 0)
			return m;
	return NULL;
}
