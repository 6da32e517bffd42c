/* spawn_args.c: which settings --spawn-args may give a spawned server,
 * classed by what they can do (spawn_args.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "net/spawn_args.h"

/* The names that Redis 7, Valkey 8 and KeyDB know to be of a refused
 * class, whatever the word rules below would say of them. */
static const struct {
	const char *name;
	enum spawn_args_class c;
} spawn_args_known[] = {
	{ "port", SPAWN_ARGS_LISTEN }, { "bind", SPAWN_ARGS_LISTEN },
	{ "bind-source-addr", SPAWN_ARGS_LISTEN }, { "unixsocket", SPAWN_ARGS_LISTEN },
	{ "unixsocketperm", SPAWN_ARGS_LISTEN }, { "unixsocketgroup", SPAWN_ARGS_LISTEN },
	{ "tls-port", SPAWN_ARGS_LISTEN }, { "cluster-port", SPAWN_ARGS_LISTEN },
	/* Connects out, and replaces its data with another server's. */
	{ "replicaof", SPAWN_ARGS_LISTEN }, { "slaveof", SPAWN_ARGS_LISTEN },
	{ "dir", SPAWN_ARGS_FILE }, { "logfile", SPAWN_ARGS_FILE },
	{ "dbfilename", SPAWN_ARGS_FILE }, { "appendfilename", SPAWN_ARGS_FILE },
	{ "appenddirname", SPAWN_ARGS_FILE }, { "cluster-config-file", SPAWN_ARGS_FILE },
	{ "pidfile", SPAWN_ARGS_FILE }, { "syslog-enabled", SPAWN_ARGS_FILE },
	{ "syslog-ident", SPAWN_ARGS_FILE }, { "syslog-facility", SPAWN_ARGS_FILE },
	/* spawn+tls:'s certificate is the one its client trusts. */
	{ "tls-cert-file", SPAWN_ARGS_FILE }, { "tls-key-file", SPAWN_ARGS_FILE },
	{ "tls-ca-cert-file", SPAWN_ARGS_FILE }, { "tls-ca-cert-dir", SPAWN_ARGS_FILE },
	{ "tls-client-cert-file", SPAWN_ARGS_FILE }, { "tls-client-key-file", SPAWN_ARGS_FILE },
	{ "tls-dh-params-file", SPAWN_ARGS_FILE },
	{ "loadmodule", SPAWN_ARGS_CODE }, { "include", SPAWN_ARGS_CODE },
	/* Unlock MODULE LOAD, DEBUG, and CONFIG SET of dir and the file
	 * names: code and files at run time. */
	{ "enable-module-command", SPAWN_ARGS_CODE }, { "enable-debug-command", SPAWN_ARGS_CODE },
	{ "enable-protected-configs", SPAWN_ARGS_CODE },
	{ "requirepass", SPAWN_ARGS_SECRET }, { "masterauth", SPAWN_ARGS_SECRET },
	{ "masteruser", SPAWN_ARGS_SECRET }, { "primaryauth", SPAWN_ARGS_SECRET },
	{ "primaryuser", SPAWN_ARGS_SECRET }, { "user", SPAWN_ARGS_SECRET },
	{ "aclfile", SPAWN_ARGS_SECRET }, { "tls-auth-clients", SPAWN_ARGS_SECRET },
	{ "tls-key-file-pass", SPAWN_ARGS_SECRET }, { "tls-client-key-file-pass", SPAWN_ARGS_SECRET },
	{ "daemonize", SPAWN_ARGS_PROCESS }, { "supervised", SPAWN_ARGS_PROCESS },
	{ "sentinel", SPAWN_ARGS_PROCESS },
};

static int spawn_args_ends(const char *w, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && strncasecmp(w + n - t, tail, t) == 0;
}

static int spawn_args_is(const char *w, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(w, word, n) == 0;
}

/* The class one word of a name (n bytes) gives it; first and last say
 * where the word stands. */
