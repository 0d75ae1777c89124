/* plan_zpool.c - `zpool iostat` replayed on a file-backed pool of the
 * post's layout, with the post's workload running beside it.
 *
 *   zpool iostat -v tank 5 10        (tank: mirror ad4 ad6, log ad8)
 * becomes a pool "benchlog<pid>" of sparse files in the scratch dir
 *   mirror <scratch>/pool/d0 <scratch>/pool/d1  log <scratch>/pool/d2
 * a dd writing into its mount point, and
 *   zpool iostat -v benchlog<pid> 1 N       (N fits --max-seconds)
 *
 * The layout comes from the vdev names of the archived run's results
 * ("mirror", "mirror-0", "raidz1", "logs", "cache", then their disks).
 * Only `zpool iostat` is replayed: every other zpool subcommand changes
 * pools and is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/units.h"
#include "internal.h"

static bool group_word(const char *v, const char **type)
{
	static const char *const g[] = {"mirror", "raidz3", "raidz2", "raidz1", "raidz", NULL};
	for (size_t i = 0; g[i]; i++) {
		size_t l = strlen(g[i]);
		if (strncmp(v, g[i], l) == 0 && (v[l] == '\0' || v[l] == '-')) {
			*type = strcmp(g[i], "raidz") == 0 ? "raidz1" : g[i];
			return true;
		}
	}
	if (strcmp(v, "logs") == 0 || strcmp(v, "log") == 0) {
		*type = "log";
		return true;
	}
	if (strcmp(v, "cache") == 0) {
		*type = "cache";
		return true;
	}
	if (strcmp(v, "spares") == 0 || strcmp(v, "special") == 0 || strcmp(v, "dedup") == 0) {
		*type = "skip";
		return true;
	}
	return false;
}

static int add_vdev(struct bl_plan *p, const char *type)
{
	struct bl_pool_vdev *v = realloc(p->vdevs, (p->nvdevs + 1) * sizeof *v);
	if (!v)
		return -1;
	p->vdevs = v;
	v[p->nvdevs].type = strdup(type);
	v[p->nvdevs].ndisks = 0;
	p->nvdevs++;
	return 0;
}

/* The layout from the results of the first sample: each distinct vdev.
 * The post's disk names are kept in `disks`, in order. */
static void layout(struct bl_plan *p, json_t *run, const char *pool, json_t *disks)
{
	json_t *seen = json_object();
	size_t i;
	json_t *r;
	const char *group = NULL; /* open mirror/raidz/log/cache, if any */
	json_array_foreach(json_object_get(run, "results"), i, r)
	{
		const char *v = json_string_value(json_object_get(r, "vdev"));
		json_t *s = json_object_get(r, "sample");
		if (!v || (json_is_integer(s) && json_integer_value(s) > 0) ||
		    json_object_get(seen, v))
			continue;
		json_object_set_new(seen, v, json_true());
		if (pool ? strcmp(v, pool) == 0 : json_object_size(seen) == 1)
			continue; /* the pool's own row */
		const char *type;
		if (group_word(v, &type)) {
			group = strcmp(type, "skip") == 0 ? "skip" : type;
			if (strcmp(type, "skip") != 0 && strcmp(type, "log") != 0 &&
			    strcmp(type, "cache") != 0)
				add_vdev(p, type);
			else if (strcmp(type, "log") == 0 || strcmp(type, "cache") == 0)
				add_vdev(p, type);
			continue;
		}
		if (group && strcmp(group, "skip") == 0)
			continue;
		json_array_append_new(disks, json_string(v));
		if (!group)
			add_vdev(p, "disk");
		if (p->nvdevs)
			p->vdevs[p->nvdevs - 1].ndisks++;
	}
	json_decref(seen);
	/* an empty group ("mirror" whose disks were not shown) gets its minimum */
	for (size_t k = 0; k < p->nvdevs; k++) {
		struct bl_pool_vdev *v = &p->vdevs[k];
		size_t min = strcmp(v->type, "mirror") == 0   ? 2
			     : strcmp(v->type, "raidz1") == 0 ? 3
			     : strcmp(v->type, "raidz2") == 0 ? 4
			     : strcmp(v->type, "raidz3") == 0 ? 5
							      : 1;
		if (v->ndisks < min)
			v->ndisks = min;
		if (v->ndisks > 8)
			v->ndisks = 8;
	}
	if (!p->nvdevs) {
		add_vdev(p, "disk");
		p->vdevs[0].ndisks = 1;
	}
}

/* The first dd of the document that writes a file: the post's workload. */
static uint64_t workload_block(const struct bl_plan_ctx *c)
{
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(c->doc, "runs"), i, run)
	{
		const char *t = json_string_value(json_object_get(run, "tool"));
		if (!t || strcmp(t, "dd") != 0)
			continue;
		json_t *params = json_object_get(run, "params");
		const char *out = json_string_value(json_object_get(params, "output"));
		json_t *bs = json_object_get(params, "block_size");
		if (out && bl_dev_kind(out) == BL_DEV_NONE && json_is_integer(bs) &&
		    json_integer_value(bs) > 0 && (uint64_t)json_integer_value(bs) <= BL_MAX_BLOCK)
			return (uint64_t)json_integer_value(bs);
	}
	return 1 << 20;
}

