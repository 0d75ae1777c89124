/* zpool_iostat.c - zpool iostat reports: Solaris, FreeBSD 8-12, zfs-fuse
 * and OpenZFS, with -v -l -q -w -r -H -p -T and interval samples.
 *
 * A report is a two-line header, a dash row, then one row per pool (and
 * with -v per vdev, indented two spaces a level):
 *
 *                 capacity     operations    bandwidth
 *   pool        alloc   free   read  write   read  write
 *   ----------  -----  -----  -----  -----  -----  -----
 *   tank         181M  68.9M     15    355  61.2K  10.3M
 *     mirror-0   181M  68.9M     15    355  61.2K  10.3M
 *       ada0        -      -      2    263   126K  10.4M
 *   logs            -      -      -      -      -      -
 *     ada2         4K   123M      3     19   126K  1.34M
 *
 * Old releases print "used  avail" for "alloc  free". -l and -q append
 * column groups to the same header; -w and -r print one histogram per
 * vdev instead (see zpool_numbers.c for its labels). "zpool iostat 5 10"
 * repeats the report: with -v the header comes again each time, without
 * it only the rows do; -T prints a time line before each. The first report
 * averages the time since boot (or import), unless -y.
 *
 * One run per report; every number is one result placed by pool, vdev
 * (its path in the tree), name, depth, vdev_type, class and sample. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdwords.h"
#include "../base/find.h"
#include "../base/hash.h"
#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"
#include "zpool_iostat.h"

extern const struct bl_parser bl_parser_zpool_iostat;

/* "               capacity     operations    bandwidth"
 * "              capacity     operations    bandwidth    total_wait     disk_wait ..." */
static struct bl_re top_re = BL_RE("^[ \\t]*capacity[ \\t]+operations[ \\t]+bandwidth\\b", 0);

/* -w / -r: the vdev's name over the histogram's column groups
 * "tank         total_wait     disk_wait    syncq_wait    asyncq_wait"
 * "tank          sync_read    sync_write    async_read   async_write      scrub ..." */
static struct bl_re histo_top_re = BL_RE(
	"^[ \\t]*(\\S{1,256})[ \\t]+(?:total_wait[ \\t]+disk_wait|sync_read[ \\t]+sync_write)\\b",
	0);

/* "pool        alloc   free   read  write   read  write"
 * "pool         used  avail   read  write   read  write"        (old)
 * "latency      read  write   read  write ... scrub   trim  rebuild"  (-w)
 * "req_size      ind    agg    ind    agg ..."                         (-r) */
static struct bl_re bottom_re =
	BL_RE("^[ \\t]*(pool|vdev|latency|req_size)[ \\t]+(?:alloc|used|read|ind)[ \\t]", 0);

/* The bottom line alone, its top line cut by the author or lost to a
 * markdown heading: "pool        alloc   free   read  write   read  write" */
static struct bl_re bottom_only_re = BL_RE(
	"^[ \\t]*(?:pool|vdev)[ \\t]+(?:alloc|used)[ \\t]+(?:free|avail)[ \\t]+read[ \\t]+write"
	"[ \\t]+read[ \\t]+write\\b",
	0);

/* "----------  -----  -----  -----  -----  -----  -----", and what markdown
 * or a mail client made of it: "---", "———", "== ==" */
static struct bl_re dashes_re =
	BL_RE("^[ \\t|+]*(?:[-=_\\x{2013}\\x{2014}\\x{2500}]{3,}[ \\t|+]*)+$", 0);

/* -T u: "1796018647"; -T d: "Mon Nov 30 06:04:08 UTC 2026", "Mon Nov 30 06:04:08 2026" */
static struct bl_re stamp_u_re = BL_RE("^[ \\t]*(\\d{9,11})[ \\t]*$", 0);
static struct bl_re stamp_d_re = BL_RE(
	"^[ \\t]*((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[ \\t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct"
	"|Nov|Dec)[ \\t]+\\d{1,2}[ \\t]+\\d{1,2}:\\d\\d:\\d\\d(?:[ \\t]+[A-Z]{1,6}[+-]?\\d{0,4})?"
	"[ \\t]+\\d{4})[ \\t]*$",
	0);

/* An elision an author put for what was left out: "...", "[...]", "(snip)", "…" */
static struct bl_re elision_re = BL_RE(
	"^[ \\t]*(?:\\.{3,}|\\[\\.{3}\\]|\\(\\.{3}\\)|\\x{2026}|\\[\\x{2026}\\]|[\\[(<]?snip[\\])>]?)[ \\t]*$",
	PCRE2_CASELESS);

/* "mirror-0" "raidz2-1" "draid2:3d:8c:1s-0" "spare-3" "replacing-0", and
 * the unnumbered "mirror" "raidz1" of zfs-fuse and old releases */
static struct bl_re vtype_re = BL_RE(
	"^(mirror|raidz[123]?|draid[123]?|spare|replacing|indirect|root)(?:[:\\-][\\w:\\-]*)?$", 0);

/* The first byte of a line past its blanks (0 for none): most lines of a
 * report are rows, and a pattern above is tried only where the line can
 * start as it does. */
static unsigned char lead(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n ? (unsigned char)s[i] : 0;
}

/* The first bytes of the lines each kind of line may start with, a bit
 * each (a table, not strchr: every row of a report is asked all three). */
enum { LEAD_STAMP = 1, LEAD_DASHES = 2, LEAD_ELISION = 4 };
static const unsigned char leads[256] = {
	['0'] = LEAD_STAMP,   ['1'] = LEAD_STAMP,   ['2'] = LEAD_STAMP,
	['3'] = LEAD_STAMP,   ['4'] = LEAD_STAMP,   ['5'] = LEAD_STAMP,
	['6'] = LEAD_STAMP,   ['7'] = LEAD_STAMP,   ['8'] = LEAD_STAMP,
	['9'] = LEAD_STAMP,   ['M'] = LEAD_STAMP,   ['T'] = LEAD_STAMP,
	['W'] = LEAD_STAMP,   ['F'] = LEAD_STAMP,   ['S'] = LEAD_STAMP | LEAD_ELISION,
	['-'] = LEAD_DASHES,  ['='] = LEAD_DASHES,  ['_'] = LEAD_DASHES,
	['|'] = LEAD_DASHES,  ['+'] = LEAD_DASHES,  [0xE2] = LEAD_DASHES | LEAD_ELISION,
	['.'] = LEAD_ELISION, ['['] = LEAD_ELISION, ['('] = LEAD_ELISION,
	['<'] = LEAD_ELISION, ['s'] = LEAD_ELISION,
};

/* A digit, or a day's first letter: "1796018647", "Mon Nov 30 ..." */
static bool maybe_stamp(unsigned char c)
{
	return leads[c] & LEAD_STAMP;
}

/* "--", "==", "__", "|", "+" or a dash or box line of U+2013, U+2014,
 * U+2500 (UTF-8 starting 0xE2) */
static bool maybe_dashes(unsigned char c)
{
	return leads[c] & LEAD_DASHES;
}

/* "...", "[...]", "(...)", "<snip>", "snip", U+2026 */
static bool maybe_elision(unsigned char c)
{
	return leads[c] & LEAD_ELISION;
}

/* Whether s is a rule of ASCII dashes: "----------  -----  -----",
 * runs of three at least apart by blanks, as dashes_re has them. False
 * where it cannot tell (other characters): then the pattern does. */
static bool ascii_rule(const char *s, size_t n)
{
	size_t run = 0, runs = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '-') {
			run++;
			continue;
		}
		if ((s[i] != ' ' && s[i] != '\t') || (run > 0 && run < 3))
			return false;
		runs += run > 0;
		run = 0;
	}
	return (runs > 0 || run >= 3) && (run == 0 || run >= 3);
}

/* Whether s starts, past its blanks, with the words of top_re apart by
 * blanks: "   capacity     operations    bandwidth". False where it
 * cannot tell (a byte past ASCII after them): then the pattern does. */
