/* cluster.c: a Redis Cluster's topology and slot map, the key-slot hash,
 * and the commands rewritten or routed so that each goes to its master. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/cluster.h"
#include "base/rng.h"
#include "base/xalloc.h"

static const uint16_t cluster_crc_tab[256] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
	0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
	0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
	0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
	0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
	0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
	0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
	0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
	0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
	0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
	0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
	0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
	0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
	0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
	0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
	0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
	0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
	0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
	0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
	0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
	0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
	0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
	0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
	0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
	0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
	0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
	0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
	0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
	0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
	0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
	0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
};

unsigned cluster_crc16(const char *buf, size_t len)
{
	uint16_t crc = 0;

	for (size_t i = 0; i < len; i++)
		crc = (uint16_t)((crc << 8) ^ cluster_crc_tab[((crc >> 8) ^ (uint8_t)buf[i]) & 0xff]);
	return crc;
}

unsigned cluster_key_slot(const char *key, size_t len)
{
	const char *open = memchr(key, '{', len);

	if (open != NULL) {
		size_t from = (size_t)(open - key) + 1;
		const char *close = memchr(key + from, '}', len - from);

		/* "{}" hashes the whole key, as the server does. */
		if (close != NULL && close > key + from)
			return cluster_crc16(key + from, (size_t)(close - (key + from))) & 16383;
	}
	return cluster_crc16(key, len) & 16383;
}

void cluster_topo_free(struct cluster_topo *topo)
{
	free(topo->m);
	topo->m = NULL;
	topo->n = 0;
}

void cluster_master_target(const struct cluster_topo *topo, size_t i, const struct target *seed,
			   struct target *out)
{
	*out = *seed;
	out->host = topo->m[i].host;
	out->port = topo->m[i].port;
	out->socket = NULL;
	out->dbnum = 0;
	out->row_desc[0] = '\0';
	target_describe(out);
}

int cluster_replica_target(const struct cluster_topo *topo, size_t i, const struct target *seed,
			   struct target *out)
{
	if (topo->m[i].rport == 0)
		return -1;
	cluster_master_target(topo, i, seed, out);
	out->host = topo->m[i].rhost;
	out->port = topo->m[i].rport;
	out->readonly = 1;
	target_describe(out);
	return 0;
}

int cluster_find(const struct cluster_topo *topo, const char *host, unsigned port)
{
	for (size_t i = 0; i < topo->n; i++)
		if (topo->m[i].port == port && strcmp(topo->m[i].host, host) == 0)
			return (int)i;
	return -1;
}

/* The master a slot range names (an array: host, port, id, ...), added to
 * topo when new.  Returns its index, or -1 with err set. */
static int cluster_master_of(const redisReply *node, const char *seed_host,
			     struct cluster_topo *topo, size_t range, struct rs_err *err)
{
	const char *host;
	long long port;
	int i;

	if (node->type != REDIS_REPLY_ARRAY || node->elements < 2 ||
	    node->element[0]->type != REDIS_REPLY_STRING ||
	    node->element[1]->type != REDIS_REPLY_INTEGER)
		return rs_err_set(err, "CLUSTER SLOTS: range %zu: its master is not [host, port, ...]",
				  range + 1);
	host = node->element[0]->len > 0 ? node->element[0]->str : seed_host;
	port = node->element[1]->integer;
	if (port < 1 || port > 65535)
		return rs_err_set(err, "CLUSTER SLOTS: range %zu: port %lld is out of range",
				  range + 1, port);
	if (strlen(host) >= sizeof topo->m[0].host)
		return rs_err_set(err, "CLUSTER SLOTS: range %zu: the host name is too long", range + 1);
	if ((i = cluster_find(topo, host, (unsigned)port)) >= 0)
		return i;
	if (topo->n >= CLUSTER_MAX_MASTERS)
		return rs_err_set(err, "CLUSTER SLOTS: more than %d masters", CLUSTER_MAX_MASTERS);
	topo->m = xreallocarray(topo->m, topo->n + 1, sizeof *topo->m);
	memset(&topo->m[topo->n], 0, sizeof topo->m[0]);
	snprintf(topo->m[topo->n].host, sizeof topo->m[0].host, "%s", host);
	topo->m[topo->n].port = (unsigned)port;
	if (node->elements >= 3 && node->element[2]->type == REDIS_REPLY_STRING)
		snprintf(topo->m[topo->n].id, sizeof topo->m[0].id, "%s", node->element[2]->str);
	snprintf(topo->m[topo->n].desc, sizeof topo->m[0].desc, "%s:%u", host, (unsigned)port);
	return (int)topo->n++;
}