/* What `zpool iostat` was asked for. */
struct iostat_args {
	bool verbose;
	const char *pool, *tflag; /* NULL when not given */
	uint64_t interval, count;
};

/* The words after "zpool iostat" ("-v", "-T d", "tank", "5 10") into a:
 * options on the allowlist, one pool, interval and count (default 1 s,
 * 3 samples); false when refused. */
static bool read_args(struct bl_plan *p, const struct bl_words *w, struct iostat_args *a)
{
	memset(a, 0, sizeof *a);
	uint64_t nums[2];
	size_t nn = 0;
	for (size_t i = 2; i < w->n; i++) {
		const char *s = w->v[i];
		if (s[0] == '-') {
			for (const char *f = s + 1; *f; f++) {
				if (*f == 'v')
					a->verbose = true;
				else if (*f == 'T' && !f[1] && i + 1 < w->n &&
					 (strcmp(w->v[i + 1], "u") == 0 ||
					  strcmp(w->v[i + 1], "d") == 0))
					a->tflag = w->v[++i];
				else if (strchr("HpPyLlqwr", *f))
					bl_plan_note(
						p,
						"zpool iostat -%c is not known to zfs-fuse: dropped",
						*f);
				else {
					bl_plan_refuse(
						p, BL_PLAN_REFUSED,
						"zpool iostat option '%s' is not on the allowlist",
						s);
					return false;
				}
			}
			continue;
		}
		uint64_t v;
		if (bl_parse_u64(s, strlen(s), &v, NULL)) {
			if (nn < 2)
				nums[nn++] = v;
			continue;
		}
		if (a->pool) {
			bl_plan_refuse(p, BL_PLAN_REFUSED,
				       "zpool iostat of several pools is not replayed");
			return false;
		}
		a->pool = s;
	}
	a->interval = nn >= 1 ? nums[0] : 1;
	a->count = nn >= 2 ? nums[1] : 3;
	return true;
}

/* The interval shortened to 5 s and to half of --max-seconds, the count
 * to the samples that fit in it. */
static void fit_samples(struct bl_plan *p, const struct bl_replay_opts *o, struct iostat_args *a)
{
	if (a->interval < 1)
		a->interval = 1;
	if (a->interval > 5) {
		bl_plan_note(p, "interval %llu s shortened to 5 s",
			     (unsigned long long)a->interval);
		a->interval = 5;
	}
	double secs = bl_budget_seconds(o);
	if ((double)a->interval > secs / 2) {
		uint64_t ni = secs / 2 >= 1 ? (uint64_t)(secs / 2) : 1;
		bl_plan_note(p, "interval %llu s shortened to %llu s to fit --max-seconds",
			     (unsigned long long)a->interval, (unsigned long long)ni);
		a->interval = ni;
	}
	double fit = secs / (double)a->interval - 1;
	uint64_t maxc = fit >= 2 ? (uint64_t)fit : 2;
	if (a->count > maxc) {
		bl_plan_note(p, "%llu samples capped to %llu", (unsigned long long)a->count,
			     (unsigned long long)maxc);
		a->count = maxc;
	}
	if (a->count < 2)
		a->count = 2; /* the first sample covers the time since import */
}

/* The disks of the post's pool (`pool`, else the run's params) as sparse
 * files in the scratch dir, for the pool `name`; p->rename maps the new
 * names back to the post's. Returns the number of data vdevs. */
static size_t add_disks(struct bl_plan *p, const struct bl_plan_ctx *c, const char *pool,
			const char *name)
{
	const char *param_pool =
		json_string_value(json_object_get(json_object_get(c->run, "params"), "pool"));
	json_t *disks = json_array();
	layout(p, c->run, pool ? pool : param_pool, disks);
	if (pool)
		bl_plan_note(p, "pool %s replayed as %s", pool, name);
	/* so that the comparison matches the replay's rows to the post's */
	p->rename = json_object();
	if (pool || param_pool)
		json_object_set_new(p->rename, name, json_string(pool ? pool : param_pool));

	/* sparse 128 MiB files, one per disk */
	size_t disk = 0, data_vdevs = 0;
	char file[32];
	for (size_t k = 0; k < p->nvdevs; k++) {
		if (strcmp(p->vdevs[k].type, "log") != 0 && strcmp(p->vdevs[k].type, "cache") != 0)
			data_vdevs++;
		for (size_t d = 0; d < p->vdevs[k].ndisks; d++) {
			json_t *orig = json_array_get(disks, disk);
			snprintf(file, sizeof file, "/pool/d%zu", disk++);
			const char *path =
				bl_plan_path(p, c->scratch, file, BL_PATH_WRITE, 0, false);
			if (path && json_is_string(orig))
				json_object_set(p->rename, path, orig);
		}
	}
	json_decref(disks);
	return data_vdevs;
}

