/* report_charts.c - the report's comparisons: each chart inline as SVG,
 * every bar a link to the runs it aggregates, and beside it the same
 * comparison as a sortable table (the cells of `benchlog table`), every
 * cell linking to its runs too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "report.h"

/* "0-3 0-5": the runs of bar b, as the ids' tails ("run-0-3"). */
static char *runs_attr(const struct bl_bar *b)
{
	size_t cap = b->nruns * 24 + 1;
	char *s = malloc(cap), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < b->nruns; i++)
		p += snprintf(p, cap - (size_t)(p - s), "%s%u-%u", i ? " " : "", b->runs[i].doc,
			      b->runs[i].run);
	return s;
}

static char *first_run_href(const struct bl_bar *b)
{
	char *s = malloc(48);
	if (s && b->nruns)
		snprintf(s, 48, "#run-%u-%u", b->runs[0].doc, b->runs[0].run);
	else if (s)
		s[0] = '\0';
	return s;
}

static int collect(struct bl_buf *b, const unsigned char *data, size_t len)
{
	return bl_buf_put(b, data, len) ? 0 : -1;
}

static int collect_fn(void *ctx, const unsigned char *data, size_t len)
{
	return collect(ctx, data, len);
}

/* The chart's SVG without its XML declaration, ids prefixed "cN". */
static int put_svg(struct bl_buf *b, const struct bl_chart *c, size_t n,
		   const struct bl_report_opts *o)
{
	char **href = calloc(c->nbars ? c->nbars : 1, sizeof *href);
	char **data = calloc(c->nbars ? c->nbars : 1, sizeof *data);
	int rc = -1;
	if (!href || !data)
		goto out;
	for (size_t i = 0; i < c->nbars; i++)
		if (c->bars[i].nruns && (!(href[i] = first_run_href(&c->bars[i])) ||
					 !(data[i] = runs_attr(&c->bars[i]))))
			goto out;
	char prefix[24];
	snprintf(prefix, sizeof prefix, "c%zu", n);
	struct bl_svg_opts so = {prefix, (const char *const *)href, (const char *const *)data};
	struct bl_render_opts ro = {.width = 960, .theme = o->theme};
	struct bl_buf svg = {0};
	rc = bl_render_svg_with(c, &ro, &so, collect_fn, &svg);
	const char *start = svg.p ? strstr(svg.p, "<svg") : NULL;
	if (rc == 0 && start)
		bl_html_put(b, start);
	else
		rc = -1;
	bl_buf_free(&svg);
out:
	for (size_t i = 0; href && data && i < c->nbars; i++) {
		free(href[i]);
		free(data[i]);
	}
	free(href);
	free(data);
	return rc;
}

/* The sort key of a bar: its value, or the bound of a censored one. */
static double sort_value(const struct bl_bar *b)
{
	if (!b)
		return NAN;
	return isnan(b->value) ? INFINITY : b->value;
}

static void put_table(struct bl_buf *b, const struct bl_chart *c)
{
	char cell[512], axis[256];
	bl_axis_text(c, axis, sizeof axis);
	bl_html_put(b, "<div class=\"scroll\"><table class=\"cmp sortable\"><thead><tr><th>");
	bl_html_esc(b, axis);
	bl_html_put(b, "</th>");
	for (size_t s = 0; s < c->nseries; s++) {
		bl_html_put(b, "<th>");
		bl_html_esc(b, c->series[s][0] ? c->series[s] : "value");
		bl_html_put(b, "</th>");
	}
	bl_html_put(b, "</tr></thead><tbody>\n");
	for (size_t r = 0; r < c->ncats; r++) {
		bl_html_printf(b, "<tr><th data-v=\"%zu\">", r);
		bl_html_esc(b, c->cats[r]);
		bl_html_put(b, "</th>");
		for (size_t s = 0; s < c->nseries; s++) {
			const struct bl_bar *bar = bl_chart_bar(c, r, s);
			bl_table_cell(c, bar, cell, sizeof cell);
			double v = sort_value(bar);
			bl_html_printf(b, "<td data-v=\"%.17g\">", isnan(v) ? -INFINITY : v);
			char *runs = bar && bar->nruns ? runs_attr(bar) : NULL;
			char *href = runs ? first_run_href(bar) : NULL;
			if (runs && href) {
				bl_html_printf(b, "<a href=\"%s\" data-runs=\"%s\">", href, runs);
				bl_html_esc(b, cell);
				bl_html_put(b, "</a>");
			} else {
				bl_html_esc(b, cell);
			}
			free(runs);
			free(href);
			bl_html_put(b, "</td>");
		}
		bl_html_put(b, "</tr>\n");
	}
	bl_html_put(b, "</tbody></table></div>\n");
}

int bl_report_charts(struct bl_buf *b, json_t *docs, const struct bl_report_opts *o, char *err,
		     size_t errlen)
{
	struct bl_chart_opts none = {0};
	struct bl_charts cs = {0};
	if (bl_chart_build(docs, o->charts ? o->charts : &none, &cs, err, errlen) < 0)
		return -1;
	bl_html_put(b, "<section id=\"comparisons\">\n<h2>Comparisons</h2>\n");
	if (cs.n == 0)
		bl_html_put(b, "<p class=\"none\">Nothing to compare: no run gave a result a "
			       "chart draws.</p>\n");
	int rc = 0;
	for (size_t i = 0; i < cs.n && rc == 0; i++) {
		const struct bl_chart *c = &cs.v[i];
		bl_html_printf(b, "<figure class=\"chart\" id=\"chart-%zu\">\n", i);
		rc = put_svg(b, c, i, o);
		put_table(b, c);
		bl_html_put(b, "</figure>\n");
	}
	if (rc < 0)
		snprintf(err, errlen, "a chart could not be drawn (out of memory)");
	bl_html_put(b, "</section>\n");
	bl_charts_free(&cs);
	return rc;
}