static bool ascii_top(const char *s, size_t n)
{
	static const char *const words[] = {"capacity", "operations", "bandwidth"};
	size_t i = 0;
	for (size_t w = 0; w < 3; w++) {
		size_t blanks = i;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		size_t k = strlen(words[w]);
		if ((w > 0 && i == blanks) || n - i < k || memcmp(s + i, words[w], k) != 0)
			return false;
		i += k;
	}
	unsigned char c = i < n ? (unsigned char)s[i] : ' ';
	return !(c >= 0x80 || c == '_' || (c >= '0' && c <= '9') ||
		 ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'));
}

/* the vdev types of vtype_re */
static bool maybe_vtype(unsigned char c)
{
	return c && strchr("mrdsi", c);
}

/* ----------------------------------------------------------------- state */

#define MAX_DEPTH 16
#define MAX_NAME 256
#define MAX_SEEN 4096
/* rows whose coordinates are kept (kept_of), and the longest place */
#define ZP_KEPT 64
#define ZP_KEPT_ID 192

enum zunit { ZU_B, ZU_OPS_S, ZU_B_S, ZU_S, ZU_COUNT, ZU_OPS, ZU_N };

/* The coordinates of a row, kept to place the same row of the next
 * sample (the same pool, vdev, name, depth and class) without setting
 * them one by one. */
struct zkept {
	char id[ZP_KEPT_ID]; /* the row's place, as where_id() writes it */
	size_t nid; /* 0: an empty slot */
	const char *type; /* its vdev_type */
	bool leaf;
	struct bl_coords co; /* co.store 0: not taken yet */
};

struct zp {
	struct bl_scan *sc;
	struct bl_doc *doc;
	struct bl_message *msg;
	long ri;
	struct zcol cols[ZP_MAX_COLS];
	size_t ncols;
	const char *kept_unit[ZU_N]; /* kept_unit() */
	bool histo, histo_lat; /* -w (latency) or -r (request size) */
	bool scripted, vdev_title;
	bool scripted_verbose; /* -Hv: vdev rows among the pools, unindented */
	bool omit_since_boot; /* -y */
	bool indented; /* some row of the report is indented */
	size_t base_indent; /* where the header's title starts: a quoted
				    * or code-block paste shifts the whole table */
	char cmd_pool[MAX_NAME]; /* the only pool the command names, if one */
	char cmd_first[MAX_NAME]; /* the first pool or vdev it names */
	/* the vdev tree as read so far */
	char path[MAX_DEPTH][MAX_NAME];
	char vpath[1024]; /* the path of the last row placed in it */
	size_t vend[MAX_DEPTH]; /* vpath's length through each level; 0: unknown */
	int deepest; /* no level below it has a name or a vend */
	int depth; /* depth of the last row */
	char cls[16]; /* class row in force: logs, cache, special, dedup */
	char last_key[1100]; /* the key of the row before, in this sample */
	char histo_name[MAX_NAME]; /* -w / -r: the vdev the histogram is of */
	/* the header read last, its two lines as they were: -v prints it
	 * again for every sample, and the same lines set the same columns */
	struct {
		char *top, *bot, *dash; /* owned; dash: the last dash row read */
		size_t ntop, nbot, ndash;
	} hdr;
	/* samples */
	long sample;
	/* keys of the rows of the current sample: an open-addressed set of
	 * seen_cap slots, none until the first row, grown up to MAX_SEEN * 2
	 * (as one array from the start, zeroing it cost more than reading the
	 * report of a small pool). A slot holds where its key starts in
	 * `keys` plus one (0: empty); the keys are one after another there,
	 * each with its NUL, and go together when the sample ends. */
	size_t *seen;
	size_t *used; /* the slots taken, to clear them */
	size_t seen_cap, nseen;
	char *keys;
	size_t keys_len, keys_cap;
	size_t rows_in_sample, rows_first;
	struct bl_coord stamp; /* timestamp of the current sample (key NULL:
				    * none); its string owned */
	bool stamp_pending; /* a time line with no rows after it yet */
	size_t stamp_off;
	bool any_row;
	bool niced; /* some value had a unit suffix or decimals */
	/* for the next window (zpool_resume): the sample the last header was
	 * read in, the name of a sample's first row, and whether a time line
	 * begins each sample */
	long hdr_sample;
	char first_name[MAX_NAME];
	bool stamped;
	struct zkept **kept; /* ZP_KEPT slots, made when a second sample
			      * starts; each made when first taken */
};

static void hdr_forget(struct zp *z)
{
	free(z->hdr.top);
	free(z->hdr.bot);
	free(z->hdr.dash);
	z->hdr.top = z->hdr.bot = z->hdr.dash = NULL;
}

static void stamp_free(struct zp *z)
{
	if (z->stamp.key && z->stamp.type == BL_VAL_STR)
		free((char *)z->stamp.v.s);
	z->stamp.key = NULL;
}

static void seen_clear(struct zp *z)
{
	for (size_t i = 0; i < z->nseen; i++)
		z->seen[z->used[i]] = 0;
	z->nseen = 0;
	z->keys_len = 0;
}

/* The key of a taken slot. */
static const char *seen_key(const struct zp *z, size_t slot)
{
	return z->keys + z->seen[slot] - 1;
}

/* Puts a copy of key (n bytes) after the keys; where it starts plus one,
 * or 0 when out of memory. */
static size_t keys_put(struct zp *z, const char *key, size_t n)
{
	if (z->keys_cap - z->keys_len <= n) {
		size_t cap = z->keys_cap ? z->keys_cap : 1024;
		while (cap - z->keys_len <= n)
			cap *= 2;
		char *k = realloc(z->keys, cap);
		if (!k)
			return 0;
		z->keys = k;
		z->keys_cap = cap;
	}
	size_t at = z->keys_len;
	memcpy(z->keys + at, key, n + 1);
	z->keys_len += n + 1;
	return at + 1;
}

static void new_sample(struct zp *z)
{
	if (z->rows_in_sample == 0)
		return;
	if (z->sample == 0 || z->rows_in_sample > z->rows_first)
		z->rows_first = z->rows_in_sample;
	z->sample++;
	z->rows_in_sample = 0;
	seen_clear(z);
	z->last_key[0] = '\0';
	z->cls[0] = '\0';
}

/* A set of four times the slots (64 at first, MAX_SEEN * 2 at most), the
 * keys seen so far moved into it. False when out of memory. */
static bool seen_grow(struct zp *z)
{
	size_t cap = z->seen_cap ? z->seen_cap * 4 : 64;
	if (cap > MAX_SEEN * 2)
		cap = MAX_SEEN * 2;
	size_t *t = calloc(cap, sizeof *t);
	size_t *u = malloc(cap / 2 * sizeof *u);
	if (!t || !u) {
		free(t);
		free(u);
		return false;
	}
	for (size_t k = 0; k < z->nseen; k++) {
		const char *key = seen_key(z, z->used[k]);
		size_t i = bl_hash_bytes(key, strlen(key)) & (cap - 1);
		while (t[i])
			i = (i + 1) & (cap - 1);
		t[i] = z->seen[z->used[k]];
		u[k] = i;
	}
	free(z->seen);
	free(z->used);
	z->seen = t;
	z->used = u;
	z->seen_cap = cap;
	return true;
}

/* Starts a new sample when `key` was already seen in this one: the same
 * pool again (or, where no tree places rows, the same vdev) means the
 * report was printed again. Not so for a row `nested` under another: two
 * top-level vdevs of a pool may have one name (older releases print
 * "raidz2" for each), and a vdev may be printed twice in a row under its
 * parent (a disk being replaced: "    hdd5  -  -  3  93  396K  9.04M"
 * then "    hdd5  -  -  4  93  548K  9.04M"); the pool row above them
 * starts the next sample. Returns false for a repeat in a row. */
static bool sample_key(struct zp *z, const char *key, size_t len, bool nested)
{
	bool again = nested && strcmp(z->last_key, key) == 0;
	size_t h = (size_t)bl_hash_bytes(key, len);
	size_t n = len < sizeof z->last_key - 1 ? len : sizeof z->last_key - 1;
	memcpy(z->last_key, key, n);
	z->last_key[n] = '\0';
	if (again)
		return false;
	if (z->nseen && !nested) {
		size_t mask = z->seen_cap - 1;
		for (size_t i = h & mask; z->seen[i]; i = (i + 1) & mask)
			if (strcmp(seen_key(z, i), key) == 0) {
				new_sample(z);
				break;
			}
	}
	/* at most half the slots taken: a search always ends at an empty one */
	if (z->nseen >= MAX_SEEN || (2 * (z->nseen + 1) > z->seen_cap && !seen_grow(z)))
		return true;
	size_t mask = z->seen_cap - 1, i = h & mask;
	while (z->seen[i])
		i = (i + 1) & mask;
	if ((z->seen[i] = keys_put(z, key, len)) != 0)
		z->used[z->nseen++] = i;
	return true;
}

static const char *vdev_type(const char *name, int depth, bool *leaf)
{
	struct bl_re_match m;
	*leaf = false;
	if (depth == 0)
		return "root";
	if (maybe_vtype((unsigned char)name[0]) &&
	    bl_re_match_copy(&vtype_re, name, strlen(name), 0, &m)) {
		static const char *const types[] = {"mirror",    "raidz1",   "raidz2", "raidz3",
						    "draid1",    "draid2",   "draid3", "spare",
						    "replacing", "indirect", "root"};
		size_t n = bl_re_glen(&m, 1);
		if (n == 5 && memcmp(name, "raidz", 5) == 0)
			return "raidz1"; /* "raidz" is raidz1 */
		if (n == 5 && memcmp(name, "draid", 5) == 0)
			return "draid1";
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
			if (strlen(types[i]) == n && memcmp(types[i], name, n) == 0)
				return types[i];
	}
	*leaf = true;
	return "leaf";
}

/* ------------------------------------------------------------------ rows */

static bool is_class(const struct bl_ztok *t)
{
	return bl_zpool_tok_is(t, "logs") || bl_zpool_tok_is(t, "cache") ||
	       bl_zpool_tok_is(t, "special") || bl_zpool_tok_is(t, "dedup") ||
	       bl_zpool_tok_is(t, "spares");
}

/* A histogram row's bucket: "16K", 16384 to 32767 (bytes, or seconds). */
struct zbucket {
	const char *s;
	size_t n;
	double low, high;
};

/* Where a row stands: the coordinates of its values before the
 * sample's. Each string may be NULL (left out), depth -1. */
struct zwhere {
	const char *pool, *vpath, *name, *type;
	size_t nvpath, nname; /* strlen of vpath and name */
	int depth;
	bool leaf; /* a disk: no capacity of its own */
	const struct zbucket *bucket; /* a histogram's row, or NULL */
	struct zkept *kept; /* its kept coordinates, or NULL */
};

/* The coordinates of w that every sample repeats. */
static void place_row(struct zp *z, struct bl_result *r, const struct zwhere *w)
{
	if (w->pool)
		bl_result_set_str(r, "pool", w->pool);
	if (w->vpath)
		bl_result_set_str(r, "vdev", w->vpath);
	if (w->name)
		bl_result_set_str(r, "name", w->name);
	if (w->depth >= 0)
		bl_result_set_int(r, "depth", w->depth);
	if (w->type)
		bl_result_set_str(r, "vdev_type", w->type);
	if (z->cls[0])
		bl_result_set_str(r, "class", z->cls);
}

static void place(struct zp *z, struct bl_result *r, const struct zwhere *w)
{
	if (!r)
		return;
	if (!w->kept || !bl_result_put_coords(r, &w->kept->co)) {
		place_row(z, r, w);
		if (w->kept)
			bl_coords_take(&w->kept->co, r);
	}
	bl_result_set_int(r, "sample", z->sample);
	if (z->sample == 0 && !z->omit_since_boot)
		bl_result_set_bool(r, "since_boot", true);
	if (z->stamp.key)
		bl_result_set_coord(r, &z->stamp);
	if (w->bucket) {
		bl_result_set_strn(r, "bucket", w->bucket->s, w->bucket->n);
		bl_result_set_real(r, "bucket_low", w->bucket->low);
		bl_result_set_real(r, "bucket_high", w->bucket->high);
	}
}

static const char *const unit_names[ZU_N] = {"B", "ops/s", "B/s", "s", "count", "ops"};

static enum zunit unit_of(const struct zp *z, enum zcol_kind k)
{
	switch (k) {
	case ZC_CAPACITY: return ZU_B;
	case ZC_OPS: return ZU_OPS_S;
	case ZC_BANDWIDTH: return ZU_B_S;
	case ZC_LATENCY: return ZU_S;
	case ZC_QUEUE: return ZU_COUNT;
	case ZC_HISTO:
		/* with no interval, the first histogram counts since boot */
		return z->sample == 0 && !z->omit_since_boot ? ZU_OPS : ZU_OPS_S;
	default: return ZU_COUNT;
	}
}

/* A column's metric and unit as kept names (bl_result_kept_name), looked
 * up once a claim, not once a value; NULL where a name cannot be kept. */
static const char *kept_metric(struct zp *z, size_t i)
{
	struct zcol *c = &z->cols[i];
	return c->kept ? c->kept : (c->kept = bl_result_kept_name(c->metric));
}

static const char *kept_unit(struct zp *z, enum zunit u)
{
	return z->kept_unit[u] ? z->kept_unit[u]
			       : (z->kept_unit[u] = bl_result_kept_name(unit_names[u]));
}

/* A value read once: split_row reads a row's values to tell its name
 * from them, and row_values takes them from there. */
struct znum {
	double v;
	bool ok, dash, approx;
};

/* Reads the values of the row at w into results. vals[0..nv) are the
 * printed tokens, read already where `read` (if any) says so; returns
 * how many were read. */
static size_t row_values(struct zp *z, struct bl_run *run, const struct bl_ztok *vals, size_t nv,
			 const struct zwhere *w, size_t off, const struct znum *read)
{
	size_t done = 0;
	struct bl_result *first = NULL;
	for (size_t i = 0; i < nv && i < z->ncols; i++) {
		const struct zcol *c = &z->cols[i];
		double v;
		bool dash, approx;
		if (read && read[i].ok) {
			v = read[i].v;
			dash = read[i].dash;
			approx = read[i].approx;
		} else if (!bl_zpool_number(vals[i].s, vals[i].n, c->kind == ZC_LATENCY, &v, &dash,
					    &approx)) {
			bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.bad-number", off,
				    "cannot read '%.*s' in column %s",
				    (int)(vals[i].n > 40 ? 40 : vals[i].n), vals[i].s, c->metric);
			z->doc->partial = true;
			continue;
		}
		done++;
		char lastc = vals[i].s[vals[i].n - 1];
		if (approx || (!dash && (lastc < '0' || lastc > '9')))
			z->niced = true;
		/* a leaf has no capacity of its own: "-", or "0" with -p */
		if (c->kind == ZC_CAPACITY &&
		    (dash || (w->leaf && v == 0 && i + 1 < nv && vals[0].n == 1 && vals[1].n == 1 &&
			      vals[0].s[0] == '0' && vals[1].s[0] == '0')))
			continue;
		/* keep the printed text where it was scaled, rounded or a dash */
		bool plain =
			!dash && lastc >= '0' && lastc <= '9' && !approx && c->kind != ZC_LATENCY;
		enum zunit u = unit_of(z, c->kind);
		const char *km = kept_metric(z, i), *ku = kept_unit(z, u);
		struct bl_result *r =
			bl_run_result(run, km ? NULL : c->metric, v, ku ? NULL : unit_names[u],
				      dash ? "-" : NULL, approx ? BL_FLAG_APPROXIMATE : 0);
		if (!r)
			continue;
		if (!plain && !dash)
			bl_result_set_rawn(r, vals[i].s, vals[i].n);
		bl_result_set_kept_names(r, km ? km : r->metric, ku ? ku : r->unit);
		if (first) {
			/* the row's other values: the same place */
			bl_result_copy_coords(r, first);
		} else {
			place(z, r, w);
			first = r;
		}
		if (bl_run_record(run, (size_t)z->sample, off) < 0)
			z->doc->partial = true;
	}
	return done;
}

