/* test_agentmsg.c: the leader's and agents' messages, encoded, decoded and
 * refused from strings (no socket). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "workload/job.h"
#include "engine/keydist.h"
#include "base/xalloc.h"

/* GET key:__rand_int__, as agentmsg_job_encode writes it. */
#define SAMPLE_JOB "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform " \
	"m=0,0,0,0,23,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$16%0D%0Akey:__rand_int__%0D%0A"

static struct agentmsg_point sample_point(void)
{
	struct agentmsg_point p = { 0 };

	memcpy(p.run, "0123456789abcdef", 17);
	p.point = 7;
	p.kind = AGENTMSG_POINT;
	snprintf(p.target, sizeof p.target, "redis://127.0.0.2:6380/3");
	snprintf(p.test, sizeof p.test, "GET");
	p.job = SAMPLE_JOB;
	p.job_len = strlen(SAMPLE_JOB);
	p.depth = 16;
	p.window = 1;
	p.clients = 10;
	p.threads = 2;
	p.keyspace = 100000;
	p.seed = 18446744073709551615ull;
	p.requests = 33334;
	p.start_ns = 1764600000123456789ull;
	p.timeout = 10;
	return p;
}

/* A copy of fs's fields with field name's value replaced (NULL: dropped),
 * or one more field when name is not there. */
static size_t edit(const struct agentmsg_fields *fs, struct agentmsg_field *out, const char *name,
		   const char *value)
{
	size_t n = 0, found = 0;

	for (size_t i = 0; i < fs->n; i++) {
		out[n] = fs->f[i];
		if (strcmp(fs->f[i].name, name) == 0) {
			found = 1;
			if (value == NULL)
				continue;
			out[n].value = value;
			out[n].value_len = strlen(value);
		}
		n++;
	}
	if (!found) {
		out[n].name = name;
		out[n].name_len = strlen(name);
		out[n].value = value;
		out[n].value_len = strlen(value);
		n++;
	}
	return n;
}

/* Decoding the sample with one field changed must fail saying want. */
static void refused(const char *name, const char *value, const char *want)
{
	struct agentmsg_point p = sample_point(), q;
	struct agentmsg_fields fs;
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS + 1];
	struct rs_err err = { 0 };
	size_t n;

	cr_assert_eq(agentmsg_point_encode(&p, &fs, &err), 0, "%s", err.msg);
	n = edit(&fs, f, name, value);
	cr_assert_eq(agentmsg_point_decode(f, n, &q, &err), -1, "%s=%s was accepted", name,
		     value ? value : "(none)");
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert(strstr(err.msg, want) != NULL, "%s=%s: '%s' does not say '%s'", name,
		  value ? value : "(none)", err.msg, want);
	cr_assert(strchr(err.msg, '\n') == NULL);
	agentmsg_fields_free(&fs);
}

Test(agentmsg, point_round_trip)
{
	struct agentmsg_point p = sample_point(), q;
	struct agentmsg_fields fs;
	struct rs_err err = { 0 };

	cr_assert_eq(agentmsg_point_encode(&p, &fs, &err), 0, "%s", err.msg);
	cr_assert_eq(agentmsg_point_decode(fs.f, fs.n, &q, &err), 0, "%s", err.msg);
	cr_assert_str_eq(q.run, p.run);
	cr_assert_eq(q.point, 7);
	cr_assert_str_eq(q.target, p.target);
	cr_assert_str_eq(q.test, "GET");
	cr_assert_eq(q.depth, 16);
	cr_assert_eq(q.window, 1);
	cr_assert_eq(q.seed, p.seed);
	cr_assert_eq(q.requests, 33334);
	cr_assert_eq(q.start_ns, p.start_ns);
	cr_assert_eq(q.timeout, 10);
	agentmsg_fields_free(&fs);
}

/* A mix of two, one with a value sized per request and a key copied, a
 * key distribution: the job that comes back is the job that went. */
