/* table.h - the rows form of a run's results.
 *
 * A tool whose output is a stream of records (zpool iostat's samples,
 * parser.h's bl_records) repeats the same coordinates for every value of
 * a table line; one object per value made its document nine times the
 * size of its input. Such a run is written with "rows" in place of
 * "results": the results of one table line make one row, and a row's
 * shape (its coordinates' names, its cells' metrics and units) is
 * declared once, by an object, before the first row that has it:
 *
 *   "rows": [
 *     {"shape": 0, "coords": ["pool", "vdev", "sample"],
 *      "cells": [{"metric": "read_ops", "unit": "ops/s"},
 *                {"metric": "read_bandwidth", "unit": "B/s"}]},
 *     [0, "tank", "tank/mirror-0", 0, 331, [7864320, "7.5M", "approximate"]],
 *     [0, "tank", "tank/mirror-0", 1, 12, 0]
 *   ]
 *
 * A row is its shape's number, the values of its coordinates, then its
 * cells: a cell is the value (a number, or null), or [value, raw,
 * flag...] when the value was printed otherwise or has flags (raw null
 * when there is no printed text). A declaration binds its number from
 * there on, and may bind a number again: rows are read in order.
 * bl_run_expand_rows gives back the results, in order, member for
 * member as bl_result_json has them. */
#ifndef BL_TABLE_H
#define BL_TABLE_H

#include <jansson.h>
#include <stdbool.h>

#include "result.h"

#define BL_ROW_CELLS 32 /* cells in a row */
#define BL_ROW_SHAPES 16 /* shapes a list of rows keeps declared */

struct bl_row_shape {
	unsigned nkeys, ncells;
	const char *keys[BL_COORDS_MAX]; /* string literals (result.h) */
	/* names of the store's form (result.h): kept names, or copies;
	 * NULL: none */
	const char *metric[BL_ROW_CELLS], *unit[BL_ROW_CELLS];
};

/* The rows of one list, gathered result by result: which shapes are
 * declared, and the row under way (its coordinates and its cells' names,
 * copied: the results may be gone before the row ends). */
struct bl_rows {
	struct bl_row_shape shapes[BL_ROW_SHAPES];
	unsigned nshapes, evict;
	bool open;
	unsigned ncoord, ncells;
	uint64_t place; /* that of the result that started the row */
	struct bl_coord coord[BL_COORDS_MAX]; /* strings in text */
	const char *metric[BL_ROW_CELLS], *unit[BL_ROW_CELLS]; /* kept, or in text */
	char *text;
	size_t used, cap;
};

void bl_rows_init(struct bl_rows *g);
void bl_rows_free(struct bl_rows *g);
/* Forgets the declared shapes: the next rows declare theirs again. */
void bl_rows_forget(struct bl_rows *g);
/* Whether result r joins the row under way: the same coordinates, in
 * the same order, and a metric the row does not have yet. */
bool bl_rows_joins(const struct bl_rows *g, const struct bl_result *r);
/* Starts a row with r's coordinates; -1 when memory ran out. */
int bl_rows_start(struct bl_rows *g, const struct bl_result *r);
/* Adds r's metric and unit as the row's next cell; -1: memory. */
int bl_rows_cell(struct bl_rows *g, const struct bl_result *r);
/* Ends the row under way: its shape's number, the shape declared anew
 * (*declare) when the list has not declared it; -1: memory. */
int bl_rows_end(struct bl_rows *g, bool *declare);

/* The runs of a benchlog/1 document (or the run itself) with "rows" get
 * "results" in their place. NULL, or what is wrong with the rows (the
 * document is then left as it was). */
const char *bl_doc_expand_rows(json_t *doc);
const char *bl_run_expand_rows(json_t *run);
/* What bl_doc_expand_rows would find wrong with the document's rows, or
 * NULL; the document is left as it is (run_results.h reads its rows). */
const char *bl_doc_check_rows(json_t *doc);

#endif
