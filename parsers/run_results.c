/* run_results.c - a run's results in either form (see run_results.h). */
#include "run_results.h"

#include <string.h>

#include "../base/jsonread.h"

void bl_res_begin(struct bl_res_iter *it, json_t *run)
{
	it->next = 0;
	it->row = it->held = it->kept = NULL;
	it->kept_at = 0;
	it->cell = it->ncells = 0;
	it->list = json_object_get(run, "rows");
	it->rows = json_is_array(it->list);
	if (!it->rows) {
		it->list = json_object_get(run, "results");
		if (!json_is_array(it->list))
			it->list = NULL;
		return;
	}
	for (size_t i = 0; i < BL_ROW_SHAPES; i++)
		it->shapes[i].coords = it->shapes[i].cells = NULL;
}

/* {"shape": n, "coords": [...], "cells": [...]}: binds n. */
static void declare(struct bl_res_iter *it, json_t *d)
{
	json_t *id = json_object_get(d, "shape");
	json_t *coords = json_object_get(d, "coords"), *cells = json_object_get(d, "cells");
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
	    json_integer_value(id) >= BL_ROW_SHAPES || !json_is_array(coords) ||
	    !json_is_array(cells))
		return;
	it->shapes[json_integer_value(id)].coords = coords;
	it->shapes[json_integer_value(id)].cells = cells;
}

/* Starts reading row (an array) when it fits a declared shape. */
static bool start_row(struct bl_res_iter *it, json_t *row)
{
	if (!json_is_array(row))
		return false;
	json_t *id = json_array_get(row, 0);
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
	    json_integer_value(id) >= BL_ROW_SHAPES)
		return false;
	size_t s = (size_t)json_integer_value(id);
	json_t *coords = it->shapes[s].coords, *cells = it->shapes[s].cells;
	if (!coords || json_array_size(row) != 1 + json_array_size(coords) + json_array_size(cells))
		return false;
	it->row = row;
	it->shape = s;
	it->cell = 0;
	it->ncells = json_array_size(cells);
	return true;
}

/* The next row or result of the kept text being read, read (NULL after
 * its last, when it->kept is let go): it lives until the next one. */
static json_t *next_kept(struct bl_res_iter *it)
{
	json_decref(it->held);
	it->held = it->kept ? bl_json_kept_next(it->kept, &it->kept_at) : NULL;
	if (!it->held)
		it->kept = NULL;
	return it->held;
}

/* The list's next element, or the next of the kept text being read;
 * NULL after the last. A kept text is begun here. */
static json_t *next_element(struct bl_res_iter *it)
{
	for (;;) {
		json_t *v = next_kept(it);
		if (v)
			return v;
		json_t *e = json_array_get(it->list, it->next);
		if (!e)
			return NULL;
		it->next++;
		if (!bl_json_is_kept(e))
			return e;
		it->kept = e;
		it->kept_at = 0;
	}
}

void bl_res_end(struct bl_res_iter *it)
{
	json_decref(it->held);
	it->held = it->row = it->kept = NULL;
	it->list = NULL;
}

/* The next result of "results": an object, or one held as text. */
static bool next_object(struct bl_res_iter *it, struct bl_res *r)
{
	json_t *o;
	while ((o = next_element(it))) {
		if (json_is_object(o)) {
			*r = (struct bl_res){.obj = o};
			return true;
		}
	}
	bl_res_end(it);
	return false;
}

bool bl_res_next(struct bl_res_iter *it, struct bl_res *r)
{
	if (!it->list)
		return false;
	if (!it->rows)
		return next_object(it, r);
	while (!it->row || it->cell == it->ncells) {
		it->row = NULL;
		json_t *e = next_element(it);
		if (!e) {
			bl_res_end(it);
			return false;
		}
		if (json_is_object(e))
			declare(it, e);
		else
			start_row(it, e);
	}
	json_t *coords = it->shapes[it->shape].coords;
	*r = (struct bl_res){
		.row = it->row,
		.coords = coords,
		.names = json_array_get(it->shapes[it->shape].cells, it->cell),
		.cell = json_array_get(it->row, 1 + json_array_size(coords) + it->cell),
	};
	it->cell++;
	return true;
}