static enum spawn_args_class spawn_args_word(const char *w, size_t n, int first, int last)
{
	static const char *const listen[] = { "port", "bind", "socket", "unixsocket",
					      "unixsocketperm", "unixsocketgroup", "addr",
					      "announce", "replicaof", "slaveof", NULL };
	static const char *const code[] = { "module", "modules", "loadmodule", "include",
					    "includes", NULL };

	for (size_t i = 0; listen[i]; i++)
		if (spawn_args_is(w, n, listen[i]))
			return SPAWN_ARGS_LISTEN;
	if (spawn_args_ends(w, n, "pass") || spawn_args_ends(w, n, "password") ||
	    spawn_args_ends(w, n, "auth") || spawn_args_ends(w, n, "secret") ||
	    (last && spawn_args_ends(w, n, "user")))
		return SPAWN_ARGS_SECRET;
	for (size_t i = 0; code[i]; i++)
		if (spawn_args_is(w, n, code[i]))
			return SPAWN_ARGS_CODE;
	if (first && spawn_args_is(w, n, "enable"))
		return SPAWN_ARGS_CODE;
	if (spawn_args_is(w, n, "dir") || spawn_args_ends(w, n, "file") ||
	    spawn_args_ends(w, n, "filename") || spawn_args_ends(w, n, "dirname") ||
	    spawn_args_ends(w, n, "path") || (n >= 6 && strncasecmp(w, "syslog", 6) == 0))
		return SPAWN_ARGS_FILE;
	if (spawn_args_is(w, n, "daemonize") || spawn_args_is(w, n, "supervised") ||
	    spawn_args_is(w, n, "sentinel"))
		return SPAWN_ARGS_PROCESS;
	return SPAWN_ARGS_FREE;
}

enum spawn_args_class spawn_args_class(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof spawn_args_known / sizeof spawn_args_known[0]; i++)
		if (spawn_args_is(name, len, spawn_args_known[i].name))
			return spawn_args_known[i].c;
	for (size_t at = 0; at < len;) {
		size_t n = 0;
		enum spawn_args_class c;

		while (at + n < len && name[at + n] != '-')
			n++;
		c = spawn_args_word(name + at, n, at == 0, at + n == len);
		if (c != SPAWN_ARGS_FREE)
			return c;
		at += n + 1;
	}
	return SPAWN_ARGS_FREE;
}

const char *spawn_args_class_name(enum spawn_args_class c)
{
	switch (c) {
	case SPAWN_ARGS_LISTEN:
		return "listen";
	case SPAWN_ARGS_FILE:
		return "file";
	case SPAWN_ARGS_CODE:
		return "code";
	case SPAWN_ARGS_SECRET:
		return "secret";
	case SPAWN_ARGS_PROCESS:
		return "process";
	case SPAWN_ARGS_FREE:
		break;
	}
	return "free";
}

/* Why a class is refused, after its name in a message. */
static const char *spawn_args_why(enum spawn_args_class c)
{
	switch (c) {
	case SPAWN_ARGS_LISTEN:
		return "where the server listens or what it connects to: rsweep keeps it on "
		       "loopback or a private socket";
	case SPAWN_ARGS_FILE:
		return "a file or directory it reads or writes: its files stay in rsweep's "
		       "private directory";
	case SPAWN_ARGS_CODE:
		return "code or config it loads, or commands that load them";
	case SPAWN_ARGS_SECRET:
		return "a password, a user or who may connect: a spawned server has none";
	case SPAWN_ARGS_PROCESS:
		return "how the process lives: it stays rsweep's child";
	case SPAWN_ARGS_FREE:
		break;
	}
	return "";
}

static int spawn_args_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n';
}

static int spawn_args_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-';
}

/* " in 'WORD'" when the alternative a (n bytes) is not the whole word w. */
static const char *spawn_args_in(const char *w, size_t n, char *buf, size_t size)
{
	if (strlen(w) == n)
		return "";
	snprintf(buf, size, " in '%.*s'", 100, w);
	return buf;
}

/* One value (n bytes at v) of word w: 0, or -1 (err) when it names a
 * path. */
