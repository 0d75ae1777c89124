/* svg.c - SVG output: cairo draws the shapes into memory and the texts
 * go in as <text> elements (selectable, searchable, translatable); the
 * provenance goes in as <title> and <metadata> after the opening <svg>
 * tag, and cairo's process-wide surface counters (id="surface7") are
 * renumbered in order of appearance, so the same chart gives the same
 * bytes in any process. */
#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "internal.h"

#define BL_SVG_NS "https://benchlog.invalid/ns/provenance-1"

/* Text goes through html.c (& < > " as entities, no character XML forbids,
 * invalid UTF-8 as "\\xNN"): bl_html_esc, bl_html_text; markup through
 * bl_html_put. */

static void put_list(struct bl_buf *b, const char *tag, char **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bl_html_put(b, "<bl:");
		bl_html_put(b, tag);
		bl_html_put(b, ">");
		bl_html_esc(b, v[i]);
		bl_html_put(b, "</bl:");
		bl_html_put(b, tag);
		bl_html_put(b, ">\n");
	}
}

/* Where the SVG goes: its pieces gathered in buf and handed to write
 * SVG_PIECE bytes at a time, so that the file is not built whole beside
 * cairo's drawing of it (a chart of thousands of bars is megabytes). */
struct svg_out {
	struct bl_buf buf;
	bl_write_fn write;
	void *ctx;
	bool failed;
};
#define SVG_PIECE ((size_t)64 << 10)

/* Hands buf on when it holds SVG_PIECE bytes, or when `all`. */
static void out_flush(struct svg_out *o, bool all)
{
	if (o->buf.failed)
		o->failed = true;
	if (o->failed || (!all && o->buf.n < SVG_PIECE))
		return;
	if (o->buf.n && o->write(o->ctx, (const unsigned char *)o->buf.p, o->buf.n) != 0)
		o->failed = true;
	o->buf.n = 0;
}

static void out_put(struct svg_out *o, const void *p, size_t n)
{
	bl_buf_put(&o->buf, p, n);
	out_flush(o, false);
}

/* cairo's surface counter "surface7" at p[i] (the key matched): its
 * number by first appearance in map_from, written to out; returns the
 * index past it, or i + 1 (only the "s" written) when no digit follows. */
static size_t renumber_at(const unsigned char *p, size_t n, size_t i, unsigned long *map_from,
			  unsigned long *next, struct svg_out *out)
{
	if (n - i <= 7 || p[i + 7] < '0' || p[i + 7] > '9') {
		out_put(out, p + i, 1);
		return i + 1;
	}
	size_t j = i + 7;
	unsigned long v = 0;
	while (j < n && p[j] >= '0' && p[j] <= '9' && v < 100000000UL)
		v = v * 10 + (unsigned long)(p[j++] - '0');
	unsigned long k = 0;
	while (k < *next && map_from[k] != v)
		k++;
	if (k == *next && *next < 256)
		map_from[(*next)++] = v;
	char num[32];
	int len = snprintf(num, sizeof num, "surface%lu", k + 1);
	out_put(out, num, (size_t)len);
	return j;
}

/* Copies src to out in one pass, cairo's process-wide surface counters
 * ("surfaceN") renumbered by first appearance, and with `prefix` (not
 * NULL) every id and each reference to one prefixed: id="clip1" ->
 * id="c2-clip1", url(#clip1), href="#clip1". Each key's next place is
 * searched for once, when the copy has passed it. */
static void rewrite(const unsigned char *p, size_t n, const char *prefix, struct svg_out *out)
{
	static const char *const keys[] = {"surface", "id=\"", "href=\"#", "url(#"};
	enum { NKEYS = sizeof keys / sizeof keys[0] };
	size_t nkeys = prefix ? NKEYS : 1, at[NKEYS] = {0}, i = 0;
	bool stale[NKEYS] = {true, true, true, true};
	unsigned long map_from[256], next = 0;
	for (;;) {
		size_t k = 0;
		for (size_t j = 0; j < nkeys; j++) {
			if (stale[j]) {
				const unsigned char *hit =
					memmem(p + i, n - i, keys[j], strlen(keys[j]));
				at[j] = hit ? (size_t)(hit - p) : n;
				stale[j] = false;
			}
			if (at[j] < at[k])
				k = j;
		}
		if (at[k] == n)
			break;
		out_put(out, p + i, at[k] - i);
		if (k == 0) {
			i = renumber_at(p, n, at[k], map_from, &next, out);
		} else {
			i = at[k] + strlen(keys[k]);
			out_put(out, p + at[k], i - at[k]);
			out_put(out, prefix, strlen(prefix));
			out_put(out, "-", 1);
		}
		for (size_t j = 0; j < nkeys; j++)
			stale[j] = at[j] < i;
	}
	out_put(out, p + i, n - i);
}

static void put_num(struct bl_buf *b, const char *name, double v)
{
	char num[48];
	snprintf(num, sizeof num, " %s=\"%.2f\"", name, v);
	bl_html_put(b, num);
}

/* A bl_text_sink: the line as a <text> element, in the fonts the chart
 * was measured in, else ones as wide. */
