/* target_server.c: which server answers, from INFO server (target_server.h).
 *
 * What each server publishes, read in its own source:
 *   Redis 7.0.15 (Debian 12's redis-server, INFO server captured here):
 *     redis_version only; no server_name.
 *   Valkey, valkey-io/valkey src/server.c, genValkeyInfoString(), Server
 *     section: "redis_version:%s" REDIS_VERSION (7.2.4, frozen for clients
 *     that test it), "server_name:%s" SERVER_NAME ("valkey", src/version.h)
 *     and "valkey_version:%s" VALKEY_VERSION (commits 39d0f457a and
 *     bc28fb4ac; read at tags 7.2.5 and 8.0.1 and at commit 55bbbe09a,
 *     whose INFO server the tests hold).  A server_name without its
 *     NAME_version falls back to redis_version.
 *   Garnet, microsoft/garnet libs/server/Metrics/Info/GarnetInfoMetrics.cs,
 *     PopulateServerInfo(): "garnet_version", "server_name" = "garnet",
 *     and "redis_version" (its protocol version).
 *   Dragonfly, dragonflydb/dragonfly src/server/server_family.cc,
 *     add_server_info: "redis_version" (kRedisVersion, 7.4.0) then
 *     "dragonfly_version" (GetVersion(), "df-" and the git tag,
 *     src/server/version.cc.in); no server_name.
 *   Kvrocks, apache/kvrocks src/server/server.cc, Server::GetServerInfo():
 *     "version", "kvrocks_version" (VERSION) and "redis_version"
 *     (REDIS_VERSION, 4.0.0 in src/server/server.h); no server_name.
 *   KeyDB, Snapchat/KeyDB src/server.cpp, genRedisInfoString(), Server
 *     section: "redis_version:%s" KEYDB_SET_VERSION, which is KeyDB's own
 *     version (KEYDB_REAL_VERSION unless the version-override setting
 *     changes it, src/config.cpp), and "features:%s" "cluster_mget", a
 *     field neither Redis nor Valkey has; no server_name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "net/target.h"
#include "net/target_server.h"

/* Whether info has a line "field:...", whatever its value. */
static int target_server_has(const char *info, const char *field)
{
	size_t n = strlen(field);

	for (const char *p = info; (p = strstr(p, field)) != NULL; p += n)
		if ((p == info || p[-1] == '\n') && p[n] == ':')
			return 1;
	return 0;
}

void target_server_parse(const char *info, struct target_server *s)
{
	char name[TARGET_SERVER_STR], field[TARGET_SERVER_STR + 16];

	memset(s, 0, sizeof *s);
	target_info_field(info, "server_name", name, sizeof name);
	if (name[0] != '\0') {
		memcpy(s->name, name, sizeof s->name);
		snprintf(field, sizeof field, "%s_version", name);
		target_info_field(info, field, s->version, sizeof s->version);
		if (s->version[0] == '\0')
			target_info_field(info, "redis_version", s->version, sizeof s->version);
		return;
	}
	target_info_field(info, "dragonfly_version", s->version, sizeof s->version);
	if (s->version[0] != '\0') {
		snprintf(s->name, sizeof s->name, "dragonfly");
		return;
	}
	target_info_field(info, "kvrocks_version", s->version, sizeof s->version);
	if (s->version[0] != '\0') {
		snprintf(s->name, sizeof s->name, "kvrocks");
		return;
	}
	target_info_field(info, "redis_version", s->version, sizeof s->version);
	if (s->version[0] == '\0')
		return;
	/* The field's presence is what tells, whatever features it lists. */
	snprintf(s->name, sizeof s->name, "%s", target_server_has(info, "features") ? "keydb" :
		 "redis");
}

const char *target_server_desc(const char *name, const char *version, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", name, name[0] && version[0] ? " " : "", version);
	return buf;
}