/* Writes the place of w (its depth, class, pool, path and name, and
 * whether the header named vdevs) to id; its length, or 0 when it does
 * not fit. */
static size_t where_id(const struct zp *z, const struct zwhere *w, char id[ZP_KEPT_ID])
{
	const char *part[4] = {z->cls, w->pool ? w->pool : "", w->vpath, w->name};
	size_t lens[4] = {strlen(z->cls), w->pool ? strlen(w->pool) : 0, w->nvpath, w->nname};
	size_t n = 0;
	id[n++] = (char)(w->depth + 2);
	id[n++] = (char)((w->pool ? 'P' : 'N') + (z->vdev_title ? 1 : 0));
	for (size_t i = 0; i < 4; i++) {
		size_t len = lens[i];
		if (len >= ZP_KEPT_ID - n)
			return 0;
		memcpy(id + n, part[i], len + 1);
		n += len + 1;
	}
	return n;
}

/* Finds the coordinates kept for the row at w: true, with w->kept, type
 * and leaf set, when they are there. Else w->kept is the slot to keep
 * them in (its id set, the rest to fill), or NULL. Rows are kept from
 * the second sample on: the first has nothing to take again. */
static bool kept_of(struct zp *z, struct zwhere *w)
{
	w->kept = NULL;
	if (z->sample == 0 || (!z->kept && !(z->kept = calloc(ZP_KEPT, sizeof *z->kept))))
		return false;
	char id[ZP_KEPT_ID];
	size_t n = where_id(z, w, id);
	if (!n)
		return false;
	struct zkept **slot = &z->kept[bl_hash_bytes(id, n) & (ZP_KEPT - 1)];
	if (!*slot && !(*slot = calloc(1, sizeof **slot)))
		return false;
	struct zkept *k = *slot;
	w->kept = k;
	if (k->nid == n && memcmp(k->id, id, n) == 0) {
		w->type = k->type;
		w->leaf = k->leaf;
		return true;
	}
	memcpy(k->id, id, n);
	k->nid = n;
	k->co.store = 0;
	return false;
}

/* Whether the row of words t[0, n) is a class row: all its values "-". */
static bool dashes_only(const struct bl_ztok *t, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!(t[i].n == 1 && t[i].s[0] == '-'))
			return false;
	return true;
}

/* Splits a row into its name (with indentation) and its values: the name
 * is the first word; when the rest does not read as numbers (a name with a
 * blank in it), the values are the last ncols words. Words past the values
 * are the author's ("<-- here"): reported, not read. */
static bool split_row(struct zp *z, const struct bl_ztok *t, size_t nt, size_t *name_end_tok,
		      size_t *nvals, struct znum *read)
{
	if (nt < 2)
		return false;
	bool time_col;
	double v;
	bool dash, approx;
	size_t good = 0;
	for (size_t i = 1; i < nt && i - 1 < z->ncols; i++) {
		struct znum *r = &read[i - 1];
		time_col = z->cols[i - 1].kind == ZC_LATENCY;
		if (!(r->ok = bl_zpool_number(t[i].s, t[i].n, time_col, &r->v, &r->dash,
					      &r->approx)))
			break;
		good++;
	}
	if (good >= 1 && (good == z->ncols || good == nt - 1)) {
		*name_end_tok = 1;
		*nvals = good;
		return true;
	}
	/* a name with blanks: the values are the last ncols words */
	if (nt > z->ncols + 1) {
		size_t first = nt - z->ncols;
		for (size_t i = first; i < nt; i++) {
			time_col = z->cols[i - first].kind == ZC_LATENCY;
			if (!bl_zpool_number(t[i].s, t[i].n, time_col, &v, &dash, &approx))
				goto marks;
		}
		*name_end_tok = first;
		*nvals = z->ncols;
		return true;
	}
marks:
	/* values followed by the author's words */
	if (good >= 1 && good >= (z->ncols + 1) / 2) {
		*name_end_tok = 1;
		*nvals = good;
		return true;
	}
	return false;
}

/* The path of the row at `depth` in the vdev tree, its levels' names
 * apart by '/' ("tank/mirror-0/ada1"; "?" for a level no row named), in
 * z->vpath, cut to fit; its length. Built on the path of the level above
 * when that is known: its rows come before. */
static size_t tree_path(struct zp *z, int depth)
{
	size_t o = 0;
	int d = 0;
	if (depth > 0 && z->vend[depth - 1]) {
		d = depth;
		o = z->vend[depth - 1];
	}
	for (; d <= depth; d++) {
		if (d)
			o = bl_str_append(z->vpath, sizeof z->vpath, o, "/", 1);
		o = bl_str_append(z->vpath, sizeof z->vpath, o, z->path[d][0] ? z->path[d] : "?",
				  MAX_NAME);
		z->vend[d] = o; /* never 0: a name or "?" */
	}
	return o;
}

/* Places the row named w->name at w->depth (-1: no tree) in the tree:
 * sets its vpath and pool. */
static void row_where(struct zp *z, struct zwhere *w)
{
	int depth = w->depth;
	if (depth >= 0) {
		memcpy(z->path[depth], w->name, w->nname + 1);
		z->vend[depth] = 0;
		for (int d = depth + 1; d <= z->deepest; d++) {
			z->path[d][0] = '\0';
			z->vend[d] = 0;
		}
		z->deepest = depth;
	}
	if (depth >= 0 && !z->vdev_title) {
		w->nvpath = tree_path(z, depth);
		w->vpath = z->vpath;
		w->pool = z->path[0];
		return;
	}
	/* -H, or named vdevs ("zpool iostat -v tank ada0"): no tree to place
	 * the row in. Without -v every -H row is a pool; with it, only a
	 * command naming one pool says which. */
	w->pool = z->cmd_pool[0] ? z->cmd_pool : NULL;
	if (z->vdev_title && z->cmd_first[0])
		w->pool = z->cmd_first;
	if (z->scripted && !w->pool && !z->scripted_verbose)
		w->pool = w->name;
	w->vpath = w->name;
	w->nvpath = w->nname;
}

/* One row of the report, its words t[0, nt); returns false when the
 * line is not a row. `nested`: the row stands under the one before (its
 * indentation lost), as a vdev under its class row. */
