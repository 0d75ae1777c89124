/* result.h - a run's results: each measured number with its unit, the
 * text it was printed as, and the coordinates that place it (an iozone
 * cell's file_size and record_size, a zpool sample's vdev and number).
 *
 * Results are plain structs, written to the document as they are
 * (write.c); a JSON tree is made of them only where one is asked for
 * (bl_result_json). A dense stream of tool output has several results per
 * line: a tree of a dozen objects for each cost more than finding them.
 *
 * A string kept by a result is copied into its list's string store; the
 * keys of coordinates are kept by pointer and must be string literals.
 * A string that is not valid UTF-8 is left out (a coordinate, the
 * metric, the unit) or stands as U+FFFD (raw), as jansson's json_string
 * would have it. */
#ifndef BL_RESULT_H
#define BL_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../base/numfmt.h"

enum bl_val_type { BL_VAL_NULL, BL_VAL_TRUE, BL_VAL_FALSE, BL_VAL_INT, BL_VAL_REAL, BL_VAL_STR };

/* One coordinate: "file_size": 65536, "vdev": "tank/mirror-0/ada1". */
struct bl_coord {
	const char *key; /* a string literal */
	union {
		long long i;
		double d;
		const char *s; /* the store's; may hold NUL bytes before len */
	} v;
	unsigned len; /* BL_VAL_STR: bytes of s */
	unsigned char type; /* enum bl_val_type */
};

#define BL_COORDS_MAX 16

struct bl_strs;

/* Its strings are the store's (bl_strs_len): set them by the setters. */
struct bl_result {
	const char *metric, *unit; /* NULL: left out (not UTF-8) */
	const char *raw; /* the printed text, or NULL */
	double value; /* NAN, or BL_FLAG_NOT_RUN: null */
	unsigned flags; /* BL_FLAG_* (doc.h) */
	unsigned ncoord;
	uint32_t initials; /* a bit for each coordinate's key (result.c) */
	/* 0, or a number that only results with the same coordinates share
	 * (bl_result_copy_coords gives it): a row of a table is found by it
	 * without comparing the coordinates. Every setter makes it 0. */
	uint64_t place;
	struct bl_coord coord[BL_COORDS_MAX];
	struct bl_strs *strs; /* where the result's strings are kept */
};

/* The results of one run, in order. A result stays where it is while
 * more are added: the pointer bl_results_add gives stays valid until the
 * list is freed or its front dropped. They are kept in blocks of 4, 8,
 * 16 and 32 results (BL_RESULTS_SMALL of them), then of BL_RESULTS_BLOCK
 * each, so that a run of a dozen results (a row of a table of
 * thousands, all held until the table ends) takes 5 KB, not 28. */
#define BL_RESULTS_SMALL 4
#define BL_RESULTS_BLOCK 64
/* the results the small blocks hold: 4 + 8 + 16 + 32 */
#define BL_RESULTS_IN_SMALL (4 * ((1u << BL_RESULTS_SMALL) - 1))
struct bl_results {
	struct bl_result **blocks;
	size_t n, nblocks;
	struct bl_strs *strs;
};

void bl_results_init(struct bl_results *rs);
void bl_results_free(struct bl_results *rs);
static inline size_t bl_results_count(const struct bl_results *rs)
{
	return rs->n;
}
static inline struct bl_result *bl_results_at(const struct bl_results *rs, size_t i)
{
	if (i < BL_RESULTS_IN_SMALL) {
		/* block b holds 4 << b results, from 4 * (2^b - 1) on */
		unsigned b = 63u - (unsigned)__builtin_clzll((unsigned long long)(i >> 2) + 1);
		return &rs->blocks[b][i - 4 * (((size_t)1 << b) - 1)];
	}
	i -= BL_RESULTS_IN_SMALL;
	return &rs->blocks[BL_RESULTS_SMALL + i / BL_RESULTS_BLOCK][i % BL_RESULTS_BLOCK];
}
/* A new result at the end (metric, unit and raw NULL, value NAN), or
 * NULL when memory ran out. */
struct bl_result *bl_results_add(struct bl_results *rs);
/* Drops the first n results: the others move to new storage (pointers to
 * them are no longer valid) with their strings, so that a long stream
 * keeps only what it has not handed over. 0, or -1 when memory ran out
 * (nothing changed). */
int bl_results_drop_front(struct bl_results *rs, size_t n);

/* The first result named `metric`, or NULL. */
struct bl_result *bl_results_find(const struct bl_results *rs, const char *metric);

/* Setters. The value replaces that of a coordinate of the same key, in
 * its place; a new key goes after the others. */
