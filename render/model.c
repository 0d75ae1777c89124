/* model.c - documents to chart models: for each tool its default views (or
 * the one --metric asks for), the values grouped into categories and
 * series, repeats aggregated to the median with their min-max spread and N,
 * censored and approximate values marked, and a scale with nice ticks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "name_index.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void swap_double(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* Puts the k-th smallest of v[0, n) at v[k], the smaller before it and
 * the larger after (Hoare's selection, the pivot the median of three).
 * A range that will not shrink is sorted: never worse than qsort. */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, rounds = 0;
	while (hi > lo) {
		if (++rounds > 64) {
			qsort(v + lo, hi - lo + 1, sizeof *v, cmp_double);
			return;
		}
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap_double(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap_double(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap_double(&v[hi], &v[mid]);
		double pivot = v[mid];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				swap_double(&v[i], &v[j]);
				i++;
				if (j-- == 0)
					break;
			}
		}
		/* v[lo, j] <= pivot <= v[i, hi], and v(j, i) == pivot */
		if (k <= j && j != SIZE_MAX)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double bl_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	size_t k = n / 2;
	select_kth(v, n, k);
	if (n % 2)
		return v[k];
	double below = v[0]; /* the largest before v[k]: the (k-1)-th */
	for (size_t i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[k]) / 2;
}

/* The indexes of a chart's lists of names while it is built. */
struct chart_index {
	struct bl_name_index cats, series, sources, commands, warnings;
};

static void chart_index_free(struct chart_index *ix)
{
	bl_name_index_free(&ix->cats);
	bl_name_index_free(&ix->series);
	bl_name_index_free(&ix->sources);
	bl_name_index_free(&ix->commands);
	bl_name_index_free(&ix->warnings);
}

static void chart_free(struct bl_chart *c)
{
	free(c->id);
	free(c->title);
	free(c->subtitle);
	free(c->metric_label);
	for (size_t i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->cats);
	for (size_t i = 0; i < c->nseries; i++)
		free(c->series[i]);
	free(c->series);
	free(c->bars);
	for (size_t i = 0; i < c->nsources; i++)
		free(c->sources[i]);
	free(c->sources);
	for (size_t i = 0; i < c->ncommands; i++)
		free(c->commands[i]);
	free(c->commands);
	free(c->bar_runs);
	free(c->bar_vals);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	memset(c, 0, sizeof *c);
}

void bl_charts_free(struct bl_charts *c)
{
	for (size_t i = 0; i < c->n; i++)
		chart_free(&c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

const struct bl_bar *bl_chart_bar(const struct bl_chart *c, size_t cat, size_t ser)
{
	for (size_t i = 0; i < c->nbars; i++)
		if (c->bars[i].cat == cat && c->bars[i].ser == ser)
			return &c->bars[i];
	return NULL;
}

/* Bars by their cell: category, series, then place in the chart. */
static int cmp_cell(const void *a, const void *b)
{
	const struct bl_bar *x = *(const struct bl_bar *const *)a,
			    *y = *(const struct bl_bar *const *)b;
	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	if (x->ser != y->ser)
		return x->ser < y->ser ? -1 : 1;
	return x < y ? -1 : x > y;
}

const struct bl_bar **bl_chart_cell_order(const struct bl_chart *c, size_t *n)
{
	const struct bl_bar **v = malloc((c->nbars ? c->nbars : 1) * sizeof *v);
	size_t k = 0;
	for (size_t i = 0; v && i < c->nbars; i++)
		if (c->bars[i].cat < c->ncats && c->bars[i].ser < c->nseries)
			v[k++] = &c->bars[i];
	if (v)
		qsort(v, k, sizeof *v, cmp_cell);
	size_t w = 0; /* of a cell's bars, the first (the lowest address) */
	for (size_t i = 0; v && i < k; i++)
		if (!w || v[w - 1]->cat != v[i]->cat || v[w - 1]->ser != v[i]->ser)
			v[w++] = v[i];
	*n = w;
	return v;
}

/* ------------------------------------------------------------ ordering */

struct cat_sort {
	size_t old;
	const char *name;
	double order, value;
};

static enum bl_sort sort_mode;

static int cmp_cat(const void *a, const void *b)
{
	const struct cat_sort *x = a, *y = b;
	int r = 0;
	if (sort_mode == BL_SORT_VALUE) {
		double vx = isnan(x->value) ? -INFINITY : x->value;
		double vy = isnan(y->value) ? -INFINITY : y->value;
		r = (vx < vy) - (vx > vy); /* largest first */
	} else if (!isnan(x->order) && !isnan(y->order)) {
		r = (x->order > y->order) - (x->order < y->order);
	} else if (sort_mode == BL_SORT_NAME) {
		r = strcmp(x->name, y->name);
	}
	return r ? r : (x->old > y->old) - (x->old < y->old);
}

/* Orders categories: coordinates numerically, else input order, by name, or
 * by value (the largest bar of each category). */
static int order_cats(struct bl_chart *c, const double *orders, enum bl_sort mode)
{
	struct cat_sort *cs = calloc(c->ncats ? c->ncats : 1, sizeof *cs);
	size_t *map = calloc(c->ncats ? c->ncats : 1, sizeof *map);
	char **names = calloc(c->ncats ? c->ncats : 1, sizeof *names);
	if (!cs || !map || !names) {
		free(cs);
		free(map);
		free(names);
		return -1;
	}
	for (size_t i = 0; i < c->ncats; i++) {
		cs[i].old = i;
		cs[i].name = c->cats[i];
		cs[i].order = mode == BL_SORT_VALUE ? NAN : orders[i];
		cs[i].value = NAN;
	}
	/* each category's largest value */
	for (size_t b = 0; b < c->nbars; b++) {
		struct cat_sort *x = &cs[c->bars[b].cat];
		if (!isnan(c->bars[b].value) && (isnan(x->value) || c->bars[b].value > x->value))
			x->value = c->bars[b].value;
	}
	sort_mode = mode;
	qsort(cs, c->ncats, sizeof *cs, cmp_cat);
	for (size_t i = 0; i < c->ncats; i++) {
		map[cs[i].old] = i;
		names[i] = c->cats[cs[i].old];
	}
	memcpy(c->cats, names, c->ncats * sizeof *names);
	for (size_t b = 0; b < c->nbars; b++)
		c->bars[b].cat = map[c->bars[b].cat];
	free(cs);
	free(map);
	free(names);
	return 0;
}

static int cmp_bar(const void *a, const void *b)
{
	const struct bl_bar *x = a, *y = b;
	if (x->cat != y->cat)
		return (x->cat > y->cat) - (x->cat < y->cat);
	return (x->ser > y->ser) - (x->ser < y->ser);
}

/* ------------------------------------------------------------ one chart */

struct acc {
	size_t cat, ser; /* its cell */
	double *vals;
	size_t n, cap;
	bool censored, approximate, bound_missing;
	const char *warning; /* borrowed from an item */
	struct bl_run_ref runs[BL_BAR_RUNS];
	size_t nruns;
	bool more_runs;
};

/* Notes run (doc, run) as one the cell aggregates, once. */
static void add_run(struct acc *a, size_t doc, size_t run)
{
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].doc == doc && a->runs[i].run == run)
			return;
	if (a->nruns == BL_BAR_RUNS)
		a->more_runs = true;
	else
		a->runs[a->nruns++] = (struct bl_run_ref){(unsigned)doc, (unsigned)run};
}

