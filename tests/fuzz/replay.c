/* replay.c: feed every file of a fuzz corpus to a target's
 * LLVMFuzzerTestOneInput without libFuzzer, so make check replays the seed
 * corpus and every crash ever found on each build.
 *
 *   replay_csv                 corpus/csv and crashes/csv under FUZZ_SRCDIR
 *   replay_csv FILE|DIR...     just those (a crash file libFuzzer wrote)
 *
 * A crash shows as the sanitizer's report (or a signal) naming the file,
 * which is printed before it is fed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET='\"csv\"' (the corpus directory's name)"
#endif
#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

static int replay_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Feed one file, in a buffer of exactly its size so that ASan sees a read
 * past the end. */
static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	size_t n;

	if (fp == NULL || fstat(fileno(fp), &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
	if (buf == NULL) {
		fclose(fp);
		fprintf(stderr, "replay: %s: out of memory\n", path);
		return -1;
	}
	n = fread(buf, 1, (size_t)st.st_size, fp);
	fclose(fp);
	if (n != (size_t)st.st_size) {
		free(buf);
		fprintf(stderr, "replay: %s: short read\n", path);
		return -1;
	}
	/* Printed first, so that a crash's report follows the file's name. */
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

/* Feed a file, or every regular file of a directory in name order. */
static int replay_path(const char *path, size_t *count)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	if ((d = opendir(path)) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(path) + strlen(de->d_name) + 2;
		char *p;

		if (de->d_name[0] == '.')
			continue;     /* ., .., and a .gitignore keeping an empty directory */
		if ((p = malloc(len)) == NULL)
			abort();
		snprintf(p, len, "%s/%s", path, de->d_name);
		if (stat(p, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((names = realloc(names, cap * sizeof *names)) == NULL)
				abort();
		}
		names[n++] = p;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, replay_cmp);
	for (size_t i = 0; i < n; i++) {
		if (replay_file(names[i]) < 0)
			rc = -1;
		(*count)++;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const dirs[] = { "corpus", "crashes" };
	size_t count = 0;
	int rc = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (replay_path(argv[i], &count) < 0)
				rc = 1;
	} else {
		const char *src = getenv("RS_SRCDIR");

		if (src == NULL || *src == '\0')
			src = FUZZ_SRCDIR;
		for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
			char path[4096];

			struct stat st;

			snprintf(path, sizeof path, "%s/tests/fuzz/%s/%s", src, dirs[i], FUZZ_TARGET);
			/* A target that never crashed has no crashes directory. */
			if (i > 0 && stat(path, &st) < 0 && errno == ENOENT)
				continue;
			if (replay_path(path, &count) < 0)
				rc = 1;
		}
	}
	if (count == 0) {
		fprintf(stderr, "replay: no input files\n");
		rc = 1;
	}
	printf("replay %s: %zu inputs, %s\n", FUZZ_TARGET, count, rc ? "FAILED" : "no crash");
	return rc;
}
