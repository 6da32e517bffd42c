/* targets.c: --target LABEL=URI and --spawn-args, parsed and checked. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/sbuf.h"
#include "net/spawn_args.h"
#include "net/target.h"
#include "net/targets.h"
#include "base/xalloc.h"

/* The highest database --dbnum takes (opts_table.c). */
#define TARGETS_DB_MAX 1000000

/* s[0..n) in a new string. */
static char *targets_strndup(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);

	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

/* Value of a hex digit, or -1. */
static int targets_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* s[0..n) percent-decoded into a new string; NULL for a bad escape or a
 * NUL byte (it would cut the password short without a word). */
static char *targets_decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= n) {
			free(out);
			return NULL;
		}
		int h = targets_hex(s[i + 1]), l = targets_hex(s[i + 2]);

		if (h < 0 || l < 0 || (h == 0 && l == 0)) {
			free(out);
			return NULL;
		}
		*o++ = (char)(h * 16 + l);
		i += 2;
	}
	*o = '\0';
	return out;
}

/* A label is a CSV label that --baseline and --relabel can name. */
static int targets_label(const char *spec, size_t n, struct targets_def *d, struct rs_err *err)
{
	if (n == 0)
		return rs_err_setk(err, RS_E_USAGE, "target '%.*s': no label before '=' (write "
				   "LABEL=URI)", (int)strcspn(spec, ":@"), spec);
	if (n >= sizeof d->label)
		return rs_err_setk(err, RS_E_USAGE, "target '%.20s...': the label is longer than %zu "
				   "characters", spec, sizeof d->label - 1);
	if (spec[0] == '-')
		return rs_err_setk(err, RS_E_USAGE, "target '%.*s': a label may not start with '-'",
				   (int)n, spec);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)spec[i];

		/* Letters, digits, '-', '_', '.' and UTF-8: a label is never
		 * a URI's start, and quoting it can never show a password. */
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c >= 0x80)
			continue;
		if (c < 0x20 || c == 0x7f || c == ' ' || c == ',')
			return rs_err_setk(err, RS_E_USAGE, "target label '%.*s...' holds %s: use "
					   "letters, digits, '-', '_' or '.'", (int)(i < 20 ? i : 20),
					   spec, c == ',' ? "a comma" : c == ' ' ? "a blank" :
					   "a control character");
		return rs_err_setk(err, RS_E_USAGE, "target label '%.*s...' holds '%c': use letters, "
				   "digits, '-', '_' or '.'", (int)(i < 20 ? i : 20), spec, c);
	}
	memcpy(d->label, spec, n);
	d->label[n] = '\0';
	return 0;
}

/* The one writer of a server's URI: "unix://SOCKET", or "redis://"
 * ("rediss://" over TLS), "USER@" when user is not NULL, HOST (an IPv6
 * address in brackets, as a URI must write it), ":PORT", and "/DB" when db
 * is not negative.  Never a password.  Cut to fit b. */
static void targets_uri_put(struct sbuf *b, const char *socket, int tls, const char *user,
			    const char *host, unsigned port, long db)
{
	if (socket != NULL) {
		sbuf_printf(b, "unix://%s", socket);
		return;
	}
	sbuf_printf(b, strchr(host, ':') ? "%s://%s%s[%s]:%u" : "%s://%s%s%s:%u",
		    tls ? "rediss" : "redis", user ? user : "", user ? "@" : "", host, port);
	if (db >= 0)
		sbuf_printf(b, "/%ld", db);
}

