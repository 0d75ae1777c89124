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

/* Each bar's link (to its first run) and data-runs (all of them), made
 * once for the SVG and the table; NULL entries for a bar without runs. */
struct bar_links {
	char **href, **data;
	size_t n;
};

static void links_free(struct bar_links *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->href[i]);
		free(k->data[i]);
	}
	free(k->href);
	free(k->data);
}

static int links_make(const struct bl_chart *c, struct bar_links *k)
{
	k->href = calloc(c->nbars ? c->nbars : 1, sizeof *k->href);
	k->data = calloc(c->nbars ? c->nbars : 1, sizeof *k->data);
	if (!k->href || !k->data)
		return -1;
	k->n = c->nbars;
	for (size_t i = 0; i < k->n; i++)
		if (c->bars[i].nruns && (!(k->href[i] = first_run_href(&c->bars[i])) ||
					 !(k->data[i] = runs_attr(&c->bars[i]))))
			return -1;
	return 0;
}

/* The SVG as it is written, into the page from its opening tag on (the
 * XML declaration before it left out): svg.c's first piece holds the
 * tag. */
struct svg_into {
	const struct bl_section_out *out;
	bool started;
};

static int into_page(void *ctx, const unsigned char *data, size_t len)
{
	struct svg_into *in = ctx;
	const unsigned char *from = data;
	if (!in->started) {
		from = memmem(data, len, "<svg", 4);
		if (!from)
			return -1;
		in->started = true;
	}
	struct bl_buf *b = in->out->b;
	if (!bl_buf_put(b, from, len - (size_t)(from - data)))
		return -1;
	bl_section_flush_full(in->out);
	return b->failed ? -1 : 0;
}

/* The chart's SVG without its XML declaration, ids prefixed "cN". */
static int put_svg(const struct bl_section_out *out, const struct bl_chart *c, size_t n,
		   const struct bar_links *k, const struct bl_report_opts *o)
{
	char prefix[24];
	snprintf(prefix, sizeof prefix, "c%zu", n);
	struct bl_svg_opts so = {prefix, (const char *const *)k->href,
				 (const char *const *)k->data};
	struct bl_render_opts ro = {.width = 960, .theme = o->theme};
	struct svg_into in = {out, false};
	int rc = bl_render_svg_with(c, &ro, &so, into_page, &in);
	return rc == 0 && in.started ? 0 : -1;
}

/* The sort key of a bar: its value, or the bound of a censored one. */
static double sort_value(const struct bl_bar *b)
{
	if (!b)
		return NAN;
	return isnan(b->value) ? INFINITY : b->value;
}

static void put_table(const struct bl_section_out *out, const struct bl_chart *c,
		      const struct bar_links *k)
{
	struct bl_buf *b = out->b;
	char cell[512], axis[256];
	bl_axis_text(c, axis, sizeof axis);
	/* out of memory: each cell's bar looked up alone */
	size_t nbars = 0, at = 0;
	const struct bl_bar **bars = bl_chart_cell_order(c, &nbars);
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
			const struct bl_bar *bar = NULL;
			if (!bars)
				bar = bl_chart_bar(c, r, s);
			else if (at < nbars && bars[at]->cat == r && bars[at]->ser == s)
				bar = bars[at++];
			bl_table_cell(c, bar, cell, sizeof cell);
			double v = sort_value(bar);
			bl_html_printf(b, "<td data-v=\"%.17g\">", isnan(v) ? -INFINITY : v);
			size_t i = bar ? (size_t)(bar - c->bars) : 0;
			if (bar && k->data[i]) {
				bl_html_printf(b, "<a href=\"%s\" data-runs=\"%s\">", k->href[i],
					       k->data[i]);
				bl_html_esc(b, cell);
				bl_html_put(b, "</a>");
			} else {
				bl_html_esc(b, cell);
			}
			bl_html_put(b, "</td>");
		}
		bl_html_put(b, "</tr>\n");
		bl_section_flush_full(out);
	}
	bl_html_put(b, "</tbody></table></div>\n");
	free(bars);
}

int bl_report_charts(const struct bl_section_out *out, const struct bl_charts *cs,
		     const struct bl_report_opts *o, char *err, size_t errlen)
{
	struct bl_buf *b = out->b;
	/* asked before the page is handed on: none of it then goes out */
	const char *why = cs->n ? bl_render_unavailable() : NULL;
	if (why) {
		snprintf(err, errlen, "cannot draw charts: %s", why);
		return -1;
	}
	bl_html_put(b, "<section id=\"comparisons\">\n<h2>Comparisons</h2>\n");
	if (cs->n == 0)
		bl_html_put(b, "<p class=\"none\">Nothing to compare: no run gave a result a "
			       "chart draws.</p>\n");
	int rc = 0;
	for (size_t i = 0; i < cs->n && rc == 0; i++) {
		const struct bl_chart *c = &cs->v[i];
		bl_html_printf(b, "<figure class=\"chart\" id=\"chart-%zu\">\n", i);
		struct bar_links k = {0};
		rc = links_make(c, &k) < 0 ? -1 : put_svg(out, c, i, &k, o);
		if (rc == 0)
			put_table(out, c, &k);
		links_free(&k);
		bl_html_put(b, "</figure>\n");
		bl_section_flush_full(out);
	}
	/* the page's writer may have failed instead (bl_report_write says so) */
	if (rc < 0)
		snprintf(err, errlen, "a chart could not be drawn (out of memory)");
	bl_html_put(b, "</section>\n");
	return rc;
}
