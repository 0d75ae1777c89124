/* items.c - the list of values a view pulls out of the documents.
 *
 * A long `zpool iostat -v` stream gives every vdev a value a sample: the
 * first 16 MB of one are 380,000 values for 12 bars, each value an item
 * of 128 bytes. Values that come with the same place (run, names, keys
 * and orders: all but the value and its marks) make one item here, and
 * the values after its own wait beside it, 8 bytes each, for the bar's
 * median. Places are found through a hash of their fields. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "name_index.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdu;
}

static uint64_t bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint64_t place_hash(const struct bl_item *x)
{
	const void *ptrs[] = {x->cat,     x->ser,     x->split,  x->run,
			      x->warning, x->command, x->source, x->source_name};
	uint64_t h = 0;
	for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
		h = mix(h, (uint64_t)(uintptr_t)ptrs[i]);
	h = mix(h, bits(x->cat_order));
	h = mix(h, bits(x->split_order));
	h = mix(h, bits(x->ser_order));
	h = mix(h, x->src);
	h = mix(h, x->doc);
	return mix(h, x->run_index);
}

/* Whether a and b have one place: texts compared as the list's copies
 * (or borrowed from one run), orders to the bit. */
static bool same_place(const struct bl_item *a, const struct bl_item *b)
{
	return a->cat == b->cat && a->ser == b->ser && a->split == b->split && a->run == b->run &&
	       a->warning == b->warning && a->command == b->command && a->source == b->source &&
	       a->source_name == b->source_name && bits(a->cat_order) == bits(b->cat_order) &&
	       bits(a->split_order) == bits(b->split_order) &&
	       bits(a->ser_order) == bits(b->ser_order) && a->src == b->src && a->doc == b->doc &&
	       a->run_index == b->run_index;
}

/* The slot of x's place: an item's, or the empty one it would take. */
static size_t *slot_of(const struct bl_items *it, const struct bl_item *x)
{
	size_t mask = it->nslots - 1, h = (size_t)place_hash(x) & mask;
	while (it->slots[h] && !same_place(&it->v[it->slots[h] - 1], x))
		h = (h + 1) & mask;
	return &it->slots[h];
}

/* Room for the next item, and slots at most half full. */
static int grow(struct bl_items *it)
{
	if (it->n == it->cap) {
		size_t cap = it->cap ? it->cap * 2 : 32;
		struct bl_item *v = realloc(it->v, cap * sizeof *v);
		if (!v)
			return -1;
		it->v = v;
		it->cap = cap;
	}
	if (2 * (it->n + 1) <= it->nslots)
		return 0;
	size_t n = it->nslots ? it->nslots * 2 : 64;
	size_t *old = it->slots;
	if (!(it->slots = calloc(n, sizeof *it->slots))) {
		it->slots = old;
		return -1;
	}
	it->nslots = n;
	for (size_t i = 0; i < it->n; i++)
		*slot_of(it, &it->v[i]) = i + 1;
	free(old);
	return 0;
}

int bl_doubles_push(double **v, size_t *n, size_t *cap, double x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		double *nv = realloc(*v, c * sizeof *nv);
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* Appends value v to the further values of item x. */
static int add_more(struct bl_items *it, struct bl_item *x, double v)
{
	if (!x->more) {
		struct bl_item_more *m = realloc(it->more, (it->nmore + 1) * sizeof *m);
		if (!m)
			return -1;
		it->more = m;
		it->more[it->nmore] = (struct bl_item_more){NULL, 0, 0};
		x->more = ++it->nmore;
	}
	struct bl_item_more *m = &it->more[x->more - 1];
	return bl_doubles_push(&m->v, &m->n, &m->cap, v);
}

int bl_items_add(struct bl_items *it, const struct bl_item *x)
{
	if (grow(it) < 0)
		return -1;
	size_t *slot = slot_of(it, x);
	if (*slot) {
		struct bl_item *y = &it->v[*slot - 1];
		y->censored |= x->censored;
		y->approximate |= x->approximate;
		return add_more(it, y, x->value);
	}
	it->v[it->n] = *x;
	it->v[it->n].more = 0;
	*slot = ++it->n;
	return 0;
}

const double *bl_item_more_values(const struct bl_items *it, const struct bl_item *x, size_t *n)
{
	*n = x->more ? it->more[x->more - 1].n : 0;
	return x->more ? it->more[x->more - 1].v : NULL;
}

void bl_items_free(struct bl_items *it)
{
	for (size_t i = 0; i < it->ntexts; i++)
		free(it->texts[i]);
	free(it->texts);
	bl_name_index_free(&it->ix);
	for (size_t i = 0; i < it->nmore; i++)
		free(it->more[i].v);
	free(it->more);
	free(it->slots);
	free(it->v);
	memset(it, 0, sizeof *it);
}

const char *bl_items_keep(struct bl_items *it, const char *s)
{
	long k = bl_name_intern(&it->texts, &it->ntexts, &it->ix, s);
	return k < 0 ? NULL : it->texts[k];
}

size_t bl_items_text_index(const struct bl_items *it, const char *kept)
{
	return (size_t)bl_name_find(it->texts, &it->ix, kept);
}
