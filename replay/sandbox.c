/* sandbox.c - the scratch directory a replay lives in, and the bubblewrap
 * jail around the tool when bwrap is installed.
 *
 * Two walls, each enough on its own for what a plan names:
 *  1. the plan: every path the tool is given is inside the scratch dir
 *     (checked again here before anything is created);
 *  2. bubblewrap: the whole file system read-only except the scratch dir,
 *     a private /dev (null, zero, urandom: no disks), no network, /proc/sys
 *     read-only, no capabilities, its own process group and session. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

void bl_argv_free(char **v)
{
	if (!v)
		return;
	for (char **a = v; *a; a++)
		free(*a);
	free(v);
}

static bool inside(const char *scratch, const char *path)
{
	size_t l = strlen(scratch);
	return strncmp(path, scratch, l) == 0 && path[l] == '/' && !strstr(path + l, "/../") &&
	       !strstr(path + l, "/./");
}

/* mkdir of one level; an existing entry must be a real directory, not a
 * symbolic link a previous tool left to lead benchlog out of the scratch */
static int mkdir1(const char *path)
{
	if (mkdir(path, 0755) == 0)
		return 0;
	struct stat st;
	if (errno != EEXIST || lstat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* mkdir -p below the scratch dir (which exists) */
static int mkdirs(const char *scratch, const char *path, bool last)
{
	char buf[BL_MAX_WORD + 256];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return -1;
	for (char *s = buf + strlen(scratch) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir1(buf) < 0)
			return -1;
		*s = '/';
	}
	if (last && mkdir1(buf) < 0)
		return -1;
	return 0;
}

/* Writes `bytes` of zeros to a new file (real blocks, not a sparse file:
 * reading a hole would measure nothing). */
static int fill(const char *path, uint64_t bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -1;
	static char block[1 << 16];
	uint64_t left = bytes;
	while (left) {
		size_t n = left < sizeof block ? (size_t)left : sizeof block;
		ssize_t w = write(fd, block, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		left -= (uint64_t)w;
	}
	fdatasync(fd);
	close(fd);
	return 0;
}

int bl_sandbox_prepare(const struct bl_plan *p, const char *scratch, char *why, size_t n)
{
	for (size_t i = 0; i < p->npaths; i++) {
		const struct bl_plan_path *pp = &p->paths[i];
		if (!inside(scratch, pp->path)) {
			snprintf(why, n, "%s is outside the scratch directory", pp->path);
			return -1;
		}
		if (mkdirs(scratch, pp->path, pp->role == BL_PATH_DIR) < 0) {
			snprintf(why, n, "cannot create the directories of %s: %s", pp->path,
				 strerror(errno));
			return -1;
		}
		if (pp->role == BL_PATH_READ && fill(pp->path, pp->prepare_bytes) < 0) {
			snprintf(why, n, "cannot prepare %s: %s", pp->path, strerror(errno));
			return -1;
		}
	}
	if (p->cwd) {
		if (!inside(scratch, p->cwd) || mkdirs(scratch, p->cwd, true) < 0) {
			snprintf(why, n, "cannot create the working directory %s", p->cwd);
			return -1;
		}
	}
	return 0;
}

void bl_sandbox_drop_cache(const struct bl_plan *p)
{
	for (size_t i = 0; i < p->npaths; i++) {
		if (p->paths[i].role != BL_PATH_READ)
			continue;
		int fd = open(p->paths[i].path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		fdatasync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
}

static int push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof *nv);
	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -1;
	(*n)++;
	nv[*n] = NULL;
	return 0;
}

char **bl_sandbox_argv(const struct bl_plan *p, const char *tool_path, const char *bwrap,
		       const char *scratch)
{
	char **v = NULL;
	size_t n = 0;
	int bad = 0;
	if (bwrap) {
		/* --as-pid-1: the tool is the namespace's pid 1 and a child of
		 * bwrap itself, so wait4() sees its CPU time (a reaper between
		 * them would keep it) */
		const char *pre[] = {bwrap,
				     "--ro-bind",
				     "/",
				     "/",
				     "--dev",
				     "/dev",
				     "--proc",
				     "/proc",
				     "--ro-bind",
				     "/proc/sys",
				     "/proc/sys",
				     "--bind",
				     scratch,
				     scratch,
				     "--unshare-all",
				     "--as-pid-1",
				     "--die-with-parent",
				     "--new-session",
				     "--cap-drop",
				     "ALL",
				     "--setenv",
				     "TMPDIR",
				     scratch,
				     "--setenv",
				     "HOME",
				     scratch,
				     NULL};
		for (size_t i = 0; pre[i]; i++)
			bad |= push(&v, &n, pre[i]);
		if (p->cwd) {
			bad |= push(&v, &n, "--chdir");
			bad |= push(&v, &n, p->cwd);
		}
		bad |= push(&v, &n, "--");
	}
	bad |= push(&v, &n, tool_path);
	for (size_t i = 1; i < p->argc; i++)
		bad |= push(&v, &n, p->argv[i]);
	if (bad) {
		bl_argv_free(v);
		return NULL;
	}
	return v;
}

int bl_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		size_t l = strlen(path) + strlen(e->d_name) + 2;
		char *c = malloc(l);
		if (!c) {
			rc = -1;
			break;
		}
		snprintf(c, l, "%s/%s", path, e->d_name);
		if (bl_rmtree(c) < 0)
			rc = -1;
		free(c);
	}
	closedir(d);
	if (rmdir(path) < 0)
		rc = -1;
	return rc;
}

