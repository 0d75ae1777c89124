/* plan_iozone.c - an iozone command as a safe, budgeted iozone argv.
 *
 *   iozone -a -g 4g -i 0 -i 1 -f /tank/iozone.tmp -R -b /root/out.xls
 * becomes, with a 256 MiB budget,
 *   iozone -a -g 256m -i 0 -i 1 -f <scratch>/fs/tank/iozone.tmp -R
 *          -b <scratch>/fs/root/out.xls
 *
 * Options are taken as written (iozone's spellings are the same on every
 * platform); files (-f, -F, -b) are re-rooted into the scratch dir; sizes
 * (-s, -g) are capped by the budget, split between processes (-t); options
 * that reach outside the process are refused: -U (unmounts and remounts a
 * file system), -+m (cluster mode: remote shells), -+r, -+t (network). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/units.h"
#include "internal.h"

enum kind { FLAG, NUM, SIZE, FILE_W, FILES_W };

struct opt {
	const char *name; /* without the dash: "a", "s", "+n" */
	enum kind kind;
};

static const struct opt opts[] = {
	{"a", FLAG},  {"A", FLAG},  {"B", FLAG},   {"c", FLAG},    {"C", FLAG},   {"D", FLAG},
	{"e", FLAG},  {"E", FLAG},  {"G", FLAG},   {"h", FLAG},    {"I", FLAG},   {"J", NUM},
	{"j", NUM},   {"k", NUM},   {"K", FLAG},   {"l", NUM},     {"L", NUM},    {"m", FLAG},
	{"M", FLAG},  {"N", FLAG},  {"o", FLAG},   {"O", FLAG},    {"p", FLAG},   {"Q", FLAG},
	{"r", SIZE},  {"R", FLAG},  {"s", SIZE},   {"S", NUM},     {"t", NUM},    {"T", FLAG},
	{"u", NUM},   {"v", FLAG},  {"V", NUM},    {"w", FLAG},    {"W", FLAG},   {"x", FLAG},
	{"X", FLAG},  {"y", SIZE},  {"q", SIZE},   {"g", SIZE},    {"n", SIZE},   {"z", FLAG},
	{"Z", FLAG},  {"i", NUM},   {"f", FILE_W}, {"F", FILES_W}, {"b", FILE_W}, {"+n", FLAG},
	{"+u", FLAG}, {"+d", FLAG}, {"+p", NUM},   {"+w", NUM},    {"+y", NUM},   {"+C", NUM},
	{"+T", FLAG}, {NULL, FLAG},
};

static const struct opt *find(const char *name)
{
	for (const struct opt *o = opts; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

static void add_size(struct bl_plan *p, const char *flag, uint64_t bytes)
{
	if (bytes % (1 << 20) == 0)
		bl_plan_argf(p, "-%s%llum", flag, (unsigned long long)(bytes >> 20));
	else
		bl_plan_argf(p, "-%s%lluk", flag, (unsigned long long)((bytes + 1023) >> 10));
}
/* What the options read so far say about sizes, processes and files. */
struct iozone_state {
	uint64_t procs, file_size, max_size;
	bool has_s, has_g, autom, has_f, throughput;
};

/* A number option ("-i 0", "-t 8"): processes (-t -l -u) capped to 4,
 * copied into the plan; false when refused. */
static bool add_num(struct bl_plan *p, const char *name, const char *val, struct iozone_state *s)
{
	uint64_t v;
	if (!bl_parse_u64(val, strlen(val), &v, NULL) || v > 1000000) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read iozone -%s %s", name, val);
		return false;
	}
	if (strcmp(name, "t") == 0 || strcmp(name, "l") == 0 || strcmp(name, "u") == 0) {
		if (v > 4) {
			bl_plan_note(p, "-%s %llu processes capped to 4", name,
				     (unsigned long long)v);
			v = 4;
		}
		if (strcmp(name, "t") == 0) {
			s->procs = v ? v : 1;
			s->throughput = true;
		}
	}
	if (strlen(name) > 1) {
		bl_plan_argf(p, "-%s", name);
		bl_plan_argf(p, "%llu", (unsigned long long)v);
	} else {
		bl_plan_argf(p, "-%s%llu", name, (unsigned long long)v);
	}
	return true;
}

/* A size option ("-r 4k", "-s 512m"): -s and -g kept in s to be scaled,
 * record sizes capped to 64m, the others copied; false when refused. */
static bool add_size_opt(struct bl_plan *p, const char *name, const char *val,
			 struct iozone_state *s)
{
	uint64_t v;
	if (!bl_iozone_size(val, &v)) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read iozone -%s %s", name, val);
		return false;
	}
	if (strcmp(name, "s") == 0) {
		s->file_size = v;
		s->has_s = true;
		return true; /* written scaled, once every option is read */
	}
	if (strcmp(name, "g") == 0) {
		s->max_size = v;
		s->has_g = true;
		return true;
	}
	if (v > BL_MAX_BLOCK &&
	    (strcmp(name, "r") == 0 || strcmp(name, "q") == 0 || strcmp(name, "y") == 0)) {
		bl_plan_note(p, "-%s %s capped to 64m", name, val);
		v = BL_MAX_BLOCK;
	}
	add_size(p, name, v);
	return true;
}

/* A file option ("-f /tank/iozone.tmp", "-b out.xls") re-rooted into the
 * scratch dir; false when it names a device or cannot be placed. */
static bool add_file(struct bl_plan *p, const char *name, const char *val, const char *scratch,
		     struct iozone_state *s)
{
	if (bl_dev_kind(val) != BL_DEV_NONE) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone -%s %s names a device: refused", name,
			       val);
		return false;
	}
	const char *r = bl_plan_path(p, scratch, val, BL_PATH_WRITE, 0, false);
	if (!r) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place %s", val);
		return false;
	}
	if (strcmp(name, "f") == 0)
		s->has_f = true;
	bl_plan_argf(p, "-%s", name);
	bl_plan_arg(p, r);
	return true;
}