/* "what (unit)" (new string). */
static char *axis_title(const char *what, const char *unit)
{
	size_t n = strlen(what) + strlen(unit) + 4;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s (%s)", what, unit);
	return s;
}

static const char *unit_word(const char *unit)
{
	if (strcmp(unit, "B/s") == 0)
		return "throughput";
	if (strcmp(unit, "s") == 0)
		return "time";
	if (strcmp(unit, "ops/s") == 0)
		return "operations per second";
	if (strcmp(unit, "B") == 0)
		return "size";
	return "value";
}

/* System description from the `system` object (its string members,
 * "os, disks") of the first document the chart's items came from. */
static void system_text(const struct bl_select *s, const struct bl_items *it, const size_t *members,
			size_t nm, char *buf, size_t len)
{
	buf[0] = '\0';
	/* the first document, in input order, of the members' sources that
	 * says something of its system */
	size_t first = SIZE_MAX;
	for (size_t k = 0; k < nm; k++) {
		size_t d = s->system_doc[it->v[members[k]].src];
		if (d < first)
			first = d;
	}
	if (first == SIZE_MAX)
		return;
	size_t used = 0;
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(json_array_get(s->docs, first), "system"), key, v)
	{
		if (!json_is_string(v) || used + 4 >= len)
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
				 json_string_value(v));
		used = w > 0 && (size_t)w < len - used ? used + (size_t)w : len - 1;
	}
}

static int provenance(struct bl_chart *c, struct chart_index *ix, const struct bl_items *it,
		      const size_t *members, size_t nm)
{
	for (size_t k = 0; k < nm; k++) {
		const struct bl_item *x = &it->v[members[k]];
		if (x->source &&
		    bl_name_intern(&c->sources, &c->nsources, &ix->sources, x->source) < 0)
			return -1;
	}
	for (size_t k = 0; k < nm; k++) {
		const char *cmd = it->v[members[k]].command;
		if (cmd && bl_name_intern(&c->commands, &c->ncommands, &ix->commands, cmd) < 0)
			return -1;
	}
	return 0;
}

static int cmp_by_order(const void *a, const void *b)
{
	const struct bl_item *x = *(const struct bl_item *const *)a;
	const struct bl_item *y = *(const struct bl_item *const *)b;
	return (x->ser_order > y->ser_order) - (x->ser_order < y->ser_order);
}

/* Series that are coordinates (iozone's file sizes) in numeric order,
 * not in the order the post printed them: interned first, smallest
 * first. Others keep the input order. */
