/* outfile.c: write to a temporary file, then rename it into place. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/platform.h"
#include "base/xalloc.h"

/* Open the target itself: renaming a file over /dev/full or a pipe would
 * replace the device node, as root, or lose the reader's data. */
static int outfile_open_in_place(struct outfile *o, struct rs_err *err)
{
	o->in_place = 1;
	o->tmp = xstrdup(o->path);
	o->fp = fopen(o->path, "wb");
	if (o->fp == NULL) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	return 0;
}

/* The path a chain of links from path ends at (one that does not exist
 * yet), in a malloc'd string: each link's text, read relative to the
 * link's directory.  path itself when it is no link; after 40 links (a
 * loop: ELOOP for the kernel too), where the chain stopped, for the open
 * to fail on. */
static char *outfile_follow(const char *path)
{
	char *cur = xstrdup(path);

	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		char buf[PATH_MAX], *next;
		const char *slash;
		ssize_t n;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0)
			break;
		buf[n] = '\0';
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || slash == NULL) {
			next = xstrdup(buf);
		} else {
			size_t dir = (size_t)(slash - cur) + 1;

			next = xmalloc(dir + (size_t)n + 1);
			memcpy(next, cur, dir);
			memcpy(next + dir, buf, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	return cur;
}

int outfile_open(struct outfile *o, const char *path, struct rs_err *err)
{
	const char *slash;
	struct stat st;
	mode_t mask;
	size_t n;
	int fd;

	memset(o, 0, sizeof *o);
	o->hold = -1;
	o->path = xstrdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return outfile_open_in_place(o, err);
	/* Through a link, the file it names is what gets replaced; renaming
	 * over the link itself would turn it into a file.  A dangling link
	 * is followed too: the file it names is made. */
	o->dest = platform_realpath(path);
	if (o->dest == NULL)
		o->dest = outfile_follow(path);
	slash = strrchr(o->dest, '/');
	n = strlen(o->dest) + 16;
	o->tmp = xmalloc(n);
	/* "dir/.name.XXXXXX": same directory (rename stays atomic), hidden. */
	if (slash)
		snprintf(o->tmp, n, "%.*s/.%s.XXXXXX", (int)(slash - o->dest), o->dest, slash + 1);
	else
		snprintf(o->tmp, n, ".%s.XXXXXX", o->dest);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		rs_err_set(err, "cannot write %s: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || (o->fp = fdopen(fd, "wb")) == NULL) {
		rs_err_set(err, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int outfile_release(struct outfile *o, struct rs_err *err)
{
	int rc;

	if (o->in_place)
		o->hold = dup(fileno(o->fp));
	rc = fclose(o->fp);
	o->fp = NULL;
	if (rc != 0) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	return 0;
}

/* Sync the file a library wrote by name: the rename must not come before
 * its data reaches the disk. */
static int outfile_sync_by_name(struct outfile *o, struct rs_err *err)
{
	int fd = open(o->tmp, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		outfile_abort(o);
		return -1;
	}
	close(fd);
	return 0;
}

int outfile_commit(struct outfile *o, struct rs_err *err)
{
	if (o->fp != NULL) {
		/* A device or a pipe has nothing to sync (fsync fails on them). */
		if (fflush(o->fp) != 0 || ferror(o->fp) ||
		    (!o->in_place && fsync(fileno(o->fp)) < 0)) {
			rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
			outfile_abort(o);
			return -1;
		}
		if (outfile_release(o, err) < 0)
			return -1;
	} else if (!o->in_place && outfile_sync_by_name(o, err) < 0) {
		return -1;
	}
	if (!o->in_place && rename(o->tmp, o->dest) < 0) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	if (o->in_place && o->hold >= 0)
		close(o->hold);
	free(o->tmp);
	free(o->dest);
	free(o->path);
	memset(o, 0, sizeof *o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp != NULL)
		fclose(o->fp);
	if (o->in_place && o->hold >= 0)
		close(o->hold);
	if (o->tmp != NULL && !o->in_place)
		unlink(o->tmp);
	free(o->tmp);
	free(o->dest);
	free(o->path);
	memset(o, 0, sizeof *o);
}