static bool read_split_row(struct zp *z, struct bl_run *run, const struct bl_line *l, bool nested,
			   const struct bl_ztok *t, size_t nt)
{
	size_t name_end, nv;
	struct znum read[ZP_MAX_TOK];
	if (!split_row(z, t, nt, &name_end, &nv, read))
		return false;
	size_t indent = nested ? z->base_indent + 2 : (size_t)(t[0].s - l->s);
	indent = indent > z->base_indent ? indent - z->base_indent : 0;
	char name[MAX_NAME];
	size_t nl = (size_t)(t[name_end - 1].s + t[name_end - 1].n - t[0].s);
	nl = bl_str_append(name, sizeof name, 0, t[0].s, nl);
	const struct bl_ztok *vals = &t[name_end];

	if (z->stamp_pending)
		z->stamp_pending = false;
	z->any_row = true;
	if (memchr(l->s, '*', l->len) || memchr(l->s, '`', l->len))
		bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.author-mark", l->off,
			    "emphasis marks around values of this row were set aside");

	/* "logs  -  -  -  -  -  -": the class of the vdevs below */
	if (name_end == 1 && dashes_only(t, nv + 1) && is_class(&t[0]) &&
	    (indent == 0 || !z->indented)) {
		snprintf(z->cls, sizeof z->cls, "%.15s", name);
		return true;
	}

	int depth = z->scripted ? -1 : (int)(indent / 2);
	if (indent > 0)
		z->indented = true;
	if (depth >= MAX_DEPTH)
		depth = MAX_DEPTH - 1;
	if (depth == 0)
		z->cls[0] = '\0';
	struct zwhere w = {.name = name, .nname = nl, .depth = depth};
	row_where(z, &w);
	/* the key of this row in the sample: its class and path */
	char key[1100];
	size_t kn = strlen(z->cls);
	memcpy(key, z->cls, kn);
	key[kn++] = '|';
	memcpy(key + kn, w.vpath, w.nvpath + 1);
	/* nested: under a row of the level above (the rows of a table
	 * indented as a whole are not) */
	if (!sample_key(z, key, kn + w.nvpath, depth > 0 && z->path[depth - 1][0]))
		bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.repeated-vdev", l->off,
			    "'%s' is printed twice in a row: both rows kept in one sample", name);
	if (!z->rows_in_sample)
		memcpy(z->first_name, name, nl + 1);
	z->rows_in_sample++;

	if (!kept_of(z, &w)) {
		w.type = depth >= 0 ? vdev_type(name, depth, &w.leaf) : NULL;
		if (z->vdev_title)
			w.type = NULL;
		if (w.kept) {
			w.kept->type = w.type;
			w.kept->leaf = w.leaf;
		}
	}
	row_values(z, run, vals, nv, &w, l->off, name_end == 1 ? read : NULL);
	if (nv < z->ncols) {
		bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.short-row", l->off,
			    "the row of '%s' has %zu of %zu values: the rest is cut", name, nv,
			    z->ncols);
		z->doc->partial = true;
	}
	size_t used = name_end + nv;
	if (used < nt) {
		const char *ms = t[used].s;
		size_t mlen = (size_t)(l->s + l->len - ms);
		bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.author-note", l->off,
			    "words after the values of '%s' are not zpool's: %.*s", name,
			    (int)(mlen > 80 ? 80 : mlen), ms);
	}
	return true;
}

/* One bucket row of a -w / -r histogram: "1us   0  0  12  ..." */
static bool read_bucket(struct zp *z, struct bl_run *run, const struct bl_line *l)
{
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(l->s, l->len, t, ZP_MAX_TOK);
	if (nt < 2)
		return false;
	int j = z->histo_lat ? bl_zpool_latency_bucket(t[0].s, t[0].n)
			     : bl_zpool_size_bucket(t[0].s, t[0].n);
	if (j < 0)
		return false;
	z->any_row = true;
	z->stamp_pending = false;
	struct zbucket b = {t[0].s, t[0].n, ldexp(1.0, j), ldexp(1.0, j + 1) - 1};
	if (z->histo_lat) {
		b.low /= 1e9;
		b.high /= 1e9;
	}
	char key[MAX_NAME + 16];
	snprintf(key, sizeof key, "%s|%d", z->histo_name, j);
	sample_key(z, key, strlen(key), false);
	if (!z->rows_in_sample)
		snprintf(z->first_name, sizeof z->first_name, "%s", z->histo_name);
	z->rows_in_sample++;
	size_t nv = nt - 1;
	struct zwhere w = {
		.pool = z->cmd_pool[0]  ? z->cmd_pool
			: z->path[0][0] ? z->path[0]
					: NULL,
		.vpath = z->histo_name,
		.name = z->histo_name,
		.nvpath = strlen(z->histo_name),
		.nname = strlen(z->histo_name),
		.depth = -1,
		.bucket = &b,
	};
	row_values(z, run, &t[1], nv, &w, l->off, NULL);
	if (nv < z->ncols) {
		bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.short-row", l->off,
			    "bucket %.*s of '%s' has %zu of %zu values: the rest is cut",
			    (int)t[0].n, t[0].s, z->histo_name, nv, z->ncols);
		z->doc->partial = true;
	}
	return true;
}

/* --------------------------------------------------------------- headers */

/* A header whose top line is missing: the groups follow from the bottom
 * labels ("wait" only under -l, "pend activ" only under -q). */
static bool read_bottom_only(struct zp *z, const struct bl_line *bot, struct bl_line *after)
{
	struct bl_ztok bt[ZP_MAX_TOK];
	struct bl_re_match m;
	size_t nbot = bl_zpool_split(bot->s, bot->len, bt, ZP_MAX_TOK);
	bool lat = false, queue = false;
	for (size_t i = 7; i < nbot; i++) {
		lat |= bl_zpool_tok_is(&bt[i], "wait");
		queue |= bl_zpool_tok_is(&bt[i], "pend");
	}
	struct zcol cols[ZP_MAX_COLS];
	size_t nc = bl_zpool_scripted_columns(lat, queue, nbot - 1, cols);
	if (nc != nbot - 1 || (z->ncols && nc != z->ncols))
		return false;
	hdr_forget(z);
	memcpy(z->cols, cols, sizeof cols);
	z->ncols = nc;
	z->vdev_title = bl_zpool_tok_is(&bt[0], "vdev");
	z->base_indent = (size_t)(bt[0].s - bot->s);
	*after = *bot;
	struct bl_line dash;
	if (bl_line_next(z->msg, bot, &dash) && bl_re_match(&dashes_re, dash.s, dash.len, 0, &m))
		*after = dash;
	return true;
}

/* The line under the header's bottom line `bot` when it is a dash row,
 * else bot: where the rows begin. */
static bool same_text(const struct bl_line *l, const char *s, size_t n)
{
	return s && l->len == n && memcmp(l->s, s, n) == 0;
}

static struct bl_line header_end(struct zp *z, const struct bl_line *bot)
{
	struct bl_line dash;
	struct bl_re_match m;
	if (!bl_line_next(z->msg, bot, &dash))
		return *bot;
	if (same_text(&dash, z->hdr.dash, z->hdr.ndash))
		return dash;
	if (maybe_dashes(lead(dash.s, dash.len)) &&
	    bl_re_match(&dashes_re, dash.s, dash.len, 0, &m)) {
		char *copy = malloc(dash.len + 1);
		if (copy) {
			memcpy(copy, dash.s, dash.len);
			free(z->hdr.dash);
			z->hdr.dash = copy;
			z->hdr.ndash = dash.len;
		}
		return dash;
	}
	return *bot;
}

/* The header at `l` is the one read last, word for word: the columns it
 * sets are set. */
static bool header_again(struct zp *z, const struct bl_line *l, struct bl_line *after)
{
	struct bl_line bot;
	if (!same_text(l, z->hdr.top, z->hdr.ntop) || !bl_line_next(z->msg, l, &bot) ||
	    !same_text(&bot, z->hdr.bot, z->hdr.nbot))
		return false;
	if (z->histo) {
		struct bl_ztok top[1];
		if (bl_zpool_split(l->s, l->len, top, 1) == 1)
			snprintf(z->histo_name, sizeof z->histo_name, "%.*s", (int)top[0].n,
				 top[0].s);
	}
	*after = header_end(z, &bot);
	return true;
}

/* Keeps the header at `l` (bottom line `bot`) as the one read last. */
static void hdr_keep(struct zp *z, const struct bl_line *l, const struct bl_line *bot)
{
	hdr_forget(z);
	z->hdr.top = malloc(l->len + 1);
	z->hdr.bot = malloc(bot->len + 1);
	if (!z->hdr.top || !z->hdr.bot) {
		hdr_forget(z);
		return;
	}
	memcpy(z->hdr.top, l->s, l->len);
	memcpy(z->hdr.bot, bot->s, bot->len);
	z->hdr.ntop = l->len;
	z->hdr.nbot = bot->len;
}

/* Reads a header at `l` (its top line); on success sets the columns and
 * returns the line after the dash row (or after the bottom line). */
static bool read_header(struct zp *z, const struct bl_line *l, struct bl_line *after)
{
	struct bl_line bot;
	struct bl_re_match m;
	if (header_again(z, l, after))
		return true;
	if (bl_re_match(&bottom_only_re, l->s, l->len, 0, &m))
		return read_bottom_only(z, l, after);
	bool histo = !bl_re_match(&top_re, l->s, l->len, 0, &m);
	if (histo && !bl_re_match(&histo_top_re, l->s, l->len, 0, &m))
		return false;
	if (!bl_line_next(z->msg, l, &bot) || !bl_re_match(&bottom_re, bot.s, bot.len, 0, &m))
		return false;
	struct bl_ztok top[ZP_MAX_TOK], bt[ZP_MAX_TOK];
	size_t ntop = bl_zpool_split(l->s, l->len, top, ZP_MAX_TOK);
	size_t nbot = bl_zpool_split(bot.s, bot.len, bt, ZP_MAX_TOK);
	bool title_histo =
		bl_zpool_tok_is(&bt[0], "latency") || bl_zpool_tok_is(&bt[0], "req_size");
	if (histo != title_histo)
		return false;
	struct zcol cols[ZP_MAX_COLS];
	size_t nc = bl_zpool_columns(top, ntop, bt, nbot, histo, cols);
	if (nc < 2)
		return false;
	if (z->ncols && (nc != z->ncols || histo != z->histo)) {
		/* a different report: the block ends here */
		return false;
	}
	memcpy(z->cols, cols, sizeof cols);
	z->ncols = nc;
	z->histo = histo;
	z->histo_lat = histo && bl_zpool_tok_is(&bt[0], "latency");
	z->vdev_title = bl_zpool_tok_is(&bt[0], "vdev");
	z->base_indent = (size_t)(bt[0].s - bot.s);
	if (histo)
		snprintf(z->histo_name, sizeof z->histo_name, "%.*s", (int)top[0].n, top[0].s);
	hdr_keep(z, l, &bot);
	*after = header_end(z, &bot);
	return true;
}

