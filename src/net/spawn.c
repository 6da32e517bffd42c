/* spawn.c: a private redis-server, or a server like it, for the run (and for
 * the tests). */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cpus.h"
#include "base/platform.h"
#include "net/spawn.h"
#include "net/spawn_args.h"
#include "net/target.h"
#include "net/tlscert.h"
#include "base/xalloc.h"

/* A port the kernel considers free on 127.0.0.1 right now. */
static int spawn_free_port(unsigned *port, struct rs_err *err)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return rs_err_set(err, "socket: %s", strerror(errno));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		int e = errno;

		close(fd);
		return rs_err_set(err, "cannot find a free loopback port: %s", strerror(e));
	}
	*port = ntohs(sa.sin_port);
	close(fd);
	return 0;
}

/* execvp() wants char *const[]; the strings are never written. */
static char *spawn_arg(const char *s)
{
	union {
		const char *c;
		char *m;
	} u = { s };

	return u.m;
}

static void spawn_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Last line of the server's log, for a failure message. */
static void spawn_log_tail(const struct spawn *s, char *buf, size_t size)
{
	char path[128], line[512];
	FILE *fp;

	buf[0] = '\0';
	snprintf(path, sizeof path, "%s/redis.log", s->dir);
	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, fp) != NULL)
		if (line[0] != '\n')
			snprintf(buf, size, "%.*s", (int)strcspn(line, "\n"), line);
	fclose(fp);
}

static int spawn_ping(struct spawn *s)
{
	struct target t = { .host = "127.0.0.1", .port = s->port,
			    .socket = s->socket[0] ? s->socket : NULL,
			    .connect_timeout = 0.2, .timeout = 0.2 };
	struct target_conn *c;
	struct rs_err err;
	char *info, pid[32];
	int ok;

	/* Over TLS the certificate is checked as any client checks it:
	 * against the throwaway CA, for 127.0.0.1. */
	if (s->transport == SPAWN_TLS) {
		t.tls.on = 1;
		t.tls.cacert = s->cafile;
	}
	target_describe(&t);
	/* SELECT 0 on the connect is the PING. */
	if (target_connect(&t, &c, &err) < 0)
		return 0;
	if (target_info(c, &t, "server", &info, &err) < 0) {
		target_close(c);
		return 0;
	}
	/* Only our own child counts: on a TCP port another server may have
	 * got there first, and it must never be taken for ours. */
	target_info_field(info, "process_id", pid, sizeof pid);
	ok = strtol(pid, NULL, 10) == (long)s->pid && pid[0] != '\0';
	target_info_field(info, "redis_version", s->version, sizeof s->version);
	free(info);
	target_close(c);
	return ok;
}

/* The owner file of a spawn directory: "PID START\n", START the
 * process's start time in clock ticks since boot (/proc/PID/stat's 22nd
 * field; 0 where there is no /proc), so that a reused PID is not taken
 * for the run that made the directory. */
#define SPAWN_OWNER "rsweep.owner"

static unsigned long long spawn_start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* After the command's closing parenthesis: state is field 3. */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (int field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p != NULL)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

/* Whether the run that wrote owner file text is gone. */
static int spawn_owner_gone(const char *text)
{
	long pid;
	unsigned long long start, now;
	char *end;

	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != ' ' || pid <= 0)
		return 0;             /* not one rsweep wrote: leave it */
	start = strtoull(end + 1, &end, 10);
	if (*end != '\n')
		return 0;
	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	/* Alive: the same process, or a later one with its PID. */
	now = spawn_start_time(pid);
	return start != 0 && now != 0 && now != start;
}

/* Remove what a run killed outright (kill -9, a crash) left in tmp: the
 * directories rsweep-XXXXXX that hold an owner file whose run is gone.
 * Only directories of ours: not a symbolic link (opened O_NOFOLLOW and
 * checked on the descriptor), owned by this user, mode 0700, and only
 * the plain entries in them, removed relative to that descriptor, so a
 * name swapped for a link between the check and the removal removes the
 * link, never what it points at.  A directory just made by a live run
 * has no owner file yet, or one naming a live process: it is left. */
