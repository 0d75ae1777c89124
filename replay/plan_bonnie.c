/* plan_bonnie.c - a bonnie++ command as a safe, budgeted bonnie++ 2.x argv.
 *
 *   bonnie++ -d /tank/test -s 8192 -r 4096 -u root -m fileserver    (1.03e)
 * becomes, with a 256 MiB budget,
 *   bonnie++ -d <scratch>/fs/tank/test -s 256 -r 128 -m fileserver -x 1 -u root
 *
 * The options of 1.0x (-d -s -n -m -r -x -u -g -q -f -b -p -y) mean the same
 * in 2.x, which adds -c -D -z -Z; sizes are MiB unless suffixed. What
 * changes on replay: the directory is re-rooted into the scratch dir, -s is
 * scaled to the budget with -r half of it (bonnie++ wants -s >= 2 * -r),
 * -n is capped, -x is 1, -u/-g are replaced (root must name a user), and
 * -p/-y (semaphores shared between processes) and -Z (a file of random
 * data read from anywhere) are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/units.h"
#include "internal.h"

/* Option letters that take a value, as bonnie++'s getopt string says. */
static bool takes_value(char c)
{
	return strchr("dsnmrxugcpzZ", c) != NULL;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || *s == 0x7f)
			return false;
	return true;
}

/* The options of a bonnie++ command, as the post wrote them. */
struct bonnie_opts {
	const char *dir, *name, *nspec, *fast_arg, *seed;
	uint64_t size_mib, chunk, conc;
	bool has_size, fast, nobuf, quiet, direct;
};

/* The value of -s ("-s 4096", "-s 4g", "-s 1024:8192": size:chunk) into
 * b's size and chunk; false when refused. */
static bool read_size(struct bl_plan *p, const char *val, struct bonnie_opts *b)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", val);
	char *colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		if (!bl_dd_size(colon + 1, false, &b->chunk) || b->chunk > (1u << 20)) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read the chunk size '%s'",
				       colon + 1);
			return false;
		}
	}
	if (!bl_bonnie_size_mib(buf, &b->size_mib)) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read the size -s %s", val);
		return false;
	}
	b->has_size = true;
	return true;
}

/* One option -opt of the word `a` with its value `val` (NULL for a flag)
 * against the allowlist, into b; false when refused. */
static bool read_option(struct bl_plan *p, char opt, const char *a, const char *val,
			struct bonnie_opts *b)
{
	switch (opt) {
	case 'd': b->dir = val; break;
	case 's': return read_size(p, val, b);
	case 'n': b->nspec = val; break;
	case 'm':
		if (!printable(val) || strlen(val) > 64) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "an odd machine name for -m");
			return false;
		}
		b->name = val;
		break;
	case 'r': break; /* recomputed from the scaled size */
	case 'x': bl_plan_note(p, "-x %s (repeats): one run", val); break;
	case 'u':
	case 'g': bl_plan_note(p, "-%c %s dropped", opt, val); break;
	case 'c':
		if (!bl_parse_u64(val, strlen(val), &b->conc, NULL) || b->conc == 0) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read -c %s", val);
			return false;
		}
		break;
	case 'z':
		if (!bl_parse_u64(val, strlen(val), &(uint64_t){0}, NULL)) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read the seed -z %s", val);
			return false;
		}
		b->seed = val;
		break;
	case 'q': b->quiet = true; break;
	case 'f':
		b->fast = true;
		b->fast_arg = a[2] ? a + 2 : NULL;
		break;
	case 'b': b->nobuf = true; break;
	case 'D': b->direct = true; break;
	case 'p':
	case 'y':
		bl_plan_refuse(p, BL_PLAN_REFUSED,
			       "bonnie++ -%c synchronises several processes through semaphores: "
			       "not replayed",
			       opt);
		return false;
	case 'Z':
		bl_plan_refuse(p, BL_PLAN_REFUSED,
			       "bonnie++ -Z reads random data from a file of the post's machine");
		return false;
	default:
		bl_plan_refuse(p, BL_PLAN_REFUSED, "bonnie++ option -%c is not on the allowlist",
			       opt);
		return false;
	}
	return true;
}

/* The words after "bonnie++" ("-d /tank", "-s4g", "-f") into b, each
 * checked; false when one is refused. */
static bool read_options(struct bl_plan *p, const struct bl_words *w, struct bonnie_opts *b)
{
	memset(b, 0, sizeof *b);
	for (size_t i = 1; i < w->n; i++) {
		const char *a = w->v[i];
		if (a[0] != '-' || !a[1]) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not a bonnie++ option", a);
			return false;
		}
		char opt = a[1];
		const char *val = NULL;
		if (takes_value(opt)) {
			if (a[2])
				val = a + 2;
			else if (i + 1 < w->n)
				val = w->v[++i];
			else {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "bonnie++ -%c without its value",
					       opt);
				return false;
			}
		} else if (a[2] && opt != 'f') {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not a bonnie++ option", a);
			return false;
		}
		if (!read_option(p, opt, a, val, b))
			return false;
	}
	/* "-f256": the size of the fast mode must read too */
	if (b->fast_arg) {
		uint64_t fm;
		if (!bl_bonnie_size_mib(b->fast_arg, &fm)) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read -f%s", b->fast_arg);
			return false;
		}
	}
	if (b->dir && bl_dev_kind(b->dir) != BL_DEV_NONE) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "-d %s is not a directory replay can use",
			       b->dir);
		return false;
	}
	return true;
}

/* -d: the post's directory (or ".") re-rooted into the scratch dir;
 * false when it cannot be placed. */
