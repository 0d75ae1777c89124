/* zpool.c - `zpool iostat` replayed on a throwaway pool.
 *
 * zfs-fuse (Debian package) runs ZFS in a user-space daemon, so a pool of
 * plain files works on any Linux machine with /dev/fuse:
 *   1. start `zfs-fuse --no-daemon --no-kstat-mount`;
 *   2. sparse 128 MiB files in the scratch dir, `zpool create -f -m MNT
 *      benchlog<pid> mirror d0 d1 log d2` (the post's layout);
 *   3. the workload (dd into the mount point) beside `zpool iostat`;
 *   4. `zpool destroy -f`, and the daemon stopped.
 * Every argv here is built by benchlog (pool name, scratch paths,
 * numbers); nothing of the post reaches these commands as text. Each step
 * and its outcome is recorded in the comparison document.
 *
 * With bubblewrap the whole sequence runs in a jail of its own, which
 * `benchlog replay --zpool-jail SPEC` drives from inside (bl_zpool_jail):
 *   outer bwrap, as the caller (root): the file system read-only but the
 *     scratch dir, a private /dev with /dev/fuse bound in, a tmpfs over
 *     /run with <scratch>/zfs/run and <scratch>/zfs/lock as /run/zfs and
 *     /run/lock/zfs (the daemon's socket and lock), no network, its own
 *     pid namespace; no capability but CAP_SETFCAP, which the inner bwrap
 *     needs to map uid 0 into its user namespace;
 *   inner bwrap: a user namespace (uid 0 inside, the caller outside) that
 *     keeps CAP_SYS_ADMIN there, for zfs-fuse's FUSE mounts. The outer
 *     jail's mounts reach it locked, so that capability cannot make them
 *     writable again (a single bwrap with --unshare-user and
 *     CAP_SYS_ADMIN could remount its own read-only / read-write).
 * The jail's daemon never meets one of the host's, and when the replay
 * ends or is stopped the pid namespace takes every process of it along.
 * Without bubblewrap (--no-sandbox, or none usable) the steps run here,
 * unconfined, as root, with the host's /run/zfs, and a daemon already
 * running is used; the plan says so, and --no-zpool turns zpool replays
 * off. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static char **argv_of(json_t *a)
{
	size_t n = json_array_size(a);
	char **v = calloc(n + 1, sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = (char *)json_string_value(json_array_get(a, i));
	return v;
}

/* Runs the steps a spec names (see spec_of); `jailed`: inside the jail,
 * where no daemon of the host's can answer. */
static void run_spec(json_t *spec, bool jailed, struct bl_spawn_result *r, json_t *steps)
{
	const char *zpool = json_string_value(json_object_get(spec, "zpool"));
	const char *zfsd = json_string_value(json_object_get(spec, "zfs_fuse"));
	const char *log = json_string_value(json_object_get(spec, "log"));
	const char *wout = json_string_value(json_object_get(spec, "workload_log"));
	double seconds = json_number_value(json_object_get(spec, "seconds"));
	char **create = argv_of(json_object_get(spec, "create"));
	char **iostat = argv_of(json_object_get(spec, "iostat"));
	char **destroy = argv_of(json_object_get(spec, "destroy"));
	char **workload = json_is_array(json_object_get(spec, "workload"))
				  ? argv_of(json_object_get(spec, "workload"))
				  : NULL;
	pid_t started = -1, work = -1;
	bool created = false;
	if (!zpool || !zfsd || !log || !wout || !create || !iostat || !destroy) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "out of memory");
		goto out;
	}
	/* 1. the daemon */
	if (jailed || !daemon_answers(zpool)) {
		char *argv[] = {(char *)zfsd, "--no-daemon", "--no-kstat-mount", NULL};
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
			snprintf(r->error, sizeof r->error,
				 "zfs-fuse did not come up (see zfs-fuse.log)");
			goto out;
		}
	} else {
		note(steps, "a zfs-fuse daemon was already running: used, left running");
	}
	/* 2. the pool */
	if (step(steps, create, 60, NULL) != 0) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "zpool create failed");
		goto out;
	}
	created = true;
	/* 3. the workload beside iostat */
	if (workload) {
		work = background(workload, wout);
		note(steps, work > 0 ? "workload started beside zpool iostat"
				     : "workload failed to start");
	}
	step(steps, iostat, seconds + 5, r);
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
		for (int i = 0; i < 5 && step(steps, destroy, 60, NULL) != 0; i++)
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
	free(create);
	free(iostat);
	free(destroy);
	free(workload);
}