/* ----------------------------------------------------------------- claim */

static bool timestamp(struct zp *z, const struct bl_line *l, bool apply)
{
	struct bl_re_match m;
	struct bl_coord v = {.key = "timestamp"};
	const char *date = NULL;
	size_t dlen = 0;
	if (!maybe_stamp(lead(l->s, l->len)))
		return false;
	if (bl_re_match(&stamp_u_re, l->s, l->len, 0, &m)) {
		uint64_t u;
		if (!bl_parse_u64(l->s + m.ov[2], bl_re_glen(&m, 1), &u, NULL))
			return false;
		v.type = BL_VAL_INT;
		v.v.i = (long long)u;
	} else if (bl_re_match(&stamp_d_re, l->s, l->len, 0, &m)) {
		date = l->s + m.ov[2];
		dlen = bl_re_glen(&m, 1);
		if (!bl_json_string_ok(date, dlen))
			return false;
	} else {
		return false;
	}
	if (!apply)
		return true;
	if (date) {
		char *copy = strndup(date, dlen);
		if (!copy)
			return false;
		v.type = BL_VAL_STR;
		v.v.s = copy;
		v.len = (unsigned)dlen;
	}
	new_sample(z);
	stamp_free(z);
	z->stamp = v;
	z->stamp_pending = true;
	z->stamp_off = l->off;
	return true;
}

static void parse_command(struct zp *z, const char *cmd)
{
	/* "zpool iostat -v -T u tank 5 10" */
	const char *p = cmd;
	size_t npools = 0;
	char first[MAX_NAME] = "";
	bool want_arg = false;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		size_t wl = (size_t)(p - w);
		if (!wl || w[0] == '|' || w[0] == ';' || w[0] == '&' || w[0] == '>')
			break;
		if (want_arg) {
			want_arg = false;
			continue;
		}
		if (w[0] == '-') {
			for (size_t i = 1; i < wl; i++) {
				if (w[i] == 'y')
					z->omit_since_boot = true;
				if ((w[i] == 'T' || w[i] == 'c') && i + 1 == wl)
					want_arg = true;
				if (w[i] == 'T' || w[i] == 'c')
					break;
			}
			continue;
		}
		if ((wl == 5 && memcmp(w, "zpool", 5) == 0) ||
		    (wl == 6 && memcmp(w, "iostat", 6) == 0))
			continue;
		uint64_t n;
		if (bl_parse_u64(w, wl, &n, NULL))
			continue;
		if (npools++ == 0)
			snprintf(first, sizeof first, "%.*s",
				 (int)(wl < MAX_NAME ? wl : MAX_NAME - 1), w);
	}
	if (npools == 1)
		snprintf(z->cmd_pool, sizeof z->cmd_pool, "%s", first);
	snprintf(z->cmd_first, sizeof z->cmd_first, "%s", first);
}

enum zline { ZL_OTHER, ZL_BLANK, ZL_HEADER, ZL_DASHES, ZL_STAMP, ZL_ELISION, ZL_ROW };

static enum zline classify(struct zp *z, const struct bl_line *l)
{
	struct bl_re_match m;
	if (bl_is_blank(l->s, l->len))
		return ZL_BLANK;
	if (l->len > 2000)
		return ZL_OTHER;
	unsigned char c = lead(l->s, l->len);
	if ((c == 'c' && (ascii_top(l->s, l->len) || bl_re_match(&top_re, l->s, l->len, 0, &m))) ||
	    (memchr(l->s, '_', l->len) && bl_re_match(&histo_top_re, l->s, l->len, 0, &m)) ||
	    ((c == 'p' || c == 'v') && bl_re_match(&bottom_only_re, l->s, l->len, 0, &m)))
		return ZL_HEADER;
	if (maybe_dashes(c) &&
	    (ascii_rule(l->s, l->len) || bl_re_match(&dashes_re, l->s, l->len, 0, &m)))
		return ZL_DASHES;
	if (timestamp(z, l, false))
		return ZL_STAMP;
	if (maybe_elision(c) && bl_re_match(&elision_re, l->s, l->len, 0, &m))
		return ZL_ELISION;
	return ZL_ROW;
}

/* Whether the fields of l are separated by blanks that end at 8-column
 * tab stops, as where a page or an editor expanded the TABs of -pH:
 *   "zpool   1483556872192   509307953152    64      12      281656  308598"
 * (every field after the first starts at a multiple of 8; six at least). */
static bool expanded_tabs(const struct bl_line *l)
{
	size_t fields = 0, i = 0;
	while (i < l->len && l->s[i] != ' ')
		i++;
	if (i == 0)
		return false;
	while (i < l->len) {
		size_t b = i;
		while (i < l->len && l->s[i] == ' ')
			i++;
		if (i == l->len)
			break; /* blanks at the end */
		if (i % 8 != 0 || i - b > 8)
			return false;
		fields++;
		while (i < l->len && l->s[i] != ' ' && l->s[i] != '\t')
			i++;
		if (i < l->len && l->s[i] == '\t')
			return false;
	}
	return fields >= 6;
}

/* "tank\t181M\t68.9M\t15\t355\t61.2K\t10.3M": -H, no header, TABs
 * between the fields (or blanks to tab stops where they were expanded).
 * The number of fields when the line has the shape of a scripted row,
 * else 0. */
static size_t scripted_fields(const struct bl_line *l)
{
	if (!memchr(l->s, '\t', l->len)) {
		if (!expanded_tabs(l))
			return 0;
		struct bl_ztok t[ZP_MAX_TOK];
		return bl_zpool_split(l->s, l->len, t, ZP_MAX_TOK);
	}
	size_t n = 1;
	for (size_t i = 0; i < l->len; i++)
		if (l->s[i] == '\t')
			n++;
	return n;
}

/* A command of scripted output: "root@pbs:~# zpool iostat zpool -pH 1 5".
 * Its rows are the lines below (their TABs may be blanks now). */
static struct bl_re scripted_cmd_re =
	BL_RE("\\bzpool iostat\\b[^\\n]{0,200}?[ \\t]-[A-Za-z]{0,10}H", 0);

/* -H -v without its command: a row named like a vdev ("mirror-0",
 * "raidz1-0") among the next lines says the tree is there. */
static bool scripted_has_vdevs(const struct bl_message *msg, const struct bl_line *from)
{
	struct bl_line l = *from, nx;
	for (int k = 0; k < 64; k++) {
		struct bl_re_match m;
		const char *tab = memchr(l.s, '\t', l.len);
		if (tab && bl_re_match(&vtype_re, l.s, (size_t)(tab - l.s), 0, &m))
			return true;
		if (!bl_line_next(msg, &l, &nx) || nx.off == l.off)
			break;
		l = nx;
	}
	return false;
}

static bool has_time_unit(const struct bl_ztok *t, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (t[i].n >= 2 && t[i].s[t[i].n - 1] == 's' && t[i].s[0] >= '0' &&
		    t[i].s[0] <= '9')
			return true;
	return false;
}

/* Frees the claim's state: the keys seen, the time line, the header. */
static void zp_free(struct zp *z)
{
	seen_clear(z);
	free(z->seen);
	free(z->used);
	free(z->keys);
	for (size_t i = 0; z->kept && i < ZP_KEPT; i++)
		free(z->kept[i]);
	free(z->kept);
	stamp_free(z);
	hdr_forget(z);
	free(z);
}

/* A -H row at `anchor`: "name\tvalue\t..." with six numbers at least.
 * True when it reads as one; *capacity is its alloc + free. */
static bool scripted_row(const struct bl_line *anchor, double *capacity)
{
	size_t nf = scripted_fields(anchor);
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(anchor->s, anchor->len, t, ZP_MAX_TOK);
	if (nf < 7 || nt != nf)
		return false;
	double v;
	bool dash, approx;
	for (size_t i = 1; i < nt && i < 7; i++) {
		if (!bl_zpool_number(t[i].s, t[i].n, false, &v, &dash, &approx))
			return false;
		if (i <= 2)
			*capacity += v;
	}
	return true;
}

/* Finds where the report at `anchor` starts: its header (its columns set,
 * *first_data its last line) or a -H row (*scripted, *first_data the row),
 * with the vdev name line of -H -w / -r and a -T time line above. False
 * when the anchor begins no report. */
static bool find_start(struct zp *z, const struct bl_line *anchor, struct bl_line *start,
		       struct bl_line *first_data, bool *scripted, double *capacity)
{
	size_t floor = bl_scan_floor(z->sc);
	struct bl_line prev;
	*start = *anchor;
	*scripted = false;
	if (!read_header(z, anchor, first_data)) {
		/* -H: rows only, each "name\tvalue\t..." */
		if (!scripted_row(anchor, capacity))
			return false;
		*scripted = true;
		*first_data = *anchor;
		/* -H -w / -r: the vdev's name on its own line above the buckets */
		struct bl_ztok t[2];
		if (bl_line_prev(z->msg, anchor, &prev) && prev.off >= floor &&
		    !memchr(prev.s, '\t', prev.len) &&
		    bl_zpool_split(prev.s, prev.len, t, 2) == 1 && prev.len < MAX_NAME) {
			snprintf(z->histo_name, sizeof z->histo_name, "%.*s", (int)prev.len,
				 prev.s);
			*start = prev;
		}
	}
	if (start->off == anchor->off && bl_line_prev(z->msg, anchor, &prev) && prev.off >= floor &&
	    timestamp(z, &prev, false)) {
		/* -T: the time line stands above the first header (or -H row) */
		*start = prev;
	}
	return true;
}

/* Adds the run of the report that starts at `start` and reads the command
 * line above it. NULL when out of memory. */
static struct bl_run *add_run(struct zp *z, const struct bl_line *start)
{
	struct bl_run *run = bl_doc_add_run(z->doc, bl_parser_zpool_iostat.name, "default",
					    start->off, start->next);
	if (run)
		z->ri = (long)(z->doc->nruns - 1);
	return run;
}

static struct bl_run *open_run(struct zp *z, const struct bl_line *start)
{
	struct bl_run *run = add_run(z, start);
	if (!run)
		return NULL;
	size_t off0 = run->off;
	if (bl_scan_find_command(z->sc, &bl_parser_zpool_iostat, run)) {
		if (!strstr(run->command, "iostat")) {
			/* "zpool list" above a report pasted without its command */
			free(run->command);
			run->command = NULL;
			run->has_command = false;
			run->off = off0;
			json_object_clear(run->params);
		} else {
			parse_command(z, run->command);
		}
	}
	return run;
}

