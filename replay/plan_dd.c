/* plan_dd.c - a dd command from a post as a safe GNU dd argv.
 *
 *   dd if=/dev/zero of=/data01/test01 bs=1m count=2000        (FreeBSD post)
 * becomes, with a 256 MiB budget,
 *   dd if=/dev/zero of=<scratch>/fs/data01/test01 bs=1M count=256
 *
 * Operands are key=value words from an allowlist; the output file is
 * re-rooted into the scratch directory, only /dev/null may be written
 * outside it, and an input device is replaced by a scratch file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct dd_ops {
	const char *in, *out;
	uint64_t bs, ibs, obs, count, skip, seek;
	bool has_bs, has_ibs, has_obs, has_count, has_skip, has_seek;
	const char *conv, *iflag, *oflag, *status;
	const char *spelled[4]; /* bs, ibs, obs, count as written */
};

static bool in_list(const char *v, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (strcmp(v, *allowed) == 0)
			return true;
	return false;
}

/* The first comma-separated flag of `v` that is in `set` (in_set) or not
 * (!in_set), copied to buf; NULL when there is none. */
static const char *find_flag(const char *v, const char *const *set, bool in_set, char *buf,
			     size_t n)
{
	const char *s = v;
	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l >= n)
			l = n - 1;
		memcpy(buf, s, l);
		buf[l] = '\0';
		if (in_list(buf, set) == in_set)
			return buf;
		s += l;
		if (*s == ',')
			s++;
	}
	return NULL;
}

/* Each comma-separated flag of `v` must be allowed. Returns the first one
 * that is not, or NULL. */
static const char *bad_flag(const char *v, const char *const *allowed, char *buf, size_t n)
{
	return find_flag(v, allowed, false, buf, n);
}

static const char *const conv_ok[] = {"notrunc", "noerror", "sync",    "fdatasync", "fsync",
				      "sparse",  "excl",    "nocreat", NULL};
static const char *const flag_ok[] = {
	"direct",     "dsync",      "sync",     "nocache", "noatime", "fullblock", "count_bytes",
	"skip_bytes", "seek_bytes", "nonblock", "append",  "fsync",   NULL};
static const char *const status_ok[] = {"none", "noxfer", "progress", NULL};

static bool parse_ops(struct bl_plan *p, const struct bl_words *w, bool bsd, struct dd_ops *d)
{
	memset(d, 0, sizeof *d);
	for (size_t i = 1; i < w->n; i++) {
		const char *word = w->v[i];
		const char *eq = strchr(word, '=');
		if (!eq || eq == word) {
			bl_plan_refuse(p, BL_PLAN_REFUSED, "'%s' is not a dd operand (key=value)",
				       word);
			return false;
		}
		size_t kl = (size_t)(eq - word);
		const char *v = eq + 1;
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(word, s, kl) == 0)
		uint64_t *num = NULL;
		bool *has = NULL;
		int sp = -1;
		if (KEY("if")) {
			if (d->in) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "two if= operands");
				return false;
			}
			d->in = v;
		} else if (KEY("of")) {
			if (d->out) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "two of= operands");
				return false;
			}
			d->out = v;
		} else if (KEY("bs")) {
			num = &d->bs, has = &d->has_bs, sp = 0;
		} else if (KEY("ibs")) {
			num = &d->ibs, has = &d->has_ibs, sp = 1;
		} else if (KEY("obs")) {
			num = &d->obs, has = &d->has_obs, sp = 2;
		} else if (KEY("count")) {
			num = &d->count, has = &d->has_count, sp = 3;
		} else if (KEY("skip") || KEY("iseek")) {
			num = &d->skip, has = &d->has_skip;
		} else if (KEY("seek") || KEY("oseek")) {
			num = &d->seek, has = &d->has_seek;
		} else if (KEY("conv")) {
			d->conv = v;
		} else if (KEY("iflag")) {
			d->iflag = v;
		} else if (KEY("oflag")) {
			d->oflag = v;
		} else if (KEY("status")) {
			d->status = v;
		} else {
			bl_plan_refuse(p, BL_PLAN_REFUSED,
				       "the dd operand '%.*s' is not on the allowlist", (int)kl,
				       word);
			return false;
		}
#undef KEY
		if (num) {
			if (!bl_dd_size(v, bsd, num)) {
				bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot read the dd size '%s'",
					       word);
				return false;
			}
			*has = true;
			if (sp >= 0)
				d->spelled[sp] = v;
		}
	}
	char bad[64];
	if (d->conv && bad_flag(d->conv, conv_ok, bad, sizeof bad)) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "conv=%s is not on the allowlist", bad);
		return false;
	}
	if ((d->iflag && bad_flag(d->iflag, flag_ok, bad, sizeof bad)) ||
	    (d->oflag && bad_flag(d->oflag, flag_ok, bad, sizeof bad))) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "the dd flag '%s' is not on the allowlist", bad);
		return false;
	}
	if (d->status && !in_list(d->status, status_ok)) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "status=%s is not a dd status", d->status);
		return false;
	}
	return true;
}