static bool kept(const char *path, char *const keep[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keep[i], path) == 0)
			return true;
	return false;
}

/* One level of bl_scratch_clear; adds the blocks it saw to *bytes. */
static void clear_dir(const char *dir, char *const keep[], size_t n, bool remove, uint64_t *bytes)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		size_t l = strlen(dir) + strlen(e->d_name) + 2;
		char *c = malloc(l);
		if (!c)
			break;
		snprintf(c, l, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(c, &st) == 0) {
			*bytes += (uint64_t)st.st_blocks * 512;
			if (S_ISDIR(st.st_mode)) {
				clear_dir(c, keep, n, remove, bytes);
				if (remove)
					rmdir(c); /* stays when it leads to a kept file */
			} else if (remove && !kept(c, keep, n)) {
				unlink(c);
			}
		}
		free(c);
	}
	closedir(d);
}

uint64_t bl_scratch_clear(const char *scratch, char *const keep[], size_t n, bool remove)
{
	uint64_t bytes = 0;
	clear_dir(scratch, keep, n, remove, &bytes);
	return bytes;
}

long long bl_free_bytes(const char *path)
{
	struct statvfs st;
	if (statvfs(path, &st) < 0)
		return -1;
	return (long long)((unsigned long long)st.f_bavail * (unsigned long long)st.f_frsize);
}

char *bl_replay_which(const char *name, const char *tools_dir)
{
	const char *path = getenv("PATH");
	char buf[4096];
	for (int pass = 0; pass < 2; pass++) {
		const char *list = pass == 0 ? path : tools_dir;
		if (!list)
			continue;
		const char *s = list;
		while (*s) {
			const char *e = strchr(s, ':');
			size_t l = e ? (size_t)(e - s) : strlen(s);
			if (l && s[0] == '/' &&
			    snprintf(buf, sizeof buf, "%.*s/%s", (int)l, s, name) <
				    (int)sizeof buf &&
			    access(buf, X_OK) == 0) {
				struct stat st;
				if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
					return strdup(buf);
			}
			s += l;
			if (*s == ':')
				s++;
		}
	}
	/* the system directories, when PATH leaves them out (sbin for root) */
	static const char *const sys[] = {
		"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin",
		"/sbin",           "/bin",           NULL};
	for (size_t i = 0; sys[i]; i++) {
		snprintf(buf, sizeof buf, "%s/%s", sys[i], name);
		struct stat st;
		if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return strdup(buf);
	}
	return NULL;
}

/* Whether bwrap can make the namespaces the jail uses: installed is not
 * enough where user namespaces are off (some containers, hardened
 * kernels); there every sandboxed run would fail. Probed once per process
 * with the jail's own options around `true`. */
enum bl_sandbox_state bl_sandbox_probe(char **bwrap_out)
{
	static int state = -1;
	static char *path;
	if (state < 0) {
		path = bl_replay_which("bwrap", NULL);
		char *tru = bl_replay_which("true", NULL);
		state = BL_SANDBOX_MISSING;
		if (path && tru) {
			char *const argv[] = {path,
					      "--ro-bind",
					      "/",
					      "/",
					      "--dev",
					      "/dev",
					      "--proc",
					      "/proc",
					      "--unshare-all",
					      "--as-pid-1",
					      "--die-with-parent",
					      "--new-session",
					      "--cap-drop",
					      "ALL",
					      "--",
					      tru,
					      NULL};
			posix_spawn_file_actions_t fa;
			posix_spawn_file_actions_init(&fa);
			posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
			posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
			posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
			pid_t pid;
			int st = 0;
			extern char **environ;
			state = BL_SANDBOX_UNUSABLE;
			if (posix_spawn(&pid, path, &fa, NULL, argv, environ) == 0) {
				while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
					;
				if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
					state = BL_SANDBOX_OK;
			}
			posix_spawn_file_actions_destroy(&fa);
		}
		free(tru);
	}
	if (bwrap_out)
		*bwrap_out = state == BL_SANDBOX_OK && path ? strdup(path) : NULL;
	return (enum bl_sandbox_state)state;
}
