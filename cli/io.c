/* io.c - reading inputs and writing outputs atomically. */
#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/buf.h"
#include "../base/tmp.h"
#include "cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("benchlog: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_bad_option(const char *cmd, int ch, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	bool is_long = strncmp(arg, "--", 2) == 0;
	size_t n = strcspn(arg, "=");
	if (ch == ':' && is_long)
		fprintf(stderr, "benchlog %s: option '%.*s' needs a value\n", cmd, (int)n, arg);
	else if (ch == ':')
		fprintf(stderr, "benchlog %s: option '-%c' needs a value\n", cmd, optopt);
	else if (is_long || !optopt)
		fprintf(stderr, "benchlog %s: unknown option '%.*s'\n", cmd, (int)n, arg);
	else
		fprintf(stderr, "benchlog %s: unknown option '-%c'\n", cmd, optopt);
	fprintf(stderr, "Try 'benchlog %s --help'.\n", cmd);
	return EXIT_USAGE;
}

int cli_read_file(const char *path, char **data, size_t *len)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	bool stat_ok = fstat(fd, &st) == 0;
	if (stat_ok && S_ISDIR(st.st_mode)) {
		if (fd != STDIN_FILENO)
			close(fd);
		errno = EISDIR;
		return -1;
	}
	size_t hint = stat_ok && S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0;
	struct bl_buf buf = {0};
	int rc = bl_buf_read_fd(&buf, fd, hint);
	int e = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	if (rc < 0) {
		bl_buf_free(&buf);
		errno = e;
		return -1;
	}
	*data = buf.p;
	*len = buf.n;
	return 0;
}

/* ------------------------------------------------------ interrupted writes
 *
 * While an output file is being written under its temporary name, SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE remove the temporary file, then take their
 * default action: Ctrl-C never leaves a truncated document behind, and the
 * target keeps its old content. The name is copied into a fixed buffer at
 * open so that the handler only calls unlink(2), which is safe there. */

static char pending_tmp[4096];
static volatile sig_atomic_t pending_set;
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static struct sigaction saved[sizeof caught / sizeof caught[0]];

static void on_signal(int sig)
{
	/* A command that handles the signal itself (replay stops its tool on
	 * Ctrl-C, then commits what finished) or ignores it (SIGPIPE during a
	 * replay) keeps that behaviour: the temporary file is still its to
	 * commit or abort. */
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
		if (caught[i] != sig)
			continue;
		if (saved[i].sa_handler == SIG_IGN)
			return;
		if (saved[i].sa_handler != SIG_DFL && !(saved[i].sa_flags & SA_SIGINFO)) {
			saved[i].sa_handler(sig);
			return;
		}
	}
	if (pending_set)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard(const char *tmp)
{
	size_t n = strlen(tmp);
	if (n >= sizeof pending_tmp)
		return; /* a path this long cannot be guarded; rename still is atomic */
	memcpy(pending_tmp, tmp, n + 1);
	pending_set = 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaction(caught[i], &sa, &saved[i]);
}

static void unguard(void)
{
	if (!pending_set)
		return;
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaction(caught[i], &saved[i], NULL);
	pending_set = 0;
}

int cli_open_input(const char *path)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	bool stat_ok = fstat(fd, &st) == 0;
	if (stat_ok && S_ISDIR(st.st_mode)) {
		if (fd != STDIN_FILENO)
			close(fd);
		errno = EISDIR;
		return -1;
	}
	return fd;
}

long cli_read_chunk(void *fdp, char *buf, size_t cap)
{
	int fd = *(int *)fdp;
	for (;;) {
		ssize_t r = read(fd, buf, cap);
		if (r < 0 && errno == EINTR)
			continue;
		return (long)r;
	}
}

void cli_close_input(int fd)
{
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The temporary file takes the place of the target on commit, so it gets
 * the target's permission bits and, where the caller may set them, its
 * owner and group: "-o results.json" over a file of mode 600 owned by
 * nobody leaves a file of mode 600 owned by nobody. A new file gets
 * 0666 less the umask, as a shell redirection would make it. Set-id and
 * sticky bits are not carried over (fchown would clear them anyway). */
static void keep_attributes(int fd, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
		return;
	}
	if (st.st_uid != geteuid() || st.st_gid != getegid()) {
		/* root keeps both; anyone else may still keep the group when
		 * they are in it */
		if (fchown(fd, geteuid() == 0 ? st.st_uid : (uid_t)-1, st.st_gid) < 0 &&
		    fchown(fd, (uid_t)-1, st.st_gid) < 0) {
			/* what stays different is said below */
		}
		struct stat now;
		if (fstat(fd, &now) == 0 && (now.st_uid != st.st_uid || now.st_gid != st.st_gid))
			cli_error(
				"%s: replaced by a file owned by %ld:%ld (it was %ld:%ld; only root "
				"can keep another user's ownership)",
				path, (long)now.st_uid, (long)now.st_gid, (long)st.st_uid,
				(long)st.st_gid);
	}
	fchmod(fd, st.st_mode & 0777);
}

