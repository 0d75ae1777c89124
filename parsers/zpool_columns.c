/* zpool_columns.c - the columns of a zpool iostat report, from its two
 * header lines or, where there is no header (-H), from the command's
 * flags and the number of fields.
 *
 *                 capacity     operations     bandwidth    total_wait ...
 *   pool        alloc   free   read  write   read  write   read  write ...
 *
 * Each top label spans the bottom labels that pair up under it, so the
 * columns are read by order, not position: collapsed spacing does not
 * matter. */
#include "zpool_iostat.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/find.h"

/* ---------------------------------------------------------------- tokens */

/* What splits words: 1 a blank or a tab, 2 the first byte of a no-break
 * space (C2 A0) when the next byte is A0. */
static const unsigned char splits[256] = {[' '] = 1, ['\t'] = 1, [0xC2] = 2};

/* The width of the separator at s[i] (0: none). */
static inline size_t separator(const char *s, size_t len, size_t i)
{
	unsigned char k = splits[(unsigned char)s[i]];
	if (k == 1)
		return 1;
	return k == 2 && i + 1 < len && (unsigned char)s[i + 1] == 0xA0 ? 2 : 0;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The bytes of s[0, len) (len < 64) that are blanks or tabs, and those
 * bl_zpool_split has more to do with (C2, '*', '`'), a bit a byte; the
 * bytes past len count as blanks. */
static void line_bits(const char *s, size_t len, uint64_t *blank, uint64_t *other)
{
	char b[64];
	memset(b, ' ', sizeof b);
	memcpy(b, s, len);
	*blank = *other = 0;
	for (unsigned k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + 16 * k));
		__m128i bl = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
					  _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
		__m128i ot = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xC2)),
					  _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('*')),
						       _mm_cmpeq_epi8(v, _mm_set1_epi8('`'))));
		*blank |= (uint64_t)(unsigned)_mm_movemask_epi8(bl) << (16 * k);
		*other |= (uint64_t)(unsigned)_mm_movemask_epi8(ot) << (16 * k);
	}
}

/* bl_zpool_split of a line shorter than 64 bytes with no byte of C2, '*'
 * or '`' (a table row as zpool prints it): its words are its runs of
 * what is not blank. False, with nothing done, for any other line. */
static bool split_short(const char *s, size_t len, struct bl_ztok *t, size_t max, size_t *n)
{
	if (len >= 64)
		return false;
	uint64_t blank, other;
	line_bits(s, len, &blank, &other);
	if (other)
		return false;
	uint64_t word = ~blank; /* byte 63 is blank: every word ends */
	size_t k = 0;
	while (word && k < max) {
		unsigned b = (unsigned)__builtin_ctzll(word);
		unsigned e = b + (unsigned)__builtin_ctzll(~(word >> b));
		t[k].s = s + b;
		t[k].n = e - b;
		k++;
		word &= ~0ULL << e;
	}
	*n = k;
	return true;
}
#else
static bool split_short(const char *s, size_t len, struct bl_ztok *t, size_t max, size_t *n)
{
	(void)s, (void)len, (void)t, (void)max, (void)n;
	return false;
}
#endif

size_t bl_zpool_split(const char *s, size_t len, struct bl_ztok *t, size_t max)
{
	size_t n;
	return split_short(s, len, t, max, &n) ? n : bl_zpool_split_bytes(s, len, t, max);
}

size_t bl_zpool_split_bytes(const char *s, size_t len, struct bl_ztok *t, size_t max)
{
	size_t n = 0, i = 0, w;
	while (i < len && n < max) {
		while (i < len && (w = separator(s, len, i)) != 0)
			i += w;
		if (i >= len)
			break;
		size_t b = i;
		while (i < len && (!splits[(unsigned char)s[i]] || !separator(s, len, i)))
			i++;
		/* markdown emphasis an author put on a number: "**1.60K**", "`12ms`" */
		size_t e = i;
		while (b < e && (s[b] == '*' || s[b] == '`'))
			b++;
		while (e > b && (s[e - 1] == '*' || s[e - 1] == '`'))
			e--;
		if (e == b)
			continue;
		t[n].s = s + b;
		t[n].n = e - b;
		n++;
	}
	return n;
}

bool bl_zpool_tok_is(const struct bl_ztok *t, const char *w)
{
	size_t n = strlen(w);
	return t->n == n && memcmp(t->s, w, n) == 0;
}

/* --------------------------------------------------------------- columns */

