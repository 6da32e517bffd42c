/* test_cluster.c: the slot hash, CLUSTER SLOTS and redirect parsing, and
 * the commands rewritten for a master, on canned replies (no server). */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <string.h>

#include "net/cluster.h"
#include "engine/engine.h"
#include "resp_helper.h"

/* Three masters over the slots as redis-cli --cluster create splits them. */
static const char three[] =
	"*3\r\n"
	"*3\r\n:0\r\n:5460\r\n*3\r\n$9\r\n127.0.0.1\r\n:7000\r\n$2\r\nid\r\n"
	"*3\r\n:5461\r\n:10922\r\n*3\r\n$9\r\n127.0.0.1\r\n:7001\r\n$2\r\nie\r\n"
	"*4\r\n:10923\r\n:16383\r\n*3\r\n$0\r\n\r\n:7002\r\n$2\r\nif\r\n"
	"*3\r\n$9\r\n127.0.0.1\r\n:7005\r\n$2\r\nrp\r\n";

Test(cluster, key_slot_is_redis_crc16_with_hash_tags)
{
	/* The values the Redis Cluster specification and CLUSTER KEYSLOT give. */
	cr_assert_eq(cluster_crc16("123456789", 9), 0x31c3);
	cr_assert_eq(cluster_key_slot("foo", 3), 12182);
	cr_assert_eq(cluster_key_slot("key:000000000000", 16), cluster_key_slot("key:000000000000", 16));
	cr_assert_eq(cluster_key_slot("{user1000}.following", 20), cluster_key_slot("user1000", 8));
	cr_assert_eq(cluster_key_slot("mylist{7}", 9), cluster_key_slot("7", 1));
	/* "{}" and an unclosed "{" hash the whole key. */
	cr_assert_eq(cluster_key_slot("foo{}{bar}", 10), cluster_crc16("foo{}{bar}", 10) & 16383);
	cr_assert_eq(cluster_key_slot("foo{bar", 7), cluster_crc16("foo{bar", 7) & 16383);
	cr_assert_eq(cluster_key_slot("foo{{bar}}zap", 13), cluster_key_slot("{bar", 4));
}