static int spawn_args_value(const char *w, const char *v, size_t n, struct rs_err *err)
{
	char in[128];

	if ((n == 1 && v[0] == '.') || (n == 2 && strncmp(v, "..", 2) == 0) ||
	    (n > 0 && v[0] == '~') || memchr(v, '/', n) != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args may not give the value '%.*s'%s "
				   "(file: a value that names a path; %s)", n > 100 ? 100 : (int)n, v,
				   spawn_args_in(w, n, in, sizeof in), spawn_args_why(SPAWN_ARGS_FILE));
	return 0;
}

/* One alternative (n bytes at a) of word w, the i-th word.  0 or -1. */
static int spawn_args_alt(const char *w, size_t i, const char *a, size_t n, struct rs_err *err)
{
	size_t len = 0, at;
	enum spawn_args_class c;
	char in[128];

	if (i == 0 && (n < 2 || strncmp(a, "--", 2) != 0))
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args must start with a --option, not "
				   "'%.*s'%s (a config file is refused: its options go in as --OPTION "
				   "VALUE)", n > 100 ? 100 : (int)n, a, spawn_args_in(w, n, in, sizeof in));
	/* redis-server reads a lone "-" first or last as "config from
	 * standard input". */
	if (n == 1 && a[0] == '-')
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args may not give '-'%s (code: it reads "
				   "config from standard input)", spawn_args_in(w, n, in, sizeof in));
	if (n < 2 || strncmp(a, "--", 2) != 0)
		return spawn_args_value(w, a, n, err);
	while (2 + len < n && spawn_args_name_char(a[2 + len]))
		len++;
	c = spawn_args_class(a + 2, len);
	if (c != SPAWN_ARGS_FREE)
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args may not set --%.*s%s (%s: %s)",
				   (int)len, a + 2, spawn_args_in(w, n, in, sizeof in),
				   spawn_args_class_name(c), spawn_args_why(c));
	/* The server reads what follows "--" up to a blank as the name, and
	 * would read "-- port", "--\"port\"" or "--port=1" as it can: only a
	 * plain name is one rsweep can class. */
	if (len == 0 || (2 + len < n && !spawn_args_blank(a[2 + len])))
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args: '%.*s'%s is not a setting name "
				   "(--NAME VALUE, NAME of letters, digits and '-')",
				   n > 100 ? 100 : (int)n, a, spawn_args_in(w, n, in, sizeof in));
	/* "--name value ..." in one word: the server splits the values as a
	 * config line, with its quotes and escapes ("\x2f" is '/'). */
	for (at = 2 + len; at < n; at++)
		if (a[at] == '"' || a[at] == '\'' || a[at] == '\\')
			return rs_err_setk(err, RS_E_USAGE, "--spawn-args: '%.*s'%s: a value in the "
					   "same word as its --%.*s may have no quotes or backslashes "
					   "(give it as a word of its own)", n > 100 ? 100 : (int)n, a,
					   spawn_args_in(w, n, in, sizeof in), (int)len, a + 2);
	for (at = 2 + len; at < n;) {
		size_t vn = 0;

		while (at < n && spawn_args_blank(a[at]))
			at++;
		while (at + vn < n && !spawn_args_blank(a[at + vn]))
			vn++;
		if (vn > 0 && spawn_args_value(w, a + at, vn, err) < 0)
			return -1;
		at += vn;
	}
	return 0;
}

int spawn_args_check(char *const *w, size_t n, struct rs_err *err)
{
	if (n > SPAWN_ARGS_MAX)
		return rs_err_setk(err, RS_E_USAGE, "--spawn-args has %zu words, more than %d", n,
				   SPAWN_ARGS_MAX);
	for (size_t i = 0; i < n; i++) {
		const char *a = w[i];

		/* redis-server joins its arguments into config lines: a word
		 * with a line break in it would be a directive of its own. */
		if (strpbrk(a, "\r\n") != NULL)
			return rs_err_setk(err, RS_E_USAGE, "--spawn-args: a word with a line break");
		for (;;) {
			size_t len = strcspn(a, "|");

			if (spawn_args_alt(w[i], i, a, len, err) < 0)
				return -1;
			if (a[len] == '\0')
				break;
			a += len + 1;
		}
	}
	return 0;
}