static void text_line(void *ctx, const struct bl_text_line *t)
{
	struct bl_buf *b = ctx;
	char colour[16];
	bl_html_put(b, "<text");
	put_num(b, "x", t->x);
	put_num(b, "y", t->y);
	put_num(b, "font-size", t->size);
	if (t->bold)
		bl_html_put(b, " font-weight=\"bold\"");
	snprintf(colour, sizeof colour, "#%02x%02x%02x", (int)lround(t->colour.r * 255),
		 (int)lround(t->colour.g * 255), (int)lround(t->colour.b * 255));
	bl_html_put(b, " fill=\"");
	bl_html_put(b, colour);
	bl_html_put(b, "\"");
	const double *m = t->matrix;
	if (m[0] != 1 || m[1] != 0 || m[2] != 0 || m[3] != 1 || m[4] != 0 || m[5] != 0) {
		char tr[160];
		snprintf(tr, sizeof tr, " transform=\"matrix(%g %g %g %g %.2f %.2f)\"", m[0], m[1],
			 m[2], m[3], m[4], m[5]);
		bl_html_put(b, tr);
	}
	bl_html_put(b, ">");
	bl_html_text(b, t->text, t->len);
	bl_html_put(b, "</text>\n");
}

/* Over each bar that has a link, a transparent rectangle in an <a>: the
 * runs it aggregates (the report's bars). None over the bars of a
 * crowded chart: each would be a 3 px target over dozens of bars. */
static void put_links(struct bl_buf *b, const struct bl_chart *c, const struct bl_layout *l,
		      const struct bl_svg_opts *so)
{
	for (size_t i = 0; so && so->bar_href && !l->crowded && i < c->nbars; i++) {
		if (!so->bar_href[i])
			continue;
		struct bl_rect r = l->bars[i].r;
		bl_html_put(b, "<a href=\"");
		bl_html_esc(b, so->bar_href[i]);
		bl_html_put(b, "\"");
		if (so->bar_data && so->bar_data[i]) {
			bl_html_put(b, " data-runs=\"");
			bl_html_esc(b, so->bar_data[i]);
			bl_html_put(b, "\"");
		}
		bl_html_put(b, "><rect class=\"bar-link\"");
		put_num(b, "x", r.x);
		put_num(b, "y", r.y);
		put_num(b, "width", fmax(r.w, 3));
		put_num(b, "height", fmax(r.h, 3));
		bl_html_put(b, " fill=\"transparent\"/></a>\n");
	}
}

int bl_render_svg(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx)
{
	return bl_render_svg_with(c, o, NULL, write, ctx);
}

int bl_render_svg_with(const struct bl_chart *c, const struct bl_render_opts *o,
		       const struct bl_svg_opts *so, bl_write_fn write, void *ctx)
{
	struct bl_layout l;
	if (bl_render_layout(c, o, &l) < 0)
		return -1;
	struct bl_buf raw = {0}, texts = {0};
	struct svg_out out = {{0}, write, ctx, false};
	struct bl_buf *head_buf = &out.buf;
	int rc = -1;
	cairo_surface_t *s =
		cairo_svg_surface_create_for_stream(bl_membuf_write, &raw, l.width, l.height);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
	/* the same size as the PNG: width="960px", not 960pt */
	cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
	cairo_t *cr = cairo_create(s);
	bl_html_put(&texts, "<g font-family=\"DejaVu Sans, Verdana, sans-serif\">\n");
	const struct bl_text_sink sink = {text_line, &texts};
	bl_draw_chart_texts(cr, c, &l, o->theme ? o->theme : bl_theme_get(NULL), &sink);
	bl_html_put(&texts, "</g>\n");
	put_links(&texts, c, &l, so);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (raw.failed || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	/* the end of the opening <svg ...> tag */
	const char *svg = raw.n ? memmem(raw.p, raw.n, "<svg", 4) : NULL;
	const char *gt = svg ? memchr(svg, '>', raw.n - (size_t)(svg - raw.p)) : NULL;
	const char *end = gt ? memmem(gt, raw.n - (size_t)(gt - raw.p), "</svg>", 6) : NULL;
	if (!end || texts.failed)
		goto out;
	/* the head and the provenance: the first piece handed on holds them
	 * whole (the report looks for the opening tag in it) */
	size_t head = (size_t)(gt - raw.p) + 1;
	bl_buf_put(head_buf, raw.p, head);
	bl_html_put(head_buf, "\n<title>");
	bl_html_esc(head_buf, c->title);
	bl_html_put(head_buf, "</title>\n<metadata>\n<bl:provenance xmlns:bl=\"" BL_SVG_NS
			      "\">\n<bl:software>");
	char *sw = bl_chart_provenance(c, "software");
	if (sw)
		bl_html_esc(head_buf, sw);
	free(sw);
	bl_html_put(head_buf, "</bl:software>\n");
	put_list(head_buf, "source", c->sources, c->nsources);
	put_list(head_buf, "command", c->commands, c->ncommands);
	bl_html_put(head_buf, "</bl:provenance>\n</metadata>");
	size_t tail = (size_t)(end - raw.p);
	/* cairo's ids, not the links' */
	rewrite((const unsigned char *)raw.p + head, tail - head, so ? so->id_prefix : NULL, &out);
	out_put(&out, texts.p, texts.n);
	out_put(&out, end, raw.n - tail);
	out_flush(&out, true);
	if (!out.failed)
		rc = 0;
out:
	cairo_surface_destroy(s);
	bl_layout_free(&l);
	bl_buf_free(&raw);
	bl_buf_free(&out.buf);
	bl_buf_free(&texts);
	return rc;
}