static int order_series(struct bl_chart *c, struct chart_index *ix, const struct bl_items *it,
			const size_t *members, size_t nm)
{
	const struct bl_item **v = malloc((nm ? nm : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t k = 0; k < nm; k++) {
		v[k] = &it->v[members[k]];
		if (isnan(v[k]->ser_order)) {
			free(v);
			return 0;
		}
	}
	qsort(v, nm, sizeof *v, cmp_by_order);
	int rc = 0;
	for (size_t k = 0; k < nm && rc == 0; k++)
		if (bl_name_intern(&c->series, &c->nseries, &ix->series, v[k]->ser) < 0)
			rc = -1;
	free(v);
	return rc;
}

/* The categories and series of the chart's items, in the order first
 * met (coordinate series in numeric order), with each category's
 * coordinate in *orders (new array). Returns 0, or -1 out of memory. */
static int intern_names(struct bl_chart *c, struct chart_index *ix, const struct bl_items *it,
			const size_t *members, size_t nm, double **orders)
{
	if (order_series(c, ix, it, members, nm) < 0)
		return -1;
	for (size_t k = 0; k < nm; k++) {
		const struct bl_item *x = &it->v[members[k]];
		long ci = bl_name_intern(&c->cats, &c->ncats, &ix->cats, x->cat);
		if (ci < 0 || bl_name_intern(&c->series, &c->nseries, &ix->series, x->ser) < 0)
			return -1;
		double *no = realloc(*orders, c->ncats * sizeof *no);
		if (!no)
			return -1;
		*orders = no;
		if ((size_t)ci == c->ncats - 1)
			no[ci] = x->cat_order;
	}
	return 0;
}

/* Appends v to the cell's values (a NAN: a bound missing). */
static int acc_add(struct acc *a, double v)
{
	if (isnan(v)) {
		a->bound_missing = true;
		return 0;
	}
	return bl_doubles_push(&a->vals, &a->n, &a->cap, v);
}

/* A member's cell, and its place among the members. */
struct cell_member {
	size_t cat, ser, k;
};

static int cmp_cell_member(const void *a, const void *b)
{
	const struct cell_member *x = a, *y = b;
	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	if (x->ser != y->ser)
		return x->ser < y->ser ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static bool same_cell(const struct cell_member *a, const struct cell_member *b)
{
	return a->cat == b->cat && a->ser == b->ser;
}

/* Adds item x's values and marks to a. 0, or -1 out of memory. */
static int acc_item(struct acc *a, const struct bl_items *it, const struct bl_item *x)
{
	size_t nmore;
	const double *more = bl_item_more_values(it, x, &nmore);
	int rc = acc_add(a, x->value);
	for (size_t m = 0; m < nmore && rc == 0; m++)
		rc = acc_add(a, more[m]);
	a->censored |= x->censored;
	a->approximate |= x->approximate;
	if (x->warning && !a->warning)
		a->warning = x->warning;
	add_run(a, x->doc, x->run_index);
	return rc;
}

/* The members sorted by cell (category x series, row by category), in
 * their order within each: a new array, NULL out of memory. A table of
 * thousands of sources holds items in few of its cells: only those are
 * met. */
static struct cell_member *by_cell(struct bl_chart *c, struct chart_index *ix,
				   const struct bl_items *it, const size_t *members, size_t nm)
{
	struct cell_member *cm = malloc((nm ? nm : 1) * sizeof *cm);
	if (!cm)
		return NULL;
	for (size_t k = 0; k < nm; k++) {
		const struct bl_item *x = &it->v[members[k]];
		/* both interned already (intern_names): found */
		size_t ci = (size_t)bl_name_intern(&c->cats, &c->ncats, &ix->cats, x->cat);
		size_t si = (size_t)bl_name_intern(&c->series, &c->nseries, &ix->series, x->ser);
		cm[k] = (struct cell_member){ci, si, k};
	}
	qsort(cm, nm, sizeof *cm, cmp_cell_member);
	return cm;
}

/* The members of sorted cm[0, nm) and where the next cell starts. */
struct cells {
	const struct bl_items *it;
	const size_t *members;
	const struct cell_member *cm;
	size_t nm, next;
};

/* The values and marks of the next cell, each item's further values with
 * its own, gathered into a (emptied first; its array of values kept).
 * 1, 0 when no cell is left, -1 out of memory. One cell at a time: a
 * chart of 10,000 series holds 70,000 cells. */
static int next_cell(struct cells *cs, struct acc *a)
{
	if (cs->next >= cs->nm)
		return 0;
	const struct cell_member *first = &cs->cm[cs->next];
	*a = (struct acc){.cat = first->cat, .ser = first->ser, .vals = a->vals, .cap = a->cap};
	for (; cs->next < cs->nm && same_cell(&cs->cm[cs->next], first); cs->next++)
		if (acc_item(a, cs->it, &cs->it->v[cs->members[cs->cm[cs->next].k]]) < 0)
			return -1;
	return 1;
}

/* Whether repeats from lo to hi disagree: more than 2x apart. */
static bool spread_disagrees(double lo, double hi)
{
	return lo > 0 && hi > 2 * lo;
}

/* Whether the values of a cell disagree (spread_disagrees), before they
 * are sorted. */
static bool values_disagree(const struct acc *a)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < a->n; i++) {
		lo = a->vals[i] < lo ? a->vals[i] : lo;
		hi = a->vals[i] > hi ? a->vals[i] : hi;
	}
	return a->n && spread_disagrees(lo, hi);
}

/* The chart's pools for the bars of the cells: room for their runs and
 * for the values of those whose repeats disagree. */