Test(agentmsg, a_job_goes_and_comes_back)
{
	static const char set[] = "*3\r\n$3\r\nSET\r\n$16\r\nkey:__rand_int__\r\n"
				  "$20\r\nxxxxxxxxxxxxxxxxxxxx\r\n";
	static const char seq[] = "*2\r\n$3\r\nGET\r\n$12\r\n__rand_int__\r\n"
				  "*2\r\n$3\r\nDEL\r\n$12\r\n__rand_int__\r\n";
	const size_t set_rand[] = { 22 }, seq_rand[] = { 18, 50 }, seq_copy[] = { 50 };
	struct keydist_spec spec = { KEYDIST_ZIPF, 0.987654321, 0 };
	struct keydist *kd = NULL;
	struct engine_member m[2] = {
		{ .cmd = set, .len = sizeof set - 1, .rand_off = set_rand, .nrand = 1,
		  .value_at = 36, .value_end = sizeof set - 1, .weight = 3 },
		{ .cmd = seq, .len = sizeof seq - 1, .rand_off = seq_rand, .nrand = 2,
		  .key_from = 18, .copy_off = seq_copy, .ncopy = 1, .weight = 1000000 },
	};
	struct engine_job job = { .members = m, .nmembers = 2, .replies = 1, .expect = 3,
				  .vmin = 1, .vmax = 4096, .max_reply = 67108864, .keyspace = 1000,
				  .arrivals = ENGINE_POISSON, .rate = 1000 };
	const struct engine_job point = { .keyspace = 1000, .depth = 4, .requests = 10,
					  .rate = 250 };
	struct job back;
	struct rs_err err = { 0 };
	char *text;

	cr_assert_eq(keydist_new(&spec, 1000, &kd, &err), 0, "%s", err.msg);
	job.keydist = kd;
	text = agentmsg_job_encode(&job);
	cr_assert_eq(strchr(text, '\r'), NULL);
	cr_assert(strstr(text, "*20.78") != NULL, "%s", text);
	cr_assert_eq(agentmsg_job_check(text, strlen(text), &err), 0, "%s", err.msg);
	cr_assert_eq(agentmsg_job_decode(text, strlen(text), &point, 2, 1, 1u << 30, &back, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(back.e.members, back.members);
	cr_assert_eq(back.e.nmembers, 2);
	cr_assert_eq(back.e.vmin, 1);
	cr_assert_eq(back.e.vmax, 4096);
	cr_assert_eq(back.e.expect, 3);
	cr_assert_eq(back.e.depth, 4);
	cr_assert_eq(back.e.requests, 10);
	/* The rate is the point's (each agent's share), how it is spaced the
	 * job's. */
	cr_assert_eq(back.e.rate, 250);
	cr_assert_eq(back.e.arrivals, ENGINE_POISSON);
	cr_assert_eq(keydist_spec_of(back.e.keydist)->kind, KEYDIST_ZIPF);
	cr_assert_eq(keydist_spec_of(back.e.keydist)->a, 0.987654321);
	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(back.members[i].len, m[i].len);
		cr_assert_eq(memcmp(back.members[i].cmd, m[i].cmd, m[i].len), 0);
		cr_assert_eq(back.members[i].nrand, m[i].nrand);
		cr_assert_eq(back.members[i].ncopy, m[i].ncopy);
		cr_assert_eq(back.members[i].key_from, m[i].key_from);
		cr_assert_eq(back.members[i].value_at, m[i].value_at);
		cr_assert_eq(back.members[i].value_end, m[i].value_end);
		cr_assert_eq(back.members[i].weight, m[i].weight);
		for (size_t r = 0; r < m[i].nrand; r++)
			cr_assert_eq(back.members[i].rand_off[r], m[i].rand_off[r]);
	}
	cr_assert_eq(back.members[1].copy_off[0], 50);
	job_free(&back);
	free(text);
	keydist_free(kd);
}

/* Issue 40, D1: a mix of 16 MB values at depth 100 over 64 connections is
 * refused by the job's memory, before a byte of it is expanded (the text
 * holds each value as a run of a few bytes). */
Test(agentmsg, a_job_too_large_is_refused_before_it_is_expanded)
{
	const char *text = "mix=1 r=1 x=0 e=15 vmin=0 vmax=0 mr=1677721600 kd=- arr=uniform "
			   "m=1,0,0,0,-,-,%2A3%0D%0A$3%0D%0ASET%0D%0A$1%0D%0Ak%0D%0A$16777216%0D%0A"
			   "*16777216.78%0D%0A "
			   "m=1,0,0,0,-,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$1%0D%0Ak%0D%0A";
	const struct engine_job point = { .depth = 100, .requests = 1000 };
	struct job back;
	struct rs_err err = { 0 };

	cr_assert_eq(agentmsg_job_check(text, strlen(text), &err), 0, "%s", err.msg);
	cr_assert_eq(agentmsg_job_decode(text, strlen(text), &point, 64, 1, 1u << 30, &back, &err),
		     -1);
	cr_assert(strstr(err.msg, "needs about 107") != NULL, "%s", err.msg);
	cr_assert_eq(back.own_cmd[0], NULL);
	/* At depth 1 over one connection it fits, and is whole. */
	{
		const struct engine_job small = { .depth = 1, .requests = 1 };

		cr_assert_eq(agentmsg_job_decode(text, strlen(text), &small, 1, 1, 1u << 30, &back,
						 &err), 0, "%s", err.msg);
		cr_assert_eq(back.members[0].len, 16777216 + 33);
		cr_assert_eq(back.members[0].cmd[31], 'x');
		job_free(&back);
	}
}

Test(agentmsg, point_refusals)
{
	refused("cmd", "FLUSHALL", "unknown field 'cmd'");
	refused("v", "0.0.1-other", "from rsweep 0.0.1-other, this is rsweep");
	refused("v", NULL, "no field v");
	refused("depth", NULL, "no field depth");
	refused("depth", "0", "field depth");
	refused("depth", "16x", "field depth");
	refused("depth", "-1", "field depth");
	refused("requests", "1e3", "field requests");
	refused("test", "GET\nFLUSHALL", "control character");
	/* The job: every item once, every number whole, every offset inside
	 * its command. */
	refused("job", NULL, "no field job");
	refused("job", "FLUSHALL", "field job: an item 'FLUSHALL' it does not know");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform", "0 commands");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- m=0,0,0,0,-,-,A", "no arr");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=bursty m=0,0,0,0,-,-,A",
		"arr is not uniform or poisson");
	refused("rate", "2e9", "field rate");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,2,-,PING",
		"an offset in a command of 4 bytes");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,-,-,A%0",
		"a % not followed by two upper-case hex digits");
	refused("job", "mix=0 r=1 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,-,-,A",
		"r given twice");
	refused("job", "mix=1 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,-,-,A",
		"a weight");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=bogus arr=uniform m=0,0,0,0,-,-,A",
		"field job: kd");
	refused("job", "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform m=0,0,0,0,-,-,*9999999999.78",
		"field job: a run's count");
	refused("target", "spawn:/bin/sh", "not redis://, rediss:// or unix://");
	refused("target", "redis://u:secret@host:1", "holds a password");
	refused("target", "redis://host:99999", "field target");
	refused("run", "XYZ", "not a run id");
	refused("mode", "fast", "not lockstep or window");
	refused("kind", "flush", "not warmup or point");
	refused("timeout", "nan", "field timeout");
	refused("threads", "11", "more than 10 clients");
	refused("duration", "5", "exactly one of them");
}

