/* report_env.c: the labels' environments in the report's words
 * (report_env.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json.h"
#include "base/xalloc.h"
#include "report/report_env.h"

/* explains: 1 a difference could explain a verdict; 0 it is listed; -1
 * it is shown in tables only (it differs from run to run anyway). */
const struct report_env_field report_env_fields[] = {
	{ "cpu_model", "CPU", 0 },
	{ "cores", "cores online", 1 },
	{ "client_cpus", "rsweep's CPUs", 1 },
	{ "governor", "governor", 1 },
	{ "cpufreq_driver", "frequency driver", 0 },
	{ "turbo", "turbo", 1 },
	{ "virt", "virtualisation", 1 },
	{ "kernel", "kernel", 0 },
	{ "thp", "transparent huge pages", 1 },
	{ "server", "server", 1 },
	{ "server_args", "server arguments", 0 },
	{ "server_cpus", "server's CPUs", 1 },
	{ "io_threads", "io-threads", 1 },
	{ "appendonly", "appendonly", 1 },
	{ "appendfsync", "appendfsync", 1 },
	{ "save", "save", 1 },
	{ "maxmemory", "maxmemory", 0 },
	{ "maxmemory_policy", "maxmemory-policy", 1 },
	{ "config", "CONFIG GET", -1 },
	{ "load_start", "load average at start", -1 },
	{ "load_end", "load average at end", -1 },
	{ "load_generator", "load generator", 1 },
	{ "rsweep", "rsweep", 0 },
	{ "command", "command", -1 },
	{ NULL, NULL, 0 },
};

void report_env_collect(const struct analysis_result *r, const struct runenv_set *set,
			struct report_env **out, size_t *n)
{
	struct report_env *v = xcalloc(r->nseries ? r->nseries : 1, sizeof *v);
	size_t k = 0;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct series *s = r->series[i].rps;
		const struct rs_rec *rec = s->first;
		size_t j;

		for (j = 0; j < k && strcmp(v[j].label, s->label) != 0; j++)
			;
		if (j < k)
			continue;
		v[k].label = s->label;
		if (rec != NULL && rec->src != NULL && rec->server != NULL)
			v[k].env = runenv_find(set, rec->src, s->label, rec->server->target,
					       rec->server->server_args);
		k++;
	}
	*out = v;
	*n = k;
}

void report_env_collect_rows(const struct rs_rows *rows, const struct runenv_set *set,
			     struct report_env **out, size_t *n)
{
	struct report_env *v = NULL;
	size_t k = 0;

	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *rec = &rows->v[i];
		size_t j;

		for (j = 0; j < k && strcmp(v[j].label, rec->label) != 0; j++)
			;
		if (j < k)
			continue;
		v = xreallocarray(v, k + 1, sizeof *v);
		v[k].label = rec->label;
		v[k].env = rec->src != NULL && rec->server != NULL ?
			   runenv_find(set, rec->src, rec->label, rec->server->target,
				       rec->server->server_args) : NULL;
		k++;
	}
	*out = v;
	*n = k;
}

int report_env_differs(const struct report_env *e, size_t n, const char *key)
{
	const char *first = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *v;

		if (e[i].env == NULL)
			continue;
		v = runenv_get(e[i].env, key);
		if (first == NULL)
			first = v;
		else if (strcmp(first, v) != 0)
			return 1;
	}
	return 0;
}

/* The name of field key. */
static const char *report_env_name(const char *key)
{
	for (size_t i = 0; report_env_fields[i].key != NULL; i++)
		if (strcmp(report_env_fields[i].key, key) == 0)
			return report_env_fields[i].name;
	return key;
}

static int report_env_container(const char *v)
{
	static const char *const c[] = { "docker", "podman", "lxc", "lxc-libvirt",
					 "systemd-nspawn", "openvz", "rkt", "wsl", "proot", "pouch",
					 NULL };

	for (size_t i = 0; c[i] != NULL; i++)
		if (strcmp(v, c[i]) == 0)
			return 1;
	return 0;
}

