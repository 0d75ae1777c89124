/* plan.c - a benchlog/1 document to replay plans: one per run, each either
 * ready to run (argv, scratch paths, scaled sizes) or saying why not.
 *
 * Reads documents only (json_t), never parser internals. The allowlist of
 * tools is the table below; the allowlist of options of each tool is in its
 * planner (plan_dd.c, plan_bonnie.c, plan_iozone.c, plan_zpool.c). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "internal.h"

/* ---------------------------------------------------------------- helpers */

void bl_plan_refuse(struct bl_plan *p, enum bl_plan_status st, const char *fmt, ...)
{
	if (p->status != BL_PLAN_READY)
		return; /* the first reason wins */
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	p->status = st;
	free(p->reason);
	p->reason = strdup(buf);
}

void bl_plan_note(struct bl_plan *p, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!p->notes)
		p->notes = json_array();
	json_array_append_new(p->notes, json_string(buf));
}

int bl_plan_arg(struct bl_plan *p, const char *s)
{
	char **v = realloc(p->argv, (p->argc + 2) * sizeof *v);
	if (!v)
		return -1;
	p->argv = v;
	v[p->argc] = strdup(s);
	if (!v[p->argc])
		return -1;
	p->argc++;
	v[p->argc] = NULL;
	return 0;
}

int bl_plan_argf(struct bl_plan *p, const char *fmt, ...)
{
	char buf[BL_MAX_WORD + 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return bl_plan_arg(p, buf);
}

/* "/a/./b//../c" -> components pushed onto out, never above the root. */
char *bl_reroot(const char *scratch, const char *path)
{
	if (!path || !*path)
		return NULL;
	for (const char *c = path; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return NULL;
	size_t cap = strlen(scratch) + strlen(path) + 16;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	int base = snprintf(out, cap, "%s/fs%s", scratch, path[0] == '/' ? "" : "/cwd");
	size_t root = (size_t)base, len = root;
	const char *s = path;
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		size_t cl = (size_t)(e - s);
		if (cl == 0 || (cl == 1 && s[0] == '.')) {
			/* nothing */
		} else if (cl == 2 && s[0] == '.' && s[1] == '.') {
			while (len > root && out[len - 1] != '/')
				len--;
			if (len > root)
				len--; /* the slash */
		} else {
			out[len++] = '/';
			memcpy(out + len, s, cl);
			len += cl;
		}
		s = e;
	}
	out[len] = '\0';
	return out;
}

const char *bl_plan_path(struct bl_plan *p, const char *scratch, const char *orig,
			 enum bl_path_role role, uint64_t prepare_bytes, bool device)
{
	char *r;
	if (device) {
		/* "/dev/ad4s2" -> "<scratch>/devices/ad4s2" (slashes flattened) */
		const char *name = strncmp(orig, "/dev/", 5) == 0 ? orig + 5 : orig;
		size_t cap = strlen(scratch) + strlen(name) + 16;
		r = malloc(cap);
		if (!r)
			return NULL;
		int k = snprintf(r, cap, "%s/devices/", scratch);
		for (const char *c = name; *c && (size_t)k < cap - 1; c++)
			r[k++] = (*c == '/' || *c == '.') ? '_' : *c;
		r[k] = '\0';
	} else {
		r = bl_reroot(scratch, orig);
	}
	if (!r)
		return NULL;
	struct bl_plan_path *v = realloc(p->paths, (p->npaths + 1) * sizeof *v);
	if (!v) {
		free(r);
		return NULL;
	}
	p->paths = v;
	struct bl_plan_path *pp = &v[p->npaths];
	pp->original = strdup(orig);
	pp->path = r;
	pp->role = role;
	pp->prepare_bytes = prepare_bytes;
	pp->device = device;
	if (!pp->original) {
		free(r);
		return NULL;
	}
	p->npaths++;
	return r;
}

enum bl_dev_kind bl_dev_kind(const char *path)
{
	/* the same lexical normalization as re-rooting, so that
	 * "/dev/../dev/sda" and "//dev/sda" are seen as what they are */
	char *n = bl_reroot("", path);
	if (!n)
		return BL_DEV_OTHER;
	const char *q = n + 3; /* past "/fs" */
	enum bl_dev_kind k = BL_DEV_NONE;
	if (strncmp(q, "/cwd/", 5) == 0 && path[0] != '/')
		k = BL_DEV_NONE;
	else if (strcmp(q, "/dev/zero") == 0)
		k = BL_DEV_ZERO;
	else if (strcmp(q, "/dev/random") == 0 || strcmp(q, "/dev/urandom") == 0)
		k = BL_DEV_RANDOM;
	else if (strcmp(q, "/dev/null") == 0)
		k = BL_DEV_NULL;
	else if (strncmp(q, "/dev/", 5) == 0 || strcmp(q, "/dev") == 0 ||
		 strncmp(q, "/proc", 5) == 0 || strncmp(q, "/sys", 4) == 0)
		k = BL_DEV_OTHER;
	free(n);
	return k;
}

double bl_run_value(json_t *run, const char *metric)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(run, "results"), i, r)
	{
		const char *m = json_string_value(json_object_get(r, "metric"));
		json_t *v = json_object_get(r, "value");
		if (m && strcmp(m, metric) == 0 && json_is_number(v))
			return json_number_value(v);
	}
	return NAN;
}

