/* outfile.c: write to a temporary file, then rename it into place. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "xalloc.h"

int outfile_open(struct outfile *o, const char *path, struct rs_err *err)
{
	const char *slash = strrchr(path, '/');
	size_t n = strlen(path) + 16;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof *o);
	o->tmp = xmalloc(n);
	/* "dir/.name.XXXXXX": same directory (rename stays atomic), hidden. */
	if (slash)
		snprintf(o->tmp, n, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		snprintf(o->tmp, n, ".%s.XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		rs_err_set(err, "cannot write %s: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	o->path = xstrdup(path);
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
	int rc = fclose(o->fp);

	o->fp = NULL;
	if (rc != 0) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct rs_err *err)
{
	if (o->fp != NULL) {
		if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) < 0) {
			rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
			outfile_abort(o);
			return -1;
		}
		if (outfile_release(o, err) < 0)
			return -1;
	}
	if (rename(o->tmp, o->path) < 0) {
		rs_err_set(err, "cannot write %s: %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp != NULL)
		fclose(o->fp);
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
}