Test(agentmsg, field_twice)
{
	struct agentmsg_point p = sample_point(), q;
	struct agentmsg_fields fs;
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS + 1];
	struct rs_err err = { 0 };

	cr_assert_eq(agentmsg_point_encode(&p, &fs, &err), 0, "%s", err.msg);
	memcpy(f, fs.f, fs.n * sizeof f[0]);
	f[fs.n] = fs.f[3];
	cr_assert_eq(agentmsg_point_decode(f, fs.n + 1, &q, &err), -1);
	cr_assert(strstr(err.msg, "given twice") != NULL, "%s", err.msg);
	agentmsg_fields_free(&fs);
}

Test(agentmsg, encode_refuses_what_decode_would)
{
	struct agentmsg_point p = sample_point();
	struct agentmsg_fields fs;
	struct rs_err err = { 0 };

	p.job = "mix=2";
	p.job_len = 5;
	cr_assert_eq(agentmsg_point_encode(&p, &fs, &err), -1);
	cr_assert(strstr(err.msg, "field job") != NULL, "%s", err.msg);
}

/* Three agents' histograms merged, sent through their result messages,
 * equal one histogram of all their samples. */
Test(agentmsg, result_hist_merges_exactly)
{
	struct hist *all = xcalloc(1, sizeof *all), *merged = xcalloc(1, sizeof *merged);
	struct rs_err err = { 0 };

	hist_init(all);
	hist_init(merged);
	for (int a = 0; a < 3; a++) {
		struct agentmsg_result *r = xcalloc(1, sizeof *r), *q = xcalloc(1, sizeof *q);
		struct agentmsg_fields fs;
		uint64_t x = 88172645463325252ull + (uint64_t)a;

		memcpy(r->run, "0123456789abcdef", 17);
		r->point = 3;
		snprintf(r->agent, sizeof r->agent, "agent-%d", a);
		r->ok = 1;
		hist_init(&r->hist);
		hist_init(&r->service);
		for (int i = 0; i < 5000 + a * 777; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			hist_record_n(&r->hist, 1000 + x % (5000000u * (unsigned)(a + 1)), 1);
			hist_record_n(all, 1000 + x % (5000000u * (unsigned)(a + 1)), 1);
		}
		r->requests = r->hist.count;
		r->start_ns = 10;
		r->end_ns = 20;
		cr_assert_eq(agentmsg_result_encode(r, &fs, &err), 0, "%s", err.msg);
		cr_assert_eq(agentmsg_result_decode(fs.f, fs.n, q, &err), 0, "%s", err.msg);
		cr_assert_str_eq(q->agent, r->agent);
		hist_merge(merged, &q->hist);
		agentmsg_fields_free(&fs);
		free(r);
		free(q);
	}
	cr_assert(hist_equal(all, merged));
	cr_assert_eq(hist_percentile(all, 99.9), hist_percentile(merged, 99.9));
	free(all);
	free(merged);
}