static int bar_pools(struct bl_chart *c, struct cells cs, struct acc *a, size_t *nbars)
{
	size_t nruns = 0, nvals = 0;
	int more;
	*nbars = 0;
	while ((more = next_cell(&cs, a)) > 0) {
		if (a->n == 0 && !a->bound_missing)
			continue;
		(*nbars)++;
		nruns += a->nruns;
		if (a->n <= BL_BAR_VALS && values_disagree(a))
			nvals += a->n;
	}
	if (more < 0)
		return -1;
	c->bars = calloc(*nbars ? *nbars : 1, sizeof *c->bars);
	c->bar_runs = malloc((nruns ? nruns : 1) * sizeof *c->bar_runs);
	c->bar_vals = malloc((nvals ? nvals : 1) * sizeof *c->bar_vals);
	return c->bars && c->bar_runs && c->bar_vals ? 0 : -1;
}

/* Bar b of the values gathered in a; *runs_used and *vals_used: the
 * chart's pools taken so far; ix indexes its warning codes. Returns 0,
 * or -1 out of memory. */
static int fill_bar(struct bl_chart *c, struct chart_index *ix, struct bl_bar *b,
		    const struct acc *a, size_t *runs_used, size_t *vals_used)
{
	b->n = a->n + (a->bound_missing ? 1 : 0);
	b->censored = a->censored;
	b->approximate = a->approximate;
	b->runs = c->bar_runs + *runs_used;
	memcpy(c->bar_runs + *runs_used, a->runs, a->nruns * sizeof *a->runs);
	*runs_used += a->nruns;
	b->nruns = a->nruns;
	b->more_runs = a->more_runs;
	if (a->warning) {
		long w = bl_name_intern(&c->warnings, &c->nwarnings, &ix->warnings, a->warning);
		if (w < 0)
			return -1;
		b->warning = c->warnings[w];
		if (!c->warning[0])
			snprintf(c->warning, sizeof c->warning, "%s", a->warning);
	}
	if (!a->n) {
		b->value = b->min = b->max = NAN;
		return 0;
	}
	if (a->n <= BL_BAR_VALS) /* few: kept in order, for the dots */
		qsort(a->vals, a->n, sizeof *a->vals, cmp_double);
	b->min = b->max = a->vals[0];
	for (size_t i = 1; i < a->n; i++) {
		b->min = a->vals[i] < b->min ? a->vals[i] : b->min;
		b->max = a->vals[i] > b->max ? a->vals[i] : b->max;
	}
	b->disagree = spread_disagrees(b->min, b->max);
	if (b->disagree && a->n <= BL_BAR_VALS) {
		b->vals = c->bar_vals + *vals_used;
		memcpy(b->vals, a->vals, a->n * sizeof *a->vals);
		*vals_used += a->n;
		b->nvals = a->n;
	}
	b->value = bl_median(a->vals, a->n); /* reorders them */
	return 0;
}

/* A bar for each cell of cs that has values (each gathered into a in
 * turn): the median, min-max and n, and the marks; *lo and *hi: the
 * smallest positive value and the largest (with room above a lower
 * bound). Returns 0, or -1 out of memory. */
static int make_bars(struct bl_chart *c, struct chart_index *ix, struct cells cs, struct acc *a,
		     double *lo, double *hi)
{
	size_t nbars, runs_used = 0, vals_used = 0;
	if (bar_pools(c, cs, a, &nbars) < 0)
		return -1;
	*lo = INFINITY;
	*hi = 0;
	int more;
	while ((more = next_cell(&cs, a)) > 0) {
		if (a->n == 0 && !a->bound_missing)
			continue;
		struct bl_bar *b = &c->bars[c->nbars++];
		b->cat = a->cat;
		b->ser = a->ser;
		if (fill_bar(c, ix, b, a, &runs_used, &vals_used) < 0)
			return -1;
		c->any_disagree |= b->disagree;
		if (a->n) {
			/* a lower bound gets room above it for its open end */
			double top = b->censored ? b->max * 1.08 : b->max;
			if (top > *hi)
				*hi = top;
			if (b->min > 0 && b->min < *lo)
				*lo = b->min;
		}
		c->any_censored |= b->censored;
		c->any_approximate |= b->approximate;
		c->any_repeats |= b->n > 1;
	}
	return more;
}

/* The chart's id ("dd-throughput-4k": tool, view and split, with no
 * spaces, slashes or pluses) and its title (--title, else the view's
 * with the split); NULL members when out of memory. */
static void name_chart(struct bl_chart *c, const struct bl_view *v, const char *tool,
		       const char *view_title, const char *split, const struct bl_chart_opts *o)
{
	char idbuf[256], tbuf[1024];
	snprintf(idbuf, sizeof idbuf, "%s-%s%s%s", tool, v->chart.name, *split ? "-" : "", split);
	for (char *p = idbuf; *p; p++)
		if (*p == ' ' || *p == '/' || *p == '+')
			*p = *p == '+' ? 'p' : '-';
	if (o->title)
		snprintf(tbuf, sizeof tbuf, "%s", o->title);
	else if (*split && v->chart.chart_per == BL_KEY_FILE_SIZE)
		snprintf(tbuf, sizeof tbuf, "%s, file size %s", view_title, split);
	else if (*split)
		snprintf(tbuf, sizeof tbuf, "%s, %s", view_title, split);
	else
		snprintf(tbuf, sizeof tbuf, "%s", view_title);
	c->id = strdup(idbuf);
	c->title = strdup(tbuf);
}