static void spawn_clean_stale(const char *tmp)
{
	int tfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *t = tfd >= 0 ? fdopendir(tfd) : NULL;
	struct dirent *e;

	if (t == NULL) {
		if (tfd >= 0)
			close(tfd);
		return;
	}
	while ((e = readdir(t)) != NULL) {
		struct stat st;
		char text[64];
		ssize_t n;
		int dfd, ofd;
		DIR *d;
		struct dirent *f;

		if (strncmp(e->d_name, "rsweep-", 7) != 0 || strlen(e->d_name) != 13)
			continue;
		dfd = openat(tfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		if (fstat(dfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 07777) != 0700 ||
		    (ofd = openat(dfd, SPAWN_OWNER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			close(dfd);
			continue;
		}
		n = read(ofd, text, sizeof text - 1);
		close(ofd);
		text[n > 0 ? n : 0] = '\0';
		if (n <= 0 || !spawn_owner_gone(text) || (d = fdopendir(dfd)) == NULL) {
			close(dfd);
			continue;
		}
		while ((f = readdir(d)) != NULL)
			if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0)
				unlinkat(dirfd(d), f->d_name, 0);   /* a directory stays */
		closedir(d);
		unlinkat(tfd, e->d_name, AT_REMOVEDIR);
	}
	closedir(t);
}

/* Write s's owner file; -1 with err set. */
static int spawn_own(const struct spawn *s, struct rs_err *err)
{
	char path[sizeof s->dir + sizeof SPAWN_OWNER + 1], text[64];
	int fd, n, e;

	snprintf(path, sizeof path, "%s/%s", s->dir, SPAWN_OWNER);
	n = snprintf(text, sizeof text, "%ld %llu\n", (long)getpid(), spawn_start_time(getpid()));
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0 ||
	    write(fd, text, (size_t)n) != n) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return rs_err_set(err, "%s: cannot write %s: %s", s->dir, SPAWN_OWNER, strerror(e));
	}
	close(fd);
	return 0;
}

/* Make s's private directory (mode 0700) and choose its address: a
 * socket in the directory, or a free loopback port, for TLS with a
 * throwaway certificate in the directory.  Returns 0, or -1 with err set
 * and nothing left behind. */
static int spawn_place(struct spawn *s, struct rs_err *err)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp == NULL || strlen(tmp) >= 40)
		tmp = "/tmp";
	spawn_clean_stale(tmp);
	snprintf(s->dir, sizeof s->dir, "%s/rsweep-XXXXXX", tmp);
	if (mkdtemp(s->dir) == NULL) {    /* mkdtemp makes it 0700 */
		int e = errno;

		s->dir[0] = '\0';
		return rs_err_set(err, "cannot make a private directory: %s", strerror(e));
	}
	if (spawn_own(s, err) < 0) {
		spawn_stop(s);
		return -1;
	}
	if (s->transport == SPAWN_UNIX) {
		snprintf(s->socket, sizeof s->socket, "%s/redis.sock", s->dir);
		return 0;
	}
	if (spawn_free_port(&s->port, err) < 0) {
		spawn_stop(s);
		return -1;
	}
	if (s->transport == SPAWN_TLS) {
		struct tlscert_files f;

		if (tlscert_make(s->dir, &f, err) < 0) {
			spawn_stop(s);
			return -1;
		}
		xstrlcpy(s->cafile, f.cert, sizeof s->cafile);
		xstrlcpy(s->keyfile, f.key, sizeof s->keyfile);
	}
	return 0;
}

/* The server's command line and the strings it points into. */
struct spawn_cmd {
	char port[16], tls_port[16], logpath[128], dir[80];
	/* rsweep's own arguments (29 at most), then --spawn-args' */
	char *argv[32 + SPAWN_ARGS_MAX];
};

/* Fill cmd for s: persistence off, loopback or no TCP, files in s->dir,
 * then extra (at most what argv has room for). */
static void spawn_cmdline(const struct spawn *s, const char *path, const char *const *extra,
			  struct spawn_cmd *cmd)
{
	int argc = 0;