Test(agentmsg, result_refusals)
{
	struct agentmsg_result *r = xcalloc(1, sizeof *r), *q = xcalloc(1, sizeof *q);
	struct agentmsg_fields fs;
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	struct rs_err err = { 0 };
	size_t n;

	memcpy(r->run, "0123456789abcdef", 17);
	r->point = 1;
	snprintf(r->agent, sizeof r->agent, "a1");
	r->ok = 1;
	hist_init(&r->hist);
	hist_init(&r->service);
	hist_record_n(&r->hist, 5000, 10);
	r->requests = 10;
	cr_assert_eq(agentmsg_result_encode(r, &fs, &err), 0, "%s", err.msg);
	/* A histogram that does not hold one value per request. */
	n = edit(&fs, f, "requests", "11");
	cr_assert_eq(agentmsg_result_decode(f, n, q, &err), -1);
	cr_assert(strstr(err.msg, "10 values for 11 requests") != NULL, "%s", err.msg);
	n = edit(&fs, f, "hist", "v1 10 50000 5000 5000 9999:10");
	cr_assert_eq(agentmsg_result_decode(f, n, q, &err), -1);
	cr_assert(strstr(err.msg, "field hist") != NULL, "%s", err.msg);
	n = edit(&fs, f, "agent", "a b");
	cr_assert_eq(agentmsg_result_decode(f, n, q, &err), -1);
	cr_assert(strstr(err.msg, "not an agent id") != NULL, "%s", err.msg);
	n = edit(&fs, f, "errors", "12");
	cr_assert_eq(agentmsg_result_decode(f, n, q, &err), -1);
	agentmsg_fields_free(&fs);
	free(r);
	free(q);
}

/* A3: an agent's error as long as an rs_err may hold travels whole; one
 * longer is refused by a line that says how long. */
