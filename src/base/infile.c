/* infile.c: open a user-named input file: a regular file, never a FIFO or
 * a device (see infile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/infile.h"
#include "base/xalloc.h"

static const char *infile_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

static int infile_open_as(const char *what, const char *path, struct rs_err *err)
{
	const char *sep = what[0] ? " " : "";
	struct stat st;
	int fd, fl;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		rs_err_set(err, "%s%s%s: %s", what, sep, path, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		rs_err_set(err, "%s%s%s: %s", what, sep, path, strerror(e));
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		rs_err_setk(err, RS_E_INPUT, "%s%s%s: %s, not a regular file: only a file is read "
			    "as input", what, sep, path, infile_kind(st.st_mode));
		errno = EINVAL;
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		rs_err_set(err, "%s%s%s: %s", what, sep, path, strerror(e));
		errno = e;
		return -1;
	}
	return fd;
}

int infile_open(const char *path, struct rs_err *err)
{
	return infile_open_as("", path, err);
}

int infile_check(const char *what, const char *path, struct rs_err *err)
{
	int fd = infile_open_as(what, path, err);

	if (fd < 0)
		return rs_err_as(err, RS_E_INPUT);  /* an option's value is input */
	close(fd);
	return 0;
}

/* With text, a NUL byte ends the read at once: no file these readers take
 * holds one (the CSV, spec and sidecar parsers all refuse it), and
 * standard input from /dev/zero or /dev/urandom would otherwise be read up
 * to max, a gigabyte, before the parser said so. */
static int csv_slurp_as(const char *path, size_t max, int text, char **bufp, size_t *lenp,
			struct rs_err *err)
{
	FILE *fp = stdin;
	size_t cap = 65536, n = 0;
	char *buf;

	if (strcmp(path, "-") != 0) {
		int fd = infile_open(path, err);

		if (fd < 0)
			return -1;
		if ((fp = fdopen(fd, "rb")) == NULL) {
			close(fd);
			return rs_err_set(err, "%s: %s", path, strerror(errno));
		}
	}
	buf = xmalloc(cap + 1);
	for (;;) {
		size_t k;

		if (n == cap) {
			if (cap >= max) {
				free(buf);
				if (fp != stdin)
					fclose(fp);
				return rs_err_set(err, "%s: larger than %zu bytes", path, max);
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		k = fread(buf + n, 1, cap - n, fp);
		if (text && k > 0 && memchr(buf + n, '\0', k) != NULL) {
			const char *nul = memchr(buf + n, '\0', k);
			unsigned line = 1;

			for (const char *q = buf; (q = memchr(q, '\n', (size_t)(nul - q))) != NULL; q++)
				line++;
			free(buf);
			if (fp != stdin)
				fclose(fp);
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: a NUL byte: not a text file", path,
					   line);
		}
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(fp)) {
		int e = errno;

		free(buf);
		if (fp != stdin)
			fclose(fp);
		return rs_err_set(err, "%s: %s", path, strerror(e));
	}
	if (fp != stdin)
		fclose(fp);
	buf[n] = '\0';
	*bufp = buf;
	*lenp = n;
	return 0;
}

int infile_slurp(const char *path, size_t max, char **bufp, size_t *lenp, struct rs_err *err)
{
	return csv_slurp_as(path, max, 1, bufp, lenp, err);
}

int infile_slurp_bytes(const char *path, size_t max, char **bufp, size_t *lenp, struct rs_err *err)
{
	return csv_slurp_as(path, max, 0, bufp, lenp, err);
}