Test(cluster, slots_reply_builds_the_map)
{
	redisReply *r = resp_reply(three);
	struct cluster_topo t;
	struct rs_err err;

	cr_assert_eq(cluster_parse_slots(r, "10.0.0.9", &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.n, 3);
	cr_assert_eq(t.unassigned, 0);
	cr_assert_str_eq(t.m[0].desc, "127.0.0.1:7000");
	cr_assert_str_eq(t.m[0].id, "id");
	/* An empty host is the node rsweep asked. */
	cr_assert_str_eq(t.m[2].desc, "10.0.0.9:7002");
	cr_assert_eq(t.m[1].slots, 5462);
	cr_assert_eq(t.owner[0], 0);
	cr_assert_eq(t.owner[5461], 1);
	cr_assert_eq(t.owner[16383], 2);
	cr_assert_eq(cluster_find(&t, "127.0.0.1", 7001), 1);
	cr_assert_eq(cluster_find(&t, "127.0.0.1", 7005), -1);
	cluster_topo_free(&t);
	freeReplyObject(r);
}

Test(cluster, slots_reply_gives_each_master_its_first_replica)
{
	redisReply *r = resp_reply(three);
	struct cluster_topo t;
	struct target seed = { .host = "10.0.0.9", .port = 7000, .password = "pw" }, out;
	struct rs_err err;

	cr_assert_eq(cluster_parse_slots(r, "10.0.0.9", &t, &err), 0, "%s", err.msg);
	/* Only the third range lists one (--read-from replicas, issue 47). */
	cr_assert_eq(t.m[0].rport, 0);
	cr_assert_eq(cluster_replica_target(&t, 0, &seed, &out), -1);
	cr_assert_str_eq(t.m[2].rdesc, "127.0.0.1:7005");
	cr_assert_eq(cluster_replica_target(&t, 2, &seed, &out), 0);
	cr_assert_str_eq(out.desc, "127.0.0.1:7005");
	cr_assert_eq(out.readonly, 1, "a replica read from sends READONLY");
	cr_assert_str_eq(out.password, "pw", "the seed's credentials");
	/* The master is no replica: it is still not found as one. */
	cr_assert_eq(cluster_find(&t, "127.0.0.1", 7005), -1);
	cluster_topo_free(&t);
	freeReplyObject(r);
}

Test(cluster, slots_reply_with_holes_counts_them)
{
	redisReply *r = resp_reply("*1\r\n*3\r\n:0\r\n:99\r\n*2\r\n$1\r\nh\r\n:1\r\n");
	struct cluster_topo t;
	struct rs_err err;

	cr_assert_eq(cluster_parse_slots(r, "x", &t, &err), 0);
	cr_assert_eq(t.unassigned, 16384 - 100);
	cr_assert_eq(t.owner[100], CLUSTER_NONE);
	cluster_topo_free(&t);
	freeReplyObject(r);
}

Test(cluster, bad_slots_replies_fail_naming_the_problem)
{
	static const struct { const char *resp, *why; } bad[] = {
		{ "+OK\r\n", "not an array" },
		{ "*1\r\n:5\r\n", "range 1 is not" },
		{ "*1\r\n*3\r\n:5\r\n:16384\r\n*2\r\n$1\r\nh\r\n:1\r\n", "not within 0-16383" },
		{ "*1\r\n*3\r\n:9\r\n:5\r\n*2\r\n$1\r\nh\r\n:1\r\n", "not within 0-16383" },
		{ "*1\r\n*3\r\n:0\r\n:5\r\n*2\r\n$1\r\nh\r\n:0\r\n", "port 0 is out of range" },
		{ "*1\r\n*3\r\n:0\r\n:5\r\n*2\r\n:1\r\n:1\r\n", "not [host, port" },
		{ "*2\r\n*3\r\n:0\r\n:5\r\n*2\r\n$1\r\nh\r\n:1\r\n"
		  "*3\r\n:5\r\n:6\r\n*2\r\n$1\r\nh\r\n:2\r\n", "slot 5 is in two ranges" },
		{ "*0\r\n", "no master" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		redisReply *r = resp_reply(bad[i].resp);
		struct cluster_topo t;
		struct rs_err err;

		cr_assert_eq(cluster_parse_slots(r, "x", &t, &err), -1, "case %zu", i);
		cr_assert(strstr(err.msg, bad[i].why) != NULL, "case %zu: %s", i, err.msg);
		cluster_topo_free(&t);
		freeReplyObject(r);
	}
}

Test(cluster, error_replies_are_classified)
{
	char host[64];
	unsigned slot = 0, port = 0;

#define E(s) s, strlen(s), &slot, host, sizeof host, &port
	cr_assert_eq(cluster_parse_error(E("MOVED 3999 127.0.0.1:6381")), CLUSTER_ERR_MOVED);
	cr_assert_eq(slot, 3999);
	cr_assert_str_eq(host, "127.0.0.1");
	cr_assert_eq(port, 6381);
	cr_assert_eq(cluster_parse_error(E("ASK 12 ::1:7000")), CLUSTER_ERR_ASK);
	cr_assert_str_eq(host, "::1");
	cr_assert_eq(port, 7000);
	cr_assert_eq(cluster_parse_error(E("TRYAGAIN Multiple keys request during rehashing of slot")),
		     CLUSTER_ERR_RETRY);
	cr_assert_eq(cluster_parse_error(E("CLUSTERDOWN The cluster is down")), CLUSTER_ERR_RETRY);
	/* Malformed ones are ordinary errors, never a crash or a guess. */
	cr_assert_eq(cluster_parse_error(E("MOVED 16384 h:1")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED x h:1")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED 1 h")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED 1 h:0")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED 1 h:99999")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED 1 :5")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("ERR wrong type")), CLUSTER_ERR_OTHER);
	cr_assert_eq(cluster_parse_error(E("MOVED")), CLUSTER_ERR_OTHER);
#undef E
}

Test(cluster, key_argument_and_retag)
{
	static const char cmd[] = "*3\r\n$5\r\nLPUSH\r\n$6\r\nmylist\r\n$12\r\n__rand_int__\r\n";
	size_t off, len, roff[1] = { strlen(cmd) - 14 }, noff[1];
	size_t olen;
	char *out;

	cr_assert_eq(cluster_key_arg(cmd, strlen(cmd), &off, &len), 0);
	cr_assert_eq(len, 6);
	cr_assert_eq(memcmp(cmd + off, "mylist", 6), 0);
	cr_assert_eq(cluster_key_arg("PING\r\n", 6, &off, &len), -1);
	cr_assert_eq(cluster_key_arg("*1\r\n$4\r\nPING\r\n", 14, &off, &len), -1);
	cr_assert_eq(cluster_cmd_len(cmd, strlen(cmd)), strlen(cmd));
	cr_assert_eq(cluster_cmd_len(cmd, strlen(cmd) - 1), 0);

	cr_assert_eq(cluster_retag(cmd, strlen(cmd), roff, 1, "{1234}", &out, &olen, noff), 0);
	cr_assert_eq(olen, strlen(cmd) + 6 + 1);
	cr_assert_eq(memcmp(out, "*3\r\n$5\r\nLPUSH\r\n$12\r\nmylist{1234}\r\n$12\r\n__rand_int__\r\n",
			    olen), 0);
	cr_assert_eq(memcmp(out + noff[0], "__rand_int__", 12), 0);
	free(out);
	/* A key with a tag of its own hashes by it: a tag after it would not
	 * move it to another master, so it is refused; an empty "{}" is no tag. */
	static const char tagged[] = "*2\r\n$4\r\nLLEN\r\n$5\r\nk{42}\r\n";
	static const char empty[] = "*2\r\n$4\r\nLLEN\r\n$3\r\nk{}\r\n";

	cr_assert_eq(cluster_retag(tagged, strlen(tagged), roff, 0, "{7}", &out, &olen, noff), -2);
	cr_assert_eq(cluster_retag(empty, strlen(empty), roff, 0, "{7}", &out, &olen, noff), 0);
	free(out);
}

Test(cluster, tags_and_preparation_go_to_their_master)
{
	redisReply *r = resp_reply(three);
	static const char prep[] =
		"*5\r\n$4\r\nMSET\r\n$3\r\nfoo\r\n$1\r\n1\r\n$3\r\nbar\r\n$1\r\n2\r\n"
		"*3\r\n$5\r\nRPUSH\r\n$6\r\nmylist\r\n$1\r\nx\r\n";
	struct cluster_topo t;
	struct rs_err err;
	char tag[24], *out;
	size_t len, n, total = 0;

	cr_assert_eq(cluster_parse_slots(r, "x", &t, &err), 0);
	for (size_t m = 0; m < 3; m++) {
		cr_assert_eq(cluster_tag(&t, m, tag, sizeof tag), 0);
		cr_assert_eq(t.owner[cluster_key_slot(tag, strlen(tag))], m, "%s", tag);
		/* By slot: foo (12182) is on master 2, bar (5061) on 0,
		 * mylist (5282) on 0; the MSET becomes a SET per key. */
		cr_assert_eq(cluster_route_cmds(&t, m, NULL, prep, strlen(prep), 2, &out, &len, &n,
						&err), 0);
		total += n;
		if (m == 0)
			cr_assert(n == 2 && memcmp(out, "*3\r\n$3\r\nSET\r\n$3\r\nbar\r\n", 22) == 0);
		if (m == 2)
			cr_assert(n == 1 && memcmp(out, "*3\r\n$3\r\nSET\r\n$3\r\nfoo\r\n$1\r\n1\r\n", len) == 0);
		free(out);
	}
	cr_assert_eq(total, 3);
	cr_assert_eq(cluster_route_cmds(&t, 1, "{9}", prep + 46, strlen(prep) - 46, 1, &out, &len,
					&n, &err), 0);
	cr_assert(n == 1 && memcmp(out, "*3\r\n$5\r\nRPUSH\r\n$9\r\nmylist{9}\r\n", 30) == 0);
	free(out);
	cr_assert_eq(cluster_route_cmds(&t, 1, NULL, "*1\r\n$4\r\nPING\r\n", 14, 1, &out, &len, &n,
					&err), -1);
	cr_assert(strstr(err.msg, "command 1") != NULL);
	cluster_topo_free(&t);
	freeReplyObject(r);
}

Test(cluster, owns_any_looks_at_the_keyspace)
{
	redisReply *r = resp_reply(three);
	struct cluster_topo t;
	struct rs_err err;
	char key[] = "key:000000000000";

	cr_assert_eq(cluster_parse_slots(r, "x", &t, &err), 0);
	/* One key reaches one master only. */
	cr_assert_eq(cluster_owns_any(&t, 0, key, 16, 4, RNG_DIGITS, 1) +
		     cluster_owns_any(&t, 1, key, 16, 4, RNG_DIGITS, 1) +
		     cluster_owns_any(&t, 2, key, 16, 4, RNG_DIGITS, 1), 1);
	for (size_t m = 0; m < 3; m++)
		cr_assert(cluster_owns_any(&t, m, key, 16, 4, RNG_DIGITS, 1000));
	cluster_topo_free(&t);
	freeReplyObject(r);
}
