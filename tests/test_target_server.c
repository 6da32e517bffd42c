/* test_target_server.c: which server answers (target_server.h), read from
 * INFO server texts of each kind, and which programs spawn takes for
 * redis-server (spawn_version_parse).
 *
 * The Redis and Valkey texts were captured here: redis-server 7.0.15 of
 * Debian 12, and valkey-server built from valkey-io/valkey commit
 * 55bbbe09a3b37a98c907dbfbc225768ff253e84f (its version says 255.255.255,
 * as every unreleased Valkey does).  The others were reconstructed from
 * each server's source, in its order, with the values a release would
 * give (target_server.c names the files): none of them was run here. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "net/spawn.h"
#include "net/target_server.h"

/* Captured: redis-cli -s SOCK info server, of redis-server 7.0.15. */
static const char info_redis_7_0_15[] =
	"# Server\r\n"
	"# Server\r\n"
	"redis_version:7.0.15\r\n"
	"redis_git_sha1:00000000\r\n"
	"redis_git_dirty:0\r\n"
	"redis_build_id:ae4d7c971a948f0\r\n"
	"redis_mode:standalone\r\n"
	"os:Linux 6.18.44-fc-v1045 x86_64\r\n"
	"arch_bits:64\r\n"
	"monotonic_clock:POSIX clock_gettime\r\n"
	"multiplexing_api:epoll\r\n"
	"atomicvar_api:c11-builtin\r\n"
	"gcc_version:12.2.0\r\n"
	"process_id:28439\r\n"
	"process_supervised:no\r\n"
	"run_id:b7b17872515c4f3a4c0b39b9529c66a350ad3b3f\r\n"
	"tcp_port:0\r\n"
	"server_time_usec:1796192834642008\r\n"
	"uptime_in_seconds:1\r\n"
	"uptime_in_days:0\r\n"
	"hz:10\r\n"
	"configured_hz:10\r\n"
	"lru_clock:1030722\r\n"
	"executable:/usr/bin/redis-server\r\n"
	"config_file:\r\n"
	"io_threads_active:0\r\n";

/* Captured: valkey-server built at 55bbbe09a (an unreleased 8.1). */
static const char info_valkey_unstable[] =
	"# Server\r\n"
	"# Server\r\n"
	"redis_version:7.2.4\r\n"
	"server_name:valkey\r\n"
	"valkey_version:255.255.255\r\n"
	"redis_git_sha1:55bbbe09\r\n"
	"redis_git_dirty:0\r\n"
	"redis_build_id:9c844d8ee859e4ec\r\n"
	"server_mode:standalone\r\n"
	"os:Linux 6.18.44-fc-v1045 x86_64\r\n"
	"arch_bits:64\r\n"
	"monotonic_clock:POSIX clock_gettime\r\n"
	"multiplexing_api:epoll\r\n"
	"gcc_version:12.2.0\r\n"
	"process_id:28316\r\n"
	"process_supervised:no\r\n"
	"run_id:dabe0f036c3a831f952f58e8e50be3c26f6488eb\r\n"
	"tcp_port:0\r\n"
	"server_time_usec:1796192834635619\r\n"
	"uptime_in_seconds:2\r\n"
	"uptime_in_days:0\r\n"
	"hz:10\r\n"
	"configured_hz:10\r\n"
	"lru_clock:1030722\r\n"
	"executable:/work/peers/valkey/src/valkey-server\r\n"
	"config_file:\r\n"
	"io_threads_active:0\r\n"
	"availability_zone:\r\n"
	"listener1:name=unix,bind=/tmp/srv-cap/v.sock\r\n";

/* Reconstructed: Valkey 8.0.1 (tag 8.0.1, src/server.c and src/version.h). */
static const char info_valkey_8_0_1[] =
	"# Server\r\n"
	"redis_version:7.2.4\r\n"
	"server_name:valkey\r\n"
	"valkey_version:8.0.1\r\n"
	"redis_git_sha1:00000000\r\n"
	"redis_git_dirty:0\r\n"
	"redis_build_id:5f5a3fbd08a5d8ee\r\n"
	"server_mode:standalone\r\n"
	"os:Linux 6.1.0-18-amd64 x86_64\r\n"
	"arch_bits:64\r\n";

/* Reconstructed: Valkey 7.2.5 (tag 7.2.5): the same three fields. */
static const char info_valkey_7_2_5[] =
	"# Server\r\n"
	"redis_version:7.2.4\r\n"
	"server_name:valkey\r\n"
	"valkey_version:7.2.5\r\n"
	"redis_git_sha1:00000000\r\n"
	"redis_mode:standalone\r\n";

