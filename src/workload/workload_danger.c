/* workload_danger.c: commands of one's own (after --, in a sequence or a
 * command file) that can destroy or move data they do not name: FLUSHALL
 * empties every database, SWAPDB swaps two, DEL of a key the test never
 * writes deletes another client's.  The guard checks the server before and
 * between points, but not inside one: a run with such a command is told
 * so at its start (and --key-prefix, whose promise is that nothing outside
 * the prefix is touched, takes no command of one's own at all).  Pure: it
 * reads the tests' RESP bytes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "workload/workload.h"

/* Commands, with the subcommand that makes them so (NULL: any), and what
 * they do to data they do not name. */
static const struct {
	const char *cmd, *sub, *what;
} workload_dangers[] = {
	{ "FLUSHALL", NULL, "empties every database" },
	{ "FLUSHDB", NULL, "empties the database" },
	{ "SWAPDB", NULL, "swaps two whole databases" },
	{ "MOVE", NULL, "moves a key to another database" },
	{ "RENAME", NULL, "replaces whatever key has the new name" },
	{ "MIGRATE", NULL, "moves keys to another server" },
	{ "SCRIPT", "FLUSH", "removes every cached script" },
	{ "FUNCTION", "FLUSH", "removes every function library" },
	{ "FUNCTION", "DELETE", "removes a function library" },
	{ "FUNCTION", "RESTORE", "replaces the function libraries" },
	{ "DEBUG", NULL, "can reload or change the whole dataset" },
	{ "REPLICAOF", NULL, "replaces the dataset with a primary's" },
	{ "SLAVEOF", NULL, "replaces the dataset with a primary's" },
	{ "SHUTDOWN", NULL, "stops the server" },
	{ "CONFIG", "SET", "changes the server's settings for every client" },
	{ "CLIENT", "KILL", "disconnects other clients" },
};

/* Argument n (0: the command) of the RESP array cmd (len bytes): 0 with
 * *p and *l set, -1 when it has no such argument. */
static int danger_arg(const char *cmd, size_t len, unsigned n, const char **p, size_t *l)
{
	const char *c = cmd, *end = cmd + len;
	unsigned long argc;
	char *e;

	if (len < 4 || *c != '*')
		return -1;
	argc = strtoul(c + 1, &e, 10);
	if (n >= argc || e + 2 > end)
		return -1;
	c = e + 2;
	for (unsigned i = 0; i <= n; i++) {
		unsigned long bl;

		if (c >= end || *c != '$')
			return -1;
		bl = strtoul(c + 1, &e, 10);
		if (e + 2 > end || (size_t)(end - (e + 2)) < bl + 2)
			return -1;
		if (i == n) {
			*p = e + 2;
			*l = bl;
			return 0;
		}
		c = e + 2 + bl + 2;
	}
	return -1;
}

static int danger_is(const char *p, size_t l, const char *word)
{
	return word != NULL && strlen(word) == l && strncasecmp(p, word, l) == 0;
}

/* Whether key (len bytes) is the first key of a member of top other than
 * a delete: a key the test writes. */
static int danger_written(const struct workload_test *top, const char *key, size_t len)
{
	for (size_t i = 0; i < top->nmembers; i++) {
		const struct workload_test *m = &top->members[i];
		const char *p, *k;
		size_t l, kl;

		if (danger_arg(m->cmd, m->len, 0, &p, &l) < 0 || danger_is(p, l, "DEL") ||
		    danger_is(p, l, "UNLINK") || danger_is(p, l, "GETDEL"))
			continue;
		if (danger_arg(m->cmd, m->len, 1, &k, &kl) == 0 && kl == len && memcmp(k, key, len) == 0)
			return 1;
	}
	return 0;
}

/* One command t (a member of top, or top itself). */
static int danger_one(const struct workload_test *top, const struct workload_test *t, char *buf,
		      size_t size)
{
	const char *p, *s = NULL, *k;
	size_t l, sl = 0, kl;

	if (t->cmd == NULL || danger_arg(t->cmd, t->len, 0, &p, &l) < 0)
		return 0;
	danger_arg(t->cmd, t->len, 1, &s, &sl);
	for (size_t i = 0; i < sizeof workload_dangers / sizeof workload_dangers[0]; i++)
		if (danger_is(p, l, workload_dangers[i].cmd) &&
		    (workload_dangers[i].sub == NULL || (s != NULL && danger_is(s, sl,
								       workload_dangers[i].sub)))) {
			snprintf(buf, size, "%s%s%s %s", workload_dangers[i].cmd,
				 workload_dangers[i].sub ? " " : "",
				 workload_dangers[i].sub ? workload_dangers[i].sub : "",
				 workload_dangers[i].what);
			return 1;
		}
	if ((danger_is(p, l, "DEL") || danger_is(p, l, "UNLINK") || danger_is(p, l, "GETDEL")) &&
	    danger_arg(t->cmd, t->len, 1, &k, &kl) == 0 && !danger_written(top, k, kl)) {
		snprintf(buf, size, "%.*s of '%.*s', a key the test never writes, deletes it whoever "
			 "wrote it", (int)l, p, (int)(kl < 64 ? kl : 64), k);
		return 1;
	}
	return 0;
}

int workload_danger(const struct workload_test *t, char *buf, size_t size)
{
	if (t->nmembers == 0)
		return t->custom ? danger_one(t, t, buf, size) : 0;
	for (size_t i = 0; i < t->nmembers; i++)
		if (t->members[i].custom && danger_one(t, &t->members[i], buf, size))
			return 1;
	return 0;
}
