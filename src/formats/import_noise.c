/* import_noise.c: the lines a capture holds around results that are none:
 * redis-benchmark's command line and version, time(1), shell prompts,
 * "OK", banners, script(1)'s first and last lines (import_int.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "formats/import_int.h"

static int import_all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* Whether the word w[0..n) is something the shell expands ("$i", "$(...)",
 * "`...`"): what it holds is not shown. */
static int import_expanded(const char *w, size_t n)
{
	return memchr(w, '$', n) != NULL || memchr(w, '`', n) != NULL;
}

/* redis-benchmark's options that take no value: a word the shell expands
 * after one of them is a word of its own, which may hold any option. */
static int import_flag(const char *w, size_t n)
{
	static const char *const flags[] = { "-q", "-l", "-I", "-e", "--csv", "--cluster",
					     "--tls", "--insecure", "--enable-tracking", "--help",
					     "--version", "-v", "-x", "-3", "--sequential",
					     "--mptcp", "--rdma", NULL };

	for (size_t i = 0; flags[i] != NULL; i++)
		if (import_word_is(w, n, flags[i]))
			return 1;
	return 0;
}

/* The target of a command line's -h, -p, -s and --tls into c->target,
 * with redis-benchmark's defaults (127.0.0.1, 6379). */
static void import_target(struct import_cmd *c, const char *host, size_t hl, int64_t port,
			  const char *sock, size_t sl, int tls)
{
	if (sock != NULL)
		snprintf(c->target, sizeof c->target, "unix:%.*s", (int)sl, sock);
	else if (host != NULL && memchr(host, ':', hl) != NULL)
		snprintf(c->target, sizeof c->target, "%s[%.*s]:%lld", tls ? "rediss://" : "",
			 (int)hl, host, (long long)port);
	else
		snprintf(c->target, sizeof c->target, "%s%.*s:%lld", tls ? "rediss://" : "",
			 host ? (int)hl : 9, host ? host : "127.0.0.1", (long long)port);
	/* A control character is no address, and no CSV field. */
	for (const char *p = c->target; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			c->target[0] = '\0';
			return;
		}
}

/* If s[0..n) holds a redis-benchmark command line (typed after a prompt, in
 * script(1)'s COMMAND="...", after time), fill c and return 1.  An option's
 * value that is not a number ("-P $i") is left unknown; a line without -P
 * ran at redis-benchmark's default depth, 1, unless a word the shell
 * expands may hold one. */
/* Where in s[0..n) a program of import_programs is run: its first
 * occurrence as a word (or a path's last part), NULL if none; its index in
 * *which. */
static const char *import_program_at(const char *s, size_t n, int *which)
{
	const char *best = NULL;

	for (int i = 0; import_programs[i] != NULL; i++) {
		const char *prog = import_programs[i], *q = s, *end = s + n;
		size_t k = strlen(prog);

		for (;;) {
			q = import_find(q, (size_t)(end - q), prog);
			if (q == NULL || (best != NULL && q > best))
				break;
			if ((q == s || strchr(" /\"'=;(&|", q[-1]) != NULL) &&
			    (q + k == end || strchr(" \"';)&|", q[k]) != NULL)) {
				best = q;
				*which = i;
				break;
			}
			q++;
		}
	}
	return best;
}