/* Whether the comma-separated list holds `flag` ("direct,count_bytes"). */
static bool has_flag(const char *list, const char *flag)
{
	size_t fl = strlen(flag);
	const char *s = list;
	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == fl && memcmp(s, flag, fl) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

/* Block sizes replay allocates: at most BL_MAX_BLOCK and the budget. */
static uint64_t clamp_block(struct bl_plan *p, const char *name, uint64_t v, uint64_t budget)
{
	uint64_t cap = budget < BL_MAX_BLOCK ? budget : BL_MAX_BLOCK;
	if (v <= cap && v > 0)
		return v;
	uint64_t b = 1;
	while (b * 2 <= cap)
		b *= 2;
	bl_plan_note(p, "%s=%llu is more than replay allocates: %s=%llu", name,
		     (unsigned long long)v, name, (unsigned long long)b);
	return b;
}

/* The bytes a file written by an earlier plan of this document will hold. */
static uint64_t written_before(const struct bl_plan_ctx *c, const char *path)
{
	for (size_t i = 0; i + 1 < c->set->n; i++) {
		const struct bl_plan *q = &c->set->v[i];
		if (q->status != BL_PLAN_READY)
			continue;
		for (size_t k = 0; k < q->npaths; k++)
			if (q->paths[k].role == BL_PATH_WRITE &&
			    strcmp(q->paths[k].path, path) == 0)
				return q->replay_bytes;
	}
	return 0;
}

static void add_size(struct bl_plan *p, const char *key, uint64_t v, const char *spelled)
{
	char buf[32];
	bl_dd_size_gnu(v, buf, sizeof buf);
	bl_plan_argf(p, "%s=%s", key, buf);
	if (spelled && strcmp(spelled, buf) != 0)
		bl_plan_note(p, "%s=%s written the GNU way: %s=%s", key, spelled, key, buf);
}

/* Where the data comes from and goes to: an if= is needed, and no device
 * but /dev/null is written. The kinds of both ends (no of=: /dev/null);
 * false when refused. */
static bool check_ends(struct bl_plan *p, const struct dd_ops *d, enum bl_dev_kind *kin,
		       enum bl_dev_kind *kout)
{
	if (!d->in) {
		bl_plan_refuse(
			p, BL_PLAN_REFUSED,
			"dd reads standard input here (no if=): what the post fed it is unknown");
		return false;
	}
	*kin = bl_dev_kind(d->in);
	*kout = d->out ? bl_dev_kind(d->out) : BL_DEV_NULL;
	if (d->out && *kout != BL_DEV_NULL && *kout != BL_DEV_NONE) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "writes to the device %s (%s): refused", d->out,
			       bl_dev_describe(d->out));
		return false;
	}
	return true;
}

/* What the sizes of a dd command come to on replay. */
struct dd_sizes {
	uint64_t archived; /* bytes the post's run moved (0: unknown) */
	uint64_t target; /* bytes the replay may move */
	uint64_t nibs, nobs; /* the block sizes replay allocates */
	uint64_t skip_bytes; /* bytes of the input skipped */
	bool count_bytes; /* iflag=count_bytes: count= is in bytes */
};

/* The sizes of d scaled to the budget into z; a skip= or seek= past the
 * budget is dropped from d. */
static void plan_sizes(struct bl_plan *p, const struct bl_plan_ctx *c, struct dd_ops *d,
		       uint64_t budget, struct dd_sizes *z)
{
	uint64_t ibs = d->has_ibs ? d->ibs : d->has_bs ? d->bs : 512;
	uint64_t obs = d->has_obs ? d->obs : d->has_bs ? d->bs : 512;
	z->count_bytes = has_flag(d->iflag, "count_bytes");
	/* what the command asked for; else what the post says it moved */
	double printed = bl_run_value(c->run, "bytes");
	z->archived = 0;
	if (d->has_count)
		z->archived = z->count_bytes                            ? d->count
			      : d->count > UINT64_MAX / (ibs ? ibs : 1) ? UINT64_MAX
									: d->count * ibs;
	else if (printed > 0)
		z->archived = (uint64_t)printed;
	z->target = bl_scale_bytes(z->archived, budget);

	z->nibs = clamp_block(p, d->has_bs ? "bs" : "ibs", ibs, budget);
	z->nobs = clamp_block(p, d->has_bs ? "bs" : "obs", obs, budget);

	z->skip_bytes = d->has_skip ? (has_flag(d->iflag, "skip_bytes") ? d->skip
				       : d->skip > UINT64_MAX / z->nibs ? UINT64_MAX
									: d->skip * z->nibs)
				    : 0;
	if (z->skip_bytes > budget) {
		bl_plan_note(p, "skip=%llu dropped: it starts past the budget",
			     (unsigned long long)d->skip);
		d->has_skip = false;
		z->skip_bytes = 0;
	}
	if (d->has_seek) {
		uint64_t sb = has_flag(d->oflag, "seek_bytes") ? d->seek
			      : d->seek > UINT64_MAX / z->nobs ? UINT64_MAX
							       : d->seek * z->nobs;
		if (sb > budget) {
			bl_plan_note(
				p, "seek=%llu dropped: it would make a sparse file past the budget",
				(unsigned long long)d->seek);
			d->has_seek = false;
		}
	}
}

