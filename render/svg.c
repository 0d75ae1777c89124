/* svg.c - SVG output: cairo draws into memory; then the provenance goes in
 * as <title> and <metadata> after the opening <svg> tag, and cairo's
 * process-wide surface counters (id="surface7") are renumbered in order of
 * appearance, so the same chart gives the same bytes in any process. */
#include <cairo-svg.h>
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define BL_SVG_NS "https://benchlog.invalid/ns/provenance-1"

/* Appends text escaped for XML; characters XML 1.0 forbids become '?'. */
static void put_escaped(struct bl_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		const char *rep = NULL;
		switch (ch) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		default:
			if (ch < 0x20 && ch != '\n' && ch != '\t')
				rep = "?";
		}
		if (rep)
			bl_membuf_write(b, (const unsigned char *)rep, (unsigned)strlen(rep));
		else
			bl_membuf_write(b, &ch, 1);
	}
}

static void put(struct bl_buf *b, const char *s)
{
	bl_membuf_write(b, (const unsigned char *)s, (unsigned)strlen(s));
}

static void put_list(struct bl_buf *b, const char *tag, char **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		put(b, "<bl:");
		put(b, tag);
		put(b, ">");
		put_escaped(b, v[i]);
		put(b, "</bl:");
		put(b, tag);
		put(b, ">\n");
	}
}

/* Copies src to out, renumbering "surfaceN" by first appearance; the text
 * between goes in one piece (a chart's SVG is a few hundred KB). */
static void renumber(const unsigned char *p, size_t n, struct bl_buf *out)
{
	unsigned long map_from[256], next = 0;
	size_t i = 0;
	static const char key[] = "surface";
	while (i < n) {
		const unsigned char *hit = memmem(p + i, n - i, key, 7);
		size_t at = hit ? (size_t)(hit - p) : n;
		bl_membuf_write(out, p + i, (unsigned)(at - i));
		i = at;
		if (i >= n)
			break;
		if (n - i > 7 && p[i + 7] >= '0' && p[i + 7] <= '9') {
			size_t j = i + 7;
			unsigned long v = 0;
			while (j < n && p[j] >= '0' && p[j] <= '9' && v < 100000000UL)
				v = v * 10 + (unsigned long)(p[j++] - '0');
			unsigned long k = 0;
			while (k < next && map_from[k] != v)
				k++;
			if (k == next && next < 256)
				map_from[next++] = v;
			char num[32];
			snprintf(num, sizeof num, "surface%lu", k + 1);
			put(out, num);
			i = j;
			continue;
		}
		bl_membuf_write(out, p + i, 1);
		i++;
	}
}

int bl_render_svg(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx)
{
	struct bl_layout l;
	if (bl_render_layout(c, o, &l) < 0)
		return -1;
	struct bl_buf raw = {0}, out = {0};
	int rc = -1;
	cairo_surface_t *s =
		cairo_svg_surface_create_for_stream(bl_membuf_write, &raw, l.width, l.height);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
	/* the same size as the PNG: width="960px", not 960pt */
	cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
	cairo_t *cr = cairo_create(s);
	bl_draw_chart(cr, c, &l, o->theme ? o->theme : bl_theme_get(NULL));
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (raw.failed || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	/* the end of the opening <svg ...> tag */
	const char *svg = raw.n ? memmem(raw.p, raw.n, "<svg", 4) : NULL;
	const char *gt = svg ? memchr(svg, '>', raw.n - (size_t)(svg - raw.p)) : NULL;
	if (!gt)
		goto out;
	size_t head = (size_t)(gt - raw.p) + 1;
	bl_buf_put(&out, raw.p, head);
	put(&out, "\n<title>");
	put_escaped(&out, c->title);
	put(&out,
	    "</title>\n<metadata>\n<bl:provenance xmlns:bl=\"" BL_SVG_NS "\">\n<bl:software>");
	char *sw = bl_chart_provenance(c, "software");
	if (sw)
		put_escaped(&out, sw);
	free(sw);
	put(&out, "</bl:software>\n");
	put_list(&out, "source", c->sources, c->nsources);
	put_list(&out, "command", c->commands, c->ncommands);
	put(&out, "</bl:provenance>\n</metadata>");
	renumber((const unsigned char *)raw.p + head, raw.n - head, &out);
	if (!out.failed && write(ctx, (const unsigned char *)out.p, out.n) == 0)
		rc = 0;
out:
	cairo_surface_destroy(s);
	bl_layout_free(&l);
	bl_buf_free(&raw);
	bl_buf_free(&out);
	return rc;
}
