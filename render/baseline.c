/* baseline.c - --baseline LABEL: every bar of a chart as a percentage of
 * the bar of the same series whose category is LABEL ("zfs at 100%: ufs
 * 231%"). A chart without such a category is left as it was. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render.h"

/* The category named `label`: exactly, else the only one that contains it
 * (caseless); -1 when none or several. */
long bl_chart_find_cat(const struct bl_chart *c, const char *label)
{
	long found = -1;
	for (size_t i = 0; i < c->ncats; i++)
		if (strcmp(c->cats[i], label) == 0)
			return (long)i;
	for (size_t i = 0; i < c->ncats; i++) {
		if (!strcasestr(c->cats[i], label))
			continue;
		if (found >= 0)
			return -1;
		found = (long)i;
	}
	return found;
}

static void rebase_bar(struct bl_bar *b, double base)
{
	b->value = b->value / base * 100;
	b->min = b->min / base * 100;
	b->max = b->max / base * 100;
	for (size_t k = 0; k < b->nvals; k++)
		b->vals[k] = b->vals[k] / base * 100;
}

/* A series without a bar in the baseline category has nothing to be a
 * percentage of: its bars and its legend entry go (seed 001's reads,
 * beside a baseline that was only written). base[] follows the series. */
static void drop_unbased(struct bl_chart *c, double *base, size_t nser)
{
	size_t map[64], kept = 0, nb = 0;
	for (size_t s = 0; s < c->nseries; s++) {
		if (s < nser && !isnan(base[s])) {
			map[s] = kept;
			base[kept] = base[s];
			c->series[kept++] = c->series[s];
		} else {
			if (s < nser)
				map[s] = SIZE_MAX;
			free(c->series[s]);
		}
	}
	for (size_t i = 0; i < c->nbars; i++) {
		struct bl_bar b = c->bars[i];
		if (b.ser >= nser || map[b.ser] == SIZE_MAX)
			continue;
		b.ser = map[b.ser];
		c->bars[nb++] = b;
	}
	c->nseries = kept;
	c->nbars = nb;
}

int bl_chart_rebase(struct bl_chart *c, const char *label, enum bl_units units)
{
	long ci = bl_chart_find_cat(c, label);
	if (ci < 0)
		return -1;
	double base[64];
	size_t nser = c->nseries < 64 ? c->nseries : 64;
	for (size_t s = 0; s < nser; s++)
		base[s] = NAN;
	for (size_t i = 0; i < c->nbars; i++) {
		const struct bl_bar *b = &c->bars[i];
		if (b->cat == (size_t)ci && b->ser < nser && !b->censored && b->value > 0)
			base[b->ser] = b->value;
	}
	bool any = false;
	for (size_t s = 0; s < nser; s++)
		any |= !isnan(base[s]);
	if (!any)
		return -1; /* the label's bars are all censored: nothing to divide by */
	drop_unbased(c, base, nser);
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < c->nbars; i++) {
		struct bl_bar *b = &c->bars[i];
		rebase_bar(b, base[b->ser]);
		if (isfinite(b->max) && b->max > hi)
			hi = b->max;
		if (isfinite(b->min) && b->min > 0 && b->min < lo)
			lo = b->min;
	}
	char *what = malloc(strlen(c->cats[ci]) + 16);
	if (!what)
		return -2;
	sprintf(what, "%% of %s", c->cats[ci]);
	free(c->metric_label);
	c->metric_label = what;
	c->unit = "%";
	bl_scale_compute(&c->scale, "%", isinf(lo) ? hi / 10 : lo, hi, c->scale.log, units);
	return 0;
}
