/* table.c - results gathered into rows, and rows expanded back into
 * results (table.h). */
#include "table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/jsonread.h"
#include "doc.h"

void bl_rows_init(struct bl_rows *g)
{
	/* the arrays are read only up to their counts: not zeroed (11 KB,
	 * and a run of a dozen rows) */
	g->nshapes = g->evict = 0;
	g->open = false;
	g->ncoord = g->ncells = 0;
	g->place = 0;
	g->text = NULL;
	g->used = g->cap = 0;
}

static void free_name(const char *s)
{
	if (s && !bl_strs_kept(s))
		free((char *)s - BL_STRS_HEAD);
}

static void shape_clear(struct bl_row_shape *s)
{
	for (unsigned i = 0; i < s->ncells; i++) {
		free_name(s->metric[i]);
		free_name(s->unit[i]);
	}
	s->nkeys = s->ncells = 0;
}

void bl_rows_forget(struct bl_rows *g)
{
	for (unsigned i = 0; i < g->nshapes; i++)
		shape_clear(&g->shapes[i]);
	g->nshapes = g->evict = 0;
}

void bl_rows_free(struct bl_rows *g)
{
	bl_rows_forget(g);
	free(g->text);
	bl_rows_init(g);
}

/* Two names: keys are string literals, metrics and units mostly kept
 * names (result.h), each the one copy of its text. */
static inline bool same_name(const char *a, const char *b)
{
	if (a == b)
		return true;
	return a && b && !(bl_strs_kept(a) && bl_strs_kept(b)) && strcmp(a, b) == 0;
}