int cluster_parse_slots(const redisReply *r, const char *seed_host, struct cluster_topo *topo,
			struct rs_err *err)
{
	memset(topo, 0, sizeof *topo);
	for (size_t s = 0; s < CLUSTER_SLOTS; s++)
		topo->owner[s] = CLUSTER_NONE;
	topo->unassigned = CLUSTER_SLOTS;
	if (r == NULL || r->type != REDIS_REPLY_ARRAY)
		return rs_err_set(err, "CLUSTER SLOTS: the reply is not an array");
	for (size_t i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];
		long long from, to;
		int m;

		if (e->type != REDIS_REPLY_ARRAY || e->elements < 3 ||
		    e->element[0]->type != REDIS_REPLY_INTEGER ||
		    e->element[1]->type != REDIS_REPLY_INTEGER)
			return rs_err_set(err, "CLUSTER SLOTS: range %zu is not [first, last, master, ...]",
					  i + 1);
		from = e->element[0]->integer;
		to = e->element[1]->integer;
		if (from < 0 || to >= CLUSTER_SLOTS || from > to)
			return rs_err_set(err, "CLUSTER SLOTS: range %zu: slots %lld-%lld are not "
					  "within 0-16383", i + 1, from, to);
		if ((m = cluster_master_of(e->element[2], seed_host, topo, i, err)) < 0)
			return -1;
		/* Its first replica (host, port, id, ...), for --read-from. */
		if (e->elements >= 4 && topo->m[m].rport == 0) {
			const redisReply *rn = e->element[3];

			if (rn->type == REDIS_REPLY_ARRAY && rn->elements >= 2 &&
			    rn->element[0]->type == REDIS_REPLY_STRING &&
			    rn->element[1]->type == REDIS_REPLY_INTEGER &&
			    rn->element[1]->integer >= 1 && rn->element[1]->integer <= 65535) {
				const char *h = rn->element[0]->len > 0 ? rn->element[0]->str : seed_host;

				if (strlen(h) >= sizeof topo->m[m].rhost)
					return rs_err_set(err, "CLUSTER SLOTS: range %zu: the replica's "
							  "host name is too long", i + 1);
				snprintf(topo->m[m].rhost, sizeof topo->m[m].rhost, "%s", h);
				topo->m[m].rport = (unsigned)rn->element[1]->integer;
				snprintf(topo->m[m].rdesc, sizeof topo->m[m].rdesc, "%s:%u",
					 topo->m[m].rhost, topo->m[m].rport);
			}
		}
		for (long long s = from; s <= to; s++) {
			if (topo->owner[s] != CLUSTER_NONE)
				return rs_err_set(err, "CLUSTER SLOTS: slot %lld is in two ranges", s);
			topo->owner[s] = (uint16_t)m;
			topo->m[m].slots++;
			topo->unassigned--;
		}
	}
	if (topo->n == 0)
		return rs_err_set(err, "CLUSTER SLOTS: no master serves any slot");
	return 0;
}