/* An output that is no regular file: a device ("-o /dev/null"), a FIFO,
 * a terminal, another descriptor (/dev/fd/3). Renaming a file over it
 * would replace the device rather than write to it: it is opened and
 * written in place, as a shell's redirection does. */
static int open_in_place(struct cli_out *o, const char *path)
{
	o->path = strdup(path);
	o->f = o->path ? fopen(path, "w") : NULL;
	if (o->f)
		return 0;
	cli_error("%s: cannot open: %s", path, strerror(o->path ? errno : ENOMEM));
	free(o->path);
	o->path = NULL;
	return -1;
}

/* The file path leads to through its symbolic links, however many (a new
 * string; the path of a file not made yet when the last link names none):
 * the file replaced, the links left as they are. NULL with errno set. */
static char *link_target(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur && hops < 40; hops++) {
		struct stat lst;
		if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
			return cur;
		char to[4096];
		ssize_t n = readlink(cur, to, sizeof to - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		to[n] = '\0';
		/* a relative link is read from the directory it stands in */
		const char *slash = to[0] == '/' ? NULL : strrchr(cur, '/');
		size_t dir = slash ? (size_t)(slash - cur) + 1 : 0;
		char *next = malloc(dir + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dir);
			memcpy(next + dir, to, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	if (cur)
		errno = ELOOP;
	free(cur);
	return NULL;
}

/* Where the output to path goes: 2 to standard output itself (-o
 * /dev/stdout, or the very file the shell opened for it: a file opened
 * with >> keeps what it held); 1 in place (open_in_place); 0 through a
 * temporary file renamed over *target (link_target); -1 with the error
 * told. */
static int output_target(const char *path, char **target)
{
	struct stat st, out;
	*target = NULL;
	bool exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		cli_error("%s: cannot write: %s", path, strerror(EISDIR));
		return -1;
	}
	if (exists && fstat(STDOUT_FILENO, &out) == 0 && st.st_dev == out.st_dev &&
	    st.st_ino == out.st_ino)
		return 2;
	if ((exists && !S_ISREG(st.st_mode)) || strncmp(path, "/dev/fd/", 8) == 0 ||
	    strncmp(path, "/dev/std", 8) == 0 || strncmp(path, "/proc/", 6) == 0)
		return 1;
	if (!(*target = link_target(path))) {
		cli_error("%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cli_out_open(struct cli_out *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	int where = output_target(path, &o->path);
	if (where == 2)
		o->f = stdout;
	if (where != 0)
		return where == 1 ? open_in_place(o, path) : where == 2 ? 0 : -1;
	path = o->path;
	size_t n = strlen(path) + 16;
	o->tmp = malloc(n);
	if (!o->tmp)
		goto fail;
	snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		cli_error("%s: cannot create: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		goto fail;
	}
	guard(o->tmp);
	keep_attributes(fd, path);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		goto fail;
	}
	setvbuf(o->f, NULL, _IOFBF, (size_t)1 << 16); /* as stdout: 64 KB writes */
	return 0;
fail:
	cli_out_abort(o);
	return -1;
}

int cli_out_commit(struct cli_out *o)
{
	if (o->f == stdout) {
		o->f = NULL;
		if (fflush(stdout) != 0) {
			/* a reader that stopped (`| head`) is no error to report */
			if (errno != EPIPE)
				cli_error("writing standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	int bad = ferror(o->f);
	/* in place: a device or a FIFO has nothing to sync (EINVAL) */
	if (fflush(o->f) != 0 || (o->tmp && fsync(fileno(o->f)) != 0))
		bad = 1;
	if (fclose(o->f) != 0)
		bad = 1;
	o->f = NULL;
	if (bad || (o->tmp && rename(o->tmp, o->path) != 0)) {
		cli_error("%s: cannot write: %s", o->path, strerror(errno));
		cli_out_abort(o);
		return -1;
	}
	unguard();
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	unguard();
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

void cli_failed_between(const char *path, int e)
{
	switch (e) {
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
	case EIO:
	case EROFS:
	case EACCES:
	case EPERM:
	case ENOENT:
	case ENOTDIR:
	case EMFILE:
	case ENFILE:
		cli_error("%s: cannot keep its runs in a temporary file in %s (set TMPDIR to "
			  "another directory): %s",
			  path, bl_temp_dir(), strerror(e));
		break;
	default: cli_error("%s: out of memory", path);
	}
}