Test(agentmsg, a_long_error_travels_whole)
{
	struct agentmsg_result *r = xcalloc(1, sizeof *r), *q = xcalloc(1, sizeof *q);
	struct agentmsg_fields fs;
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	struct rs_err err = { 0 };
	char *big = xmalloc(AGENTMSG_TEXT_MAX + 1);
	size_t n;

	memcpy(r->run, "0123456789abcdef", 17);
	r->point = 1;
	snprintf(r->agent, sizeof r->agent, "a1");
	r->ok = 0;
	hist_init(&r->hist);
	hist_init(&r->service);
	memset(r->error, 'e', sizeof r->error - 1);
	memcpy(r->error, "AUTH failed: ", 13);
	r->error[sizeof r->error - 1] = '\0';
	cr_assert_gt(strlen(r->error), 255);
	cr_assert_eq(agentmsg_result_encode(r, &fs, &err), 0, "%s", err.msg);
	cr_assert_eq(agentmsg_result_decode(fs.f, fs.n, q, &err), 0, "%s", err.msg);
	cr_assert_str_eq(q->error, r->error);
	memset(big, 'x', AGENTMSG_TEXT_MAX);
	big[AGENTMSG_TEXT_MAX] = '\0';
	n = edit(&fs, f, "error", big);
	cr_assert_eq(agentmsg_result_decode(f, n, q, &err), -1);
	cr_assert(strstr(err.msg, "field error: 512 bytes, longer than the 511") != NULL, "%s",
		  err.msg);
	agentmsg_fields_free(&fs);
	free(big);
	free(r);
	free(q);
}

Test(agentmsg, alive)
{
	char buf[160], ver[40];

	agentmsg_alive_encode(buf, sizeof buf, 123, "host-a");
	cr_assert_eq(agentmsg_alive_decode(buf, strlen(buf), ver, sizeof ver), 0);
	cr_assert_str_eq(ver, PACKAGE_VERSION);
	cr_assert_eq(agentmsg_alive_decode("nospace", 7, ver, sizeof ver), -1);
	cr_assert_eq(agentmsg_alive_decode("", 0, ver, sizeof ver), -1);
}

/* ---- signatures (agentkey.h): what a writer to the control Redis can do
 * without the key.  Every way it could change a signed message is refused,
 * and a message verifies only on the stream it was signed for. */

static void test_key(struct agentkey *k, char c)
{
	memset(k, 0, sizeof *k);
	memset(k->k, c, 32);
	k->n = 32;
}

/* A point signed for rsweep:work:a1 under key 'A', then verified as given. */
static long verify_edit(const char *stream, char keyc, const char *name, const char *value)
{
	struct agentkey ka, kv;
	struct agentmsg_point p = sample_point();
	struct agentmsg_fields fs;
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS + 1];
	struct rs_err err = { 0 };
	size_t n;
	long rc;

	test_key(&ka, 'A');
	test_key(&kv, keyc);
	cr_assert_eq(agentmsg_point_encode(&p, &fs, &err), 0, "%s", err.msg);
	agentkey_sign(&ka, "rsweep:work:a1", &fs);
	n = name ? edit(&fs, f, name, value) : fs.n;
	if (name == NULL)
		memcpy(f, fs.f, fs.n * sizeof *f);
	rc = agentkey_verify(&kv, stream, f, n, &err);
	if (rc >= 0)
		cr_assert_eq(agentmsg_point_decode(f, (size_t)rc, &p, &err), 0, "%s", err.msg);
	else
		cr_assert_eq(err.kind, RS_E_INPUT);
	agentmsg_fields_free(&fs);
	return rc;
}

Test(agentkey, signed_message_verifies_and_decodes)
{
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', NULL, NULL), 18);
}