enum cluster_redirect cluster_parse_error(const char *msg, size_t len, unsigned *slot,
					  char *host, size_t size, unsigned *port)
{
	char text[256], *p, *end, *colon;
	enum cluster_redirect kind;
	unsigned long v;

	if (len >= 8 && memcmp(msg, "TRYAGAIN", 8) == 0)
		return CLUSTER_ERR_RETRY;
	if (len >= 11 && memcmp(msg, "CLUSTERDOWN", 11) == 0)
		return CLUSTER_ERR_RETRY;
	if (len > 6 && memcmp(msg, "MOVED ", 6) == 0)
		kind = CLUSTER_ERR_MOVED, p = text + 6;
	else if (len > 4 && memcmp(msg, "ASK ", 4) == 0)
		kind = CLUSTER_ERR_ASK, p = text + 4;
	else
		return CLUSTER_ERR_OTHER;
	if (len >= sizeof text)
		return CLUSTER_ERR_OTHER;
	memcpy(text, msg, len);
	text[len] = '\0';
	if (*p < '0' || *p > '9')
		return CLUSTER_ERR_OTHER;
	v = strtoul(p, &end, 10);
	if (*end != ' ' || v >= CLUSTER_SLOTS)
		return CLUSTER_ERR_OTHER;
	*slot = (unsigned)v;
	p = end + 1;
	/* The last ':' splits an IPv6 address from its port. */
	if ((colon = strrchr(p, ':')) == NULL || colon == p || (size_t)(colon - p) >= size)
		return CLUSTER_ERR_OTHER;
	if (colon[1] < '0' || colon[1] > '9')
		return CLUSTER_ERR_OTHER;
	v = strtoul(colon + 1, &end, 10);
	if (*end != '\0' || v < 1 || v > 65535)
		return CLUSTER_ERR_OTHER;
	*port = (unsigned)v;
	memcpy(host, p, (size_t)(colon - p));
	host[colon - p] = '\0';
	return kind;
}

/* Read "<c>N\r\n" at buf[*pos] (c '*' or '$'); returns N or -1. */
static long cluster_hdr(const char *buf, size_t len, size_t *pos, char c)
{
	size_t i = *pos;
	long n = 0;

	if (i >= len || buf[i] != c)
		return -1;
	for (i++; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		n = n * 10 + (buf[i] - '0');
		if (n > 1L << 30)
			return -1;
	}
	if (i == *pos + 1 || i + 1 >= len || buf[i] != '\r' || buf[i + 1] != '\n')
		return -1;
	*pos = i + 2;
	return n;
}

/* Walk the RESP command at buf: its length, and where argument 1 is
 * (*koff, *klen, *kstart: its "$" header).  Returns 0 or -1. */
static int cluster_walk(const char *buf, size_t len, size_t *cmdlen, size_t *kstart,
			size_t *koff, size_t *klen)
{
	size_t pos = 0;
	long argc = cluster_hdr(buf, len, &pos, '*');

	if (argc < 1)
		return -1;
	*kstart = *koff = *klen = 0;
	for (long a = 0; a < argc; a++) {
		size_t h = pos;
		long n = cluster_hdr(buf, len, &pos, '$');

		if (n < 0 || pos + (size_t)n + 2 > len || buf[pos + n] != '\r' || buf[pos + n + 1] != '\n')
			return -1;
		if (a == 1) {
			*kstart = h;
			*koff = pos;
			*klen = (size_t)n;
		}
		pos += (size_t)n + 2;
	}
	*cmdlen = pos;
	return argc >= 2 ? 0 : 1;
}

int cluster_key_arg(const char *cmd, size_t len, size_t *off, size_t *klen)
{
	size_t cl, ks;

	return cluster_walk(cmd, len, &cl, &ks, off, klen) == 0 ? 0 : -1;
}

int cluster_arg(const char *cmd, size_t len, long idx, size_t *off, size_t *alen)
{
	size_t pos = 0;
	long argc = cluster_hdr(cmd, len, &pos, '*');

	for (long a = 0; a < argc; a++) {
		long n = cluster_hdr(cmd, len, &pos, '$');

		if (n < 0 || pos + (size_t)n + 2 > len)
			return -1;
		if (a == idx) {
			*off = pos;
			*alen = (size_t)n;
			return 0;
		}
		pos += (size_t)n + 2;
	}
	return -1;
}

int cluster_is_script(const char *cmd, size_t len, int *numkeys0)
{
	static const char *const names[] = { "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL",
					     "FCALL_RO" };
	size_t off, n;

	if (cluster_arg(cmd, len, 0, &off, &n) < 0)
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == n && strncasecmp(cmd + off, names[i], n) == 0) {
			*numkeys0 = cluster_arg(cmd, len, 2, &off, &n) == 0 && n == 1 &&
				    cmd[off] == '0';
			return 1;
		}
	return 0;
}

