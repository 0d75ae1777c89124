/* zpool.c - `zpool iostat` replayed on a throwaway pool.
 *
 * zfs-fuse (Debian package) runs ZFS in a user-space daemon, so a pool of
 * plain files works on any Linux machine with /dev/fuse:
 *   1. start `zfs-fuse --no-daemon --no-kstat-mount` unless a daemon
 *      already answers `zpool list` (then it is left alone);
 *   2. sparse 128 MiB files in the scratch dir, `zpool create -f -m MNT
 *      benchlog<pid> mirror d0 d1 log d2` (the post's layout);
 *   3. the workload (dd into the mount point) beside `zpool iostat`;
 *   4. `zpool destroy -f`, and the daemon stopped if step 1 started it.
 * Every argv here is built by benchlog (pool name, scratch paths,
 * numbers); nothing of the post reaches these commands as text. Each step
 * and its outcome is recorded in the comparison document. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define DISK_BYTES (128LL << 20)

extern char **environ;

/* Runs a step to completion and records it. Returns its exit status. */
static int step(json_t *steps, char *const argv[], double timeout, struct bl_spawn_result *keep)
{
	struct bl_spawn_result r;
	bl_spawn(argv, NULL, timeout, NULL, NULL, NULL, &r);
	json_t *s = json_object();
	json_t *a = json_array();
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(a, json_string(argv[i]));
	json_object_set_new(s, "argv", a);
	json_object_set_new(s, "exit_status", json_integer(r.exit_status));
	if (r.len) {
		json_t *o = json_stringn(r.output, r.len < 4096 ? r.len : 4096);
		if (o)
			json_object_set_new(s, "output", o);
	}
	if (r.spawn_failed)
		json_object_set_new(s, "error", json_string(r.error));
	json_array_append_new(steps, s);
	int st = r.spawn_failed ? -1 : r.exit_status;
	if (keep)
		*keep = r;
	else
		bl_spawn_result_free(&r);
	return st;
}

static bool daemon_answers(const char *zpool)
{
	char *argv[] = {(char *)zpool, "list", NULL};
	struct bl_spawn_result r;
	bl_spawn(argv, NULL, 5.0, NULL, NULL, NULL, &r);
	bool ok = !r.spawn_failed && r.exit_status == 0;
	bl_spawn_result_free(&r);
	return ok;
}

/* Starts a program in the background, output to `log`. */
static pid_t background(char *const argv[], const char *log)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	char *env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
	pid_t pid;
	int e = posix_spawn(&pid, argv[0], &fa, &at, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return e == 0 ? pid : -1;
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&ts, NULL);
}

static void note(json_t *steps, const char *what)
{
	json_t *s = json_object();
	json_object_set_new(s, "note", json_string(what));
	json_array_append_new(steps, s);
}

