/* zpool_iostat.h - what the zpool iostat files share: words of a line
 * (zpool_columns.c), the columns of a report (zpool_columns.c), its
 * numbers and the bucket labels of -w and -r (zpool_numbers.c). */
#ifndef BL_ZPOOL_IOSTAT_H
#define BL_ZPOOL_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zpool_size.h" /* bl_zpool_number: a printed number, read inline */

/* What a column holds, and so its unit. */
enum zcol_kind {
	ZC_CAPACITY, /* alloc, free: B */
	ZC_OPS, /* operations read/write: ops/s */
	ZC_BANDWIDTH, /* bandwidth read/write: B/s */
	ZC_LATENCY, /* -l averages: s (ns/us/ms/s, base 1000) */
	ZC_QUEUE, /* -q pend/activ: count */
	ZC_HISTO, /* -w and -r bucket counts: ops (since boot) or ops/s */
	ZC_OTHER,
};

struct zcol {
	char metric[64];
	const char *kept; /* metric's kept name (bl_result_kept_name), once looked up */
	enum zcol_kind kind;
};

#define ZP_MAX_COLS 48
#define ZP_MAX_TOK 64

/* A word of a line: [s, s+n). */
struct bl_ztok {
	const char *s;
	size_t n;
};

/* Splits a line on blanks, tabs and no-break spaces, setting aside the
 * markdown emphasis an author put around a word ("**1.60K**"). Returns
 * the number of words (at most max). */
size_t bl_zpool_split(const char *s, size_t len, struct bl_ztok *t, size_t max);
/* The same, a byte at a time: what bl_zpool_split does for any line its
 * short-line pass (16 bytes at a time) does not take; tests compare them. */
size_t bl_zpool_split_bytes(const char *s, size_t len, struct bl_ztok *t, size_t max);
bool bl_zpool_tok_is(const struct bl_ztok *t, const char *w);

/* Columns from the header's top and bottom words (bot[0] is the title:
 * pool, vdev, latency, req_size). Returns the count. */
size_t bl_zpool_columns(const struct bl_ztok *top, size_t ntop, const struct bl_ztok *bot,
			size_t nbot, bool histo, struct zcol *cols);
/* Columns without a header (-H, or a header whose top line is cut): the
 * default six, then -l latency and -q queue columns as many as there are
 * values (releases before 0.8 had no trim, before 2.0 no rebuild). */
size_t bl_zpool_scripted_columns(bool lat, bool queue, size_t nvals, struct zcol *cols);
/* -H -w / -r histogram columns, by count. */
size_t bl_zpool_scripted_histo_columns(bool lat, size_t nvals, struct zcol *cols);

/* Histogram bucket labels.
 * -w: the bucket's upper end in ns, niced ("1ns" "3ns" ... "1us" "2us" ...
 *     "137s"), or exact with -H ("1" "3" "7" ...): bucket j holds
 *     [2^j, 2^(j+1) - 1] ns.
 * -r: the bucket's lower end in bytes ("512" "1K" ... "16M", or exact):
 *     bucket j holds [2^j, 2^(j+1) - 1] bytes.
 * Returns the bucket index j, or -1. */
int bl_zpool_latency_bucket(const char *s, size_t n);
int bl_zpool_size_bucket(const char *s, size_t n);

/* zpool_flat.c: the rows of a table whose rule a Markdown editor cut, in
 * a flattened line (the shapes' table_breaks, ingest/shapes.h). */
struct bl_breaks;
void bl_zpool_table_breaks(const char *s, size_t len, size_t base, struct bl_breaks *b);

#endif