/* The subtitle "source: a.txt, b.txt — FreeBSD 8.0, ada0": the names of
 * the sources of the items, once each, and the system of the first
 * document; NULL when out of memory. */
static void name_sources(struct bl_chart *c, const struct bl_select *s, const struct bl_items *it,
			 const size_t *members, size_t nm)
{
	char srcs[400], sys[256], tbuf[1024];
	/* the names written: each adds a byte or more, but the first */
	const char *named[sizeof srcs];
	size_t used = 0, nnames = 0;
	srcs[0] = '\0';
	for (size_t k = 0; k < nm && used + 8 < sizeof srcs && nnames < sizeof srcs; k++) {
		const char *sn = it->v[members[k]].source_name;
		bool seen = false;
		for (size_t j = 0; j < nnames && !seen; j++)
			seen = named[j] == sn;
		if (seen)
			continue;
		int w = snprintf(srcs + used, sizeof srcs - used, "%s%s", nnames ? ", " : "", sn);
		used = w > 0 && (size_t)w < sizeof srcs - used ? used + (size_t)w : sizeof srcs - 1;
		named[nnames++] = sn;
	}
	system_text(s, it, members, nm, sys, sizeof sys);
	snprintf(tbuf, sizeof tbuf, "%s: %s%s%s", nnames > 1 ? "sources" : "source", srcs,
		 *sys ? " — " : "", sys);
	c->subtitle = strdup(tbuf);
}

/* --units, else the convention of the tool's output. */
static enum bl_units units_for(const struct bl_view *v, const struct bl_chart_opts *o)
{
	if (o->units != BL_UNITS_TOOL)
		return o->units;
	return v->chart.binary_units ? BL_UNITS_BINARY : BL_UNITS_DECIMAL;
}

static int build_one(struct bl_chart *c, struct bl_select *s, const struct bl_view *v,
		     const char *view_title, const struct bl_items *it, const size_t *members,
		     size_t nm, const char *split, const struct bl_chart_opts *o)
{
	int rc = -1;
	double *orders = NULL;
	struct cell_member *cm = NULL;
	struct acc scratch = {0};
	struct chart_index ix = {0};
	memset(c, 0, sizeof *c);
	c->unit = v->chart.unit ? v->chart.unit : "B/s";
	c->better = bl_unit_better(c->unit);

	if (intern_names(c, &ix, it, members, nm, &orders) < 0 ||
	    !(cm = by_cell(c, &ix, it, members, nm)))
		goto out;
	double lo, hi;
	struct cells cells = {it, members, cm, nm, 0};
	if (make_bars(c, &ix, cells, &scratch, &lo, &hi) < 0 || order_cats(c, orders, o->sort) < 0)
		goto out;
	qsort(c->bars, c->nbars, sizeof *c->bars, cmp_bar);
	bl_scale_compute(&c->scale, c->unit, isinf(lo) ? hi / 10 : lo, hi, o->log, units_for(v, o));
	/* every value censored without a bound (bonnie++'s +++++): no axis
	 * to read them on, not a 0-1 axis they would fill */
	bool any_value = false;
	for (size_t i = 0; i < c->nbars; i++)
		any_value |= !isnan(c->bars[i].value);
	if (!any_value)
		c->scale.nticks = 0;

	/* names */
	const char *tool = v->tool ? v->tool : "all";
	name_chart(c, v, tool, view_title, split, o);
	if (provenance(c, &ix, it, members, nm) < 0)
		goto out;
	name_sources(c, s, it, members, nm);
	char mbuf[64];
	const char *what = o->metric ? bl_metric_title(tool, o->metric, mbuf, sizeof mbuf)
				     : unit_word(c->unit);
	c->metric_label = axis_title(what, c->scale.unit);
	if (!c->id || !c->title || !c->subtitle || !c->metric_label)
		goto out;
	rc = 0;
out:
	chart_index_free(&ix);
	free(cm);
	free(scratch.vals);
	free(orders);
	if (rc < 0)
		chart_free(c);
	return rc;
}

/* ------------------------------------------------------------ all charts */