/* The options of the run's command ("-vH"), "" without any. */
static const char *run_options(const struct bl_run *run)
{
	json_t *opt = json_object_get(run->params, "options");
	return json_is_string(opt) ? json_string_value(opt) : "";
}

/* -H -w / -r rows at `anchor` (buckets under each vdev's name): the
 * columns by their count. */
static void scripted_histo_columns(struct zp *z, const struct bl_line *anchor, const char *opts)
{
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(anchor->s, anchor->len, t, ZP_MAX_TOK);
	z->scripted = true;
	z->histo = true;
	z->histo_lat = strchr(opts, 'w') != NULL;
	hdr_forget(z);
	z->ncols = bl_zpool_scripted_histo_columns(z->histo_lat, nt - 1, z->cols);
	if (!z->histo_name[0])
		bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.no-vdev-name", anchor->off,
			    "-H histogram rows without the vdev name line above them");
}

/* -H rows at `anchor`: the columns from the command's -l and -q, or
 * without a command from the row's shape (alloc + free `capacity`).
 * False when they are not zpool's: the run is dropped then. */
static bool scripted_columns(struct zp *z, struct bl_run *run, const struct bl_line *anchor,
			     double capacity)
{
	const char *opts = run_options(run);
	bool cmd_h = strchr(opts, 'H') != NULL;
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(anchor->s, anchor->len, t, ZP_MAX_TOK);
	size_t nvals = nt - 1;
	bool lat = strchr(opts, 'l') != NULL, queue = strchr(opts, 'q') != NULL;
	if (!run->has_command) {
		/* a pool holds at least 64 MiB (SPA_MINDEVSIZE): alloc +
		 * free says a table of small numbers is something else */
		if (capacity < 64.0 * 1024 * 1024) {
			bl_doc_drop_last_run(z->doc);
			return false;
		}
		/* by shape: 6 default; 15-17 -l (by release); 20 -q; 31 -l -q */
		lat = nvals == 15 || nvals == 16 || nvals == 17 || nvals == 31 ||
		      (nvals > 6 && has_time_unit(t, 7, nt));
		queue = nvals == 18 || nvals == 20 || nvals == 31;
		if (nvals != 6 && !lat && !queue) {
			bl_doc_drop_last_run(z->doc);
			return false;
		}
	} else if (!cmd_h) {
		bl_doc_drop_last_run(z->doc);
		return false;
	}
	z->scripted = true;
	hdr_forget(z);
	z->ncols = bl_zpool_scripted_columns(lat, queue, nvals, z->cols);
	z->scripted_verbose = strchr(opts, 'v') != NULL || scripted_has_vdevs(z->msg, anchor);
	if (z->scripted_verbose && !z->cmd_pool[0])
		bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.scripted-tree", anchor->off,
			    "-H -v rows carry no indentation: which pool each vdev row "
			    "belongs to, and its depth, are not in the text");
	return true;
}

/* The run's variant: what its columns hold. */
static const char *report_variant(const struct zp *z)
{
	bool has_lat = false, has_q = false;
	for (size_t i = 0; i < z->ncols; i++) {
		has_lat |= z->cols[i].kind == ZC_LATENCY;
		has_q |= z->cols[i].kind == ZC_QUEUE;
	}
	if (has_lat && has_q)
		return "latency-queue";
	if (has_lat)
		return "latency";
	if (has_q)
		return "queue";
	return z->histo ? (z->histo_lat ? "latency-histogram" : "size-histogram") : "default";
}

/* Names the kind of report and sets the params its header and command
 * say: the header's words, scripted, the vdevs the command asks for. */
static void describe_report(struct zp *z, struct bl_run *run, const struct bl_line *anchor,
			    bool scripted)
{
	run->variant = report_variant(z);
	if (!z->histo && z->ncols >= 2 && strcmp(z->cols[0].metric, "alloc") == 0) {
		/* which header words: the old "used avail" or "alloc free" */
		struct bl_line bot = *anchor;
		struct bl_re_match bm;
		bool bottom_only = bl_re_match(&bottom_only_re, anchor->s, anchor->len, 0, &bm);
		if (bottom_only)
			bl_doc_diag(
				z->doc, z->ri, BL_INFO, "zpool.header-cut", anchor->off,
				"the header's first line is missing: columns read from the second");
		if (!scripted && (bottom_only || bl_line_next(z->msg, anchor, &bot)) &&
		    memmem(bot.s, bot.len, " used ", 6))
			bl_run_param_str(run, "header", "used avail", 10);
		else if (!scripted)
			bl_run_param_str(run, "header", "alloc free", 10);
	}
	json_object_set_new(run->params, "scripted", json_boolean(scripted));
	json_t *ops = json_object_get(run->params, "pools");
	if (z->vdev_title && json_array_size(ops) > 1) {
		/* "zpool iostat -v tank sda sdb": a pool, then the vdevs asked for */
		json_t *vdevs = json_array();
		for (size_t i = 1; vdevs && i < json_array_size(ops); i++)
			json_array_append(vdevs, json_array_get(ops, i));
		json_array_remove(ops, 1);
		while (json_array_size(ops) > 1)
			json_array_remove(ops, 1);
		if (vdevs)
			json_object_set_new(run->params, "vdevs", vdevs);
	}
}

static bool same_word(const struct bl_ztok *a, const struct bl_ztok *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* Whether the words t[0, nt) begin with two whole rows, one after another
 * with no line break between them: a name and ncols values, twice. A
 * zpool release printed a class row and its first vdev so (or a pool row
 * and its first vdev); a terminal's lost carriage returns join samples
 * of one pool row:
 *   "cache  -  -  -  -  -  -  loop0  3.34G  60.7G  3  9  110K  755K"
 *   "T  17.2T  103T  0  59.1K  0  227M      ...      T  17.2T  103T  0  66.4K  0  258M"
 * With words after the two, the second row must repeat the first's name
 * or stand under a class row: an author's note may hold a word and as
 * many figures ("tank ...  was:  1.10T 710G 200 30 20.1M 1.00M  last week"). */
static bool two_rows(const struct zp *z, const struct bl_ztok *t, size_t nt)
{
	size_t n = z->ncols + 1;
	if (z->ncols == 0 || nt < 2 * n)
		return false;
	double v;
	bool dash, approx;
	for (size_t i = 0; i < 2 * n; i++) {
		bool time_col = i % n && z->cols[i % n - 1].kind == ZC_LATENCY;
		bool number = bl_zpool_number(t[i].s, t[i].n, time_col, &v, &dash, &approx);
		if (number != (i % n != 0))
			return false;
	}
	return nt == 2 * n || same_word(&t[0], &t[n]) || dashes_only(t, n);
}

static bool read_row(struct zp *z, struct bl_run *run, const struct bl_line *l, bool nested)
{
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(l->s, l->len, t, ZP_MAX_TOK);
	return read_split_row(z, run, l, nested, t, nt);
}

/* Reads the rows joined on line l (two_rows): one at a time while two
 * whole rows follow, then the rest as the last, with any words of the
 * author's after it. */
static bool read_joined_rows(struct zp *z, struct bl_run *run, const struct bl_line *l)
{
	size_t n = z->ncols + 1, rows = 0;
	struct bl_ztok t[ZP_MAX_TOK];
	struct bl_line part = *l;
	bool nested = false;
	for (;;) {
		size_t nt = bl_zpool_split(part.s, part.len, t, ZP_MAX_TOK);
		bool more = two_rows(z, t, nt);
		struct bl_line row = part;
		if (more)
			row.len = (size_t)(t[n].s - part.s);
		if (!read_row(z, run, &row, nested))
			return false;
		rows++;
		if (!more)
			break;
		/* a vdev after its pool or class row stands under it; a row of
		 * the first one's name is the next sample's */
		nested = !same_word(&t[0], &t[n]);
		part.off += row.len;
		part.s += row.len;
		part.len -= row.len;
	}
	bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.joined-rows", l->off,
		    "%zu rows printed on one line, with no line break between them: each read as "
		    "a row",
		    rows);
	return true;
}

/* A line that is neither header, dashes, time nor elision: a row or a
 * bucket (or -H -w the next vdev's name). False when it is not one. */