const char *bl_plan_status_name(enum bl_plan_status s)
{
	switch (s) {
	case BL_PLAN_READY: return "ready";
	case BL_PLAN_REFUSED: return "refused";
	case BL_PLAN_UNAVAILABLE: return "unavailable";
	case BL_PLAN_UNSUPPORTED: return "unsupported";
	}
	return "?";
}

/* ---------------------------------------------------------------- tools */

/* The allowlist: the command word, the parser of its output, the planner.
 * diskinfo exists only on FreeBSD and measures a disk device, which replay
 * never touches: it is listed so that it is reported, never run. */
struct replay_tool {
	const char *word;
	const char *parser;
	void (*plan)(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c);
	const char *package; /* how to get it, for the "not installed" reason */
};

static const struct replay_tool tools[] = {
	{"dd", "dd", bl_plan_dd, "coreutils"},
	{"bonnie++", "bonnie++", bl_plan_bonnie, "apt-get install bonnie++"},
	{"iozone", "iozone", bl_plan_iozone, "scripts/fetch-iozone.sh (Debian non-free iozone3)"},
	{"zpool", "zpool-iostat", bl_plan_zpool, "apt-get install zfs-fuse"},
	{"diskinfo", "diskinfo", NULL, NULL},
	{NULL, NULL, NULL, NULL},
};

static const struct replay_tool *tool_for_word(const char *word)
{
	const char *base = strrchr(word, '/');
	base = base ? base + 1 : word;
	for (const struct replay_tool *t = tools; t->word; t++)
		if (strcmp(base, t->word) == 0)
			return t;
	return NULL;
}

static void plan_free(struct bl_plan *p)
{
	free(p->reason);
	bl_argv_free(p->argv);
	free(p->cwd);
	for (size_t i = 0; i < p->npaths; i++) {
		free(p->paths[i].original);
		free(p->paths[i].path);
	}
	free(p->paths);
	json_decref(p->notes);
	for (size_t i = 0; i < p->nvdevs; i++)
		free(p->vdevs[i].type);
	free(p->vdevs);
	bl_argv_free(p->workload);
	json_decref(p->rename);
}

void bl_plan_set_free(struct bl_plan_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		plan_free(&s->v[i]);
	free(s->v);
	free(s->scratch);
	memset(s, 0, sizeof *s);
}

static void plan_one(struct bl_plan *p, json_t *run, const struct bl_plan_ctx *c)
{
	const char *tool = json_string_value(json_object_get(run, "tool"));
	const char *cmd = json_string_value(json_object_get(run, "command"));
	p->tool = tool ? tool : "?";
	p->scale = 1;
	p->timed = json_is_object(json_object_get(run, "time"));
	if (tool && strcmp(tool, "diskinfo") == 0) {
		bl_plan_refuse(p, BL_PLAN_UNAVAILABLE,
			       "diskinfo exists only on FreeBSD and measures a disk device, "
			       "which replay never touches: skipped");
		return;
	}
	if (!cmd || !*cmd) {
		bl_plan_refuse(
			p, BL_PLAN_REFUSED,
			"the post shows no command for this run, so there is nothing to replay");
		return;
	}
	struct bl_words w;
	char why[200];
	if (bl_words_split(cmd, &w, why, sizeof why) < 0) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "%s", why);
		return;
	}
	const struct replay_tool *t = tool_for_word(w.v[0]);
	if (!t) {
		bl_plan_refuse(p, BL_PLAN_UNSUPPORTED,
			       "'%s' is not a benchmark tool replay runs (dd, bonnie++, iozone, "
			       "zpool iostat)",
			       w.v[0]);
		goto out;
	}
	/* a dd block must come from a dd command; a time report may wrap any
	 * allowlisted tool */
	if (tool && strcmp(tool, "time") != 0 && strcmp(tool, t->parser) != 0) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "the %s output was printed by '%s', not by %s",
			       tool, w.v[0], tool);
		goto out;
	}
	p->tool = t->word;
	p->parser = t->parser;
	if (!t->plan) {
		struct utsname u;
		bool freebsd = uname(&u) == 0 && strcmp(u.sysname, "FreeBSD") == 0;
		bl_plan_refuse(p, BL_PLAN_UNAVAILABLE,
			       freebsd ? "diskinfo measures a disk device, which replay never "
					 "touches: skipped"
				       : "diskinfo exists only on FreeBSD; this system has none: "
					 "skipped");
		goto out;
	}
	t->plan(p, &w, c);
	if (p->status == BL_PLAN_READY) {
		char *path = bl_replay_which(t->word, c->o->tools_dir);
		if (!path)
			bl_plan_refuse(p, BL_PLAN_UNAVAILABLE, "%s is not installed (%s)", t->word,
				       t->package);
		free(path);
	}
	if (p->status == BL_PLAN_READY) {
		double el = bl_run_value(run, "elapsed");
		json_t *tm = json_object_get(run, "time");
		if (isnan(el) && json_is_number(json_object_get(tm, "real")))
			el = json_number_value(json_object_get(tm, "real"));
		p->expected_seconds = isnan(el) ? -1 : el * p->scale;
		double cap = bl_budget_seconds(c->o);
		if (p->expected_seconds > cap)
			p->expected_seconds = cap;
	}