/* redis://[user[:password]@]host[:port][/db], after "redis://". */
static int targets_tcp(const char *s, struct targets_def *d, struct rs_err *err)
{
	const char *at = strrchr(s, '@'), *hp = at ? at + 1 : s, *end, *colon;
	size_t hlen;
	struct sbuf b;

	if (at != NULL) {
		/* redis-cli -u: "user:password@", or "password@" alone. */
		const char *c = memchr(s, ':', (size_t)(at - s));

		if (c != NULL) {
			if (c > s && (d->user = targets_decode(s, (size_t)(c - s))) == NULL)
				goto bad_escape;
			if ((d->password = targets_decode(c + 1, (size_t)(at - c - 1))) == NULL)
				goto bad_escape;
		} else if ((d->password = targets_decode(s, (size_t)(at - s))) == NULL) {
			goto bad_escape;
		}
		if (targets_password(d->password) == NULL) {
			free(d->password);
			d->password = NULL;
		}
	}
	end = hp + strcspn(hp, "/");
	if (*hp == '[') {
		/* [::1]:6380 */
		const char *close = memchr(hp, ']', (size_t)(end - hp));

		if (close == NULL)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': unclosed '[' in the host",
					   d->label);
		d->host = targets_strndup(hp + 1, (size_t)(close - hp - 1));
		colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
		if (close + 1 < end && colon == NULL)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': ']' not followed by ':PORT'",
					   d->label);
	} else {
		colon = memchr(hp, ':', (size_t)(end - hp));
		hlen = (size_t)((colon ? colon : end) - hp);
		d->host = targets_strndup(hp, hlen);
	}
	if (d->host[0] == '\0')
		return rs_err_setk(err, RS_E_USAGE, "target '%s': no host in the URI (redis://HOST:PORT)",
				   d->label);
	d->port = 6379;
	if (colon != NULL) {
		char num[16];
		uint64_t v;
		struct rs_err e;

		snprintf(num, sizeof num, "%.*s", (int)(end - colon - 1), colon + 1);
		if ((size_t)(end - colon - 1) >= sizeof num || num_parse_u64(num, 1, 65535, 0, &v, &e) < 0)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': port '%.*s' is not a number in "
					   "1..65535", d->label, (int)((end - colon - 1) % 16), colon + 1);
		d->port = (unsigned)v;
	}
	if (*end == '/' && end[1] != '\0') {
		uint64_t v;
		struct rs_err e;

		if (num_parse_u64(end + 1, 0, TARGETS_DB_MAX, 0, &v, &e) < 0)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': database '%.16s' is not a number "
					   "in 0..%d", d->label, end + 1, TARGETS_DB_MAX);
		d->has_db = 1;
		d->dbnum = (unsigned)v;
	}
	if (strchr(d->host, '?') != NULL || (*end == '/' && strchr(end, '?') != NULL))
		return rs_err_setk(err, RS_E_USAGE, "target '%s': URI options (?...) are not supported",
				   d->label);
	sbuf_fixed(&b, d->uri, sizeof d->uri);
	targets_uri_put(&b, NULL, d->tls, d->user, d->host, d->port, d->has_db ? (long)d->dbnum : -1);
	return 0;
bad_escape:
	return rs_err_setk(err, RS_E_USAGE, "target '%s': a bad %%-escape in the user or password",
			   d->label);
}

int targets_parse_one(const char *spec, struct targets_def *d, struct rs_err *err)
{
	const char *eq = strchr(spec, '='), *uri, *scheme = strstr(spec, "://");
	struct sbuf b;

	memset(d, 0, sizeof *d);
	/* An '=' after "://" is the URI's own (a password may hold one): no
	 * label was given. */
	if (eq != NULL && scheme != NULL && scheme < eq)
		eq = NULL;
	if (eq == NULL)
		return rs_err_setk(err, RS_E_USAGE, "target '%.*s': no label (write LABEL=URI, as in "
				   "a=unix:///run/redis.sock)", (int)strcspn(spec, ":@"), spec);
	if (targets_label(spec, (size_t)(eq - spec), d, err) < 0)
		return -1;
	uri = eq + 1;
	if (strncmp(uri, "unix://", 7) == 0) {
		d->kind = TARGETS_UNIX;
		if (uri[7] == '\0')
			return rs_err_setk(err, RS_E_USAGE, "target '%s': no socket path (unix:///PATH)",
					   d->label);
		if (strlen(uri) >= sizeof d->uri)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': the socket path is longer than "
					   "%zu characters", d->label, sizeof d->uri - 8);
		d->path = xstrdup(uri + 7);
		sbuf_fixed(&b, d->uri, sizeof d->uri);
		/* uri + 7, d->path's text, is one gcc can see is not NULL. */
		targets_uri_put(&b, uri + 7, 0, NULL, NULL, 0, -1);
		return 0;
	}
	if (strncmp(uri, "redis://", 8) == 0 || strncmp(uri, "rediss://", 9) == 0) {
		d->kind = TARGETS_TCP;
		d->tls = uri[5] == 's';
		if (strlen(uri) >= sizeof d->uri + 64)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': the URI is too long", d->label);
		return targets_tcp(uri + (d->tls ? 9 : 8), d, err);
	}
	if (strncmp(uri, "spawn:", 6) == 0 || strncmp(uri, "spawn+tcp:", 10) == 0 ||
	    strncmp(uri, "spawn+tls:", 10) == 0) {
		const char *path = uri + (uri[5] == '+' ? 10 : 6);

		d->kind = uri[5] != '+' ? TARGETS_SPAWN : uri[7] == 'c' ? TARGETS_SPAWN_TCP :
			  TARGETS_SPAWN_TLS;
		if (strlen(path) >= sizeof d->uri - 12)
			return rs_err_setk(err, RS_E_USAGE, "target '%s': the binary's path is too long",
					   d->label);
		d->path = *path ? xstrdup(path) : NULL;
		snprintf(d->uri, sizeof d->uri, "%s", uri);
		return 0;
	}
	/* Only the scheme is quoted: what follows may hold a password. */
	return rs_err_setk(err, RS_E_USAGE, "target '%s': '%.*s:...' is not a target URI "
			   "(unix:///PATH, redis://HOST:PORT[/DB], rediss://HOST:PORT[/DB], spawn:[PATH], "
			   "spawn+tcp:[PATH] or spawn+tls:[PATH])",
			   d->label, (int)strcspn(uri, ":@/"), uri);
}