/* The two labels of a two-column group. */
static bool partner(const struct bl_ztok *a, const struct bl_ztok *b)
{
	return (bl_zpool_tok_is(a, "read") && bl_zpool_tok_is(b, "write")) ||
	       (bl_zpool_tok_is(a, "alloc") && bl_zpool_tok_is(b, "free")) ||
	       (bl_zpool_tok_is(a, "used") && bl_zpool_tok_is(b, "avail")) ||
	       (bl_zpool_tok_is(a, "pend") && bl_zpool_tok_is(b, "activ")) ||
	       (bl_zpool_tok_is(a, "ind") && bl_zpool_tok_is(b, "agg"));
}

static const char *const top_labels[] = {
	"capacity",    "operations",     "bandwidth",   "total_wait",   "disk_wait",
	"syncq_wait",  "asyncq_wait",    "scrub",       "trim",         "rebuild",
	"syncq_read",  "syncq_write",    "asyncq_read", "asyncq_write", "scrubq_read",
	"trimq_write", "rebuildq_write", "sync_read",   "sync_write",   "async_read",
	"async_write", "initialize",     "sync_queue",  "async_queue", /* -w of 0.7 */
	NULL,
};

static bool is_top_label(const struct bl_ztok *t)
{
	for (size_t i = 0; top_labels[i]; i++)
		if (bl_zpool_tok_is(t, top_labels[i]))
			return true;
	return false;
}

/* c->metric = a b c, cut to fit */
static void name3(struct zcol *c, const char *a, const char *b, const char *d)
{
	bl_str_join3(c->metric, sizeof c->metric, a, b, d);
}

static void set_col(struct zcol *c, const struct bl_ztok *top, const struct bl_ztok *bot,
		    bool histo)
{
	char tb[32], bb[24];
	bl_str_append(tb, sizeof tb, 0, top ? top->s : "", top ? top->n : 0);
	bl_str_append(bb, sizeof bb, 0, bot->s, bot->n);
	c->kept = NULL;
	c->kind = ZC_OTHER;
	if (histo) {
		c->kind = ZC_HISTO;
		name3(c, top ? tb : "", top ? "_" : "", bb);
		return;
	}
	if (top && strcmp(tb, "capacity") == 0) {
		c->kind = ZC_CAPACITY;
		/* old "used avail" are today's "alloc free" */
		name3(c, (strcmp(bb, "alloc") == 0 || strcmp(bb, "used") == 0) ? "alloc" : "free",
		      "", "");
	} else if (top && strcmp(tb, "operations") == 0) {
		c->kind = ZC_OPS;
		name3(c, bb, "_ops", "");
	} else if (top && strcmp(tb, "bandwidth") == 0) {
		c->kind = ZC_BANDWIDTH;
		name3(c, bb, "_bandwidth", "");
	} else if (top && strstr(tb, "_wait")) {
		c->kind = ZC_LATENCY;
		name3(c, tb, "_", bb);
	} else if (top && (strcmp(tb, "scrub") == 0 || strcmp(tb, "trim") == 0 ||
			   strcmp(tb, "rebuild") == 0 || strcmp(tb, "initialize") == 0)) {
		c->kind = ZC_LATENCY; /* "scrub" over "wait" */
		name3(c, tb, "_", bb);
	} else if (top && strstr(tb, "q_")) {
		c->kind = ZC_QUEUE;
		name3(c, tb, "_", bb);
	} else {
		name3(c, tb, top ? "_" : "", bb);
	}
}

/* Columns from the header's two lines: each top label spans the bottom
 * labels that pair up under it ("read write", "alloc free", "pend activ",
 * "ind agg") or one ("scrub" over "wait"); bottom labels past the last top
 * label are columns of their own (-w's "scrub trim rebuild"). Reading by
 * order, not by position, survives collapsed spacing. Returns the count. */
size_t bl_zpool_columns(const struct bl_ztok *top, size_t ntop, const struct bl_ztok *bot,
			size_t nbot, bool histo, struct zcol *cols)
{
	size_t nc = 0, b = 1; /* bot[0] is the title: pool, vdev, latency, req_size */
	for (size_t t = 0; t < ntop && b < nbot && nc < ZP_MAX_COLS; t++) {
		if (!is_top_label(&top[t]))
			continue; /* -w / -r: the vdev's name */
		set_col(&cols[nc++], &top[t], &bot[b], histo);
		if (b + 1 < nbot && partner(&bot[b], &bot[b + 1]) && nc < ZP_MAX_COLS) {
			set_col(&cols[nc++], &top[t], &bot[b + 1], histo);
			b++;
		}
		b++;
	}
	for (; b < nbot && nc < ZP_MAX_COLS; b++)
		set_col(&cols[nc++], NULL, &bot[b], histo);
	return nc;
}