Test(agentkey, a_changed_message_is_refused)
{
	/* Another target (the attack of issue 25 A1), test, depth, start. */
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "target", "unix:///attacker.sock"), -1);
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "test", "SET"), -1);
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "depth", "17"), -1);
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "start", "1764600000123456790"), -1);
	/* A field dropped, or one put before the signature. */
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "timeout", NULL), -1);
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "mac", NULL), -1);
	cr_assert_eq(verify_edit("rsweep:work:a1", 'A', "mac",
				 "0000000000000000000000000000000000000000000000000000000000000000"),
		     -1);
}

Test(agentkey, another_key_or_stream_is_refused)
{
	cr_assert_eq(verify_edit("rsweep:work:a1", 'B', NULL, NULL), -1);
	/* Moved to another agent's work stream, or to a results stream. */
	cr_assert_eq(verify_edit("rsweep:work:a2", 'A', NULL, NULL), -1);
	cr_assert_eq(verify_edit("rsweep:run:0123456789abcdef:results", 'A', NULL, NULL), -1);
}

Test(agentkey, a_forged_result_is_refused)
{
	/* Issue 25 W1: a result that decodes, posted by a writer without the
	 * key: unsigned, or signed with a key of its own. */
	struct agentmsg_result *r = xcalloc(1, sizeof *r);
	struct agentmsg_fields fs;
	struct agentkey mine, theirs;
	struct rs_err err = { 0 };
	const char *stream = "rsweep:run:0123456789abcdef:results";

	test_key(&mine, 'A');
	test_key(&theirs, 'Z');
	memcpy(r->run, "0123456789abcdef", 17);
	r->point = 1;
	snprintf(r->agent, sizeof r->agent, "a1");
	r->ok = 1;
	r->requests = 300000;
	hist_init(&r->hist);
	hist_init(&r->service);
	cr_assert_eq(agentmsg_result_encode(r, &fs, &err), 0, "%s", err.msg);
	cr_assert_eq(agentmsg_result_decode(fs.f, fs.n, r, &err), 0, "%s", err.msg);
	cr_assert_eq(agentkey_verify(&mine, stream, fs.f, fs.n, &err), -1);
	cr_assert(strstr(err.msg, "unsigned") != NULL, "%s", err.msg);
	agentkey_sign(&theirs, stream, &fs);
	cr_assert_eq(agentkey_verify(&mine, stream, fs.f, fs.n, &err), -1);
	cr_assert(strstr(err.msg, "does not verify") != NULL, "%s", err.msg);
	agentmsg_fields_free(&fs);
	free(r);
}

/* Write s (n bytes) to a file of mode m in a private directory. */
static char *key_file(const char *s, size_t n, mode_t m)
{
	static char path[256];
	char dir[] = "/tmp/rsweep-key.XXXXXX";
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/key", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(s, 1, n, f), n);
	fclose(f);
	cr_assert_eq(chmod(path, m), 0);
	return path;
}

static void key_file_gone(const char *path)
{
	char dir[256];

	snprintf(dir, sizeof dir, "%s", path);
	unlink(path);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

Test(agentkey, key_file_rules)
{
	struct agentkey k;
	struct rs_err err = { 0 };
	char *p;

	p = key_file("0123456789abcdefXYZ\n", 20, 0600);
	cr_assert_eq(agentkey_load(p, &k, &err), 0, "%s", err.msg);
	cr_assert_eq(k.n, 19, "one trailing newline is not the key's");
	cr_assert_eq(memcmp(k.k, "0123456789abcdefXYZ", 19), 0);
	key_file_gone(p);
	p = key_file("0123456789abcdefXYZ", 19, 0640);
	cr_assert_eq(agentkey_load(p, &k, &err), -1);
	cr_assert(strstr(err.msg, "chmod 600") != NULL, "%s", err.msg);
	key_file_gone(p);
	p = key_file("short\n", 6, 0600);
	cr_assert_eq(agentkey_load(p, &k, &err), -1);
	cr_assert(strstr(err.msg, "too few") != NULL, "%s", err.msg);
	key_file_gone(p);
	cr_assert_eq(agentkey_load("/nonexistent/key", &k, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_eq(agentkey_load("/dev/zero", &k, &err), -1);
	cr_assert(strstr(err.msg, "not a regular file") != NULL, "%s", err.msg);
}