/* if=: /dev/zero or /dev/urandom as they are, else a scratch file (a
 * device's stand-in, or what an earlier run writes). *replay: the bytes
 * the run reads. False when the input cannot be placed. */
static bool add_input(struct bl_plan *p, const struct bl_plan_ctx *c, const struct dd_ops *d,
		      enum bl_dev_kind kin, const struct dd_sizes *z, uint64_t *replay)
{
	*replay = z->target;
	if (kin == BL_DEV_ZERO || kin == BL_DEV_RANDOM) {
		bl_plan_argf(p, "if=%s", kin == BL_DEV_ZERO ? "/dev/zero" : "/dev/urandom");
		return true;
	}
	bool replaced = kin == BL_DEV_OTHER;
	const char *path = bl_plan_path(p, c->scratch, d->in, BL_PATH_READ,
					z->target + z->skip_bytes, replaced);
	if (!path) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place the input '%s'", d->in);
		return false;
	}
	if (replaced)
		bl_plan_note(p, "reads %s (%s): a scratch file of %llu bytes instead", d->in,
			     bl_dev_describe(d->in),
			     (unsigned long long)(z->target + z->skip_bytes));
	uint64_t before = written_before(c, path);
	if (before)
		*replay = before;
	if (!d->has_count && !z->archived && !before)
		bl_plan_note(p,
			     "reads a file the post did not show being written: a scratch "
			     "file of %llu bytes",
			     (unsigned long long)z->target);
	bl_plan_argf(p, "if=%s", path);
	return true;
}

/* of=: /dev/null (also for standard output), else the post's file
 * re-rooted into the scratch dir; false when it cannot be placed. */
static bool add_output(struct bl_plan *p, const char *scratch, const char *out,
		       enum bl_dev_kind kout)
{
	if (kout == BL_DEV_NULL) {
		bl_plan_arg(p, "of=/dev/null");
		if (!out)
			bl_plan_note(p, "the data went to standard output: of=/dev/null instead");
		return true;
	}
	const char *path = bl_plan_path(p, scratch, out, BL_PATH_WRITE, 0, false);
	if (!path) {
		bl_plan_refuse(p, BL_PLAN_REFUSED, "cannot place the output '%s'", out);
		return false;
	}
	bl_plan_argf(p, "of=%s", path);
	return true;
}

/* Block sizes as written (bs=, or ibs= and obs=), clamped, the GNU way. */
static void add_blocks(struct bl_plan *p, const struct dd_ops *d, const struct dd_sizes *z)
{
	if (d->has_bs && z->nibs == z->nobs && !d->has_ibs && !d->has_obs) {
		add_size(p, "bs", z->nibs, d->spelled[0]);
		return;
	}
	if (d->has_ibs || d->has_bs)
		add_size(p, "ibs", z->nibs, d->has_ibs ? d->spelled[1] : d->spelled[0]);
	if (d->has_obs || d->has_bs)
		add_size(p, "obs", z->nobs, d->has_obs ? d->spelled[2] : d->spelled[0]);
}

/* count=: the `replay` bytes in input blocks (in bytes for
 * iflag=count_bytes), at least 1; returns the bytes it moves. */
static uint64_t add_count(struct bl_plan *p, const struct dd_ops *d, const struct dd_sizes *z,
			  uint64_t replay)
{
	uint64_t n = z->count_bytes ? replay : replay / z->nibs;
	if (n == 0)
		n = 1;
	if (!d->has_count)
		bl_plan_note(p, "no count in the post: count=%llu", (unsigned long long)n);
	else if (n != d->count)
		bl_plan_note(p, "count=%s scaled to count=%llu",
			     d->spelled[3] ? d->spelled[3] : "?", (unsigned long long)n);
	bl_plan_argf(p, "count=%llu", (unsigned long long)n);
	return z->count_bytes ? n : n * z->nibs;
}

