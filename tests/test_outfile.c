/* test_outfile.c: result files written whole or not at all (outfile.h):
 * the target appears only on commit, a failure leaves the old file as it
 * was and no temporary behind, links and devices are written through. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"

static char dir[] = "/tmp/rsweep-outfile-XXXXXX";
static char path[4096];

static void mk_dir(void)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/out.png", dir);
}

static void rm_dir(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* How many names dir holds, . and .. aside. */
static size_t entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void put(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static void expect_text(const char *p, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(p, "r");
	size_t n;

	cr_assert_not_null(f, "%s: %s", p, strerror(errno));
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_assert_str_eq(buf, want, "%s", p);
}

Test(outfile, appears_only_on_commit, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };
	struct stat st;
	mode_t mask = umask(022);

	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	fputs("new", o.fp);
	cr_assert_neq(access(path, F_OK), 0, "the target exists before the commit");
	cr_assert_eq(entries(), 1, "one temporary file");
	cr_assert_eq(strncmp(o.tmp, dir, strlen(dir)), 0, "temporary in the target's directory");
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	expect_text(path, "new");
	cr_assert_eq(entries(), 1, "the temporary file is gone");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0644, "mode %o: not what the umask allows",
		     (unsigned)(st.st_mode & 0777));
	umask(mask);
}

Test(outfile, abort_leaves_the_old_file, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };

	put(path, "old");
	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	fputs("half a chart", o.fp);
	outfile_abort(&o);
	expect_text(path, "old");
	cr_assert_eq(entries(), 1, "a temporary file was left behind");
	outfile_abort(&o);  /* twice, or on a closed outfile: harmless */
}

Test(outfile, commit_replaces_the_old_file, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };

	put(path, "old");
	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	fputs("new", o.fp);
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	expect_text(path, "new");
	cr_assert_eq(entries(), 1);
}

/* A library that writes by name (libharu): release, write o.tmp, commit. */
Test(outfile, release_then_write_by_name, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };

	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	cr_assert_eq(outfile_release(&o, &err), 0, "%s", err.msg);
	cr_assert_null(o.fp);
	put(o.tmp, "by name");
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	expect_text(path, "by name");
	cr_assert_eq(entries(), 1);
}

Test(outfile, a_link_stays_a_link, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };
	char real[4200], buf[4200];
	struct stat st;
	ssize_t n;

	snprintf(real, sizeof real, "%s/real.png", dir);
	put(real, "old");
	cr_assert_eq(symlink("real.png", path), 0);
	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	fputs("new", o.fp);
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced by a file");
	n = readlink(path, buf, sizeof buf - 1);
	cr_assert_gt(n, 0);
	buf[n] = '\0';
	cr_assert_str_eq(buf, "real.png");
	expect_text(real, "new");
	cr_assert_eq(entries(), 2);
}

/* A dangling link (its file not made yet), through a second link and a
 * subdirectory: the file it names is made, and both links stay. */
Test(outfile, a_dangling_link_makes_its_file, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };
	char sub[4200], mid[4200], real[4200];
	struct stat st;

	snprintf(sub, sizeof sub, "%s/sub", dir);
	cr_assert_eq(mkdir(sub, 0700), 0);
	snprintf(mid, sizeof mid, "%s/sub/mid", dir);
	snprintf(real, sizeof real, "%s/real.png", dir);
	cr_assert_eq(symlink("../real.png", mid), 0);
	cr_assert_eq(symlink("sub/mid", path), 0);
	cr_assert_eq(outfile_open(&o, path, &err), 0, "%s", err.msg);
	fputs("new", o.fp);
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced by a file");
	cr_assert_eq(lstat(mid, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the second link was replaced by a file");
	expect_text(real, "new");
}

/* A device is written in place and never renamed over or removed. */
Test(outfile, a_device_is_written_in_place)
{
	struct outfile o;
	struct rs_err err = { 0 };
	struct stat st;

	cr_assert_eq(outfile_open(&o, "/dev/null", &err), 0, "%s", err.msg);
	cr_assert(o.in_place);
	cr_assert_str_eq(o.tmp, "/dev/null");
	fputs("nothing", o.fp);
	cr_assert_eq(outfile_commit(&o, &err), 0, "%s", err.msg);
	cr_assert_eq(stat("/dev/null", &st), 0);
	cr_assert(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
}

Test(outfile, a_full_device_is_an_error)
{
	struct outfile o;
	struct rs_err err = { 0 };
	static char block[1 << 16];

	if (access("/dev/full", W_OK) != 0)
		cr_skip_test("no writable /dev/full");
	cr_assert_eq(outfile_open(&o, "/dev/full", &err), 0, "%s", err.msg);
	fwrite(block, 1, sizeof block, o.fp);
	cr_assert_eq(outfile_commit(&o, &err), -1, "a write to /dev/full succeeded");
	cr_assert_str_eq(err.msg, "cannot write /dev/full: No space left on device");
}

Test(outfile, a_missing_directory_is_an_error, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };
	char p[4200], want[4300];

	snprintf(p, sizeof p, "%s/no/such/dir/x.png", dir);
	cr_assert_eq(outfile_open(&o, p, &err), -1);
	snprintf(want, sizeof want, "cannot write %s: No such file or directory", p);
	cr_assert_str_eq(err.msg, want);
	cr_assert_eq(entries(), 0);
}

Test(outfile, an_unwritable_directory_is_an_error, .init = mk_dir, .fini = rm_dir)
{
	struct outfile o;
	struct rs_err err = { 0 };
	char want[4300];

	if (geteuid() == 0)
		cr_skip_test("root writes into a read-only directory");
	cr_assert_eq(chmod(dir, 0500), 0);
	cr_assert_eq(outfile_open(&o, path, &err), -1);
	chmod(dir, 0700);
	snprintf(want, sizeof want, "cannot write %s: Permission denied", path);
	cr_assert_str_eq(err.msg, want);
	cr_assert_eq(entries(), 0);
}