void bl_result_set_metric(struct bl_result *r, const char *metric);
void bl_result_set_unit(struct bl_result *r, const char *unit);
/* raw that is not UTF-8 stands as U+FFFD */
void bl_result_set_raw(struct bl_result *r, const char *raw);
/* raw[0, n), up to a NUL in it */
void bl_result_set_rawn(struct bl_result *r, const char *raw, size_t n);
void bl_result_set_int(struct bl_result *r, const char *key, long long v);
void bl_result_set_real(struct bl_result *r, const char *key, double v);
void bl_result_set_bool(struct bl_result *r, const char *key, bool v);
void bl_result_set_null(struct bl_result *r, const char *key);
void bl_result_set_str(struct bl_result *r, const char *key, const char *s);
void bl_result_set_strn(struct bl_result *r, const char *key, const char *s, size_t n);
/* Copies coordinate c (from any result) into r. */
void bl_result_set_coord(struct bl_result *r, const struct bl_coord *c);
/* Sets every coordinate of `from` (a result placed alike) in `to`; when
 * `to` had none and both are of one list, they share a place (from's, or
 * a new one). */
void bl_result_copy_coords(struct bl_result *to, struct bl_result *from);
/* A place no result has had yet (never 0). */
uint64_t bl_place_new(void);

/* Coordinates taken from one result to be put on others of the same
 * list: a table's row printed again in every sample ("ada1" under
 * "tank/mirror-0") is placed once, and later rows copy the coordinates
 * without copying their strings into the store again. */
struct bl_coords {
	uint64_t store; /* the id of the store its strings are in; 0: none */
	unsigned n;
	uint32_t initials;
	struct bl_coord c[BL_COORDS_MAX];
};
/* Takes every coordinate of r. */
void bl_coords_take(struct bl_coords *cs, const struct bl_result *r);
/* Puts the coordinates of cs on r, which has none, and returns true;
 * false (r unchanged) when cs was taken from another store, or none. */
bool bl_result_put_coords(struct bl_result *r, const struct bl_coords *cs);
void bl_result_del(struct bl_result *r, const char *key);

/* Getters: the coordinate, or NULL. */
const struct bl_coord *bl_result_get(const struct bl_result *r, const char *key);
/* The coordinate's integer; `dflt` when it is missing or not an integer. */
long long bl_result_int(const struct bl_result *r, const char *key, long long dflt);
/* The coordinate's string, or NULL. */
const char *bl_result_str(const struct bl_result *r, const char *key);
/* Whether the value is a number in the document (not null), and it. */
bool bl_result_number(const struct bl_result *r, double *v);
/* How the value is written: an integer when whole and exact in a double,
 * else a real; null (false) when not run or not finite. */
static inline bool bl_value_is_int(double v)
{
	return bl_is_whole(v);
}

/* Whether jansson takes s[0, n) as a string: UTF-8 (NUL bytes too). */
bool bl_json_string_ok(const char *s, size_t n);
/* The length of a string the store holds, and whether it has no byte
 * that JSON escapes: kept in the 5 bytes before it (the fifth holds
 * BL_STRS_* bits). */
#define BL_STRS_HEAD 5
static inline size_t bl_strs_len(const char *s)
{
	uint32_t len;
	memcpy(&len, s - BL_STRS_HEAD, 4);
	return len;
}
#define BL_STRS_PLAIN 1
#define BL_STRS_KEPT 2 /* a name kept for the process: one copy per text */
static inline bool bl_strs_plain(const char *s)
{
	return (s[-1] & BL_STRS_PLAIN) != 0;
}
/* Whether s is the one kept copy of its text (a metric's or unit's name:
 * bl_result_set_metric), so that two kept names are equal only when
 * they are the same pointer. */
static inline bool bl_strs_kept(const char *s)
{
	return (s[-1] & BL_STRS_KEPT) != 0;
}
/* A copy of s into the store (NUL-terminated), or NULL. */
const char *bl_strs_copy(struct bl_strs *st, const char *s, size_t n);
/* The same for a string of the document: NULL when jansson would refuse
 * it (bl_json_string_ok). */
const char *bl_strs_doc_copy(struct bl_strs *st, const char *s, size_t n);

/* The kept copy of the name of a metric or unit (bl_strs_kept), made on
 * first use, for a parser that sets one name on many results; NULL when
 * it cannot be kept (the names are full, or s is not UTF-8). */
const char *bl_result_kept_name(const char *s);
/* Sets names bl_result_kept_name gave, without looking them up. */
static inline void bl_result_set_kept_names(struct bl_result *r, const char *metric,
					    const char *unit)
{
	r->metric = metric;
	r->unit = unit;
}

/* Frees the names of metrics and units the calling thread kept. */
void bl_results_cleanup(void);

/* The result as a JSON object (new reference), the members in the order
 * the document has them: metric, value, unit, raw, flags, coordinates. */
json_t *bl_result_json(const struct bl_result *r);
/* The names of the flags set in `flags`, in the document's order: fills
 * names[] (at most 4) and returns their number. */
size_t bl_flag_names(unsigned flags, const char *names[4]);

#endif