int targets_spawned(enum targets_kind kind)
{
	return kind == TARGETS_SPAWN || kind == TARGETS_SPAWN_TCP || kind == TARGETS_SPAWN_TLS;
}

/* Whether a and b name one address: the same socket path, or the same
 * host, port and database (dbnum: the database of a target that names
 * none). */
static int targets_same(const struct targets_def *a, const struct targets_def *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == TARGETS_UNIX)
		return strcmp(a->path, b->path) == 0;
	if (a->kind == TARGETS_TCP)
		return strcmp(a->host, b->host) == 0 && a->port == b->port &&
		       (a->has_db ? a->dbnum : 0) == (b->has_db ? b->dbnum : 0);
	return 0;                 /* each spawn is a server of its own */
}

int targets_parse(char *const *specs, size_t n, struct targets *ts, struct rs_err *err)
{
	ts->v = xcalloc(n ? n : 1, sizeof *ts->v);
	ts->n = 0;
	for (size_t i = 0; i < n; i++) {
		struct targets_def *d = &ts->v[ts->n++];

		if (targets_parse_one(specs[i], d, err) < 0)
			return -1;
		for (size_t j = 0; j + 1 < ts->n; j++) {
			if (strcmp(ts->v[j].label, d->label) == 0)
				return rs_err_setk(err, RS_E_USAGE, "target '%s': the label is given twice",
						   d->label);
			if (targets_same(&ts->v[j], d))
				return rs_err_setk(err, RS_E_USAGE, "target '%s': %s is target '%s' again",
						   d->label, d->uri, ts->v[j].label);
		}
	}
	return 0;
}

int targets_split(const char *s, char ***argv, size_t *n, struct rs_err *err)
{
	size_t cap = 4, len = strlen(s);
	char **v = xcalloc(cap, sizeof *v);
	char *word = xmalloc(len + 1);

	*n = 0;
	for (const char *p = s;;) {
		size_t wl = 0;
		int any = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'' || *p == '"') {
				const char *close = strchr(p + 1, *p);

				if (close == NULL) {
					free(word);
					v[*n] = NULL;
					*argv = v;
					return rs_err_setk(err, RS_E_USAGE, "unclosed %c in '%s'", *p, s);
				}
				memcpy(word + wl, p + 1, (size_t)(close - p - 1));
				wl += (size_t)(close - p - 1);
				p = close + 1;
				any = 1;
				continue;
			}
			word[wl++] = *p++;
			any = 1;
		}
		if (!any)
			continue;
		if (*n + 2 > cap)
			v = xreallocarray(v, cap *= 2, sizeof *v);
		v[(*n)++] = targets_strndup(word, wl);
	}
	free(word);
	v[*n] = NULL;
	*argv = v;
	return 0;
}

/* Check and set one target's arguments from words w[0..n) (taken over):
 * spawn_args_check, every '|' alternative apart. */
static int targets_set_args(struct targets_def *d, char **w, size_t n, struct rs_err *err)
{
	if (spawn_args_check(w, n, err) < 0) {
		for (size_t i = 0; i < n; i++)
			free(w[i]);
		free(w);
		return rs_err_prefix(err, "target '%s'", d->label);
	}
	for (size_t i = 0; i < d->nargs; i++)
		free(d->args[i]);
	free(d->args);
	d->args = w;
	d->nargs = n;
	return 0;
}

int targets_spawn_args(struct targets *ts, char *const *specs, size_t n, struct rs_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = specs[i], *eq = strchr(s, '=');
		int all = strncmp(s, "--", 2) == 0 || eq == NULL, hit = 0;
		const char *args = all ? s : eq + 1;

		for (size_t t = 0; t < ts->n; t++) {
			struct targets_def *d = &ts->v[t];
			char **w;
			size_t nw;

			if (!all && (strlen(d->label) != (size_t)(eq - s) ||
				     strncmp(d->label, s, (size_t)(eq - s)) != 0))
				continue;
			if (!targets_spawned(d->kind)) {
				if (all)
					continue;
				return rs_err_setk(err, RS_E_USAGE, "--spawn-args %s: target '%s' is %s, "
						   "not a spawned server", d->label, d->label, d->uri);
			}
			hit = 1;
			if (targets_split(args, &w, &nw, err) < 0) {
				for (size_t k = 0; w[k]; k++)
					free(w[k]);
				free(w);
				return rs_err_prefix(err, "target '%s': --spawn-args", d->label);
			}
			if (targets_set_args(d, w, nw, err) < 0)
				return -1;
		}
		if (!hit && all)
			return rs_err_setk(err, RS_E_USAGE, "--spawn-args '%s': no target is a spawned "
					   "server", s);
		if (!hit)
			return rs_err_setk(err, RS_E_USAGE, "--spawn-args %.*s=...: no target is labelled "
					   "'%.*s'", (int)(eq - s), s, (int)(eq - s), s);
	}
	return 0;
}

