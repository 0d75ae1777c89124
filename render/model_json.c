/* model_json.c - the chart model as data: what `benchlog chart --model`
 * prints instead of drawing, and a Vega-Lite specification of one chart.
 *
 * Values are in each chart's display unit ("unit": "MB/s"); "base_unit"
 * and "divisor" give them back in the unit of the documents. */
#include <math.h>
#include <stdio.h>

#include "render.h"

static json_t *number_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *color_of(const struct bl_theme *t, size_t i)
{
	struct bl_rgb c = bl_theme_series(t, i);
	char hex[8];
	snprintf(hex, sizeof hex, "#%02x%02x%02x", (unsigned)lround(c.r * 255),
		 (unsigned)lround(c.g * 255), (unsigned)lround(c.b * 255));
	return json_string(hex);
}

/* Base value / divisor = the value in the chart's display unit. */
static double divisor(const struct bl_chart *c)
{
	return c->scale.div > 0 ? c->scale.div : 1;
}

static json_t *better_json(enum bl_better b)
{
	return b == BL_BETTER_UNKNOWN ? json_null() : json_boolean(b == BL_BETTER_LOWER);
}

/* {"label", "series", "value", "n", "min", "max", "censored", "flags"} */
static json_t *bar_json(const struct bl_chart *c, const struct bl_bar *b)
{
	double div = divisor(c);
	json_t *flags = json_array();
	if (b->approximate)
		json_array_append_new(flags, json_string("approximate"));
	if (isnan(b->value))
		json_array_append_new(flags, json_string("no_bound"));
	if (b->disagree)
		json_array_append_new(flags, json_string("repeats_disagree"));
	if (b->warning)
		json_array_append_new(flags, json_string("warning"));
	json_t *bar =
		json_pack("{s:s, s:s, s:o, s:I, s:o, s:o, s:b, s:o}", "label", c->cats[b->cat],
			  "series", c->series[b->ser], "value", number_or_null(b->value / div), "n",
			  (json_int_t)b->n, "min", number_or_null(b->min / div), "max",
			  number_or_null(b->max / div), "censored", b->censored, "flags", flags);
	if (bar && b->warning)
		json_object_set_new(bar, "warning", json_string(b->warning));
	if (bar && b->nvals) {
		json_t *vals = json_array();
		for (size_t k = 0; k < b->nvals; k++)
			json_array_append_new(vals, json_real(b->vals[k] / div));
		json_object_set_new(bar, "values", vals);
	}
	return bar;
}

/* The chart's bars: the model's "bars", and Vega-Lite's data rows. */
static json_t *bars_json(const struct bl_chart *c)
{
	json_t *rows = json_array();
	for (size_t i = 0; i < c->nbars; i++)
		json_array_append_new(rows, bar_json(c, &c->bars[i]));
	return rows;
}

static json_t *chart_json(const struct bl_chart *c, const struct bl_theme *t)
{
	json_t *series = json_array(), *bars = bars_json(c);
	for (size_t i = 0; i < c->nseries; i++)
		json_array_append_new(series, json_pack("{s:s, s:o}", "name", c->series[i], "color",
							color_of(t, i)));
	json_t *ticks = json_array(); /* none: no value to read on an axis */
	for (size_t i = 0; i < c->scale.nticks; i++)
		json_array_append_new(ticks, json_real(c->scale.ticks[i] / divisor(c)));
	char axis[256];
	bl_axis_text(c, axis, sizeof axis);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:b, s:o, s:o, s:o, s:o}", "id",
			 c->id, "title", c->title, "subtitle", c->subtitle, "axis", axis, "unit",
			 c->scale.unit, "base_unit", c->unit, "divisor", divisor(c), "log",
			 c->scale.log, "lower_is_better", better_json(c->better), "ticks", ticks,
			 "series", series, "bars", bars);
}

json_t *bl_charts_model(const struct bl_chart *charts, size_t n, const struct bl_theme *t)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, chart_json(&charts[i], t)) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *bl_chart_vega_lite(const struct bl_chart *c, const struct bl_theme *t)
{
	json_t *domain = json_array(), *range = json_array(), *order = json_array();
	for (size_t i = 0; i < c->nseries; i++) {
		json_array_append_new(domain, json_string(c->series[i]));
		json_array_append_new(range, color_of(t, i));
	}
	for (size_t i = 0; i < c->ncats; i++)
		json_array_append_new(order, json_string(c->cats[i]));
	char axis[256];
	bl_axis_text(c, axis, sizeof axis);
	json_t *y = json_pack("{s:s, s:s, s:s}", "field", "value", "type", "quantitative", "title",
			      axis);
	if (c->scale.log)
		json_object_set_new(y, "scale", json_pack("{s:s}", "type", "log"));
	return json_pack("{s:s, s:{s:s, s:s}, s:{s:o}, s:s, s:{s:{s:s, s:s, s:o, s:s}, s:o, "
			 "s:{s:s}, s:{s:s, s:s, s:{s:o, s:o}, s:s}, s:[{s:s}, {s:s}, {s:s}]}}",
			 "$schema", "https://vega.github.io/schema/vega-lite/v5.json", "title",
			 "text", c->title, "subtitle", c->subtitle, "data", "values", bars_json(c),
			 "mark", "bar", "encoding", "x", "field", "label", "type", "nominal",
			 "sort", order, "title", "", "y", y, "xOffset", "field", "series", "color",
			 "field", "series", "type", "nominal", "scale", "domain", domain, "range",
			 range, "title", "", "tooltip", "field", "label", "field", "value", "field",
			 "n");
}