/* -F f1 f2 ...: the names up to the next option ("-Ff1 f2" too: `rest`),
 * from word *i on (*i left on the last), each re-rooted; false when one
 * is refused. */
static bool add_files(struct bl_plan *p, const struct bl_words *w, size_t *i, const char *rest,
		      const char *scratch, struct iozone_state *s)
{
	size_t k = *i;
	bl_plan_arg(p, "-F");
	const char *f = *rest ? rest : (k + 1 < w->n && w->v[k + 1][0] != '-') ? w->v[++k] : NULL;
	for (; f; f = (k + 1 < w->n && w->v[k + 1][0] != '-') ? w->v[++k] : NULL) {
		if (bl_dev_kind(f) != BL_DEV_NONE) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone -F %s names a device: refused",
				       f);
			return false;
		}
		const char *r = bl_plan_path(p, scratch, f, BL_PATH_WRITE, 0, false);
		if (!r) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place %s", f);
			return false;
		}
		bl_plan_arg(p, r);
	}
	s->has_f = true;
	*i = k;
	return true;
}

/* The option at word *i ("-a", "-s512m", "-s 512m", "-+n") with the words
 * of its value (*i left on the last) against the allowlist, into the plan
 * and s; false when refused. */
static bool add_option(struct bl_plan *p, const struct bl_words *w, size_t *i,
		       const struct bl_plan_ctx *c, struct iozone_state *s)
{
	const char *a = w->v[*i];
	if (a[0] != '-' || !a[1]) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not an iozone option", a);
		return false;
	}
	if (strcmp(a, "-U") == 0 || strncmp(a, "-+m", 3) == 0 || strncmp(a, "-+r", 3) == 0 ||
	    strncmp(a, "-+t", 3) == 0) {
		bl_plan_refuse(p, BL_PLAN_REFUSED,
			       "iozone %s reaches outside the test file (mounts or remote "
			       "hosts): refused",
			       a);
		return false;
	}
	/* "-s512m" or "-s 512m"; "-+n" */
	char name[3] = {a[1], 0, 0};
	const char *rest = a + 2;
	if (a[1] == '+' && a[2]) {
		name[1] = a[2];
		rest = a + 3;
	}
	const struct opt *o = find(name);
	if (!o) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone option -%s is not on the allowlist",
			       name);
		return false;
	}
	if (o->kind == FLAG) {
		if (*rest) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not an iozone option", a);
			return false;
		}
		if (strcmp(name, "a") == 0 || strcmp(name, "A") == 0)
			s->autom = true;
		bl_plan_argf(p, "-%s", name);
		return true;
	}
	const char *val = rest;
	if (!*val && o->kind != FILES_W) {
		if (*i + 1 >= w->n) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone -%s without its value", name);
			return false;
		}
		val = w->v[++*i];
	}
	switch (o->kind) {
	case NUM: return add_num(p, name, val, s);
	case SIZE: return add_size_opt(p, name, val, s);
	case FILE_W: return add_file(p, name, val, c->scratch, s);
	case FILES_W: return add_files(p, w, i, rest, c->scratch, s);
	case FLAG: break;
	}
	return true;
}

/* -s and -g (auto mode) scaled to the budget split between the processes,
 * or an -s of the budget when the post gave neither. */
static void add_scaled(struct bl_plan *p, const struct iozone_state *s, uint64_t budget)
{
	uint64_t per = budget / s->procs;
	if (s->has_s) {
		uint64_t ns = s->file_size < per ? s->file_size : per;
		if (ns != s->file_size)
			bl_plan_note(p, "-s %lluk scaled to %lluk",
				     (unsigned long long)(s->file_size >> 10),
				     (unsigned long long)(ns >> 10));
		add_size(p, "s", ns);
		p->archived_bytes = s->file_size * s->procs;
		p->replay_bytes = ns * s->procs;
	}
	if (s->autom || s->has_g) {
		/* auto mode goes up to 512 MiB files unless told otherwise */
		uint64_t g = s->has_g ? s->max_size : 512ULL << 20;
		uint64_t ng = g < per ? g : per;
		if (ng != g || !s->has_g)
			bl_plan_note(p, "auto mode up to %lluk (the post: %lluk)",
				     (unsigned long long)(ng >> 10), (unsigned long long)(g >> 10));
		add_size(p, "g", ng);
		if (!s->has_s) {
			p->archived_bytes = g;
			p->replay_bytes = ng;
		}
	}
	if (!s->has_s && !s->autom && !s->has_g) {
		bl_plan_note(p, "no -s in the post: -s %lluk", (unsigned long long)(per >> 10));
		add_size(p, "s", per);
	}
}

void bl_plan_iozone(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c)
{
	uint64_t budget = bl_budget_bytes(c->o);
	struct iozone_state s = {.procs = 1};
	bl_plan_arg(p, "iozone");
	for (size_t i = 1; i < w->n; i++)
		if (!add_option(p, w, &i, c, &s))
			return;
	add_scaled(p, &s, budget);
	if (!s.has_f && !s.throughput) {
		const char *r = bl_plan_path(p, c->scratch, "iozone.tmp", BL_PATH_WRITE, 0, false);
		bl_plan_arg(p, "-f");
		bl_plan_arg(p, r ? r : "iozone.tmp");
	}
	p->cwd = bl_reroot(c->scratch, ".");
	p->scale = bl_scale_ratio(p->replay_bytes, p->archived_bytes);
}