int targets_file_ok(const char *spec, struct rs_err *err)
{
	struct targets_def d;
	int rc = targets_parse_one(spec, &d, err);

	if (rc == 0 && targets_spawned(d.kind) && d.path != NULL)
		rc = rs_err_set(err, "target '%s': a sweep file may not name a program to run (write "
				"%s=%.*s, or give --target on the command line)", d.label, d.label,
				(int)strcspn(d.uri, ":") + 1, d.uri);
	else if (rc == 0 && d.password != NULL)
		rc = rs_err_set(err, "target '%s': a sweep file may not hold a password (use the "
				"REDISCLI_AUTH environment variable)", d.label);
	targets_def_free(&d);
	return rc;
}

void targets_blank_password(char *spec)
{
	/* Wherever the label ends (or whether there is one), whatever the
	 * scheme (redis://, rediss://, unix://, or one that is refused later):
	 * the userinfo after the first "://" is what may hold a password.  The
	 * last '@' ends it, as targets_parse_one reads it. */
	char *uri = strstr(spec, "://"), *at, *c;

	/* "unix:///PATH": no authority, so nothing that is a password. */
	if (uri == NULL || uri[3] == '/')
		return;
	uri += 3;
	if ((at = strrchr(uri, '@')) == NULL)
		return;
	c = memchr(uri, ':', (size_t)(at - uri));
	for (char *p = c ? c + 1 : uri; p < at; p++)
		*p = '*';
}

void targets_apply(const struct targets_def *d, struct target *t)
{
	if (!targets_spawned(d->kind)) {
		t->socket = d->kind == TARGETS_UNIX ? d->path : NULL;
		t->host = d->host;
		t->port = d->port;
		t->tls.on = d->tls;
	}
	if (d->has_db)
		t->dbnum = d->dbnum;
	if (d->user != NULL)
		t->user = d->user;
	if (d->password != NULL)
		t->password = d->password;
}

const char *targets_password(const char *pw)
{
	return pw != NULL && *pw != '\0' ? pw : NULL;
}

const char *targets_env_password(void)
{
	return targets_password(getenv("REDISCLI_AUTH"));
}

void targets_uri(const struct target *t, int with_db, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	targets_uri_put(&b, t->socket, t->tls.on, NULL, t->host, t->port,
			with_db ? (long)t->dbnum : -1);
}

void targets_row(const struct targets_def *d, const struct target *t, const char *abs,
		 int insecure, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	if (d == NULL) {
		/* The options' server: its address, with the scheme only when
		 * TLS makes it differ from a plain one. */
		if (t->tls.on)
			targets_uri_put(&b, t->socket, 1, NULL, t->host, t->port, -1);
		else
			sbuf_printf(&b, "%s", t->desc);
	} else if (!targets_spawned(d->kind)) {
		sbuf_printf(&b, "%s", d->uri);
	} else {
		sbuf_printf(&b, "%s%s", d->kind == TARGETS_SPAWN_TLS ? "spawn+tls:" :
			    d->kind == TARGETS_SPAWN_TCP ? "spawn+tcp:" : "spawn:", abs);
		/* Quoted as targets_split reads them back, when a word is
		 * empty or has blanks. */
		for (size_t a = 0; a < d->nargs; a++) {
			const char *w = d->args[a];

			sbuf_printf(&b, *w == '\0' || strpbrk(w, " \t'\"") ? strchr(w, '\'') ?
				    " \"%s\"" : " '%s'" : " %s", w);
		}
		return;
	}
	/* Unverified numbers say so wherever they go. */
	if ((d != NULL ? d->tls : t->tls.on) && insecure)
		sbuf_printf(&b, " (insecure)");
}

void targets_def_free(struct targets_def *d)
{
	free(d->path);
	free(d->host);
	free(d->user);
	if (d->password != NULL) {
		/* Not left in freed memory for a core dump to show. */
		memset(d->password, 0, strlen(d->password));
		free(d->password);
	}
	for (size_t i = 0; i < d->nargs; i++)
		free(d->args[i]);
	free(d->args);
	memset(d, 0, sizeof *d);
}

void targets_free(struct targets *ts)
{
	for (size_t i = 0; ts->v != NULL && i < ts->n; i++)
		targets_def_free(&ts->v[i]);
	free(ts->v);
	ts->v = NULL;
	ts->n = 0;
}
