/* pdf.c - PDF output: one page per chart, each page the chart's own size.
 * Provenance in the document information (Title, Subject: sources,
 * Keywords: commands, Creator: benchlog). The creation date is left out
 * (cairo 1.16 writes the clock time unless it is set; an empty date
 * suppresses it) so the same charts give the same bytes. */
#include <cairo-pdf.h>
#include <cairo.h>
#include <stdlib.h>

#include "internal.h"

struct sink {
	bl_write_fn write;
	void *ctx;
	bool failed;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *k = closure;
	if (k->failed || k->write(k->ctx, data, len) != 0) {
		k->failed = true;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

int bl_render_pdf(const struct bl_chart *charts, size_t n, const struct bl_render_opts *o,
		  bl_write_fn write, void *ctx)
{
	struct sink k = {write, ctx, false};
	if (n == 0)
		return -1;
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(sink_write, &k, 100, 100);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return -1;
	}
	char *src = bl_chart_provenance(&charts[0], "source");
	char *cmds = bl_chart_provenance(&charts[0], "commands");
	for (char *p = cmds; p && *p; p++)
		if (*p == '\n')
			*p = ';'; /* one line in the document information */
	char *sw = bl_chart_provenance(&charts[0], "software");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, charts[0].title);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, src ? src : "");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_KEYWORDS, cmds ? cmds : "");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, sw ? sw : "benchlog");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "");
	free(src);
	free(cmds);
	free(sw);
	int rc = 0;
	cairo_t *cr = cairo_create(s);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct bl_layout l;
		if (bl_render_layout(&charts[i], o, &l) < 0) {
			rc = -1;
			break;
		}
		/* each page the size of its chart (set before drawing on it) */
		cairo_pdf_surface_set_size(s, l.width, l.height);
		bl_draw_chart(cr, &charts[i], &l, o->theme ? o->theme : bl_theme_get(NULL));
		cairo_show_page(cr);
		bl_layout_free(&l);
	}
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (k.failed || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	cairo_surface_destroy(s);
	return rc;
}
