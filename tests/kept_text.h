/* kept_text.h - a document read by bl_json_read_results_as_text made whole
 * again, to hold it against bl_json_read's reading; a run read lean (as
 * chart and table read one) and what it must equal. Shared by the unit
 * tests and the fuzz targets. */
#ifndef BL_TEST_KEPT_TEXT_H
#define BL_TEST_KEPT_TEXT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../base/jsonread.h"
#include "../render/render.h"

/* The runs' rows and results kept as text in doc, read back in their
 * place: false when one does not read. */
static bool restore_kept(json_t *doc)
{
	static const char *const lists[] = {"rows", "results"};
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(doc, "runs"), i, run)
	{
		for (size_t k = 0; k < 2; k++) {
			json_t *list = json_object_get(run, lists[k]);
			if (!list)
				continue;
			/* each kept text read in its place: one or more elements */
			json_t *whole = json_array(), *t;
			size_t e;
			json_array_foreach(list, e, t)
			{
				size_t at = 0, n = 0;
				json_t *back;
				if (!bl_json_is_kept(t))
					json_array_append(whole, t);
				for (; bl_json_is_kept(t) && (back = bl_json_kept_next(t, &at));
				     n++)
					json_array_append_new(whole, back);
				if (bl_json_is_kept(t) && (!n || at == BL_JSON_KEPT_BAD)) {
					json_decref(whole);
					return false;
				}
			}
			json_array_clear(list);
			json_array_extend(list, whole);
			json_decref(whole);
		}
	}
	return true;
}

/* A run read with bl_json_read_run_with as chart and table read it:
 * its kept texts copied, and the members they do not read passed over
 * (render/lean.c). The copies live until stash_free. */

struct stash_copies {
	void **p;
	size_t n, cap;
};
static struct stash_copies stash_copies;

static const unsigned char *stash_copy(const unsigned char *p, size_t n, void *ctx)
{
	struct stash_copies *c = ctx;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		void **v = realloc(c->p, cap * sizeof *v);
		if (!v)
			return NULL;
		c->p = v;
		c->cap = cap;
	}
	unsigned char *copy = malloc(n ? n : 1);
	if (!copy)
		return NULL;
	memcpy(copy, p, n);
	c->p[c->n++] = copy;
	return copy;
}

/* the values the runs read lean share, as the CLI's documents do */
static struct bl_json_shared *lean_shared;

static void stash_free(void)
{
	bl_json_shared_free(lean_shared);
	lean_shared = NULL;
	for (size_t i = 0; i < stash_copies.n; i++)
		free(stash_copies.p[i]);
	free(stash_copies.p);
	stash_copies = (struct stash_copies){0};
}

static json_t *read_run_lean(const char *text, size_t len, size_t *used)
{
	if (!lean_shared)
		lean_shared = bl_json_shared_new();
	struct bl_json_run_opts o = {.stash = stash_copy,
				     .stash_ctx = &stash_copies,
				     .skip = bl_render_lean_run_skip,
				     .lift = bl_render_lean_run_lift,
				     .shared = lean_shared,
				     .share = bl_render_lean_run_share};
	return bl_json_read_run_with(text, len, used, &o);
}

/* run (a copy: a new value) as a lean reading makes it: without what
 * bl_render_lean_run_skip names ("time"), and each member that
 * bl_render_lean_run_lift names ("span.line") in its object's place;
 * null for an object without it or where it is no integer, a value
 * that is no object kept. */
static json_t *without_skipped(json_t *run)
{
	json_t *c = json_deep_copy(run);
	for (const char *const *s = bl_render_lean_run_skip; *s; s++)
		json_object_del(c, *s);
	for (const char *const *l = bl_render_lean_run_lift; *l; l++) {
		const char *dot = strchr(*l, '.');
		json_t *m = json_object_getn(c, *l, (size_t)(dot - *l));
		json_t *v = json_is_object(m) ? json_object_get(m, dot + 1) : NULL;
		if (json_is_object(m))
			json_object_setn(c, *l, (size_t)(dot - *l),
					 json_is_integer(v) ? v : json_null());
	}
	return c;
}

#endif