int import_command(const char *s, size_t n, struct import_cmd *c)
{
	const char *q, *end = s + n, *w[64], *host = NULL, *sock = NULL;
	size_t k, wl[64], hl = 0, sl = 0;
	int64_t port = 6379;
	int nw, has_p = 0, hidden = 0, target_hidden = 0, tls = 0, which = 0;
	char enclosing = '\0';       /* the quote the command stands in */

	q = import_program_at(s, n, &which);
	if (q == NULL)
		return 0;
	k = strlen(import_programs[which]);
	for (const char *p = s; p < q; p++)
		if (*p == '"' || *p == '\'')
			enclosing = enclosing == *p ? '\0' : enclosing ? enclosing : *p;
	q += k;
	/* The command's own words: up to where the shell would end it. */
	for (end = q; end < s + n && strchr(";|&<>\"'`)", *end) == NULL; end++)
		;
	memset(c, 0, sizeof *c);
	c->clients = c->requests = c->data_size = -1;
	snprintf(c->program, sizeof c->program, "%s", import_programs[which]);
	nw = import_words(q, (size_t)(end - q), w, wl, 63);
	if (nw > 63) {
		nw = 63;
		hidden = 1;               /* words past those read may hold -P */
	}
	/* The shell ends the command at one of ;|&<>"'`) (end, above): a
	 * quote there that does not close one the command stands in
	 * (script(1)'s COMMAND="..."), or a backtick, hides what follows. */
	if (end < s + n && strchr("\"'`", *end) != NULL && *end != enclosing)
		hidden = 1;
	for (int i = 0; i < nw; i++) {
		int64_t v = 0;
		int have = i + 1 < nw && import_count(w[i + 1], wl[i + 1], &v) == 0;
		int value = i + 1 < nw && !import_expanded(w[i + 1], wl[i + 1]);

		if (import_expanded(w[i], wl[i]) &&
		    (i == 0 || w[i - 1][0] != '-' || import_flag(w[i - 1], wl[i - 1])))
			hidden = 1;       /* "$OPTS": a word of its own */
		if (import_word_is(w[i], wl[i], "-P"))
			has_p = 1;
		if (import_word_is(w[i], wl[i], "--tls"))
			tls = 1;
		else if (import_word_is(w[i], wl[i], "-u"))
			target_hidden = 1;        /* a URI: read it not, invent none */
		else if (import_word_is(w[i], wl[i], "-h") && i + 1 < nw)
			host = value ? w[i + 1] : NULL, hl = wl[i + 1], target_hidden |= !value;
		else if (import_word_is(w[i], wl[i], "-s") && i + 1 < nw)
			sock = value ? w[i + 1] : NULL, sl = wl[i + 1], target_hidden |= !value;
		else if (import_word_is(w[i], wl[i], "-p") && i + 1 < nw) {
			if (have && v >= 1 && v <= 65535)
				port = v;
			else
				target_hidden = 1;
		}
		if (import_word_is(w[i], wl[i], "--version") || import_word_is(w[i], wl[i], "-v"))
			c->version = 1;
		else if (import_word_is(w[i], wl[i], "-P") && have && v >= 1 && v <= 1000000)
			c->depth = (unsigned)v;
		else if (import_word_is(w[i], wl[i], "-P") && i + 1 < nw &&
			 import_all_digits(w[i + 1], wl[i + 1])) {
			/* redis-benchmark refuses these or runs something else:
			 * recording P=1 for them would be a made-up depth. */
			size_t dk = wl[i + 1] < sizeof c->depth_text ? wl[i + 1] : sizeof c->depth_text - 1;

			c->bad_depth = 1;
			memcpy(c->depth_text, w[i + 1], dk);
			c->depth_text[dk] = '\0';
		} else if (import_word_is(w[i], wl[i], "-c") && have)
			c->clients = v;
		else if (import_word_is(w[i], wl[i], "-n") && have)
			c->requests = v;
		else if (import_word_is(w[i], wl[i], "-d") && have)
			c->data_size = v;
	}
	if (!has_p && !hidden) {
		c->depth = 1;
		c->depth_implied = 1;
	}
	if (!hidden && !target_hidden)
		import_target(c, host, hl, port, sock, sl, tls);
	return 1;
}

/* "redis-benchmark 7.0.15", "valkey-benchmark 8.0.1 (git:...)": returns
 * 1 with the version in v and the program in prog. */
int import_version(const char *s, size_t n, char *v, size_t size, char *prog, size_t psize)
{
	const char *w[3];
	size_t wl[3];
	int nw = import_words(s, n, w, wl, 3), which;

	for (which = 0; import_programs[which] != NULL; which++)
		if (nw >= 1 && import_word_is(w[0], wl[0], import_programs[which]))
			break;
	if (nw < 2 || nw > 3 || import_programs[which] == NULL || wl[1] >= size ||
	    w[1][0] < '0' || w[1][0] > '9' || memchr(w[1], '.', wl[1]) == NULL)
		return 0;
	if (nw == 3 && w[2][0] != '(')
		return 0;
	memcpy(v, w[1], wl[1]);
	v[wl[1]] = '\0';
	snprintf(prog, psize, "%s", import_programs[which]);
	return 1;
}

/* What time(1) prints: "real 0m33.045s" (bash), "real 0m 53.29s"
 * (busybox), "real 33.04" (-p), or zsh's one line ending in " total". */