/* Columns when there is no header (-H): from the command's flags or, with
 * no command, from the number of fields. */
size_t bl_zpool_scripted_columns(bool lat, bool queue, size_t nvals, struct zcol *cols)
{
	static const char *const dflt[][2] = {{"capacity", "alloc"},  {"capacity", "free"},
					      {"operations", "read"}, {"operations", "write"},
					      {"bandwidth", "read"},  {"bandwidth", "write"}};
	static const char *const l[][2] = {
		{"total_wait", "read"},  {"total_wait", "write"},  {"disk_wait", "read"},
		{"disk_wait", "write"},  {"syncq_wait", "read"},   {"syncq_wait", "write"},
		{"asyncq_wait", "read"}, {"asyncq_wait", "write"}, {"scrub", "wait"},
		{"trim", "wait"},        {"rebuild", "wait"}};
	static const char *const q[][2] = {
		{"syncq_read", "pend"},     {"syncq_read", "activ"},    {"syncq_write", "pend"},
		{"syncq_write", "activ"},   {"asyncq_read", "pend"},    {"asyncq_read", "activ"},
		{"asyncq_write", "pend"},   {"asyncq_write", "activ"},  {"scrubq_read", "pend"},
		{"scrubq_read", "activ"},   {"trimq_write", "pend"},    {"trimq_write", "activ"},
		{"rebuildq_write", "pend"}, {"rebuildq_write", "activ"}};
	size_t nc = 0;
	struct bl_ztok a, b;
#define ADD(arr, k)                                                                                \
	do {                                                                                       \
		a.s = arr[k][0];                                                                   \
		a.n = strlen(a.s);                                                                 \
		b.s = arr[k][1];                                                                   \
		b.n = strlen(b.s);                                                                 \
		set_col(&cols[nc++], &a, &b, false);                                               \
	} while (0)
	for (size_t k = 0; k < 6; k++)
		ADD(dflt, k);
	/* releases before 0.8 print no trim, before 2.0 no rebuild columns */
	size_t rest = nvals > 6 ? nvals - 6 : 0;
	size_t nl = 0, nq = 0;
	if (lat && queue) {
		nl = rest >= 25 ? 11 : rest >= 22 ? 10 : 9;
		nq = rest - nl > 14 ? 14 : rest - nl;
	} else if (lat) {
		nl = rest > 11 ? 11 : rest;
	} else if (queue) {
		nq = rest > 14 ? 14 : rest;
	}
	for (size_t k = 0; k < nl; k++)
		ADD(l, k);
	/* without trim and rebuild the queue groups end at scrubq_read */
	for (size_t k = 0; k < nq; k++)
		ADD(q, k);
#undef ADD
	return nc;
}

/* -H -w / -r columns, by count: 0.7 printed 9 / 10, 0.8 10 / 12, 2.0 on
 * 11 / 14. */
size_t bl_zpool_scripted_histo_columns(bool lat, size_t nvals, struct zcol *cols)
{
	static const char *const w[][2] = {
		{"total_wait", "read"},  {"total_wait", "write"},  {"disk_wait", "read"},
		{"disk_wait", "write"},  {"syncq_wait", "read"},   {"syncq_wait", "write"},
		{"asyncq_wait", "read"}, {"asyncq_wait", "write"}, {NULL, "scrub"},
		{NULL, "trim"},          {NULL, "rebuild"}};
	static const char *const r[][2] = {
		{"sync_read", "ind"},   {"sync_read", "agg"},   {"sync_write", "ind"},
		{"sync_write", "agg"},  {"async_read", "ind"},  {"async_read", "agg"},
		{"async_write", "ind"}, {"async_write", "agg"}, {"scrub", "ind"},
		{"scrub", "agg"},       {"trim", "ind"},        {"trim", "agg"},
		{"rebuild", "ind"},     {"rebuild", "agg"}};
	size_t max = lat ? 11 : 14, nc = nvals < max ? nvals : max;
	for (size_t k = 0; k < nc; k++) {
		const char *const *e = lat ? w[k] : r[k];
		struct bl_ztok a = {e[0], e[0] ? strlen(e[0]) : 0}, b = {e[1], strlen(e[1])};
		set_col(&cols[k], e[0] ? &a : NULL, &b, true);
	}
	return nc;
}