static int push_chart(struct bl_charts *out, struct bl_chart *c)
{
	struct bl_chart *v = realloc(out->v, (out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	out->v = v;
	out->v[out->n++] = *c;
	return 0;
}

/* The view's keys with --group-by applied: the categories become the
 * asked key; when that was the series key, the two swap. */
static void apply_group_by(struct bl_chart_view *v, enum bl_key g)
{
	if (g == BL_KEY_NONE || g == v->category)
		return;
	if (v->series == g || (g == BL_KEY_RUN && v->series == BL_KEY_LABEL))
		v->series = v->category == BL_KEY_LABEL && g == BL_KEY_RUN ? BL_KEY_METRIC
									   : v->category;
	v->category = g;
	if (v->series == v->category)
		v->series = BL_KEY_NONE;
}

/* A unit's name for a chart of --metric, kept as long as the process:
 * the chart outlives the document (a result read from its text goes at
 * once). The process's first few; NULL past them or out of memory. */
static const char *kept_unit(const char *u)
{
	static char *kept[32];
	size_t i = 0;
	for (; i < 32 && kept[i]; i++)
		if (strcmp(kept[i], u) == 0)
			return kept[i];
	return i < 32 ? (kept[i] = strdup(u)) : NULL;
}

/* The unit of the first result of `metric` among the selected runs (a
 * name kept_unit keeps), or NULL when no result has the metric. */
static const char *metric_unit(struct bl_select *s, const char *tool, const char *metric)
{
	size_t i, k;
	json_t *d, *run;
	json_array_foreach(s->docs, i, d)
	{
		json_array_foreach(json_object_get(d, "runs"), k, run)
		{
			const char *t = json_string_value(json_object_get(run, "tool"));
			if (!t || strcmp(t, tool) != 0 || !bl_select_run(s, run))
				continue;
			struct bl_res_iter it;
			struct bl_res r;
			for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
				const char *m = json_string_value(bl_res_get(&r, "metric"));
				if (m && strcmp(m, metric) == 0) {
					const char *u = json_string_value(bl_res_get(&r, "unit"));
					u = u ? kept_unit(u) : NULL;
					bl_res_end(&it);
					return u;
				}
			}
		}
	}
	return NULL;
}

/* Several inputs with the same categories (one post against another, or
 * against its replay): the series carry the source's name so that the
 * inputs stand side by side. Inputs with categories of their own share
 * the series. */
static int prefix_sources(struct bl_select *s, const struct bl_view *v, struct bl_items *it)
{
	if (s->nsources < 2 || v->chart.category == BL_KEY_SOURCE ||
	    v->chart.series == BL_KEY_SOURCE)
		return 0;
	/* a category two sources have: each of the list's texts (a
	 * category's among them) with the source first seen in it */
	size_t *src = malloc((it->ntexts ? it->ntexts : 1) * sizeof *src);
	for (size_t k = 0; src && k < it->ntexts; k++)
		src[k] = SIZE_MAX;
	bool shared = false;
	for (size_t i = 0; src && i < it->n && !shared; i++) {
		size_t *first = &src[bl_items_text_index(it, it->v[i].cat)];
		shared = *first != SIZE_MAX && *first != it->v[i].src;
		if (*first == SIZE_MAX)
			*first = it->v[i].src;
	}
	bool oom = !src;
	free(src);
	if (oom)
		return -1;
	if (!shared)
		return 0;
	for (size_t i = 0; i < it->n; i++) {
		struct bl_item *x = &it->v[i];
		size_t n = strlen(x->source_name) + strlen(x->ser) + 3;
		char *t = malloc(n);
		if (!t)
			return -1;
		snprintf(t, n, "%s%s%s", x->source_name, *x->ser ? ": " : "", x->ser);
		x->ser = bl_items_keep(it, t);
		free(t);
		if (!x->ser)
			return -1;
	}
	return 0;
}

/* The largest bar of each category of c (0 when none). */
static void cat_peaks(const struct bl_chart *c, double *peak)
{
	for (size_t i = 0; i < c->ncats; i++)
		peak[i] = 0;
	for (size_t i = 0; i < c->nbars; i++) {
		double v = c->bars[i].censored ? NAN : c->bars[i].max;
		if (isfinite(v) && v > peak[c->bars[i].cat])
			peak[c->bars[i].cat] = v;
	}
}

/* Categories of c whose largest bar is under a hundredth of the chart's
 * largest: marked in small[]; returns how many. */
static size_t small_cats(const struct bl_chart *c, bool *small)
{
	double *peak = calloc(c->ncats ? c->ncats : 1, sizeof *peak), hi = 0;
	size_t n = 0;
	if (!peak)
		return 0;
	cat_peaks(c, peak);
	for (size_t i = 0; i < c->ncats; i++)
		hi = fmax(hi, peak[i]);
	for (size_t i = 0; i < c->ncats; i++) {
		small[i] = peak[i] > 0 && peak[i] < hi / 100;
		n += small[i];
	}
	free(peak);
	return n;
}

/* Whether the members all come from one run (views that keep runs apart
 * name each item's run). */
static bool one_run(const struct bl_items *it, const size_t *members, size_t nm)
{
	for (size_t k = 1; k < nm; k++) {
		const char *a = it->v[members[0]].run, *b = it->v[members[k]].run;
		if (!a || !b || strcmp(a, b) != 0)
			return false;
	}
	return true;
}

/* c on a log axis, which its note mentions. */
static void auto_log(struct bl_chart *c, const struct bl_view *v, const struct bl_chart_opts *o)
{
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < c->nbars; i++) {
		const struct bl_bar *b = &c->bars[i];
		double top = b->censored ? b->max * 1.08 : b->max;
		if (isfinite(top) && top > hi)
			hi = top;
		if (isfinite(b->min) && b->min > 0 && b->min < lo)
			lo = b->min;
	}
	if (isinf(lo))
		return;
	bl_scale_compute(&c->scale, c->unit, lo, hi, true, units_for(v, o));
	c->auto_log = true;
}

