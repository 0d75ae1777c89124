/* output.c - the format dispatcher, the page drawer shared by the formats,
 * the provenance text, and a memory buffer for cairo's stream writers. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fonts.h"
#include "internal.h"

#ifndef BL_VERSION
#define BL_VERSION "0.1.0"
#endif

cairo_status_t bl_membuf_write(void *closure, const unsigned char *data, unsigned int len)
{
	return bl_buf_put(closure, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

const char *bl_render_unavailable(void)
{
	return NULL; /* linked in: drawing is there */
}

int bl_render_layout(const struct bl_chart *c, const struct bl_render_opts *o, struct bl_layout *l)
{
	struct bl_measure m;
	if (bl_measure_pango_new(&m) < 0)
		return -1;
	int r = bl_layout_chart(c, o->width, o->height, o->orient, &m, l);
	bl_measure_pango_free(&m);
	return r;
}

char *bl_chart_provenance(const struct bl_chart *c, const char *what)
{
	size_t n = 64 + strlen(what);
	for (size_t i = 0; i < c->nsources; i++)
		n += strlen(c->sources[i]) + 2;
	for (size_t i = 0; i < c->ncommands; i++)
		n += strlen(c->commands[i]) + 2;
	char *s = malloc(n);
	if (!s)
		return NULL;
	size_t used = 0;
	s[0] = '\0';
	if (strcmp(what, "software") == 0) {
		snprintf(s, n, "benchlog %s", BL_VERSION);
		return s;
	}
	bool src = strcmp(what, "source") == 0;
	char **v = src ? c->sources : c->commands;
	size_t k = src ? c->nsources : c->ncommands;
	for (size_t i = 0; i < k; i++) {
		int w = snprintf(s + used, n - used, "%s%s", i ? "\n" : "", v[i]);
		if (w > 0)
			used += (size_t)w;
	}
	return s;
}

int bl_render(const struct bl_chart *charts, size_t n, enum bl_format fmt,
	      const struct bl_render_opts *o, bl_write_fn write, void *ctx, char *err,
	      size_t errlen)
{
	int r;
	if (n == 0) {
		snprintf(err, errlen, "nothing to draw");
		return -1;
	}
	bl_fonts_for_charts(charts, fmt == BL_FORMAT_PDF ? n : 1);
	switch (fmt) {
	case BL_FORMAT_PNG: r = bl_render_png(&charts[0], o, write, ctx); break;
	case BL_FORMAT_SVG: r = bl_render_svg(&charts[0], o, write, ctx); break;
	case BL_FORMAT_PDF: r = bl_render_pdf(charts, n, o, write, ctx); break;
	default: r = -1;
	}
	if (r < 0)
		snprintf(err, errlen, "rendering failed (out of memory or a write error)");
	return r;
}