static json_t *json_argv(char *const v[])
{
	json_t *a = json_array();
	for (size_t i = 0; v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* Everything the steps need, as JSON: the programs, each argv, the logs.
 * Made here, from the plan; read by run_spec here or inside the jail. */
static json_t *spec_of(const struct bl_plan *p, const char *scratch, const char *zpool,
		       const char *zfsd, const char *dd, const char *name, double seconds,
		       char *err, size_t errn)
{
	json_t *spec = json_object();
	char path[4200];
	json_object_set_new(spec, "zpool", json_string(zpool));
	json_object_set_new(spec, "zfs_fuse", json_string(zfsd));
	snprintf(path, sizeof path, "%s/zfs-fuse.log", scratch);
	json_object_set_new(spec, "log", json_string(path));
	snprintf(path, sizeof path, "%s/workload.out", scratch);
	json_object_set_new(spec, "workload_log", json_string(path));
	json_object_set_new(spec, "seconds", json_real(seconds));
	/* "zpool create -f -o cachefile=none -m MNT NAME [type] files...":
	 * not recorded in /etc/zfs/zpool.cache, so nothing of the pool
	 * outlives the replay, even if the daemon dies before the destroy */
	json_t *c = json_array();
	const char *head[] = {zpool, "create", "-f", "-o", "cachefile=none", "-m", NULL};
	for (size_t i = 0; head[i]; i++)
		json_array_append_new(c, json_string(head[i]));
	const char *mnt = NULL;
	for (size_t i = 0; i < p->npaths; i++)
		if (p->paths[i].role == BL_PATH_DIR)
			mnt = p->paths[i].path;
	json_array_append_new(c, json_string(mnt ? mnt : "none"));
	json_array_append_new(c, json_string(name));
	size_t disk = 0;
	for (size_t k = 0; k < p->nvdevs; k++) {
		const char *t = p->vdevs[k].type;
		if (strcmp(t, "disk") != 0)
			json_array_append_new(c, json_string(t));
		for (size_t d = 0; d < p->vdevs[k].ndisks; d++) {
			while (disk < p->npaths && p->paths[disk].role != BL_PATH_WRITE)
				disk++;
			if (disk >= p->npaths)
				break;
			const char *f = p->paths[disk++].path;
			int fd = open(f, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0 || ftruncate(fd, DISK_BYTES) < 0) {
				snprintf(err, errn, "cannot make %s: %s", f, strerror(errno));
				if (fd >= 0)
					close(fd);
				json_decref(c);
				json_decref(spec);
				return NULL;
			}
			close(fd);
			json_array_append_new(c, json_string(f));
		}
	}
	json_object_set_new(spec, "create", c);
	if (p->workload) {
		json_t *w = json_argv(p->workload);
		json_array_set_new(w, 0, json_string(dd));
		json_object_set_new(spec, "workload", w);
	}
	json_t *io = json_argv(p->argv);
	json_array_set_new(io, 0, json_string(zpool));
	json_object_set_new(spec, "iostat", io);
	char *destroy[] = {(char *)zpool, "destroy", "-f", (char *)name, NULL};
	json_object_set_new(spec, "destroy", json_argv(destroy));
	return spec;
}

static int push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof *nv);
	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = strdup(s);
	nv[*n + 1] = NULL;
	if (!nv[*n])
		return -1;
	(*n)++;
	return 0;
}

/* "/var/run" -> "/run": where the daemon's directories really are, so
 * that the tmpfs and the binds land on the paths zfs-fuse and zpool open */
static void real_dir(const char *path, char *out, size_t n)
{
	char *r = realpath(path, NULL);
	snprintf(out, n, "%s", r ? r : path);
	free(r);
}