/* Reconstructed: KeyDB 6.3.4 (Snapchat/KeyDB src/server.cpp,
 * genRedisInfoString: no server_name, its own version as redis_version,
 * and a features field). */
static const char info_keydb_6_3_4[] =
	"# Server\r\n"
	"redis_version:6.3.4\r\n"
	"redis_git_sha1:7e7e5e57\r\n"
	"redis_git_dirty:0\r\n"
	"redis_build_id:8e0b8f8680ec0369\r\n"
	"redis_mode:standalone\r\n"
	"os:Linux 6.1.0-18-amd64 x86_64\r\n"
	"arch_bits:64\r\n"
	"multiplexing_api:epoll\r\n"
	"atomicvar_api:c11-builtin\r\n"
	"gcc_version:12.2.0\r\n"
	"process_id:4242\r\n"
	"process_supervised:no\r\n"
	"run_id:4e4f2bd1bcd6c2d5ea9e8b6ad35f1af2d8e3e0cb\r\n"
	"tcp_port:6379\r\n"
	"server_time_usec:1714000000000000\r\n"
	"uptime_in_seconds:10\r\n"
	"uptime_in_days:0\r\n"
	"hz:10\r\n"
	"configured_hz:10\r\n"
	"lru_clock:1030722\r\n"
	"executable:/usr/bin/keydb-server\r\n"
	"config_file:\r\n"
	"availability_zone:\r\n"
	"features:cluster_mget\r\n";

/* Reconstructed: Dragonfly v1.40.1 (dragonflydb/dragonfly
 * src/server/server_family.cc, add_server_info). */
static const char info_dragonfly[] =
	"# Server\r\n"
	"redis_version:7.4.0\r\n"
	"dragonfly_version:df-v1.40.1\r\n"
	"redis_mode:standalone\r\n"
	"arch_bits:64\r\n"
	"process_id:4242\r\n"
	"os:Linux 6.1.0-18-amd64 x86_64\r\n"
	"thread_count:2\r\n"
	"multiplexing_api:epoll\r\n"
	"tcp_port:6379\r\n"
	"uptime_in_seconds:10\r\n"
	"uptime_in_days:0\r\n";

/* Reconstructed: Garnet 2.1.4 (microsoft/garnet
 * libs/server/Metrics/Info/GarnetInfoMetrics.cs, PopulateServerInfo;
 * Version.props; libs/host/GarnetServer.cs's RedisProtocolVersion). */
static const char info_garnet[] =
	"# Server\r\n"
	"garnet_version:2.1.4\r\n"
	"server_name:garnet\r\n"
	"os:Unix 6.1.0.18\r\n"
	"processor_count:2\r\n"
	"arch_bits:64\r\n"
	"uptime_in_seconds:10\r\n"
	"uptime_in_days:0\r\n"
	"monitor_task:enabled\r\n"
	"monitor_freq:1\r\n"
	"latency_monitor:disabled\r\n"
	"commandstats_monitor:disabled\r\n"
	"run_id:0a1b2c3d4e5f60718293a4b5c6d7e8f901234567\r\n"
	"redis_version:7.4.3\r\n"
	"redis_mode:standalone\r\n";

/* Reconstructed: Kvrocks 2.10.1 (apache/kvrocks src/server/server.cc,
 * Server::GetServerInfo; REDIS_VERSION in src/server/server.h). */
static const char info_kvrocks[] =
	"# Server\r\n"
	"version:2.10.1\r\n"
	"kvrocks_version:2.10.1\r\n"
	"redis_version:4.0.0\r\n"
	"git_sha1:5fccd57c\r\n"
	"kvrocks_git_sha1:5fccd57c\r\n"
	"redis_mode:standalone\r\n"
	"kvrocks_mode:standalone\r\n"
	"os:Linux 6.1.0-18-amd64 x86_64\r\n"
	"gcc_version:12.2.0\r\n"
	"arch_bits:64\r\n"
	"process_id:4242\r\n"
	"tcp_port:6666\r\n"
	"uptime_in_seconds:10\r\n"
	"uptime_in_days:0\r\n";

/* What each text must give. */
static const struct {
	const char *info, *name, *version;
} server_cases[] = {
	{ info_redis_7_0_15, "redis", "7.0.15" },
	{ info_valkey_unstable, "valkey", "255.255.255" },
	{ info_valkey_8_0_1, "valkey", "8.0.1" },
	{ info_valkey_7_2_5, "valkey", "7.2.5" },
	{ info_keydb_6_3_4, "keydb", "6.3.4" },
	{ info_dragonfly, "dragonfly", "df-v1.40.1" },
	{ info_garnet, "garnet", "2.1.4" },
	{ info_kvrocks, "kvrocks", "2.10.1" },
};