/* Whether dd's own flags already keep the cache out of a write:
 * conv=fsync / fdatasync, oflag=direct / sync / dsync. */
static bool flushes(const char *conv, const char *oflag)
{
	/* conv=sync pads input blocks: no flush */
	static const char *const conv_flush[] = {"fsync", "fdatasync", NULL};
	static const char *const oflag_flush[] = {"direct", "sync", "dsync", NULL};
	char buf[64];
	return find_flag(conv, conv_flush, true, buf, sizeof buf) ||
	       find_flag(oflag, oflag_flush, true, buf, sizeof buf);
}

/* conv=, iflag=, oflag= as allowed; FreeBSD oflag=fsync is GNU
 * conv=fsync; status= but progress is dropped. A write to a file gets
 * conv=fdatasync when nothing in the post's flags flushes it: dd's time
 * then includes the device, not only the page cache. */
static void add_flags(struct bl_plan *p, const struct dd_ops *d, bool to_file)
{
	char conv[256] = "";
	if (d->conv)
		snprintf(conv, sizeof conv, "%s", d->conv);
	char oflag[256] = "";
	if (d->oflag) {
		const char *s = d->oflag;
		while (*s) {
			const char *e = strchr(s, ',');
			size_t l = e ? (size_t)(e - s) : strlen(s);
			char one[64];
			snprintf(one, sizeof one, "%.*s", (int)l, s);
			char *dst = strcmp(one, "fsync") == 0 ? conv : oflag;
			size_t dl = strlen(dst);
			snprintf(dst + dl, 256 - dl, "%s%s", dl ? "," : "", one);
			if (dst == conv)
				bl_plan_note(p, "oflag=fsync (FreeBSD) is conv=fsync for GNU dd");
			s += l;
			if (*s == ',')
				s++;
		}
	}
	if (to_file && !flushes(conv, oflag)) {
		size_t dl = strlen(conv);
		snprintf(conv + dl, sizeof conv - dl, "%sfdatasync", dl ? "," : "");
		bl_plan_note(p, "conv=fdatasync added: the write reaches the device before dd's "
				"time stops");
	}
	if (to_file)
		p->page_cache = "written to the device before dd's time stops";
	if (conv[0])
		bl_plan_argf(p, "conv=%s", conv);
	if (d->iflag)
		bl_plan_argf(p, "iflag=%s", d->iflag);
	if (oflag[0])
		bl_plan_argf(p, "oflag=%s", oflag);
	if (d->status && strcmp(d->status, "progress") == 0)
		bl_plan_arg(p, "status=progress");
	else if (d->status)
		bl_plan_note(p, "status=%s dropped: replay needs dd's summary", d->status);
}

void bl_plan_dd(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c)
{
	const char *variant = json_string_value(json_object_get(c->run, "variant"));
	bool bsd = variant && strcmp(variant, "bsd") == 0;
	struct dd_ops d;
	if (!parse_ops(p, w, bsd, &d))
		return;
	uint64_t budget = bl_budget_bytes(c->o);
	enum bl_dev_kind kin, kout;
	if (!check_ends(p, &d, &kin, &kout))
		return;
	struct dd_sizes z;
	plan_sizes(p, c, &d, budget, &z);

	bl_plan_arg(p, "dd");
	uint64_t replay;
	if (!add_input(p, c, &d, kin, &z, &replay) || !add_output(p, c->scratch, d.out, kout))
		return;
	add_blocks(p, &d, &z);
	/* count: bounded whenever a count was given or the source is endless
	 * (/dev/zero) or a device's stand-in */
	if (d.has_count || kin == BL_DEV_ZERO || kin == BL_DEV_RANDOM || kin == BL_DEV_OTHER)
		replay = add_count(p, &d, &z, replay);
	if (d.has_skip)
		bl_plan_argf(p, "skip=%llu", (unsigned long long)d.skip);
	if (d.has_seek)
		bl_plan_argf(p, "seek=%llu", (unsigned long long)d.seek);
	add_flags(p, &d, kout == BL_DEV_NONE);
	if (kin == BL_DEV_NONE && kout != BL_DEV_NONE)
		p->page_cache = "input dropped from the page cache before the run";

	char *cwd = bl_reroot(c->scratch, ".");
	p->cwd = cwd;
	p->archived_bytes = z.archived;
	p->replay_bytes = replay;
	p->scale = bl_scale_ratio(replay, z.archived);
	if (z.archived > replay)
		bl_plan_note(p, "scaled to %.4g of the post's %llu bytes", p->scale,
			     (unsigned long long)z.archived);
}