static bool take_row(struct zp *z, const struct bl_line *l)
{
	struct bl_ztok nt2[2];
	if (z->scripted && z->histo && !memchr(l->s, '\t', l->len) &&
	    bl_zpool_split(l->s, l->len, nt2, 2) == 1 && l->len < MAX_NAME) {
		/* -H -w: the next vdev's name */
		snprintf(z->histo_name, sizeof z->histo_name, "%.*s", (int)nt2[0].n, nt2[0].s);
		return true;
	}
	struct bl_run *run = bl_doc_run(z->doc, z->ri);
	if (z->scripted && z->histo)
		return scripted_fields(l) == z->ncols + 1 && read_bucket(z, run, l);
	if (z->histo)
		return read_bucket(z, run, l);
	if (z->scripted && scripted_fields(l) != z->ncols + 1)
		return false;
	struct bl_ztok t[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(l->s, l->len, t, ZP_MAX_TOK);
	if (!z->scripted && two_rows(z, t, nt))
		return read_joined_rows(z, run, l);
	return read_split_row(z, run, l, false, t, nt);
}

/* Walks the report from the line after `first_data` (-H: from the row
 * itself) until a line that is not the report's; returns the last line
 * read into the run. */
static struct bl_line walk_report(struct zp *z, const struct bl_line *first_data, bool scripted)
{
	struct bl_run *run = bl_doc_run(z->doc, z->ri);
	struct bl_line l = *first_data, last = *first_data;
	bool more = scripted || (bl_line_next(z->msg, first_data, &l) && l.off != first_data->off);
	int blanks = 0;
	while (more) {
		/* a long stream's finished samples go to the writer */
		bl_doc_run_progress(z->doc, run);
		enum zline k = classify(z, &l);
		bool took = true;
		if (k == ZL_BLANK) {
			took = false;
			if (++blanks > 2 || (z->scripted && !z->histo && blanks > 1))
				break;
		} else if (k == ZL_HEADER) {
			struct bl_line after;
			if (!read_header(z, &l, &after))
				break;
			/* -v prints the header again each sample; a histogram
			 * header names the next vdev */
			if (!z->histo)
				new_sample(z);
			z->hdr_sample = z->sample;
			l = after;
		} else if (k == ZL_DASHES) {
			/* ends a pool (-v) or a sample of several pools */
			z->cls[0] = '\0';
		} else if (k == ZL_STAMP) {
			/* a time line begins each sample (-T), not only the
			 * first ("(date; zpool iostat tank 1) > log") */
			z->stamped = timestamp(z, &l, true) || z->stamped;
		} else if (k == ZL_ELISION) {
			bl_doc_diag(z->doc, z->ri, BL_INFO, "zpool.elision", l.off,
				    "the author left part of the report out here");
		} else if (k != ZL_ROW || !take_row(z, &l)) {
			break;
		}
		if (took) {
			blanks = 0;
			last = l;
		}
		struct bl_line nx;
		if (!bl_line_next(z->msg, &l, &nx) || nx.off == l.off)
			break;
		l = nx;
	}
	return last;
}

/* A header and nothing to read under it (malformed): the run is dropped,
 * its diagnostics kept apart, and an error put at `start`. */
static void drop_empty_run(struct zp *z, const struct bl_line *start)
{
	struct bl_doc *doc = z->doc;
	bl_doc_drop_last_run(doc);
	for (size_t i = 0; i < doc->diags.n; i++)
		if (doc->diags.v[i].run == bl_doc_run_id(doc, (long)doc->nruns))
			doc->diags.v[i].run = -1;
	bl_doc_diag(doc, -1, BL_ERROR, "zpool.no-rows", start->off,
		    "a zpool iostat header with no rows below it");
	doc->partial = true;
}

/* The run's state for zpool_resume, eight lines: the header's top,
 * bottom and dash line (or an empty line), the name of a sample's first
 * row (of a histogram: its first vdev), "T" when a time line begins each
 * sample, how many lines from a window's first a sample starts by, and
 * the pool and first vdev the command names. NULL when out of memory. */
static char *resume_text(const struct zp *z)
{
	const char *dash = z->hdr.dash ? z->hdr.dash : "";
	size_t ndash = z->hdr.dash ? z->hdr.ndash : 0;
	size_t n = z->hdr.ntop + z->hdr.nbot + ndash + strlen(z->first_name) + strlen(z->cmd_pool) +
		   strlen(z->cmd_first) + 40;
	/* a histogram's rows are under a header, dashes and a blank each 30
	 * or so; a table's row is a line */
	size_t rows = z->rows_first > z->rows_in_sample ? z->rows_first : z->rows_in_sample;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%.*s\n%.*s\n%.*s\n%s\n%s\n%zu\n%s\n%s", (int)z->hdr.ntop,
			 z->hdr.top, (int)z->hdr.nbot, z->hdr.bot, (int)ndash, dash, z->first_name,
			 z->stamped ? "T" : "", 2 * rows + 256, z->cmd_pool, z->cmd_first);
	return t;
}

/* Ends the run at `last`, its last line: a sample cut short, the sample
 * count, -p and -v. */
static void finish_run(struct zp *z, struct bl_run *run, const struct bl_line *last)
{
	if (z->stamp_pending) {
		bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.truncated-sample", z->stamp_off,
			    "a time line with no report after it: the last sample is cut");
		z->doc->partial = true;
	} else if (z->sample > 0 && z->rows_in_sample < z->rows_first) {
		/* no sample number: a window reading the end of a long stream
		 * counts its samples from where it starts */
		bl_doc_diag(z->doc, z->ri, BL_WARNING, "zpool.truncated-sample", last->off,
			    "the last sample has %zu rows where the ones before had %zu: the "
			    "rest is cut, and its last row may be too",
			    z->rows_in_sample, z->rows_first);
		z->doc->partial = true;
	}
	bl_run_param_int(run, "samples", z->any_row ? z->sample + 1 : 0);
	/* -p: exact numbers; said by the command, or by numbers with no unit */
	json_object_set_new(run->params, "parsable",
			    json_boolean(strchr(run_options(run), 'p') != NULL ||
					 (!run->has_command && !z->niced)));
	if (z->indented)
		json_object_set_new(run->params, "verbose", json_true());
	run->end_off = last->next;
	/* what the next window reads on with: samples under no header of
	 * their own (one at the top of a log, `zpool iostat tank 1 > log`);
	 * histograms of several vdevs (-wv, -rv), a header each, where a
	 * header may not start a sample */
	if (!z->scripted && z->hdr.top && z->first_name[0] &&
	    (z->histo || z->sample > z->hdr_sample + 1))
		run->resume = resume_text(z);
}

/* The state of a claim (or a resume) in scan sc; NULL when out of memory. */
static struct zp *zp_new(struct bl_scan *sc)
{
	struct zp *z = calloc(1, sizeof *z);
	if (z) {
		z->sc = sc;
		z->doc = bl_scan_doc(sc);
		z->msg = bl_scan_message(sc);
		z->ri = -1;
	}
	return z;
}

static enum bl_claim zpool_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct zp *z = zp_new(sc);
	if (!z)
		return BL_NOT_MINE;

	struct bl_line start, first_data, last, row;
	struct bl_run *run;
	bool scripted;
	double capacity = 0;
	enum bl_claim ret = BL_NOT_MINE;
	/* a -H command: its first row is the report's anchor */
	if (bl_re_match(&scripted_cmd_re, anchor->s, anchor->len, 0, NULL) &&
	    bl_line_next(z->msg, anchor, &row) && row.off != anchor->off)
		anchor = &row;
	if (!find_start(z, anchor, &start, &first_data, &scripted, &capacity))
		goto out;
	run = open_run(z, &start);
	if (!run)
		goto out;
	if (scripted) {
		const char *opts = run_options(run);
		bool histo = strchr(opts, 'w') || strchr(opts, 'r');
		if (run->has_command && strchr(opts, 'H') && histo)
			scripted_histo_columns(z, anchor, opts);
		else if (!scripted_columns(z, run, anchor, capacity))
			goto out;
	}
	describe_report(z, bl_doc_run(z->doc, z->ri), anchor, scripted);
	if (start.off != anchor->off)
		timestamp(z, &start, true); /* the time line above the first header */
	last = walk_report(z, &first_data, scripted);
	if (z->any_row) {
		finish_run(z, bl_doc_run(z->doc, z->ri), &last);
	} else {
		/* still claimed, so that its lines are not read again */
		drop_empty_run(z, &start);
	}
	*end = last.next;
	ret = BL_CLAIMED;
out:
	zp_free(z);
	return ret;
}

/* Whether line l is a row of the pool or vdev `name`. */
static bool row_of(const struct bl_line *l, const char *name)
{
	struct bl_ztok t[1];
	return bl_zpool_split(l->s, l->len, t, 1) == 1 && t[0].n == strlen(name) &&
	       memcmp(t[0].s, name, t[0].n) == 0;
}

/* The columns of the header in resume text `state` (resume_text): read
 * as a header of its own. *rest: where its last two lines start. */
static bool resume_header(struct zp *z, const char *state, const char **rest)
{
	const char *p = state;
	for (int k = 0; k < 3 && p; k++)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (!p)
		return false;
	struct bl_message hm;
	struct bl_message *msg = z->msg;
	bool ok = false;
	if (bl_message_from_text(&hm, state, (size_t)(p - state), 0, 1) == 0) {
		struct bl_line top, after;
		bl_line_at(&hm, 0, &top);
		z->msg = &hm;
		ok = read_header(z, &top, &after);
		z->msg = msg;
	}
	bl_message_free(&hm);
	*rest = p;
	return ok;
}

/* Whether line l is the top of the histogram of vdev `name`:
 *   "tank         total_wait     disk_wait    syncq_wait    asyncq_wait" */
static bool histogram_of(const struct bl_line *l, const char *name)
{
	struct bl_re_match m;
	return row_of(l, name) && bl_re_match(&histo_top_re, l->s, l->len, 0, &m);
}

/* The first line of this window where a sample starts, within `lines`
 * of its first: a time line, a row of the sample's first pool, or the
 * histogram of its first vdev. False when there is none. */
static bool resume_start(struct zp *z, const char *name, bool stamped, size_t lines,
			 struct bl_line *l)
{
	bl_line_at(z->msg, 0, l);
	if (z->msg->window.mid_line && !bl_line_next(z->msg, l, l))
		return false;
	for (size_t k = 0; k < lines; k++) {
		if (stamped    ? timestamp(z, l, false)
		    : z->histo ? histogram_of(l, name)
			       : row_of(l, name))
			return true;
		struct bl_line nx;
		if (!bl_line_next(z->msg, l, &nx) || nx.off == l->off)
			return false;
		*l = nx;
	}
	return false;
}

/* Reads on, from this window's first sample, a stream a window before
 * left open with resume text `state` (bl_parser.resume): the samples of
 * a log that printed its header once, at the top. */
static enum bl_claim zpool_resume(struct bl_scan *sc, const char *state, size_t *end)
{
	struct zp *z = zp_new(sc);
	if (!z)
		return BL_NOT_MINE;
	enum bl_claim ret = BL_NOT_MINE;
	const char *rest;
	struct bl_line first, last;
	if (!resume_header(z, state, &rest))
		goto out;
	/* the lines after the header, each copied (cut to fit) */
	char name[MAX_NAME], stamp[2], lines[24];
	char *const field[] = {name, stamp, lines, z->cmd_pool, z->cmd_first};
	const size_t size[] = {sizeof name, sizeof stamp, sizeof lines, sizeof z->cmd_pool,
			       sizeof z->cmd_first};
	for (size_t i = 0; i < sizeof field / sizeof *field; i++) {
		size_t len = strcspn(rest, "\n");
		snprintf(field[i], size[i], "%.*s", (int)len, rest);
		rest += len + (rest[len] != '\0');
	}
	bool stamped = stamp[0] == 'T';
	if (!name[0] || !resume_start(z, name, stamped, strtoul(lines, NULL, 10), &first) ||
	    !add_run(z, &first))
		goto out;
	last = walk_report(z, &first, true);
	if (!z->any_row) {
		bl_doc_drop_last_run(z->doc);
		goto out;
	}
	finish_run(z, bl_doc_run(z->doc, z->ri), &last);
	*end = last.next;
	ret = BL_CLAIMED;
out:
	zp_free(z);
	return ret;
}