size_t cluster_cmd_len(const char *buf, size_t len)
{
	size_t cl, ks, ko, kl;

	return cluster_walk(buf, len, &cl, &ks, &ko, &kl) < 0 ? 0 : cl;
}

int cluster_tag(const struct cluster_topo *topo, size_t master, char *buf, size_t size)
{
	for (unsigned n = 0; n < 1u << 20; n++) {
		char d[16];
		int k = snprintf(d, sizeof d, "%u", n);

		if (__atomic_load_n(&topo->owner[cluster_crc16(d, (size_t)k) & 16383],
				    __ATOMIC_RELAXED) == master) {
			snprintf(buf, size, "{%s}", d);
			return 0;
		}
	}
	return -1;
}

/* Append the bytes of cmd with argument 1 (header at ks, bytes at ko,
 * kl long) followed by tag to *out. */
static size_t cluster_put_retagged(const char *cmd, size_t cl, size_t ks, size_t ko, size_t kl,
				   const char *tag, char *out)
{
	size_t tl = strlen(tag), n = 0;
	int h;

	memcpy(out, cmd, ks);
	n = ks;
	h = sprintf(out + n, "$%zu\r\n", kl + tl);
	n += (size_t)h;
	memcpy(out + n, cmd + ko, kl);
	n += kl;
	memcpy(out + n, tag, tl);
	n += tl;
	memcpy(out + n, cmd + ko + kl, cl - (ko + kl));
	return n + cl - (ko + kl);
}

int cluster_retag(const char *cmd, size_t len, const size_t *rand_off, size_t nrand,
		  const char *tag, char **out, size_t *outlen, size_t *out_off)
{
	size_t cl, ks, ko, kl, tl = strlen(tag);
	long shift_hdr;

	const char *open, *close;

	if (cluster_walk(cmd, len, &cl, &ks, &ko, &kl) != 0 || cl != len)
		return -1;
	/* A key with a hash tag of its own ("k{42}") hashes by that tag
	 * whatever follows it: the master's tag would change nothing. */
	if ((open = memchr(cmd + ko, '{', kl)) != NULL &&
	    (close = memchr(open + 1, '}', (size_t)(cmd + ko + kl - open - 1))) != NULL &&
	    close > open + 1)
		return -2;
	*out = xmalloc(len + tl + 32);
	*outlen = cluster_put_retagged(cmd, cl, ks, ko, kl, tag, *out);
	/* The header may have grown a digit; what follows the key moved by
	 * that and the tag. */
	shift_hdr = (long)(*outlen - len - tl);
	for (size_t r = 0; r < nrand; r++)
		out_off[r] = rand_off[r] < ks ? rand_off[r] :
			     rand_off[r] < ko + kl ? rand_off[r] + (size_t)shift_hdr :
			     rand_off[r] + (size_t)shift_hdr + tl;
	return 0;
}

/* An MSET at cmd (cl bytes): a SET for each of its pairs whose key is on
 * master, appended to out (*n of them), since a cluster refuses an MSET
 * whose keys are in more than one slot. */
static size_t cluster_split_mset(const struct cluster_topo *topo, size_t master, const char *cmd,
				 size_t cl, char *out, size_t *n)
{
	size_t pos = 0, w = 0;
	long argc = cluster_hdr(cmd, cl, &pos, '*');

	/* Past "MSET". */
	pos += (size_t)cluster_hdr(cmd, cl, &pos, '$') + 2;
	for (long a = 1; a + 1 < argc; a += 2) {
		size_t kh = pos, ko, vo, end;
		long kl, vl;

		kl = cluster_hdr(cmd, cl, &pos, '$');
		ko = pos;
		pos += (size_t)kl + 2;
		vl = cluster_hdr(cmd, cl, &pos, '$');
		vo = pos;
		pos += (size_t)vl + 2;
		end = pos;
		(void)vo;
		if (topo->owner[cluster_key_slot(cmd + ko, (size_t)kl)] != master)
			continue;
		memcpy(out + w, "*3\r\n$3\r\nSET\r\n", 13);
		w += 13;
		memcpy(out + w, cmd + kh, end - kh);
		w += end - kh;
		(*n)++;
	}
	return w;
}