/* bwrap (outer) -- bwrap (inner) -- benchlog replay --zpool-jail SPEC */
static char **jail_argv(const char *bwrap, const char *scratch, const char *spec)
{
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return NULL;
	exe[len] = '\0';
	char run[4096], lock[4096], zrun[4200], zlock[4200], srun[4200], slock[4200];
	real_dir("/var/run", run, sizeof run);
	real_dir("/var/lock", lock, sizeof lock);
	snprintf(zrun, sizeof zrun, "%s/zfs", run);
	snprintf(zlock, sizeof zlock, "%s/zfs", lock);
	snprintf(srun, sizeof srun, "%s/zfs/run", scratch);
	snprintf(slock, sizeof slock, "%s/zfs/lock", scratch);
	char zdir[4200];
	snprintf(zdir, sizeof zdir, "%s/zfs", scratch);
	if ((mkdir(zdir, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(srun, 0700) < 0 && errno != EEXIST) ||
	    (mkdir(slock, 0700) < 0 && errno != EEXIST))
		return NULL;
	size_t rl = strlen(run);
	bool lock_in_run = strncmp(lock, run, rl) == 0 && (lock[rl] == '/' || lock[rl] == '\0');
	const char *outer[] = {bwrap,   "--ro-bind",  "/",         "/",         "--dev",
			       "/dev",  "--dev-bind", "/dev/fuse", "/dev/fuse", "--proc",
			       "/proc", "--ro-bind",  "/proc/sys", "/proc/sys", "--tmpfs",
			       run,     NULL};
	const char *outer2[] = {"--bind",
				srun,
				zrun,
				"--bind",
				slock,
				zlock,
				"--bind",
				scratch,
				scratch,
				"--unshare-ipc",
				"--unshare-net",
				"--unshare-uts",
				"--unshare-pid",
				"--unshare-cgroup-try",
				"--die-with-parent",
				"--new-session",
				"--cap-drop",
				"ALL",
				"--cap-add",
				"CAP_SETFCAP",
				"--setenv",
				"TMPDIR",
				scratch,
				"--setenv",
				"HOME",
				scratch,
				"--chdir",
				scratch,
				"--",
				bwrap,
				"--unshare-user",
				"--uid",
				"0",
				"--gid",
				"0",
				"--bind",
				"/",
				"/",
				"--dev-bind",
				"/dev",
				"/dev",
				"--die-with-parent",
				"--cap-drop",
				"ALL",
				"--cap-add",
				"CAP_SYS_ADMIN",
				"--chdir",
				scratch,
				"--",
				exe,
				"replay",
				"--zpool-jail",
				spec,
				NULL};
	char **v = NULL;
	size_t n = 0;
	int bad = 0;
	for (size_t i = 0; outer[i]; i++)
		bad |= push(&v, &n, outer[i]);
	if (!lock_in_run) {
		bad |= push(&v, &n, "--tmpfs");
		bad |= push(&v, &n, lock);
	}
	for (size_t i = 0; outer2[i]; i++)
		bad |= push(&v, &n, outer2[i]);
	if (bad) {
		bl_argv_free(v);
		return NULL;
	}
	return v;
}

#define JAIL_MARK "benchlog-zpool-jail: "

/* json_dumps into malloc's memory: what json_dumps returns comes from
 * jansson's allocator, which the command may have replaced */
static char *dump(json_t *j)
{
	size_t n = json_dumpb(j, NULL, 0, JSON_COMPACT);
	char *s = n ? malloc(n + 1) : NULL;
	if (s && json_dumpb(j, s, n, JSON_COMPACT) == n) {
		s[n] = '\0';
		return s;
	}
	free(s);
	return NULL;
}

int bl_zpool_jail(const char *spec_text, char **report)
{
	*report = NULL;
	json_error_t je;
	json_t *spec = json_loads(spec_text, 0, &je);
	json_t *steps = json_array(), *out = json_object();
	struct bl_spawn_result r;
	memset(&r, 0, sizeof r);
	r.exit_status = -1;
	if (!spec) {
		r.spawn_failed = true;
		snprintf(r.error, sizeof r.error, "the zpool jail's spec: %.120s", je.text);
	} else {
		run_spec(spec, true, &r, steps);
	}
	json_object_set_new(out, "steps", steps);
	json_object_set_new(out, "exit_status", json_integer(r.exit_status));
	if (r.signal)
		json_object_set_new(out, "signal", json_integer(r.signal));
	if (r.timed_out)
		json_object_set_new(out, "timed_out", json_true());
	if (r.spawn_failed)
		json_object_set_new(out, "error", json_string(r.error));
	json_t *o = r.output ? json_stringn(r.output, r.len) : json_string("");
	json_object_set_new(out, "output", o ? o : json_string("(output not valid UTF-8)"));
	char *text = dump(out);
	if (text) {
		size_t l = strlen(JAIL_MARK) + strlen(text) + 2;
		*report = malloc(l);
		if (*report)
			snprintf(*report, l, "%s%s\n", JAIL_MARK, text);
		free(text);
	}
	json_decref(out);
	json_decref(spec);
	bl_spawn_result_free(&r);
	return r.spawn_failed ? 1 : 0;
}

/* The jail's report (after JAIL_MARK in its output) into r and steps. */
static void read_report(const struct bl_spawn_result *jr, struct bl_spawn_result *r, json_t *steps)
{
	const char *m = jr->output ? strstr(jr->output, JAIL_MARK) : NULL;
	json_error_t je;
	json_t *rep = m ? json_loads(m + strlen(JAIL_MARK), JSON_DISABLE_EOF_CHECK, &je) : NULL;
	if (!rep) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "the zpool jail %s: %.100s",
			 jr->timed_out ? "was stopped at its time limit" : "failed",
			 jr->output && *jr->output ? jr->output : jr->error);
		json_t *s = json_object();
		json_object_set_new(s, "note", json_string("the jail gave no report"));
		if (jr->output && jr->len)
			json_object_set_new(
				s, "output",
				json_stringn(jr->output, jr->len < 4096 ? jr->len : 4096));
		json_array_append_new(steps, s);
		return;
	}
	json_array_extend(steps, json_object_get(rep, "steps"));
	r->exit_status = (int)json_integer_value(json_object_get(rep, "exit_status"));
	r->signal = (int)json_integer_value(json_object_get(rep, "signal"));
	r->timed_out = json_is_true(json_object_get(rep, "timed_out")) || jr->timed_out;
	r->interrupted = jr->interrupted;
	const char *err = json_string_value(json_object_get(rep, "error"));
	if (err) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "%s", err);
	}
	const char *o = json_string_value(json_object_get(rep, "output"));
	free(r->output);
	r->output = strdup(o ? o : "");
	r->len = r->output ? strlen(r->output) : 0;
	json_decref(rep);
}

