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

#include "../parsers/units.h"
#include "internal.h"

enum kind { FLAG, NUM, SIZE, FILE_W, FILES_W };

struct opt {
	const char *name; /* without the dash: "a", "s", "+n" */
	enum kind kind;
};

static const struct opt opts[] = {
	{"a", FLAG}, {"A", FLAG}, {"B", FLAG}, {"c", FLAG}, {"C", FLAG}, {"D", FLAG},
	{"e", FLAG}, {"E", FLAG}, {"G", FLAG}, {"h", FLAG}, {"I", FLAG}, {"J", NUM},
	{"j", NUM},  {"k", NUM},  {"K", FLAG}, {"l", NUM},  {"L", NUM},  {"m", FLAG},
	{"M", FLAG}, {"N", FLAG}, {"o", FLAG}, {"O", FLAG}, {"p", FLAG}, {"Q", FLAG},
	{"r", SIZE}, {"R", FLAG}, {"s", SIZE}, {"S", NUM},  {"t", NUM},  {"T", FLAG},
	{"u", NUM},  {"v", FLAG}, {"V", NUM},  {"w", FLAG}, {"W", FLAG}, {"x", FLAG},
	{"X", FLAG}, {"y", SIZE}, {"q", SIZE}, {"g", SIZE}, {"n", SIZE}, {"z", FLAG},
	{"Z", FLAG}, {"i", NUM},  {"f", FILE_W}, {"F", FILES_W}, {"b", FILE_W},
	{"+n", FLAG}, {"+u", FLAG}, {"+d", FLAG}, {"+p", NUM}, {"+w", NUM}, {"+y", NUM},
	{"+C", NUM}, {"+T", FLAG},
	{NULL, FLAG},
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

void bl_plan_iozone(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c)
{
	uint64_t budget = bl_budget_bytes(c->o);
	uint64_t procs = 1, file_size = 0, max_size = 0;
	bool has_s = false, has_g = false, autom = false, has_f = false, throughput = false;
	bl_plan_arg(p, "iozone");
	for (size_t i = 1; i < w->n; i++) {
		const char *a = w->v[i];
		if (a[0] != '-' || !a[1]) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not an iozone option", a);
			return;
		}
		if (strcmp(a, "-U") == 0 || strncmp(a, "-+m", 3) == 0 || strncmp(a, "-+r", 3) == 0 ||
		    strncmp(a, "-+t", 3) == 0) {
			bl_plan_refuse(p, BL_PLAN_REFUSED,
				       "iozone %s reaches outside the test file (mounts or remote "
				       "hosts): refused",
				       a);
			return;
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
			return;
		}
		if (o->kind == FLAG) {
			if (*rest) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not an iozone option", a);
				return;
			}
			if (strcmp(name, "a") == 0 || strcmp(name, "A") == 0)
				autom = true;
			bl_plan_argf(p, "-%s", name);
			continue;
		}
		const char *val = rest;
		if (!*val && o->kind != FILES_W) {
			if (i + 1 >= w->n) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone -%s without its value", name);
				return;
			}
			val = w->v[++i];
		}
		uint64_t v;
		switch (o->kind) {
		case NUM:
			if (!bl_parse_u64(val, strlen(val), &v, NULL) || v > 1000000) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read iozone -%s %s", name, val);
				return;
			}
			if (strcmp(name, "t") == 0 || strcmp(name, "l") == 0 || strcmp(name, "u") == 0) {
				if (v > 4) {
					bl_plan_note(p, "-%s %llu processes capped to 4", name,
						     (unsigned long long)v);
					v = 4;
				}
				if (strcmp(name, "t") == 0) {
					procs = v ? v : 1;
					throughput = true;
				}
			}
			if (strlen(name) > 1) {
				bl_plan_argf(p, "-%s", name);
				bl_plan_argf(p, "%llu", (unsigned long long)v);
			} else {
				bl_plan_argf(p, "-%s%llu", name, (unsigned long long)v);
			}
			break;
		case SIZE:
			if (!bl_iozone_size(val, &v)) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read iozone -%s %s", name, val);
				return;
			}
			if (strcmp(name, "s") == 0) {
				file_size = v;
				has_s = true;
				break; /* written below, scaled */
			}
			if (strcmp(name, "g") == 0) {
				max_size = v;
				has_g = true;
				break;
			}
			if (v > BL_MAX_BLOCK && (strcmp(name, "r") == 0 || strcmp(name, "q") == 0 ||
						 strcmp(name, "y") == 0)) {
				bl_plan_note(p, "-%s %s capped to 64m", name, val);
				v = BL_MAX_BLOCK;
			}
			add_size(p, name, v);
			break;
		case FILE_W: {
			if (bl_dev_kind(val) != BL_DEV_NONE) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "iozone -%s %s names a device: refused",
					       name, val);
				return;
			}
			const char *r = bl_plan_path(p, c->scratch, val, BL_PATH_WRITE, 0, false);
			if (!r) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place %s", val);
				return;
			}
			if (strcmp(name, "f") == 0)
				has_f = true;
			bl_plan_argf(p, "-%s", name);
			bl_plan_arg(p, r);
			break;
		}
		case FILES_W: {
			/* -F f1 f2 ...: the names up to the next option ("-Ff1 f2" too) */
			bl_plan_arg(p, "-F");
			const char *f = *rest ? rest : (i + 1 < w->n && w->v[i + 1][0] != '-')
							      ? w->v[++i]
							      : NULL;
			for (; f; f = (i + 1 < w->n && w->v[i + 1][0] != '-') ? w->v[++i] : NULL) {
				if (bl_dev_kind(f) != BL_DEV_NONE) {
					bl_plan_refuse(p, BL_PLAN_REFUSED,
						       "iozone -F %s names a device: refused", f);
					return;
				}
				const char *r = bl_plan_path(p, c->scratch, f, BL_PATH_WRITE, 0, false);
				if (!r) {
					bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place %s", f);
					return;
				}
				bl_plan_arg(p, r);
			}
			has_f = true;
			break;
		}
		case FLAG: break;
		}
	}
	uint64_t per = budget / procs;
	if (has_s) {
		uint64_t ns = file_size < per ? file_size : per;
		if (ns != file_size)
			bl_plan_note(p, "-s %lluk scaled to %lluk", (unsigned long long)(file_size >> 10),
				     (unsigned long long)(ns >> 10));
		add_size(p, "s", ns);
		p->archived_bytes = file_size * procs;
		p->replay_bytes = ns * procs;
	}
	if (autom || has_g) {
		/* auto mode goes up to 512 MiB files unless told otherwise */
		uint64_t g = has_g ? max_size : 512ULL << 20;
		uint64_t ng = g < per ? g : per;
		if (ng != g || !has_g)
			bl_plan_note(p, "auto mode up to %lluk (the post: %lluk)",
				     (unsigned long long)(ng >> 10), (unsigned long long)(g >> 10));
		add_size(p, "g", ng);
		if (!has_s) {
			p->archived_bytes = g;
			p->replay_bytes = ng;
		}
	}
	if (!has_s && !autom && !has_g) {
		bl_plan_note(p, "no -s in the post: -s %lluk", (unsigned long long)(per >> 10));
		add_size(p, "s", per);
	}
	if (!has_f && !throughput) {
		const char *r = bl_plan_path(p, c->scratch, "iozone.tmp", BL_PATH_WRITE, 0, false);
		bl_plan_arg(p, "-f");
		bl_plan_arg(p, r ? r : "iozone.tmp");
	}
	p->cwd = bl_reroot(c->scratch, ".");
	p->scale = bl_scale_ratio(p->replay_bytes, p->archived_bytes);
}