int cluster_is_mset(const char *cmd, size_t cl)
{
	size_t pos = 0;

	if (cluster_hdr(cmd, cl, &pos, '*') < 3 || cluster_hdr(cmd, cl, &pos, '$') != 4)
		return 0;
	return strncasecmp(cmd + pos, "MSET", 4) == 0;
}

int cluster_route_cmds(const struct cluster_topo *topo, size_t master, const char *tag,
		       const char *buf, size_t len, size_t ncmds, char **out, size_t *outlen,
		       size_t *outn, struct rs_err *err)
{
	size_t pos = 0, cap = tag != NULL ? len + ncmds * (strlen(tag) + 8) : len * 2;

	*out = xmalloc(cap + 1);
	*outlen = *outn = 0;
	for (size_t i = 0; i < ncmds; i++) {
		size_t cl, ks, ko, kl;

		if (cluster_walk(buf + pos, len - pos, &cl, &ks, &ko, &kl) != 0) {
			free(*out);
			*out = NULL;
			return rs_err_set(err, "preparation command %zu has no key to route by", i + 1);
		}
		if (tag != NULL) {
			*outlen += cluster_put_retagged(buf + pos, cl, ks, ko, kl, tag, *out + *outlen);
			(*outn)++;
		} else if (cluster_is_mset(buf + pos, cl)) {
			*outlen += cluster_split_mset(topo, master, buf + pos, cl, *out + *outlen, outn);
		} else if (topo->owner[cluster_key_slot(buf + pos + ko, kl)] == master) {
			memcpy(*out + *outlen, buf + pos, cl);
			*outlen += cl;
			(*outn)++;
		}
		pos += cl;
	}
	return 0;
}

int cluster_owns_any(const struct cluster_topo *topo, size_t master, const char *key,
		     size_t klen, size_t digits_off, size_t digits, uint64_t keyspace)
{
	char k[512];

	if (klen > sizeof k || digits != RNG_DIGITS || digits_off + digits > klen)
		return 0;
	memcpy(k, key, klen);
	for (uint64_t v = 0; v < keyspace && v < (1u << 20); v++) {
		rng_put_digits(k + digits_off, v);
		if (topo->owner[cluster_key_slot(k, klen)] == master)
			return 1;
	}
	return 0;
}

int cluster_read(struct target_conn *c, const struct target *t, struct cluster_topo *topo,
		 struct rs_err *err)
{
	char *info, v[32];
	struct redisReply *r;
	int rc;

	memset(topo, 0, sizeof *topo);
	if (target_info(c, t, "cluster", &info, err) < 0)
		return -1;
	target_info_field(info, "cluster_enabled", v, sizeof v);
	free(info);
	if (strcmp(v, "1") != 0)
		return rs_err_setk(err, RS_E_INPUT, "%s is not in cluster mode (cluster_enabled:%s)",
				   t->desc, v[0] ? v : "absent");
	if (target_cluster_info(c, t, &info, err) < 0)
		return -1;
	target_info_field(info, "cluster_state", v, sizeof v);
	free(info);
	if (strcmp(v, "ok") != 0)
		return rs_err_setk(err, RS_E_INPUT, "%s: the cluster is not ok (cluster_state:%s)",
				   t->desc, v[0] ? v : "absent");
	if (target_cluster_slots(c, t, &r, err) < 0)
		return -1;
	rc = cluster_parse_slots(r, t->host != NULL ? t->host : "127.0.0.1", topo, err);
	freeReplyObject(r);
	if (rc < 0)
		return rs_err_prefix(err, "%s", t->desc);
	if (topo->unassigned > 0)
		return rs_err_setk(err, RS_E_INPUT, "%s: the cluster is not ok: %u of 16384 slots "
				   "have no master", t->desc, topo->unassigned);
	return 0;
}