/* ------------------------------------------------------------ command */

/* "zpool iostat -v -T u tank 5 10": options, pools, interval, count */
static void zpool_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *p = cmd;
	char opts[32];
	size_t no = 0;
	json_t *pools = json_array();
	double nums[2] = {0, 0};
	size_t nn = 0;
	bool want_t = false, want_c = false, iostat = false;
	const char *w;
	size_t wl;
	while (bl_cmd_word(&p, &w, &wl)) {
		if (!iostat) {
			iostat = wl == 6 && memcmp(w, "iostat", 6) == 0;
			continue;
		}
		if (want_t) {
			bl_run_param_str(run, "timestamp_format", w, wl);
			want_t = false;
			continue;
		}
		if (want_c) {
			want_c = false;
			continue;
		}
		if (w[0] == '-') {
			if (no == 0)
				opts[no++] = '-';
			for (size_t i = 1; i < wl && no + 1 < sizeof opts; i++) {
				if (!memchr(opts, w[i], no))
					opts[no++] = w[i];
				if (w[i] == 'T' || w[i] == 'c') {
					/* "-T u" or "-Tu"; "-c cmd" */
					bool last = i + 1 == wl;
					if (w[i] == 'T' && last)
						want_t = true;
					else if (w[i] == 'T')
						bl_run_param_str(run, "timestamp_format", w + i + 1,
								 wl - i - 1);
					else if (last)
						want_c = true;
					break;
				}
			}
			continue;
		}
		/* "5", "0.5": interval, then count */
		double d;
		size_t used = 0;
		if (bl_parse_double(w, wl, false, &d, &used) && used == wl && w[0] >= '0' &&
		    w[0] <= '9') {
			if (nn < 2)
				nums[nn++] = d;
			continue;
		}
		if (pools)
			json_array_append_new(pools, json_stringn(w, wl));
	}
	opts[no] = '\0';
	if (no)
		bl_run_param_str(run, "options", opts, no);
	if (pools && json_array_size(pools))
		json_object_set_new(run->params, "pools", pools);
	else
		json_decref(pools);
	/* "zpool iostat -v 5 10"; a number too large for an integer stays
	 * a real */
	static const char *const names[] = {"interval", "count"};
	for (size_t i = 0; i < nn; i++) {
		if (bl_value_is_int(nums[i]))
			bl_run_param_int(run, names[i], (long long)nums[i]);
		else
			bl_run_param_real(run, names[i], nums[i]);
	}
}

/* A result of sample `index` of the whole stream: only sample 0 counts
 * since boot (and a histogram's then counts operations, not a rate). */
static void zpool_renumber(struct bl_result *result, size_t index)
{
	bl_result_set_int(result, "sample", (long long)index);
	if (index > 0 && bl_result_get(result, "since_boot")) {
		bl_result_del(result, "since_boot");
		if (result->unit && strcmp(result->unit, "ops") == 0)
			bl_result_set_unit(result, "ops/s");
	}
}

static void zpool_count(json_t *params, size_t n)
{
	json_object_set_new(params, "samples", json_integer((json_int_t)n));
}

static const struct bl_records zpool_records = {
	.key = "sample",
	.renumber = zpool_renumber,
	.count = zpool_count,
	.rows = true,
};

static const char *const zpool_variants[] = {
	"default (capacity, operations, bandwidth per pool; old 'used avail' and new 'alloc free' headers)",
	"default -v (the vdev tree: depth, vdev type, classes logs/cache/special/dedup)",
	"latency (-l: total_wait, disk_wait, syncq_wait, asyncq_wait, scrub, trim, rebuild)",
	"queue (-q: pend/activ per queue), latency-queue (-l -q)",
	"latency-histogram (-w), size-histogram (-r)",
	"scripted (-H: tab-separated, no header; by shape without a command line)",
	"parsable (-p: exact numbers), interval samples with -T u|d timestamps",
	NULL,
};

/* How zpool iostat's output looks where a post lost its line breaks
 * (ingest/shapes.h): a break before its headers in a flattened line. */
static const struct bl_tool_shapes zpool_shapes = {
	/* "capacity     operations     bandwidth",
	 * "tank         total_wait     disk_wait", "media   sync_read    sync_write";
	 * -T u's timestamp above a sample: "1796018647"; the second line of a
	 * histogram's header: "latency      read  write", "req_size        ind    agg";
	 * -T d: "Tue Mar  5 14:02:16 2024", not iozone's
	 * "Run began: Wed Jun  7 14:40:12 2006" */
	.weak_starts =
		"capacity +operations +bandwidth"
		"|(?<!\\d)\\d{9,11}(?= +capacity +operations +bandwidth)"
		"|(?<!\\S)(?!bandwidth )[^\\s]{1,256} +(?=total_wait +disk_wait|sync_read +sync_write)"
		"|(?:latency|req_size) +(?=read +write|ind +agg)"
		"|(?<!: )(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
		"[ \\d]\\d \\d\\d:\\d\\d:\\d\\d (?:[A-Z]{2,5} )?\\d{4}",
	/* the date holds its time's ':' */
	.weak_start_needs = (const char *const[]){"capacity", "total_wait", "sync_read", "latency",
						  "req_size", ":", NULL},
	.table_breaks = bl_zpool_table_breaks,
};

/* Charts: reads and writes per vdev, in bandwidth and in operations (per
 * second, or a count), without the since-boot sample when intervals
 * follow it. */
static const char *const zpool_chart_bandwidth[] = {"read_bandwidth", "write_bandwidth", NULL};
static const char *const zpool_chart_ops[] = {"read_ops", "write_ops", NULL};

static const struct bl_chart_view zpool_views[] = {
	{.name = "bandwidth",
	 .title = "zpool iostat bandwidth per vdev",
	 .metrics = zpool_chart_bandwidth,
	 .unit = "B/s",
	 .binary_units = true, /* "187M" is 187 MiB/s */
	 .category = BL_KEY_VDEV,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_NONE,
	 .skip_since_boot_sample = true},
	{.name = "ops",
	 .title = "zpool iostat operations per vdev",
	 .metrics = zpool_chart_ops,
	 .unit = "ops/s",
	 .category = BL_KEY_VDEV,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_NONE,
	 .skip_since_boot_sample = true},
	{.name = "ops-count",
	 .title = "zpool iostat operations per vdev",
	 .metrics = zpool_chart_ops,
	 .unit = "ops",
	 .category = BL_KEY_VDEV,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_NONE,
	 .skip_since_boot_sample = true},
	{.name = NULL},
};

// clang-format off
static const struct bl_metric_info zpool_metric_info[] = {
	{"read_bandwidth", "read", "B/s", "bytes read a second"},
	{"write_bandwidth", "write", "B/s", "bytes written a second"},
	{"read_ops", "read", "ops/s", "read operations a second"},
	{"write_ops", "write", "ops/s", "write operations a second"},
	{"alloc", NULL, "B", "space allocated (\"used\" before 0.7)"},
	{"free", NULL, "B", "space free (\"avail\" before 0.7)"},
	{"*_wait_read", NULL, "s ops ops/s",
	 "average latency of reads (-l: s), or a latency histogram bucket (-w: ops)"},
	{"*_wait_write", NULL, "s ops ops/s",
	 "average latency of writes (-l: s), or a latency histogram bucket (-w: ops)"},
	{"scrub_wait", NULL, "s", "average latency of scrub I/O (-l)"},
	{"trim_wait", NULL, "s", "average latency of trim I/O (-l)"},
	{"rebuild_wait", NULL, "s", "average latency of rebuild I/O (-l)"},
	{"initialize_wait", NULL, "s", "average latency of initializing I/O (-l)"},
	{"scrub", NULL, "ops ops/s", "scrub I/O in a latency histogram bucket (-w)"},
	{"trim", NULL, "ops ops/s", "trim I/O in a latency histogram bucket (-w)"},
	{"rebuild", NULL, "ops ops/s", "rebuild I/O in a latency histogram bucket (-w)"},
	{"initialize", NULL, "ops ops/s", "initializing I/O in a latency histogram bucket (-w)"},
	{"*q_*_pend", NULL, "count", "I/O waiting in a queue (-q)"},
	{"*q_*_activ", NULL, "count", "I/O active from a queue (-q)"},
	{"*_queue_*", NULL, "count ops ops/s", "a queue of 0.7's -w histograms"},
	{"*_ind", NULL, "ops ops/s", "independent I/O of a size in a request-size histogram (-r)"},
	{"*_agg", NULL, "ops ops/s", "aggregated I/O of a size in a request-size histogram (-r)"},
	{NULL, NULL, NULL, NULL},
};
// clang-format on

const struct bl_parser bl_parser_zpool_iostat = {
	.name = "zpool-iostat",
	.summary =
		"zpool iostat reports: pools and vdevs, latency, queues, histograms, interval samples",
	.variants = zpool_variants,
	/* "              capacity     operations    bandwidth"
	 * "tank         total_wait     disk_wait    syncq_wait    asyncq_wait"
	 * "tank\t181M\t68.9M\t15\t355\t61.2K\t10.3M"  (-H) */
	.anchor =
		"^[ \\t]*capacity[ \\t]+operations[ \\t]+bandwidth"
		"|^[ \\t]*(?:pool|vdev)[ \\t]+(?:alloc|used)[ \\t]+(?:free|avail)[ \\t]+read[ \\t]+write"
		"|^[ \\t]*\\S{1,256}[ \\t]+total_wait[ \\t]+disk_wait"
		"|^[ \\t]*\\S{1,256}[ \\t]+sync_read[ \\t]+sync_write"
		"|^[^\\t\\n ]{1,256}\\t(?:[\\d.]{1,20}[KMGTPE]?|-)\\t(?:[\\d.]{1,20}[KMGTPE]?|-)\\t[\\d.]{1,20}[KMGTPE]?\\t"
		/* "root@pbs:~# zpool iostat zpool -pH 1 5" above its rows */
		"|zpool iostat[^\\n]{0,200}?[ \\t]-[A-Za-z]{0,10}H",
	.command_word = "zpool",
	.shapes = &zpool_shapes,
	.claim = zpool_claim,
	.command = zpool_command,
	.records = &zpool_records,
	.resume = zpool_resume,
	.views = zpool_views,
	.metrics = zpool_metric_info,
};