Test(target_server, each_server)
{
	for (size_t i = 0; i < sizeof server_cases / sizeof server_cases[0]; i++) {
		struct target_server s;
		char desc[2 * TARGET_SERVER_STR], want[2 * TARGET_SERVER_STR];

		target_server_parse(server_cases[i].info, &s);
		cr_assert_str_eq(s.name, server_cases[i].name);
		cr_assert_str_eq(s.version, server_cases[i].version);
		snprintf(want, sizeof want, "%s %s", server_cases[i].name, server_cases[i].version);
		cr_assert_str_eq(target_server_desc(s.name, s.version, desc, sizeof desc), want);
	}
}

Test(target_server, fields_are_whole_lines)
{
	struct target_server s;

	/* A field is a line's start: a value that holds "server_name:" or
	 * "features:" names nothing. */
	target_server_parse("# Server\r\nredis_version:7.0.15\r\n"
			    "config_file:/etc/x/server_name:evil features:x\r\n", &s);
	cr_assert_str_eq(s.name, "redis");
	cr_assert_str_eq(s.version, "7.0.15");
	/* Another server's own name, with no NAME_version: its redis_version. */
	target_server_parse("# Server\r\nredis_version:7.2.4\r\nserver_name:newkv\r\n", &s);
	cr_assert_str_eq(s.name, "newkv");
	cr_assert_str_eq(s.version, "7.2.4");
	/* KeyDB's features field, empty or not, wherever it stands. */
	target_server_parse("features:\r\nredis_version:6.3.4\r\n", &s);
	cr_assert_str_eq(s.name, "keydb");
}

Test(target_server, nothing_to_read)
{
	struct target_server s;
	char desc[8];

	target_server_parse("", &s);
	cr_assert_str_empty(s.name);
	cr_assert_str_empty(s.version);
	target_server_parse("# Server\r\nos:Linux\r\n", &s);
	cr_assert_str_empty(s.name);
	cr_assert_str_empty(target_server_desc(s.name, s.version, desc, sizeof desc));
	cr_assert_str_eq(target_server_desc("", "1.2", desc, sizeof desc), "1.2");
	/* Cut to size, never past it. */
	cr_assert_str_eq(target_server_desc("valkey", "8.0.1", desc, sizeof desc), "valkey ");
}

Test(target_server, long_values_are_cut)
{
	struct target_server s;

	target_server_parse("server_name:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"
			    "redis_version:1.0\r\n", &s);
	cr_assert_eq(strlen(s.name), TARGET_SERVER_STR - 1);
	cr_assert_str_eq(s.version, "1.0");
}

/* ---- spawn: what answers --version as redis-server does ---- */

Test(spawn_version, forks_of_redis_server)
{
	char what[64];

	cr_assert_eq(spawn_version_parse("Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 "
					 "bits=64 build=ae4d7c971a948f0\n", what, sizeof what), 0);
	cr_assert_str_eq(what, "Redis server v=7.0.15");
	/* Printed by the valkey-server built here. */
	cr_assert_eq(spawn_version_parse("Valkey server v=255.255.255 sha=55bbbe09:0 "
					 "malloc=jemalloc-5.3.0 bits=64 build=9c844d8ee859e4ec\n",
					 what, sizeof what), 0);
	cr_assert_str_eq(what, "Valkey server v=255.255.255");
	/* Snapchat/KeyDB src/server.cpp, version(). */
	cr_assert_eq(spawn_version_parse("KeyDB server v=6.3.4 sha=7e7e5e57:0 malloc=jemalloc-5.2.1 "
					 "bits=64 build=8e0b8f8680ec0369\n", what, sizeof what), 0);
	cr_assert_str_eq(what, "KeyDB server v=6.3.4");
	/* valkey-io/valkey tag 7.2.5 src/server.c, version(): no name. */
	cr_assert_eq(spawn_version_parse("Server v=7.2.5 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 "
					 "build=1\n", what, sizeof what), 0);
	cr_assert_str_eq(what, "Server v=7.2.5");
	/* Cut to size. */
	cr_assert_eq(spawn_version_parse("Redis server v=7.0.15 sha=0\n", what, 8), 0);
	cr_assert_str_eq(what, "Redis s");
}

Test(spawn_version, others_are_refused)
{
	static const char *const bad[] = {
		"",
		"ls (GNU coreutils) 9.1\n",
		"dragonfly v1.40.1-f8eca6d0\n",
		"redis-cli 7.0.15\n",
		"Redis server v= sha=0\n",
		"Two words server v=1.0\n",
		"server v=1.0\n",
		" Redis server v=7.0.15\n",
	};
	char what[64];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_assert_eq(spawn_version_parse(bad[i], what, sizeof what), -1, "%s", bad[i]);
}