int bl_zpool_run(const struct bl_plan *p, const char *scratch, const struct bl_replay_opts *o,
		 const char *bwrap, struct bl_spawn_result *r, json_t *steps)
{
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
	char *zpool = bl_replay_which("zpool", NULL);
	char *zfsd = bl_replay_which("zfs-fuse", NULL);
	char *dd = bl_replay_which("dd", NULL);
	const char *name = p->argc > 3 ? p->argv[p->argc - 3] : NULL;
	json_t *spec = NULL;
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
	double seconds = bl_budget_seconds(o);
	char err[sizeof r->error];
	spec = spec_of(p, scratch, zpool, zfsd, dd, name, seconds, err, sizeof err);
	if (!spec) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "%s", err);
		goto out;
	}
	if (!bwrap) {
		note(steps, "unconfined: no bubblewrap, so zfs-fuse, zpool and the workload run as "
			    "root with the host's /run/zfs and /run/lock/zfs");
		run_spec(spec, false, r, steps);
		goto out;
	}
	char *text = dump(spec);
	char **argv = text ? jail_argv(bwrap, scratch, text) : NULL;
	free(text);
	if (!argv) {
		r->spawn_failed = true;
		snprintf(r->error, sizeof r->error, "cannot build the zpool jail");
		goto out;
	}
	note(steps, "in bubblewrap: zfs-fuse, zpool and the workload in a jail of their own "
		    "(read-only root, /dev/fuse, /run/zfs and /run/lock/zfs in the scratch "
		    "directory, no network, CAP_SYS_ADMIN only inside a user namespace)");
	/* the daemon's start, the create and the destroy come on top of
	 * iostat's time */
	struct bl_spawn_result jr;
	bl_spawn(argv, NULL, seconds + 150, o->interrupted, NULL, NULL, &jr);
	bl_argv_free(argv);
	read_report(&jr, r, steps);
	if (jr.interrupted)
		r->interrupted = true;
	bl_spawn_result_free(&jr);
out:
	if (!r->output) {
		r->output = strdup("");
		r->len = 0;
	}
	json_decref(spec);
	free(zpool);
	free(zfsd);
	free(dd);
	return r->spawn_failed ? -1 : 0;
}