	/* TLS only: no plain port beside it for a client to fall back on. */
	snprintf(cmd->port, sizeof cmd->port, "%u", s->transport == SPAWN_TLS ? 0 : s->port);
	snprintf(cmd->tls_port, sizeof cmd->tls_port, "%u", s->port);
	snprintf(cmd->logpath, sizeof cmd->logpath, "%s/redis.log", s->dir);
	snprintf(cmd->dir, sizeof cmd->dir, "%s", s->dir);
	cmd->argv[argc++] = spawn_arg(path ? path : "redis-server");
	cmd->argv[argc++] = spawn_arg("--port");
	cmd->argv[argc++] = spawn_arg(cmd->port);
	/* Never a public interface: loopback only, or no TCP at all. */
	cmd->argv[argc++] = spawn_arg("--bind");
	cmd->argv[argc++] = spawn_arg("127.0.0.1");
	if (s->socket[0] != '\0') {
		cmd->argv[argc++] = spawn_arg("--unixsocket");
		cmd->argv[argc++] = spawn_arg(s->socket);
		cmd->argv[argc++] = spawn_arg("--unixsocketperm");
		cmd->argv[argc++] = spawn_arg("700");
	}
	if (s->transport == SPAWN_TLS) {
		cmd->argv[argc++] = spawn_arg("--tls-port");
		cmd->argv[argc++] = spawn_arg(cmd->tls_port);
		cmd->argv[argc++] = spawn_arg("--tls-cert-file");
		cmd->argv[argc++] = spawn_arg(s->cafile);
		cmd->argv[argc++] = spawn_arg("--tls-key-file");
		cmd->argv[argc++] = spawn_arg(s->keyfile);
		/* The same file: the certificate is its own CA.  No client
		 * certificates asked for: rsweep sends none. */
		cmd->argv[argc++] = spawn_arg("--tls-ca-cert-file");
		cmd->argv[argc++] = spawn_arg(s->cafile);
		cmd->argv[argc++] = spawn_arg("--tls-auth-clients");
		cmd->argv[argc++] = spawn_arg("no");
	}
	cmd->argv[argc++] = spawn_arg("--save");
	cmd->argv[argc++] = spawn_arg("");
	cmd->argv[argc++] = spawn_arg("--appendonly");
	cmd->argv[argc++] = spawn_arg("no");
	cmd->argv[argc++] = spawn_arg("--daemonize");
	cmd->argv[argc++] = spawn_arg("no");
	cmd->argv[argc++] = spawn_arg("--dir");
	cmd->argv[argc++] = spawn_arg(cmd->dir);
	cmd->argv[argc++] = spawn_arg("--logfile");
	cmd->argv[argc++] = spawn_arg(cmd->logpath);
	/* spawn_args_check lets no more through than there is room for. */
	for (int i = 0; extra && extra[i] && argc + 1 < (int)(sizeof cmd->argv /
							      sizeof cmd->argv[0]); i++)
		cmd->argv[argc++] = spawn_arg(extra[i]);
	cmd->argv[argc] = NULL;
}

/* Fork and exec cmd with its output in its log; s->pid is the child.
 * Returns 0, or -1 with err set (s->pid stays -1). */