const char *report_env_phrase(const struct runenv *env, const char *key, char *buf, size_t size)
{
	const char *v = runenv_get(env, key);

	if (v[0] == '\0' && strcmp(key, "server_args") == 0) {
		snprintf(buf, size, "no server arguments");
		return buf;
	}
	if (v[0] == '\0') {
		snprintf(buf, size, "%s unknown", report_env_name(key));
		return buf;
	}
	if (strcmp(key, "cores") == 0)
		snprintf(buf, size, "%s core%s", v, strcmp(v, "1") == 0 ? "" : "s");
	else if (strcmp(key, "client_cpus") == 0)
		snprintf(buf, size, "rsweep on CPU %s", v);
	else if (strcmp(key, "server_cpus") == 0)
		snprintf(buf, size, "server on CPU %s", v);
	else if (strcmp(key, "governor") == 0)
		snprintf(buf, size, "%s governor", v);
	else if (strcmp(key, "cpufreq_driver") == 0)
		snprintf(buf, size, "%s driver", v);
	else if (strcmp(key, "turbo") == 0)
		snprintf(buf, size, "turbo %s", v);
	else if (strcmp(key, "virt") == 0)
		snprintf(buf, size, "%s%s%s%s", strcmp(v, "none") == 0 ? "bare metal" :
			 report_env_container(v) ? "a container (" : "a VM",
			 strcmp(v, "none") == 0 || strcmp(v, "vm") == 0 || report_env_container(v) ?
			 "" : " (", strcmp(v, "none") == 0 || strcmp(v, "vm") == 0 ? "" : v,
			 strcmp(v, "none") == 0 || strcmp(v, "vm") == 0 ? "" : ")");
	else if (strcmp(key, "thp") == 0)
		snprintf(buf, size, "transparent huge pages %s", v);
	else if (strcmp(key, "server_args") == 0)
		snprintf(buf, size, "server arguments %s", v);
	else if (strcmp(key, "save") == 0 && strcmp(v, "off") == 0)
		snprintf(buf, size, "no RDB saves");
	else if (strcmp(key, "cpu_model") == 0 || strcmp(key, "kernel") == 0 ||
		 strcmp(key, "server") == 0)
		snprintf(buf, size, "%s", v);
	else
		snprintf(buf, size, "%s %s", report_env_name(key), v);
	return buf;
}

/* Whether the user asked about key's difference: a label names one of
 * its values (a word of three characters or more: "valkey", "powersave"),
 * or, for a server setting, some label's server arguments set it. */
static int report_env_asked(const struct report_env *e, size_t n, const char *key)
{
	const char *opt = report_env_name(key);

	for (size_t i = 0; i < n; i++) {
		const char *args = e[i].env ? runenv_get(e[i].env, "server_args") : "";

		if (strncmp(key, "io_", 3) == 0 || strncmp(key, "append", 6) == 0 ||
		    strcmp(key, "save") == 0 || strncmp(key, "maxmemory", 9) == 0)
			if (strstr(args, opt) != NULL)
				return 1;
		for (size_t j = 0; j < n; j++) {
			char v[256], *w, *save = NULL;

			if (e[j].env == NULL)
				continue;
			snprintf(v, sizeof v, "%s", runenv_get(e[j].env, key));
			for (w = strtok_r(v, " ,/()", &save); w != NULL; w = strtok_r(NULL, " ,/()", &save)) {
				size_t wl = strlen(w), ll = strlen(e[i].label);

				for (size_t at = 0; wl >= 3 && at + wl <= ll; at++)
					if (strncasecmp(e[i].label + at, w, wl) == 0)
						return 1;
			}
		}
	}
	return 0;
}