int bl_zpool_run(const struct bl_plan *p, const char *scratch, const struct bl_replay_opts *o,
		 struct bl_spawn_result *r, json_t *steps)
{
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
	char *zpool = bl_replay_which("zpool", NULL);
	char *zfsd = bl_replay_which("zfs-fuse", NULL);
	char *dd = bl_replay_which("dd", NULL);
	pid_t started = -1, work = -1;
	bool created = false;
	const char *name = p->argc > 3 ? p->argv[p->argc - 3] : NULL;
	char log[4200], wout[4200];
	snprintf(log, sizeof log, "%s/zfs-fuse.log", scratch);
	snprintf(wout, sizeof wout, "%s/workload.out", scratch);
	if (!zpool || !zfsd || !dd || !name) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "zfs-fuse is not installed");
		goto out;
	}
	if (geteuid() != 0) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "zfs-fuse pools need root");
		goto out;
	}
	/* 1. the daemon */
	if (!daemon_answers(zpool)) {
		char *argv[] = {zfsd, "--no-daemon", "--no-kstat-mount", NULL};
		started = background(argv, log);
		if (started < 0) {
			r->spawn_failed = true;
			snprintf(r->error, sizeof r->error, "cannot start zfs-fuse");
			goto out;
		}
		note(steps, "started zfs-fuse --no-daemon --no-kstat-mount");
		bool up = false;
		for (int i = 0; i < 50 && !up; i++) {
			sleep_s(0.2);
			up = daemon_answers(zpool);
		}
		if (!up) {
			r->spawn_failed = true;
			snprintf(r->error, sizeof r->error, "zfs-fuse did not come up (see zfs-fuse.log)");
			goto out;
		}
	} else {
		note(steps, "a zfs-fuse daemon was already running: used, left running");
	}
	/* 2. the pool: "zpool create -f -m MNT NAME [type] files..." */
	{
		char **argv = calloc(10 + p->npaths + 2 * p->nvdevs, sizeof *argv);
		if (!argv)
			goto out;
		size_t n = 0, disk = 0;
		argv[n++] = zpool;
		argv[n++] = "create";
		argv[n++] = "-f";
		/* not recorded in /etc/zfs/zpool.cache: nothing of it outlives the
		 * replay, even if the daemon dies before the destroy */
		argv[n++] = "-o";
		argv[n++] = "cachefile=none";
		argv[n++] = "-m";
		const char *mnt = NULL;
		for (size_t i = 0; i < p->npaths; i++)
			if (p->paths[i].role == BL_PATH_DIR)
				mnt = p->paths[i].path;
		argv[n++] = (char *)(mnt ? mnt : "none");
		argv[n++] = (char *)name;
		for (size_t k = 0; k < p->nvdevs; k++) {
			const char *t = p->vdevs[k].type;
			if (strcmp(t, "disk") != 0)
				argv[n++] = (char *)t;
			for (size_t d = 0; d < p->vdevs[k].ndisks; d++) {
				while (disk < p->npaths && p->paths[disk].role != BL_PATH_WRITE)
					disk++;
				if (disk >= p->npaths)
					break;
				const char *f = p->paths[disk++].path;
				int fd = open(f, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
				if (fd < 0 || ftruncate(fd, DISK_BYTES) < 0) {
					if (fd >= 0)
						close(fd);
					free(argv);
					r->spawn_failed = true;
					snprintf(r->error, sizeof r->error, "cannot make %s: %s", f,
						 strerror(errno));
					goto out;
				}
				close(fd);
				argv[n++] = (char *)f;
			}
		}
		argv[n] = NULL;
		int st = step(steps, argv, 60, NULL);
		free(argv);
		if (st != 0) {
			r->spawn_failed = true;
			snprintf(r->error, sizeof r->error, "zpool create failed");
			goto out;
		}
		created = true;
	}
	/* 3. the workload beside iostat */
	if (p->workload) {
		char **wl = p->workload;
		size_t n = 0;
		while (wl[n])
			n++;
		char **argv = calloc(n + 1, sizeof *argv);
		if (argv) {
			argv[0] = dd;
			for (size_t i = 1; i < n; i++)
				argv[i] = wl[i];
			work = background(argv, wout);
			free(argv);
			note(steps, work > 0 ? "workload started beside zpool iostat" : "workload failed to start");
		}
	}
	{
		char **argv = calloc(p->argc + 1, sizeof *argv);
		if (!argv)
			goto out;
		argv[0] = zpool;
		for (size_t i = 1; i < p->argc; i++)
			argv[i] = p->argv[i];
		step(steps, argv, bl_budget_seconds(o) + 5, r);
		free(argv);
	}
	if (work > 0) {
		int st;
		for (int i = 0; i < 100 && waitpid(work, &st, WNOHANG) == 0; i++)
			sleep_s(0.1);
		if (waitpid(work, &st, WNOHANG) == 0) {
			kill(-work, SIGKILL);
			waitpid(work, &st, 0);
			note(steps, "workload stopped: still running after zpool iostat");
		}
	}
out:
	/* 4. teardown */
	if (created) {
		/* right after the workload the pool can still be busy */
		char *argv[] = {zpool, "destroy", "-f", (char *)name, NULL};
		for (int i = 0; i < 5 && step(steps, argv, 60, NULL) != 0; i++)
			sleep_s(1.0);
	}
	if (started > 0) {
		kill(started, SIGTERM);
		int st;
		bool gone = false;
		for (int i = 0; i < 50 && !gone; i++) {
			sleep_s(0.1);
			gone = waitpid(started, &st, WNOHANG) == started;
		}
		if (!gone) {
			kill(-started, SIGKILL);
			waitpid(started, &st, 0);
		}
		note(steps, "stopped the zfs-fuse daemon it had started");
	}
	if (!r->output) {
		r->output = strdup("");
		r->len = 0;
	}
	free(zpool);
	free(zfsd);
	free(dd);
	return r->spawn_failed ? -1 : 0;
}