static int spawn_exec(struct spawn *s, struct spawn_cmd *cmd, const struct cpus *cpus,
		      struct rs_err *err)
{
	pid_t parent = getpid();
	int logfd = open(cmd->logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	s->pid = fork();
	if (s->pid < 0) {
		int e = errno;

		if (logfd >= 0)
			close(logfd);
		s->pid = -1;
		return rs_err_set(err, "fork: %s", strerror(e));
	}
	if (s->pid == 0) {
		int nullfd;

		/* Die with rsweep, even if rsweep is killed with SIGKILL. */
		platform_die_with_parent();
		if (getppid() != parent)
			_exit(127);
		if (logfd >= 0) {
			dup2(logfd, STDOUT_FILENO);
			dup2(logfd, STDERR_FILENO);
		}
		/* Nothing of rsweep's input: a server told to read its config
		 * from standard input ("-") would read it there. */
		nullfd = open("/dev/null", O_RDONLY);
		if (nullfd >= 0 && nullfd != STDIN_FILENO) {
			dup2(nullfd, STDIN_FILENO);
			close(nullfd);
		}
		setpgid(0, 0);    /* out of rsweep's process group: a ^C reaches rsweep only */
		/* Placed before it runs, so that none of its threads starts
		 * elsewhere (cpus.h). */
		if (cpus != NULL && platform_cpus_set(0, cpus->w, CPUS_WORDS) < 0) {
			char set[256];

			dprintf(STDERR_FILENO, "cannot place %s on CPUs %s: %s\n", cmd->argv[0],
				cpus_format(cpus, set, sizeof set), strerror(errno));
			_exit(127);
		}
		execvp(cmd->argv[0], cmd->argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", cmd->argv[0], strerror(errno));
		_exit(127);
	}
	if (logfd >= 0)
		close(logfd);
	return 0;
}

/* Wait up to timeout seconds for the child to answer PING as itself.
 * Returns 0, or -1 with err set when it exited (with its log's last line)
 * or never answered. */
static int spawn_wait_ready(struct spawn *s, const char *name, double timeout,
			    struct rs_err *err)
{
	for (long waited = 0; waited < (long)(timeout * 1000); waited += 10) {
		int status;

		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			char tail[256];

			s->pid = -1;
			spawn_log_tail(s, tail, sizeof tail);
			return rs_err_set(err, "%s exited at start%s%s", name, tail[0] ? ": " : "",
					  tail);
		}
		if (spawn_ping(s))
			return 0;
		spawn_sleep_ms(10);
	}
	return rs_err_set(err, "%s did not answer %s within %g s", name,
			  s->transport == SPAWN_TLS ? "over TLS" : "PING", timeout);
}

int spawn_start(struct spawn *s, const char *path, enum spawn_transport transport,
		const char *const *extra, double timeout, struct rs_err *err)
{
	return spawn_start_on(s, path, transport, extra, NULL, timeout, err);
}

int spawn_start_on(struct spawn *s, const char *path, enum spawn_transport transport,
		   const char *const *extra, const struct cpus *cpus, double timeout,
		   struct rs_err *err)
{
	struct spawn_cmd cmd;