/* The workload: dd into the pool's mount point `mnt`, within the budget
 * and 48 MiB a data vdev. *written: its bytes; false when refused. */
static bool add_workload(struct bl_plan *p, const struct bl_plan_ctx *c, const char *mnt,
			 size_t data_vdevs, uint64_t *written)
{
	uint64_t bs = workload_block(c);
	uint64_t bytes = bl_budget_bytes(c->o);
	uint64_t room = (uint64_t)(data_vdevs ? data_vdevs : 1) * (48ULL << 20);
	if (bytes > room)
		bytes = room;
	if (bs > bytes)
		bs = 1 << 20;
	char **wl = calloc(7, sizeof *wl);
	if (!wl || !mnt) {
		free(wl);
		bl_plan_refuse(p, BL_PLAN_REFUSED, "out of memory");
		return false;
	}
	char buf[BL_MAX_WORD + 16];
	wl[0] = strdup("dd");
	wl[1] = strdup("if=/dev/urandom");
	snprintf(buf, sizeof buf, "of=%s/workload", mnt);
	wl[2] = strdup(buf);
	snprintf(buf, sizeof buf, "bs=%llu", (unsigned long long)bs);
	wl[3] = strdup(buf);
	snprintf(buf, sizeof buf, "count=%llu", (unsigned long long)(bytes / bs ? bytes / bs : 1));
	wl[4] = strdup(buf);
	wl[5] = strdup("conv=fsync");
	p->workload = wl;
	*written = bytes;
	return true;
}

/* Where zfs-fuse, zpool and the workload will run: their own bubblewrap
 * jail, or unconfined as root (no bwrap, or --no-sandbox). */
static void note_jail(struct bl_plan *p, const struct bl_replay_opts *o)
{
	char *bwrap = o->no_sandbox ? NULL : bl_replay_which("bwrap", NULL);
	if (bwrap)
		bl_plan_note(
			p,
			"zfs-fuse, zpool and the workload run in a bubblewrap jail of their own: "
			"read-only root but the scratch directory, /dev/fuse, the daemon's "
			"socket and lock in the scratch directory, no network, CAP_SYS_ADMIN "
			"(for the FUSE mount) only inside a user namespace; where bwrap cannot "
			"make its namespaces they run unconfined, as root (the replay's steps "
			"say which)");
	else
		bl_plan_note(p,
			     "UNCONFINED: without bubblewrap (%s) zfs-fuse, zpool and the workload "
			     "run as root outside any sandbox, with the host's /run/zfs and "
			     "/run/lock/zfs, and a zfs-fuse daemon already running is used; "
			     "--no-zpool turns zpool replays off",
			     o->no_sandbox ? "--no-sandbox" : "bwrap is not installed");
	free(bwrap);
}

void bl_plan_zpool(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c)
{
	if (c->o->no_zpool) {
		bl_plan_refuse(p, BL_PLAN_UNAVAILABLE, "zpool replays are turned off (--no-zpool)");
		return;
	}
	if (w->n < 2 || strcmp(w->v[1], "iostat") != 0) {
		bl_plan_refuse(p, BL_PLAN_REFUSED,
			       "only 'zpool iostat' is replayed ('zpool %s' changes pools)",
			       w->n > 1 ? w->v[1] : "");
		return;
	}
	struct iostat_args a;
	if (!read_args(p, w, &a))
		return;
	fit_samples(p, c->o, &a);

	char name[32];
	snprintf(name, sizeof name, "benchlog%ld", (long)getpid());
	size_t data_vdevs = add_disks(p, c, a.pool, name);
	const char *mnt = bl_plan_path(p, c->scratch, "/pool/mnt", BL_PATH_DIR, 0, false);

	bl_plan_arg(p, "zpool");
	bl_plan_arg(p, "iostat");
	if (a.verbose)
		bl_plan_arg(p, "-v");
	if (a.tflag) {
		bl_plan_arg(p, "-T");
		bl_plan_arg(p, a.tflag);
	}
	bl_plan_arg(p, name);
	bl_plan_argf(p, "%llu", (unsigned long long)a.interval);
	bl_plan_argf(p, "%llu", (unsigned long long)a.count);

	uint64_t bytes;
	if (!add_workload(p, c, mnt, data_vdevs, &bytes))
		return;
	p->kind = BL_KIND_ZPOOL;
	p->cwd = bl_reroot(c->scratch, ".");
	p->replay_bytes = bytes;
	p->scale = 1;
	bl_plan_note(p,
		     "zfs-fuse pool of sparse 128 MiB files; workload: %llu bytes of dd beside "
		     "zpool iostat",
		     (unsigned long long)bytes);
	note_jail(p, c->o);
}
