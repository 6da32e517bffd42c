/* infile.c: open a user-named input file: a regular file, never a FIFO or
 * a device (see infile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/infile.h"

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