out:
	bl_words_free(&w);
}

int bl_replay_plan(json_t *doc, const struct bl_replay_opts *o, struct bl_plan_set *out)
{
	memset(out, 0, sizeof *out);
	out->scratch = strdup(o->scratch ? o->scratch : "scratch");
	if (!out->scratch)
		return -1;
	json_t *runs = json_object_get(doc, "runs");
	size_t n = json_array_size(runs);
	out->v = calloc(n ? n : 1, sizeof *out->v);
	if (!out->v)
		return -1;
	out->cap = n;
	struct bl_plan_ctx c = {.o = o, .scratch = out->scratch, .doc = doc, .set = out};
	for (size_t i = 0; i < n; i++) {
		struct bl_plan *p = &out->v[out->n++];
		p->run = i;
		c.run = json_array_get(runs, i);
		plan_one(p, c.run, &c);
		if (p->status != BL_PLAN_READY) {
			/* a plan that will not run keeps no argv to print */
			bl_argv_free(p->argv);
			p->argv = NULL;
			p->argc = 0;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- JSON */

static const char *role_name(enum bl_path_role r)
{
	switch (r) {
	case BL_PATH_WRITE: return "write";
	case BL_PATH_READ: return "read";
	case BL_PATH_DIR: return "dir";
	}
	return "?";
}

json_t *bl_plan_to_json(const struct bl_plan *p)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "status", json_string(bl_plan_status_name(p->status)));
	if (p->reason)
		json_object_set_new(o, "reason", json_string(p->reason));
	if (p->status != BL_PLAN_READY)
		return o;
	json_t *argv = json_array();
	for (size_t i = 0; i < p->argc; i++)
		json_array_append_new(argv, json_string(p->argv[i]));
	json_object_set_new(o, "argv", argv);
	if (p->workload) {
		json_t *wl = json_array();
		for (char **a = p->workload; *a; a++)
			json_array_append_new(wl, json_string(*a));
		json_object_set_new(o, "workload", wl);
	}
	if (p->nvdevs) {
		json_t *vd = json_array();
		for (size_t i = 0; i < p->nvdevs; i++) {
			json_t *v = json_object();
			json_object_set_new(v, "type", json_string(p->vdevs[i].type));
			json_object_set_new(v, "disks",
					    json_integer((json_int_t)p->vdevs[i].ndisks));
			json_array_append_new(vd, v);
		}
		json_object_set_new(o, "pool", vd);
	}
	if (p->rename && json_object_size(p->rename))
		json_object_set(o, "vdev_names", p->rename);
	if (p->cwd)
		json_object_set_new(o, "cwd", json_string(p->cwd));
	json_t *paths = json_array();
	for (size_t i = 0; i < p->npaths; i++) {
		const struct bl_plan_path *pp = &p->paths[i];
		json_t *j = json_object();
		json_object_set_new(j, "original", json_string(pp->original));
		json_object_set_new(j, "path", json_string(pp->path));
		json_object_set_new(j, "role", json_string(role_name(pp->role)));
		if (pp->prepare_bytes)
			json_object_set_new(j, "prepare_bytes",
					    json_integer((json_int_t)pp->prepare_bytes));
		if (pp->device)
			json_object_set_new(j, "device", json_true());
		json_array_append_new(paths, j);
	}
	json_object_set_new(o, "paths", paths);
	if (p->archived_bytes)
		json_object_set_new(o, "archived_bytes",
				    json_integer((json_int_t)p->archived_bytes));
	if (p->replay_bytes)
		json_object_set_new(o, "replay_bytes", json_integer((json_int_t)p->replay_bytes));
	json_object_set_new(o, "scale", json_real(p->scale));
	if (p->expected_seconds >= 0)
		json_object_set_new(o, "expected_seconds", json_real(p->expected_seconds));
	json_object_set_new(o, "page_cache",
			    p->page_cache ? json_string(p->page_cache) : json_null());
	if (p->notes)
		json_object_set(o, "notes", p->notes);
	return o;
}