int import_time_line(const char *s, size_t n)
{
	const char *w[4];
	size_t wl[4];
	int nw = import_words(s, n, w, wl, 3);

	if (n > 10 && memcmp(s + n - 6, " total", 6) == 0 && import_find(s, n, "s user ") &&
	    import_find(s, n, " system "))
		return 1;
	if (nw < 2 || nw > 3 || !(import_word_is(w[0], wl[0], "real") ||
				  import_word_is(w[0], wl[0], "user") ||
				  import_word_is(w[0], wl[0], "sys")))
		return 0;
	for (int i = 1; i < nw; i++)
		for (size_t j = 0; j < wl[i]; j++) {
			char ch = w[i][j];

			if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == ',' ||
			      ((ch == 'm' || ch == 's' || ch == 'h') && j > 0)))
				return 0;
		}
	return 1;
}

/* A shell prompt: "root@f8529b27833e:/data# ...", "$ ...", "/usr/local/bin # ...",
 * "> done" (a continuation line). */
static int import_prompt(const char *s, size_t n)
{
	const char *w[2];
	size_t wl[2];
	int nw = import_words(s, n, w, wl, 1);
	char last;

	if (nw < 1)
		return 0;
	last = w[0][wl[0] - 1];
	if (strchr("$#%>", last) != NULL)
		return 1;
	if (nw > 1) {
		nw = import_words(w[0] + wl[0], n - (size_t)(w[0] + wl[0] - s), w + 1, wl + 1, 1);
		/* w[0] is not NUL-terminated (it may end a 2048-byte buffer, or
		 * lie before megabytes of input): look only inside the word. */
		if (nw >= 1 && wl[1] == 1 && strchr("$#%>", w[1][0]) != NULL &&
		    (memchr(w[0], '/', wl[0]) || memchr(w[0], '@', wl[0]) ||
		     memchr(w[0], '~', wl[0]) || memchr(w[0], ':', wl[0])))
			return 1;
	}
	return 0;
}

/* A banner a loop printed between runs: "P=16", "depth: 4", "pipeline 8". */
static int import_banner(const char *s, size_t n)
{
	size_t i = 0;

	if (n > 48)
		return 0;
	if ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_') {
		while (i < n && s[i] != '=' && s[i] != ' ')
			i++;
		if (i < n && s[i] == '=' && memchr(s, ' ', n) == NULL)
			return 1;
	}
	for (i = 0; i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
			      s[i] == ' ' || s[i] == '_' || s[i] == '-'); i++)
		;
	if (i == 0)
		return 0;
	if (i < n && (s[i] == ':' || s[i] == '='))
		i++;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i == n;
}

/* What --cluster prints before its tests: "Cluster has 3 master nodes:"
 * then "Master 0: ID HOST:PORT" (redis-benchmark), "Cluster has 3 primary
 * nodes:" then "Primary 0: ..." or "Node 0(Primary): ..." (valkey-benchmark). */
static int import_cluster_nodes(const char *s, size_t n)
{
	const char *w[3];
	size_t wl[3];
	int nw = import_words(s, n, w, wl, 2);

	if (import_prefix(s, n, "Cluster has ") && n > 8 && memcmp(s + n - 7, " nodes:", 7) == 0)
		return 1;
	if (nw < 2)
		return 0;
	if ((import_word_is(w[0], wl[0], "Master") || import_word_is(w[0], wl[0], "Primary")) &&
	    wl[1] >= 2 && w[1][wl[1] - 1] == ':' && import_all_digits(w[1], wl[1] - 1))
		return 1;
	return import_prefix(s, n, "Node ") && wl[1] > 2 && w[1][wl[1] - 1] == ':' &&
	       memchr(w[1], '(', wl[1]) != NULL && import_all_digits(w[1], (size_t)
		((const char *)memchr(w[1], '(', wl[1]) - w[1]));
}

/* Whether s[0..n) is a line a capture holds around results but that is
 * none (the command line is handled before this). */
int import_noise(const char *s, size_t n)
{
	return import_cluster_nodes(s, n) || (n == 2 && memcmp(s, "OK", 2) == 0) || import_prefix(s, n, "Script started on ") ||
	       import_prefix(s, n, "Script done on ") || import_prefix(s, n, "WARNING: ") ||
	       import_prefix(s, n, "WARN: ") || import_time_line(s, n) || import_prompt(s, n) ||
	       import_banner(s, n);
}