void report_env_words(const struct report_env *e, size_t n, int explain, char *buf, size_t size)
{
	size_t at = 0, have = 0, ndiff = 0;
	char ph[256];

#define PUT(...) (at += (size_t)snprintf(buf + at, at < size ? size - at : 0, __VA_ARGS__))
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		have += e[i].env != NULL;
	if (have < 2 || size == 0)
		return;
	for (size_t f = 0; report_env_fields[f].key != NULL; f++)
		ndiff += report_env_fields[f].explains >= 0 &&
			 report_env_differs(e, n, report_env_fields[f].key);
	if (ndiff == 0)
		return;
	PUT("Environment: ");
	for (size_t i = 0, k = 0; i < n; i++) {
		size_t m = 0;

		if (e[i].env == NULL)
			continue;
		PUT("%s%s: ", k++ ? "; " : "", e[i].label);
		for (size_t f = 0; report_env_fields[f].key != NULL; f++)
			if (report_env_fields[f].explains >= 0 &&
			    report_env_differs(e, n, report_env_fields[f].key))
				PUT("%s%s", m++ ? ", " : "",
				    report_env_phrase(e[i].env, report_env_fields[f].key, ph, sizeof ph));
	}
	PUT(".");
	if (have < n) {
		PUT(" No environment recorded for");
		for (size_t i = 0, k = 0; i < n; i++)
			if (e[i].env == NULL)
				PUT("%s %s", k++ ? "," : "", e[i].label);
		PUT(".");
	}
	if (explain) {
		size_t k = 0;

		for (size_t f = 0; report_env_fields[f].key != NULL; f++) {
			const char *key = report_env_fields[f].key;

			if (report_env_fields[f].explains != 1 || !report_env_differs(e, n, key) ||
			    report_env_asked(e, n, key))
				continue;
			PUT("%s%s (", k++ ? "; " : " Not asked about, and could explain the verdicts: ",
			    report_env_name(key));
			for (size_t i = 0, m = 0; i < n; i++)
				if (e[i].env != NULL)
					PUT("%s%s %s", m++ ? ", " : "", e[i].label,
					    runenv_get(e[i].env, key)[0] ? runenv_get(e[i].env, key) :
					    "unknown");
			PUT(")");
		}
		if (k > 0)
			PUT(".");
	}
#undef PUT
	if (at >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

void report_env_short(const struct report_env *e, size_t n, char *buf, size_t size)
{
	static const char *const keys[] = { "cpu_model", "cores", "governor", "virt", "server", NULL };
	size_t at = 0, have = 0, ndiff = 0;
	char ph[256];

	if (size == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		have += e[i].env != NULL;
	for (size_t f = 0; keys[f] != NULL; f++)
		ndiff += (size_t)report_env_differs(e, n, keys[f]);
	if (have < 2 || ndiff == 0)
		return;
	for (size_t i = 0, k = 0; i < n; i++) {
		size_t m = 0;

		if (e[i].env == NULL)
			continue;
		at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s: ", k++ ? "; " : "",
				       e[i].label);
		for (size_t f = 0; keys[f] != NULL; f++)
			if (report_env_differs(e, n, keys[f]))
				at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s",
						       m++ ? ", " : "",
						       report_env_phrase(e[i].env, keys[f], ph,
									 sizeof ph));
	}
	if (at >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

void report_env_block(FILE *fp, const struct analysis_result *r, const struct report_env *e,
		      size_t n, int md)
{
	char buf[4096];

	report_env_words(e, n, r->ncmps > 0, buf, sizeof buf);
	if (buf[0] == '\0')
		return;
	/* One paragraph in both: markdown needs no mark-up for it. */
	(void)md;
	fprintf(fp, "%s\n\n", buf);
}

void report_env_json(FILE *fp, const struct report_env *e, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (e[i].env == NULL)
			continue;
		fputs(k++ ? ",\n" : ",\n\"environment\":{\n", fp);
		json_write_str(fp, e[i].label);
		fputs(":{", fp);
		for (size_t j = 0; j < e[i].env->n; j++) {
			fputs(j ? "," : "", fp);
			json_write_str(fp, e[i].env->v[j].key);
			fputc(':', fp);
			json_write_str(fp, e[i].env->v[j].value);
		}
		fputc('}', fp);
	}
	if (k > 0)
		fputs("}", fp);
}