static bool add_dir(struct bl_plan *p, const char *scratch, const char *dir)
{
	const char *d = bl_plan_path(p, scratch, dir ? dir : ".", BL_PATH_DIR, 0, false);
	if (!d) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place the directory");
		return false;
	}
	if (dir && strcmp(dir, d) != 0)
		bl_plan_note(p, "-d %s re-rooted into the scratch directory", dir);
	bl_plan_arg(p, "-d");
	bl_plan_arg(p, d);
	return true;
}

/* IO tests: -s scaled to the budget in MiB (0: under 2 MiB) and -r half
 * of it; returns the new -s (-s 0 stays: file tests only). */
static uint64_t add_size(struct bl_plan *p, const struct bonnie_opts *b, uint64_t budget_mib)
{
	uint64_t new_mib =
		b->has_size ? (b->size_mib < budget_mib ? b->size_mib : budget_mib) : budget_mib;
	if (b->has_size && b->size_mib == 0)
		new_mib = 0;
	if (!budget_mib && (!b->has_size || b->size_mib))
		bl_plan_note(p, "a budget under 2 MiB: IO tests skipped (-s 0)");
	else if (!b->has_size)
		bl_plan_note(p, "no -s in the post (bonnie++ would use twice the RAM): -s %llu",
			     (unsigned long long)new_mib);
	else if (new_mib != b->size_mib)
		bl_plan_note(p, "-s %llu scaled to -s %llu", (unsigned long long)b->size_mib,
			     (unsigned long long)new_mib);
	if (b->chunk)
		bl_plan_argf(p, "-s%llu:%llu", (unsigned long long)new_mib,
			     (unsigned long long)b->chunk);
	else
		bl_plan_argf(p, "-s%llu", (unsigned long long)new_mib);
	if (new_mib > 0)
		bl_plan_argf(p, "-r%llu", (unsigned long long)(new_mib / 2));
	else
		bl_plan_arg(p, "-r0");
	return new_mib;
}

/* File tests: "-n 16" is 16*1024 files; "-n 128:20000:16:64" sizes.
 * The count capped to the budget; false when -n does not read. */
static bool add_files(struct bl_plan *p, const char *nspec, uint64_t budget)
{
	uint64_t nfiles = 16, fmax = 0;
	char rest[128] = "";
	if (nspec) {
		char buf[128];
		snprintf(buf, sizeof buf, "%s", nspec);
		char *colon = strchr(buf, ':');
		if (colon && strspn(colon, ":0123456789kKmMgG") != strlen(colon)) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read -n %s", nspec);
			return false;
		}
		if (colon) {
			snprintf(rest, sizeof rest, "%s", colon);
			*colon = '\0';
			uint64_t v;
			size_t end;
			if (bl_parse_u64(colon + 1, strlen(colon + 1), &v, &end))
				fmax = v;
		}
		if (!bl_parse_u64(buf, strlen(buf), &nfiles, NULL)) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read -n %s", nspec);
			return false;
		}
	}
	/* file tests take time more than space: 1024 files per 16 MiB of
	 * budget, at most the default 16 */
	uint64_t ncap = budget / (16ULL << 20);
	if (ncap < 1)
		ncap = 1;
	if (ncap > 16)
		ncap = 16;
	if (fmax) {
		uint64_t per = fmax * 1024; /* bytes of 1024 files at the largest size */
		uint64_t room = per ? budget / per : 16;
		if (room < ncap)
			ncap = room;
		if (ncap == 0 && nfiles) {
			bl_plan_note(p, "-n %s: files too large for the budget; sizes dropped",
				     nspec);
			rest[0] = '\0';
			ncap = 1;
		}
	}
	if (nfiles > ncap) {
		bl_plan_note(p, "-n %llu capped to %llu (x1024 files)", (unsigned long long)nfiles,
			     (unsigned long long)ncap);
		nfiles = ncap;
	}
	bl_plan_argf(p, "-n%llu%s", (unsigned long long)nfiles, rest);
	return true;
}

/* The options that pass unchanged (-m -c -z -f -b -D -q), one run (-x1),
 * and -u root when replay runs as root. */
static void add_rest(struct bl_plan *p, const struct bonnie_opts *b)
{
	if (b->name)
		bl_plan_argf(p, "-m%s", b->name);
	bl_plan_arg(p, "-x1");
	if (b->conc)
		bl_plan_argf(p, "-c%llu", (unsigned long long)(b->conc > 4 ? 4 : b->conc));
	if (b->seed)
		bl_plan_argf(p, "-z%s", b->seed);
	if (b->fast)
		bl_plan_arg(p, "-f");
	if (b->nobuf)
		bl_plan_arg(p, "-b");
	if (b->direct)
		bl_plan_arg(p, "-D");
	if (b->quiet)
		bl_plan_arg(p, "-q");
	/* bonnie++ refuses to run as root unless told which user to be */
	if (geteuid() == 0)
		bl_plan_arg(p, "-uroot");
}

void bl_plan_bonnie(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c)
{
	struct bonnie_opts b;
	if (!read_options(p, w, &b))
		return;
	uint64_t budget = bl_budget_bytes(c->o);
	/* below 2 MiB there is no -s with -r half of it: file tests only */
	uint64_t budget_mib = budget >> 20;
	if (budget_mib < 2)
		budget_mib = 0;

	bl_plan_arg(p, "bonnie++");
	if (!add_dir(p, c->scratch, b.dir))
		return;
	uint64_t new_mib = add_size(p, &b, budget_mib);
	if (!add_files(p, b.nspec, budget))
		return;
	add_rest(p, &b);

	p->cwd = bl_reroot(c->scratch, ".");
	p->archived_bytes = b.has_size ? b.size_mib << 20 : 0;
	p->replay_bytes = new_mib << 20;
	p->scale = bl_scale_ratio(p->replay_bytes, p->archived_bytes);
}