/* Which of a result's own members key names ("metric", ...), or 0 for a
 * coordinate: told by the first byte before the whole name. */
enum own_member { OWN_NONE, OWN_METRIC, OWN_VALUE, OWN_UNIT, OWN_RAW, OWN_FLAGS };

static enum own_member own_member(const char *key)
{
	switch (key[0]) {
	case 'm': return strcmp(key, "metric") == 0 ? OWN_METRIC : OWN_NONE;
	case 'v': return strcmp(key, "value") == 0 ? OWN_VALUE : OWN_NONE;
	case 'u': return strcmp(key, "unit") == 0 ? OWN_UNIT : OWN_NONE;
	case 'r': return strcmp(key, "raw") == 0 ? OWN_RAW : OWN_NONE;
	case 'f': return strcmp(key, "flags") == 0 ? OWN_FLAGS : OWN_NONE;
	default: return OWN_NONE;
	}
}

bool bl_res_own_name(const char *key)
{
	return own_member(key) != OWN_NONE;
}

json_t *bl_res_get(const struct bl_res *r, const char *key)
{
	enum own_member m = own_member(key);
	if (r->obj)
		return m == OWN_FLAGS ? NULL : json_object_get(r->obj, key);
	bool array = json_is_array(r->cell);
	switch (m) {
	case OWN_METRIC:
	case OWN_UNIT: return json_object_get(r->names, key);
	case OWN_VALUE: return array ? json_array_get(r->cell, 0) : r->cell;
	case OWN_RAW: {
		json_t *raw = array ? json_array_get(r->cell, 1) : NULL;
		return json_is_null(raw) ? NULL : raw;
	}
	case OWN_FLAGS: return NULL;
	case OWN_NONE: break;
	}
	size_t i;
	json_t *k;
	json_array_foreach(r->coords, i, k)
	{
		const char *name = json_string_value(k);
		if (name && name[0] == key[0] && strcmp(name, key) == 0)
			return json_array_get(r->row, 1 + i);
	}
	return NULL;
}

const char *bl_res_flag(const struct bl_res *r, size_t i)
{
	json_t *flags = r->obj ? json_object_get(r->obj, "flags") : r->cell;
	size_t k = r->obj ? 0 : 2; /* a cell: [value, raw, flag...] */
	if (!json_is_array(flags))
		return NULL;
	for (; k < json_array_size(flags); k++) {
		const char *f = json_string_value(json_array_get(flags, k));
		if (f && i-- == 0)
			return f;
	}
	return NULL;
}

bool bl_res_has_flag(const struct bl_res *r, const char *flag)
{
	const char *f;
	for (size_t i = 0; (f = bl_res_flag(r, i)); i++)
		if (strcmp(f, flag) == 0)
			return true;
	return false;
}

bool bl_res_coord(const struct bl_res *r, size_t i, const char **key, json_t **val)
{
	if (!r->obj) {
		*key = json_string_value(json_array_get(r->coords, i));
		*val = json_array_get(r->row, 1 + i);
		return *key && *val;
	}
	const char *k;
	json_t *v;
	json_object_foreach(r->obj, k, v)
	{
		if (own_member(k) != OWN_NONE || i-- > 0)
			continue;
		*key = k;
		*val = v;
		return true;
	}
	return false;
}

size_t bl_res_count(json_t *run)
{
	json_t *rows = json_object_get(run, "rows"), *e;
	if (!json_is_array(rows)) {
		/* objects counted; results kept as text are read to be */
		size_t i, n = 0;
		bool kept = false;
		json_array_foreach(json_object_get(run, "results"), i, e)
		{
			n += json_is_object(e);
			kept |= bl_json_is_kept(e);
		}
		if (!kept)
			return n;
	}
	struct bl_res_iter it;
	struct bl_res r;
	size_t n = 0;
	for (bl_res_begin(&it, run); bl_res_next(&it, &r);)
		n++;
	return n;
}