/* "write per char and read per char": the categories marked (up to three,
 * else "small values"), into buf. */
static void small_names(const struct bl_chart *c, const bool *small, size_t nsmall, char *buf,
			size_t len)
{
	size_t used = 0, k = 0;
	buf[0] = '\0';
	if (nsmall > 3) {
		snprintf(buf, len, "small values");
		return;
	}
	for (size_t i = 0; i < c->ncats; i++) {
		if (!small[i])
			continue;
		const char *sep = k == 0 ? "" : k + 1 == nsmall ? " and " : ", ";
		int w = snprintf(buf + used, len - used, "%s%s", sep, c->cats[i]);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		k++;
	}
}

/* The charts of c's members apart: those in small categories, the rest. */
static int split_chart(const struct bl_chart *c, const bool *small, size_t nsmall,
		       struct bl_select *s, const struct bl_view *v, const char *title,
		       const struct bl_items *it, const size_t *members, size_t nm,
		       const char *split, const struct bl_chart_opts *o, struct bl_charts *out)
{
	size_t *part = calloc(nm ? nm : 1, sizeof *part);
	if (!part)
		return -1;
	char names[256], split2[512];
	small_names(c, small, nsmall, names, sizeof names);
	snprintf(split2, sizeof split2, "%s%s%s", split, *split ? ", " : "", names);
	int rc = 0;
	for (int want_small = 0; want_small < 2 && rc == 0; want_small++) {
		size_t np = 0;
		for (size_t k = 0; k < nm; k++) {
			/* the items' categories are c's own: found exactly */
			long ci = bl_chart_find_cat(c, it->v[members[k]].cat);
			bool is_small = ci >= 0 && small[ci];
			if (is_small == (bool)want_small)
				part[np++] = members[k];
		}
		struct bl_chart one;
		if (build_one(&one, s, v, title, it, part, np, want_small ? split2 : split, o) <
		    0) {
			rc = -1;
		} else if (push_chart(out, &one) < 0) {
			chart_free(&one);
			rc = -1;
		}
	}
	free(part);
	return rc;
}

/* A chart of tests (categories that are metrics) whose values span more
 * than two orders of magnitude becomes two, each with a readable unit:
 * bonnie++'s per-char rates (0.1 MB/s) apart from its block rates
 * (60 MB/s), random seeks (150/s) apart from file creates (20,000/s).
 * Other categories (labels compared with one another) keep one chart,
 * on a log axis that the chart says it uses. */
static int build_split(struct bl_select *s, const struct bl_view *v, const char *title,
		       const struct bl_items *it, const size_t *members, size_t nm,
		       const char *split, const struct bl_chart_opts *o, struct bl_charts *out)
{
	if (v->chart.min_series && !one_run(it, members, nm))
		return 0; /* a panel of one run's sizes; several runs: their own charts */
	struct bl_chart c;
	if (build_one(&c, s, v, title, it, members, nm, split, o) < 0)
		return -1;
	if (c.nseries < v->chart.min_series) {
		chart_free(&c); /* a view that compares nothing here */
		return 0;
	}
	bool *small = calloc(c.ncats ? c.ncats : 1, sizeof *small);
	size_t nsmall = small ? small_cats(&c, small) : 0;
	bool by_metric = v->chart.category == BL_KEY_METRIC;
	if (nsmall && nsmall < c.ncats && !o->log && by_metric && !o->baseline) {
		int rc =
			split_chart(&c, small, nsmall, s, v, title, it, members, nm, split, o, out);
		chart_free(&c);
		free(small);
		return rc;
	}
	if (nsmall && !o->log && !c.scale.log)
		auto_log(&c, v, o);
	free(small);
	if (push_chart(out, &c) < 0) {
		chart_free(&c);
		return -1;
	}
	return 0;
}

/* The splits of the items, each item's (split_of[i]), and the splits in
 * numeric order where they have one (*perm, new arrays). 0, or -1 on out
 * of memory. */
static int order_splits(const struct bl_items *it, char ***splits, size_t *nsplits,
			size_t *split_of, size_t **perm)
{
	struct bl_name_index ix = {0};
	double *sorder = calloc(it->n ? it->n : 1, sizeof *sorder);
	int rc = sorder ? 0 : -1;
	for (size_t i = 0; i < it->n && rc == 0; i++) {
		long k = bl_name_intern(splits, nsplits, &ix, it->v[i].split);
		if (k < 0)
			rc = -1;
		else
			sorder[(split_of[i] = (size_t)k)] = it->v[i].split_order;
	}
	bl_name_index_free(&ix);
	size_t *p = rc == 0 ? calloc(*nsplits ? *nsplits : 1, sizeof *p) : NULL;
	if (!p) {
		free(sorder);
		return -1;
	}
	for (size_t i = 0; i < *nsplits; i++)
		p[i] = i;
	for (size_t i = 1; i < *nsplits; i++) /* insertion sort: few splits */
		for (size_t j = i; j > 0 && !isnan(sorder[p[j]]) && !isnan(sorder[p[j - 1]]) &&
				   sorder[p[j]] < sorder[p[j - 1]];
		     j--) {
			size_t t = p[j];
			p[j] = p[j - 1];
			p[j - 1] = t;
		}
	free(sorder);
	*perm = p;
	return 0;
}

