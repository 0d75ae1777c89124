/* run_results.h - a run's results read from its document, in either of
 * the forms a document holds them: "results", one object a result, or
 * "rows" (table.h), one cell of a row a result. A document read whole
 * keeps its rows as they are (an object per value took a reader 1.8 KB
 * a result), and every reader of results goes through here.
 *
 *   struct bl_res_iter it;
 *   struct bl_res r;
 *   for (bl_res_begin(&it, run); bl_res_next(&it, &r);)
 *           use(bl_res_get(&r, "metric"), bl_res_get(&r, "value"));
 *
 *   bl_res_end(&it);
 *
 * Rows are read in order (a shape's number may be declared again): a
 * row that does not fit a declared shape is passed over, as a document
 * checked by bl_doc_check_rows (table.h) has none. A row or a result
 * may be held as its JSON text (bl_json_read_results_as_text,
 * jsonread.h), and rows or results in a row as one text
 * (bl_json_read_run_in_place): each is read when its turn comes, and
 * what it holds lives
 * until the next bl_res_next or bl_res_end; the names of a shape's
 * metrics, units and coordinates live as long as the run. */
#ifndef BL_RUN_RESULTS_H
#define BL_RUN_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* One result, borrowed from the run: valid while the run is. */
struct bl_res {
	json_t *obj; /* the object of "results"; NULL for a cell */
	json_t *row; /* the cell's row */
	json_t *coords; /* the row's coordinate names (its shape's) */
	json_t *names; /* the cell's {"metric", "unit"} */
	json_t *cell; /* a number, null, or [value, raw, flag...] */
};

struct bl_res_iter {
	json_t *list; /* "results" or "rows"; NULL: none */
	bool rows;
	size_t next; /* the list's next element */
	json_t *row; /* the row being read, or NULL */
	json_t *held; /* the row or result read from its text, or NULL */
	json_t *kept; /* the kept text being read, or NULL */
	size_t kept_at; /* where in it the next row or result starts */
	size_t cell, ncells;
	size_t shape; /* the row's */
	struct {
		json_t *coords, *cells;
	} shapes[BL_ROW_SHAPES];
};

void bl_res_begin(struct bl_res_iter *it, json_t *run);
/* The next result in *r; false after the last. */
bool bl_res_next(struct bl_res_iter *it, struct bl_res *r);
/* Lets go of what was read from its text, if any: after the last
 * result read, or on leaving the loop early. */
void bl_res_end(struct bl_res_iter *it);
/* The member `key` as the result's object has it: "metric", "value",
 * "unit", "raw" or a coordinate's name ("flags": bl_res_flag). NULL
 * when the result has none. */
json_t *bl_res_get(const struct bl_res *r, const char *key);
/* Whether `key` names a member of a result's own ("metric", "value",
 * "unit", "raw", "flags") rather than a coordinate. */
bool bl_res_own_name(const char *key);
/* The result's flag i ("censored", ...), NULL past the last; a flag
 * that is not a string is none. */
const char *bl_res_flag(const struct bl_res *r, size_t i);
bool bl_res_has_flag(const struct bl_res *r, const char *flag);
/* The result's coordinate i: its name in *key and value in *val; false
 * past the last. In the order of the result's object. */
bool bl_res_coord(const struct bl_res *r, size_t i, const char **key, json_t **val);
/* The number of the run's results. */
size_t bl_res_count(json_t *run);

#endif