static inline bool same_key(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

static inline bool same_coord(const struct bl_coord *a, const struct bl_coord *b)
{
	if (!same_key(a->key, b->key) || a->type != b->type)
		return false;
	switch (a->type) {
	case BL_VAL_INT: return a->v.i == b->v.i;
	case BL_VAL_REAL: return memcmp(&a->v.d, &b->v.d, sizeof a->v.d) == 0;
	case BL_VAL_STR: {
		size_t n = bl_strs_len(a->v.s);
		return n == bl_strs_len(b->v.s) && memcmp(a->v.s, b->v.s, n) == 0;
	}
	default: return true;
	}
}

bool bl_rows_joins(const struct bl_rows *g, const struct bl_result *r)
{
	if (!g->open || g->ncells == BL_ROW_CELLS || r->ncoord != g->ncoord)
		return false;
	if (!r->place || r->place != g->place)
		for (unsigned k = g->ncoord; k-- > 0;) /* the sample number differs first */
			if (!same_coord(&g->coord[k], &r->coord[k]))
				return false;
	for (unsigned i = 0; i < g->ncells; i++)
		if (same_name(g->metric[i], r->metric))
			return false;
	return true;
}

/* Whether p points into the text (a copy), not at a kept name. */
static bool in_text(const struct bl_rows *g, const char *p)
{
	return p && g->text && (uintptr_t)p - (uintptr_t)g->text < g->cap;
}

/* Room for n more bytes of text; the strings already in it follow it
 * (which ones are in it is told before the text moves: after, the old
 * place may not be read). */
static int reserve(struct bl_rows *g, size_t n)
{
	if (g->cap - g->used >= n)
		return 0;
	size_t cap = g->cap ? g->cap : 1024;
	while (cap - g->used < n)
		cap *= 2;
	uint32_t metric_in = 0, unit_in = 0; /* a bit a cell (BL_ROW_CELLS) */
	for (unsigned i = 0; i < g->ncells; i++) {
		metric_in |= (uint32_t)in_text(g, g->metric[i]) << i;
		unit_in |= (uint32_t)in_text(g, g->unit[i]) << i;
	}
	char *t = realloc(g->text, cap);
	if (!t)
		return -1;
	if (t != g->text && g->text) {
		ptrdiff_t d = t - g->text;
		for (unsigned k = 0; k < g->ncoord; k++)
			if (g->coord[k].type == BL_VAL_STR)
				g->coord[k].v.s += d;
		for (unsigned i = 0; i < g->ncells; i++) {
			if (metric_in >> i & 1)
				g->metric[i] += d;
			if (unit_in >> i & 1)
				g->unit[i] += d;
		}
	}
	g->text = t;
	g->cap = cap;
	return 0;
}

/* A copy of store string s (result.h: its head before it) in the text. */
static const char *keep_stored(struct bl_rows *g, const char *s)
{
	size_t n = BL_STRS_HEAD + bl_strs_len(s) + 1;
	if (reserve(g, n) < 0)
		return NULL;
	char *d = g->text + g->used;
	memcpy(d, s - BL_STRS_HEAD, n);
	d[BL_STRS_HEAD - 1] &= (char)~BL_STRS_KEPT; /* a copy is not the one */
	g->used += n;
	return d + BL_STRS_HEAD;
}

/* A metric's or unit's name for the row: itself when kept for the
 * process, else a copy. */
static const char *keep_name(struct bl_rows *g, const char *s)
{
	return !s || bl_strs_kept(s) ? s : keep_stored(g, s);
}

/* n bytes from s to d, n at most 32 in two copies of 16 that overlap,
 * or 8, or 4: a coordinate's text with its head ("tank/raidz1/ada1"). */
static inline void copy_short(char *d, const char *s, size_t n)
{
	if (n > 32) {
		memcpy(d, s, n);
	} else if (n >= 16) {
		char a[16], b[16];
		memcpy(a, s, 16);
		memcpy(b, s + n - 16, 16);
		memcpy(d, a, 16);
		memcpy(d + n - 16, b, 16);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

/* The row's coordinates are r's, their strings copied into the text at
 * once: a row of a dense table starts every few results. */
int bl_rows_start(struct bl_rows *g, const struct bl_result *r)
{
	g->open = true;
	g->place = r->place;
	g->ncoord = 0;
	g->ncells = 0;
	g->used = 0;
	size_t need = 0;
	for (unsigned k = 0; k < r->ncoord; k++)
		if (r->coord[k].type == BL_VAL_STR)
			need += BL_STRS_HEAD + bl_strs_len(r->coord[k].v.s) + 1;
	if (reserve(g, need) < 0)
		return -1;
	/* each coordinate copied in place, then its string pointed at the
	 * copy: changing a copy on the stack before storing it whole made
	 * the processor wait for the change (a store read back wider) */
	for (unsigned k = 0; k < r->ncoord; k++) {
		struct bl_coord *c = &g->coord[k];
		*c = r->coord[k];
		if (c->type == BL_VAL_STR) {
			/* a copy, not the one kept (keep_stored) */
			size_t n = BL_STRS_HEAD + bl_strs_len(c->v.s) + 1;
			char *d = g->text + g->used;
			copy_short(d, c->v.s - BL_STRS_HEAD, n);
			d[BL_STRS_HEAD - 1] &= (char)~BL_STRS_KEPT;
			g->used += n;
			c->v.s = d + BL_STRS_HEAD;
		}
	}
	g->ncoord = r->ncoord;
	return 0;
}

int bl_rows_cell(struct bl_rows *g, const struct bl_result *r)
{
	const char *m = keep_name(g, r->metric);
	if (r->metric && !m)
		return -1;
	g->metric[g->ncells] = m; /* before the unit: reserve() moves it */
	g->unit[g->ncells] = NULL;
	g->ncells++;
	const char *u = keep_name(g, r->unit);
	if (r->unit && !u)
		return -1;
	g->unit[g->ncells - 1] = u;
	return 0;
}

static bool is_shape(const struct bl_rows *g, const struct bl_row_shape *s)
{
	if (s->nkeys != g->ncoord || s->ncells != g->ncells)
		return false;
	for (unsigned k = 0; k < s->nkeys; k++)
		if (!same_key(s->keys[k], g->coord[k].key))
			return false;
	for (unsigned i = 0; i < s->ncells; i++)
		if (!same_name(s->metric[i], g->metric[i]) || !same_name(s->unit[i], g->unit[i]))
			return false;
	return true;
}

/* A shape's name: a kept one itself, another a copy (with its head). */
static const char *shape_name(const char *s, bool *fail)
{
	if (!s || bl_strs_kept(s))
		return s;
	size_t n = BL_STRS_HEAD + bl_strs_len(s) + 1;
	char *d = malloc(n);
	if (!d) {
		*fail = true;
		return NULL;
	}
	memcpy(d, s - BL_STRS_HEAD, n);
	return d + BL_STRS_HEAD;
}

int bl_rows_end(struct bl_rows *g, bool *declare)
{
	g->open = false;
	*declare = false;
	for (unsigned i = 0; i < g->nshapes; i++)
		if (is_shape(g, &g->shapes[i]))
			return (int)i;
	bool fresh = g->nshapes < BL_ROW_SHAPES;
	unsigned id = fresh ? g->nshapes++ : g->evict++ % BL_ROW_SHAPES;
	struct bl_row_shape *s = &g->shapes[id];
	if (fresh)
		s->nkeys = s->ncells = 0;
	else
		shape_clear(s);
	bool fail = false;
	for (unsigned k = 0; k < g->ncoord; k++)
		s->keys[s->nkeys++] = g->coord[k].key;
	for (unsigned i = 0; i < g->ncells; i++) {
		s->metric[i] = shape_name(g->metric[i], &fail);
		s->unit[i] = shape_name(g->unit[i], &fail);
		s->ncells++;
	}
	if (fail) {
		shape_clear(s);
		return -1;
	}
	*declare = true;
	return (int)id;
}

/* ------------------------------------------------------------ expansion */

struct bound {
	json_t *coords, *cells; /* borrowed from the declaration */
};

/* A declaration {"shape": n, "coords": [...], "cells": [...]}: binds n. */
static const char *declare(json_t *d, struct bound *shapes)
{
	json_t *id = json_object_get(d, "shape");
	json_t *coords = json_object_get(d, "coords"), *cells = json_object_get(d, "cells");
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
	    json_integer_value(id) >= BL_ROW_SHAPES || !json_is_array(coords) ||
	    !json_is_array(cells))
		return "a shape declaration without its number, coords or cells";
	size_t i;
	json_t *v;
	json_array_foreach(coords, i, v)
	{
		if (!json_is_string(v))
			return "a coordinate name that is not a string";
	}
	json_array_foreach(cells, i, v)
	{
		if (!json_is_object(v))
			return "a cell that is not an object";
	}
	shapes[json_integer_value(id)] = (struct bound){coords, cells};
	return NULL;
}

/* The result of cell c (its value, or [value, raw, flag...]) in `shape`
 * cell k, with the row's coordinates from row[1]. */
static json_t *result_of(const struct bound *shape, size_t k, json_t *row)
{
	json_t *cell = json_array_get(row, 1 + json_array_size(shape->coords) + k);
	json_t *names = json_array_get(shape->cells, k);
	json_t *o = json_object();
	json_t *metric = json_object_get(names, "metric"), *unit = json_object_get(names, "unit");
	json_t *value = json_is_array(cell) ? json_array_get(cell, 0) : cell;
	if (metric)
		json_object_set(o, "metric", metric);
	json_object_set(o, "value", value);
	if (unit)
		json_object_set(o, "unit", unit);
	if (json_is_array(cell)) {
		json_t *raw = json_array_get(cell, 1);
		if (raw && !json_is_null(raw))
			json_object_set(o, "raw", raw);
		if (json_array_size(cell) > 2) {
			json_t *flags = json_array();
			for (size_t f = 2; f < json_array_size(cell); f++)
				json_array_append(flags, json_array_get(cell, f));
			json_object_set_new(o, "flags", flags);
		}
	}
	size_t i;
	json_t *key;
	json_array_foreach(shape->coords, i, key)
		json_object_set(o, json_string_value(key), json_array_get(row, 1 + i));
	return o;
}

static bool number_or_null(json_t *v)
{
	return json_is_number(v) || json_is_null(v);
}

/* Whether row (an array) fits its shape: checked before anything is made. */
static const char *check_row(json_t *row, const struct bound *shapes, const struct bound **shape)
{
	json_t *id = json_array_get(row, 0);
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
	    json_integer_value(id) >= BL_ROW_SHAPES || !shapes[json_integer_value(id)].coords)
		return "a row whose shape is not declared before it";
	*shape = &shapes[json_integer_value(id)];
	size_t nk = json_array_size((*shape)->coords), nc = json_array_size((*shape)->cells);
	if (json_array_size(row) != 1 + nk + nc)
		return "a row whose length is not its shape's";
	for (size_t k = 0; k < nc; k++) {
		json_t *c = json_array_get(row, 1 + nk + k);
		if (json_is_array(c)
			    ? json_array_size(c) < 2 || !number_or_null(json_array_get(c, 0))
			    : !number_or_null(c))
			return "a cell that is neither a number nor [value, raw, flag...]";
	}
	return NULL;
}

/* Reads row (a shape's declaration, or a row), checked; its results
 * appended to `results` unless it is NULL. */
static const char *expand_one(json_t *row, struct bound *shapes, json_t *results)
{
	const char *why = NULL;
	const struct bound *shape = NULL;
	if (json_is_object(row))
		why = declare(row, shapes);
	else if (!json_is_array(row))
		why = "a row that is neither a shape nor an array";
	else if (!(why = check_row(row, shapes, &shape)) && results)
		for (size_t k = 0; k < json_array_size(shape->cells) && !why; k++)
			if (json_array_append_new(results, result_of(shape, k, row)) < 0)
				why = "out of memory";
	return why;
}

/* Reads the rows, each checked; their results appended to `results`
 * unless it is NULL. Rows kept as text (jsonread.h), one or several a
 * text, are read for their turn: arrays, or they are none. */
static const char *expand(json_t *rows, json_t *results)
{
	struct bound shapes[BL_ROW_SHAPES] = {{0}};
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
	{
		const char *why = NULL;
		if (!bl_json_is_kept(row)) {
			why = expand_one(row, shapes, results);
		} else {
			size_t at = 0, n = 0;
			json_t *read;
			while (!why && (read = bl_json_kept_next(row, &at))) {
				why = expand_one(json_is_array(read) ? read : NULL, shapes,
						 results);
				json_decref(read);
				n++;
			}
			if (!why && (!n || at == BL_JSON_KEPT_BAD))
				why = "a row that is neither a shape nor an array";
		}
		if (why)
			return why;
	}
	return NULL;
}

const char *bl_run_expand_rows(json_t *run)
{
	json_t *rows = json_object_get(run, "rows");
	if (!rows)
		return NULL;
	if (!json_is_array(rows))
		return "\"rows\" is not an array";
	json_t *results = json_array();
	const char *why = results ? expand(rows, results) : "out of memory";
	if (why) {
		json_decref(results);
		return why;
	}
	/* "results" where "rows" was: the members after it move behind */
	json_t *after = json_object();
	bool past = false;
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(run, tmp, k, v)
	{
		if (past) {
			json_object_set(after, k, v);
			json_object_del(run, k);
		} else if (strcmp(k, "rows") == 0) {
			past = true;
			json_object_del(run, k);
		}
	}
	json_object_set_new(run, "results", results);
	json_object_update(run, after);
	json_decref(after);
	return NULL;
}

const char *bl_doc_expand_rows(json_t *doc)
{
	json_t *runs = json_object_get(doc, "runs");
	if (!runs)
		return bl_run_expand_rows(doc);
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run)
	{
		const char *why = bl_run_expand_rows(run);
		if (why)
			return why;
	}
	return NULL;
}

static const char *check_run_rows(json_t *run)
{
	json_t *rows = json_object_get(run, "rows");
	if (!rows)
		return NULL;
	return json_is_array(rows) ? expand(rows, NULL) : "\"rows\" is not an array";
}

const char *bl_doc_check_rows(json_t *doc)
{
	json_t *runs = json_object_get(doc, "runs"), *run;
	if (!runs)
		return check_run_rows(doc);
	size_t i;
	json_array_foreach(runs, i, run)
	{
		const char *why = check_run_rows(run);
		if (why)
			return why;
	}
	return NULL;
}