static int charts_of_view(struct bl_select *s, const struct bl_view *v, const char *title,
			  const struct bl_chart_opts *o, struct bl_charts *out)
{
	struct bl_items it = {0};
	size_t *members = NULL, *split_of = NULL, *perm = NULL, *from = NULL;
	char **splits = NULL;
	size_t nsplits = 0;
	int rc = -1;
	if (bl_select_items(s, v, &it) < 0 || bl_prefix_runs(v, &it) < 0 ||
	    prefix_sources(s, v, &it) < 0)
		goto out;
	members = calloc(it.n ? it.n : 1, sizeof *members);
	split_of = calloc(it.n ? it.n : 1, sizeof *split_of);
	/* one chart per split value, in numeric order where it has one */
	if (!members || !split_of || order_splits(&it, &splits, &nsplits, split_of, &perm) < 0 ||
	    !(from = bl_name_groups(split_of, it.n, nsplits, members)))
		goto out;
	rc = 0;
	for (size_t p = 0; p < nsplits && rc == 0; p++) {
		size_t k = perm[p];
		rc = build_split(s, v, title, &it, members + from[k], from[k + 1] - from[k],
				 splits[k], o, out);
	}
out:
	for (size_t i = 0; i < nsplits; i++)
		free(splits[i]);
	free(splits);
	free(members);
	free(split_of);
	free(perm);
	free(from);
	bl_items_free(&it);
	return rc;
}

/* --metric: one chart of the asked metric, per label; a copying tool's
 * writes and reads of one label side by side. 0, or -1 on out of memory. */
static int charts_of_metric(struct bl_select *s, const char *tool, const struct bl_chart_opts *o,
			    struct bl_charts *out)
{
	const char *unit = metric_unit(s, tool, o->metric);
	if (!unit)
		return 0;
	const char *one[] = {o->metric, NULL};
	char title[128];
	snprintf(title, sizeof title, "%s %s", tool, o->metric);
	struct bl_view v = {
		.tool = tool,
		.chart = {.name = o->metric,
			  .metrics = one,
			  .unit = unit,
			  .category = BL_KEY_LABEL,
			  .series = bl_transfer_of(tool) ? BL_KEY_DIRECTION : BL_KEY_METRIC,
			  .chart_per = BL_KEY_NONE},
	};
	apply_group_by(&v.chart, o->group_by);
	return charts_of_view(s, &v, title, o, out);
}

/* The charts of every view of the tool's. 0, or -1 on out of memory. */
static int charts_of_tool(struct bl_select *s, const char *tool, const struct bl_chart_opts *o,
			  struct bl_charts *out)
{
	bool generic;
	const struct bl_chart_view *views = bl_views_for(tool, &generic);
	for (size_t i = 0; views[i].name; i++) {
		struct bl_view v = {.tool = tool, .chart = views[i]};
		char title[128];
		if (generic)
			snprintf(title, sizeof title, "%s %s", tool, v.chart.title);
		else
			snprintf(title, sizeof title, "%s", v.chart.title);
		apply_group_by(&v.chart, o->group_by);
		if (charts_of_view(s, &v, title, o, out) < 0)
			return -1;
	}
	return 0;
}

/* --baseline on every chart that has the label; an error naming the
 * labels there are when none has it. */
static int apply_baseline(struct bl_charts *out, const struct bl_chart_opts *o, char *err,
			  size_t errlen)
{
	size_t applied = 0;
	for (size_t i = 0; i < out->n; i++) {
		int rc = bl_chart_rebase(&out->v[i], o->baseline, o->units);
		if (rc == -2) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		applied += rc == 0;
	}
	if (applied || out->n == 0)
		return 0;
	int used =
		snprintf(err, errlen, "--baseline: no bar is labelled '%s' (labels:", o->baseline);
	const struct bl_chart *c = &out->v[0];
	for (size_t k = 0; k < c->ncats && used > 0 && (size_t)used < errlen; k++)
		used += snprintf(err + used, errlen - (size_t)used, "%s '%s'", k ? "," : "",
				 c->cats[k]);
	if (used > 0 && (size_t)used < errlen)
		snprintf(err + used, errlen - (size_t)used, ")");
	return -1;
}

int bl_chart_build(json_t *docs, const struct bl_chart_opts *o, struct bl_charts *out, char *err,
		   size_t errlen)
{
	struct bl_select s;
	memset(out, 0, sizeof *out);
	if (bl_select_init(&s, docs, o, err, errlen) < 0)
		return -1;
	const char *tools[64];
	size_t ntools = bl_select_tools(&s, tools, 64);
	for (size_t t = 0; t < ntools; t++) {
		int rc = o->metric ? charts_of_metric(&s, tools[t], o, out)
				   : charts_of_tool(&s, tools[t], o, out);
		if (rc < 0)
			goto oom;
	}
	bl_select_free(&s);
	if (o->baseline && apply_baseline(out, o, err, errlen) < 0) {
		bl_charts_free(out);
		return -1;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	bl_select_free(&s);
	bl_charts_free(out);
	return -1;
}