	memset(s, 0, sizeof *s);
	s->pid = -1;
	s->transport = transport;
	if (spawn_place(s, err) < 0)
		return -1;
	spawn_cmdline(s, path, extra, &cmd);
	if (spawn_exec(s, &cmd, cpus, err) < 0 ||
	    spawn_wait_ready(s, path ? path : "redis-server", timeout, err) < 0) {
		spawn_stop(s);
		return -1;
	}
	return 0;
}

/* name as execvp would find it, as an absolute path into abs: 0, or -1
 * when it is no executable file.  A symbolic link is kept as it is, not
 * resolved: Debian's redis-server is a link to redis-check-rdb, which
 * acts on the name it is run by. */
static int spawn_which(const char *name, char *abs, size_t size)
{
	const char *pathvar = getenv("PATH");
	char cwd[2048];
	struct stat st;

	if (strchr(name, '/') != NULL) {
		if (stat(name, &st) != 0 || !S_ISREG(st.st_mode) || access(name, X_OK) != 0)
			return -1;
		if (name[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
			snprintf(abs, size, "%s", name);
		else
			snprintf(abs, size, "%s/%s", cwd, name);
		return 0;
	}
	for (const char *p = pathvar ? pathvar : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char cand[4096];

		snprintf(cand, sizeof cand, "%.*s/%s", (int)n, n ? p : ".", name);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
			if (cand[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
				snprintf(abs, size, "%s", cand);
			else
				snprintf(abs, size, "%s/%s", cwd, cand);
			return 0;
		}
		p += n;
		if (*p == ':')
			p++;
	}
	return -1;
}

/* Run abs --version with its output (both streams) into buf; at most 5 s.
 * Returns its wait status, or -1 (err set). */
static int spawn_version_output(const char *abs, char *buf, size_t size, struct rs_err *err)
{
	int fd[2], status = 0;
	size_t got = 0;
	pid_t pid;

	if (pipe(fd) < 0)
		return rs_err_set(err, "pipe: %s", strerror(errno));
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return rs_err_set(err, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		char *argv[] = { spawn_arg(abs), spawn_arg("--version"), NULL };

		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		setpgid(0, 0);
		execv(abs, argv);
		dprintf(STDERR_FILENO, "cannot run: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	for (int waited = 0;; waited += 10) {
		ssize_t n = got + 1 < size ? read(fd[0], buf + got, size - 1 - got) : 0;
		pid_t w;

		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if ((w = waitpid(pid, &status, WNOHANG)) == pid) {
			while (got + 1 < size && (n = read(fd[0], buf + got, size - 1 - got)) > 0)
				got += (size_t)n;
			break;
		}
		if (waited >= 5000) {
			/* Something that does not end on --version is no redis-server. */
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -2;
			break;
		}
		spawn_sleep_ms(10);
	}
	close(fd[0]);
	buf[got] = '\0';
	return status == -2 ? rs_err_setk(err, RS_E_INPUT, "%s --version did not end within 5 s: "
					  "not redis-server", abs) : status;
}

int spawn_version_parse(const char *out, char *what, size_t size)
{
	const char *p = out, *v;
	size_t n;

	/* Redis's version(): "Redis server v=7.0.15 sha=00000000:0
	 * malloc=jemalloc-5.3.0 bits=64 build=...".  Its forks keep the line
	 * and change the first word: "Valkey server v=8.0.1 ..." (valkey-io/
	 * valkey src/server.c, main()), "KeyDB server v=6.3.4 ..." (Snapchat/
	 * KeyDB src/server.cpp, version()); Valkey 7.2.5 prints none: "Server
	 * v=7.2.5 ...".  A fork that keeps the line keeps the options rsweep
	 * starts it with too. */
	if (strncmp(p, "Server v=", 9) != 0) {
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-");
		if (n == 0 || p[n] != ' ' || strncmp(p + n + 1, "server v=", 9) != 0)
			return -1;
		p += n + 1;
	}
	v = p + 9;
	n = strcspn(v, " \r\n");
	if (n == 0)
		return -1;
	snprintf(what, size, "%.*s", (int)(v + n - out), out);
	return 0;
}

int spawn_probe(const char *path, char *abs, size_t abs_size, char *version, size_t version_size,
		struct rs_err *err)
{
	const char *name = path ? path : "redis-server";
	char out[1024];
	int status;

	if (spawn_which(name, abs, abs_size) < 0)
		return rs_err_setk(err, RS_E_INPUT, "%s: %s", name, strchr(name, '/') ?
				   "no such executable file" : "not found on PATH");
	if ((status = spawn_version_output(abs, out, sizeof out, err)) < 0)
		return -1;
	if (spawn_version_parse(out, version, version_size) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		int n = (int)strcspn(out, "\n");

		if (n > 0)
			return rs_err_setk(err, RS_E_INPUT, "%s is not redis-server or a server like it "
					   "(valkey-server, keydb-server): its --version printed '%.*s'",
					   abs, n > 200 ? 200 : n, out);
		return rs_err_setk(err, RS_E_INPUT, "%s is not redis-server or a server like it "
				   "(valkey-server, keydb-server): --version printed nothing and it "
				   "%s %d", abs, WIFEXITED(status) ? "exited" : "died of signal",
				   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	return 0;
}

void spawn_stop(struct spawn *s)
{
	if (s->pid > 0) {
		int status;

		kill(s->pid, SIGTERM);
		for (int i = 0; i < 200; i++) {
			if (waitpid(s->pid, &status, WNOHANG) == s->pid)
				goto reaped;
			spawn_sleep_ms(10);
		}
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &status, 0);
reaped:
		s->pid = -1;
	}
	if (s->dir[0] != '\0') {
		DIR *d = opendir(s->dir);
		struct dirent *e;
		char p[512];

		/* Only what the server may have made: socket, log, dump files. */
		while (d != NULL && (e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof p, "%s/%s", s->dir, e->d_name);
			unlink(p);
		}
		if (d != NULL)
			closedir(d);
		rmdir(s->dir);
		s->dir[0] = '\0';
	}
}
