/* draw.c - paints a laid-out chart with cairo; text through pango, so that
 * accents and CJK labels render (fontconfig falls back to a CJK font).
 *
 * A text's pango context (one per font map, see fonts.c), with hinting
 * off, serves both measuring it (layout.c) and drawing it, so text is as
 * wide on the PNG as in the layout and the same on every surface. */
#include <cairo.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#include "fonts.h"

/* One context per font map (fonts.c): [1] the private fonts, [0] the
 * system's. The same font options on both, so that a text is drawn the
 * same through either: grey antialiasing, no hinting of outlines or
 * metrics (text as wide on the PNG as in the layout, and as in SVG and
 * PDF). */
static PangoContext *contexts[2];

/* The context for text (*own: the private fonts'), or NULL. */
static PangoContext *context_for(const char *text, bool bold, bool *own)
{
	PangoFontMap *fm = bl_fonts_map_for(text, bold, own);
	if (!fm)
		return NULL;
	PangoContext **c = &contexts[*own];
	if (!*c) {
		*c = pango_font_map_create_context(fm);
		cairo_font_options_t *fo = cairo_font_options_create();
		cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
		cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
		cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_DEFAULT);
		pango_cairo_context_set_font_options(*c, fo);
		pango_cairo_context_set_resolution(*c, 72);
		cairo_font_options_destroy(fo);
	}
	return *c;
}

/* Layouts are kept per text and font (size, weight, wrap width): layout.c
 * measures the texts that bl_draw_chart then paints, and a layout that
 * keeps its text keeps its shaped lines, so pango shapes each text once
 * instead of twice (a 100-bar chart sets about 500 texts). The table is
 * emptied when half full. Each call returns a new reference. */
#define NSLOTS 1024
struct kept {
	char *text;
	double size, wrap;
	bool bold, own; /* own: set with the private fonts */
	PangoLayout *layout;
};
static struct kept *kept;
static size_t nkept;

/* One font description per (size, weight): parsing BL_FONT_FAMILY once. */
#define NFONTS 8
static struct {
	PangoFontDescription *fd;
	double size;
	bool bold;
} fonts[NFONTS];

static void forget_layouts(void)
{
	for (size_t i = 0; kept && i < NSLOTS; i++) {
		if (kept[i].layout)
			g_object_unref(kept[i].layout);
		free(kept[i].text);
		kept[i] = (struct kept){0};
	}
	nkept = 0;
}

void bl_render_cleanup(void)
{
	forget_layouts();
	free(kept);
	kept = NULL;
	for (size_t i = 0; i < NFONTS; i++) {
		if (fonts[i].fd)
			pango_font_description_free(fonts[i].fd);
		fonts[i].fd = NULL;
	}
	for (size_t i = 0; i < 2; i++) {
		if (contexts[i])
			g_object_unref(contexts[i]);
		contexts[i] = NULL;
	}
	bl_fonts_free();
	/* No cairo_debug_reset_static_data() or FcFini() here: pango may still
	 * hold a scaled font at exit, and cairo 1.16 then aborts in
	 * _cairo_hash_table_destroy ("live_entries == 0"), now and then, under
	 * load. What cairo and fontconfig keep is reachable, not leaked. */
}

static PangoFontDescription *font_desc(double size, bool bold)
{
	size_t i = 0;
	for (; i < NFONTS && fonts[i].fd; i++)
		if (fonts[i].size == size && fonts[i].bold == bold)
			return fonts[i].fd;
	if (i == NFONTS) { /* full: replace the last one */
		i = NFONTS - 1;
		pango_font_description_free(fonts[i].fd);
	}
	PangoFontDescription *fd = pango_font_description_from_string(BL_FONT_FAMILY);
	pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
	if (bold)
		pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
	fonts[i].fd = fd;
	fonts[i].size = size;
	fonts[i].bold = bold;
	return fd;
}

static size_t slot_of(const char *text, double size, double wrap, bool bold)
{
	uint64_t h = 14695981039346656037u; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	h ^= (uint64_t)(size * 64) * 31 + (uint64_t)(wrap > 0 ? wrap * 64 : 0) * 7 + bold;
	h *= 1099511628211u;
	return (size_t)(h >> 20) & (NSLOTS - 1);
}

/* The kept layout of (text, size, wrap, bold) in the fonts own tells,
 * or where it would go. */
static size_t find_layout(const char *text, double size, double wrap, bool bold, bool own)
{
	size_t i = slot_of(text, size, wrap, bold);
	for (; kept[i].layout; i = (i + 1) & (NSLOTS - 1))
		if (kept[i].size == size && kept[i].wrap == wrap && kept[i].bold == bold &&
		    kept[i].own == own && strcmp(kept[i].text, text) == 0)
			break;
	return i;
}

/* A new layout starts with the alignment it is wanted with: setting
 * another one later makes pango lay out and shape the text again. */
static PangoLayout *make_layout(const char *text, double size, double wrap, bool bold,
				PangoAlignment align)
{
	if (!kept && !(kept = calloc(NSLOTS, sizeof *kept)))
		return NULL;
	if (nkept >= NSLOTS / 2)
		forget_layouts();
	bool own;
	PangoContext *ctx = context_for(text, bold, &own);
	if (!ctx)
		return NULL;
	size_t i = find_layout(text, size, wrap, bold, own);
	PangoLayout *l = kept[i].layout;
	if (!l) {
		char *copy = strdup(text);
		if (!copy)
			return NULL;
		l = pango_layout_new(ctx);
		pango_layout_set_font_description(l, font_desc(size, bold));
		pango_layout_set_width(l, wrap > 0 ? (int)(wrap * PANGO_SCALE) : -1);
		pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
		pango_layout_set_alignment(l, align);
		pango_layout_set_text(l, text, -1);
		kept[i] = (struct kept){copy, size, wrap, bold, own, l};
		nkept++;
	}
	pango_layout_set_alignment(l, align);
	return g_object_ref(l);
}

static void pango_size(void *ctx, const char *text, double size, double wrap, bool bold, double *w,
		       double *h)
{
	(void)ctx;
	if (!text)
		text = "";
	*w = *h = 0;
	PangoRectangle logical; /* no ink extents: nothing reads them */
	/* Wrapped text that was measured unwrapped and is narrower than the
	 * wrap width: one line, the same as unwrapped. Measuring it through a
	 * layout of its own would shape it once more (layout.c measures the
	 * labels of a horizontal chart both ways), and draw.c may still want
	 * that layout with another alignment. */
	bool own;
	if (wrap > 0 && kept && context_for(text, bold, &own)) {
		size_t i = find_layout(text, size, -1, bold, own);
		if (kept[i].layout) {
			pango_layout_get_extents(kept[i].layout, NULL, &logical);
			if (logical.width < (int)(wrap * PANGO_SCALE)) {
				*w = logical.width / (double)PANGO_SCALE;
				*h = logical.height / (double)PANGO_SCALE;
				return;
			}
		}
	}
	PangoLayout *l = make_layout(text, size, wrap, bold, PANGO_ALIGN_LEFT);
	if (!l)
		return;
	pango_layout_get_extents(l, NULL, &logical);
	*w = logical.width / (double)PANGO_SCALE;
	*h = logical.height / (double)PANGO_SCALE;
	g_object_unref(l);
}

int bl_measure_pango_new(struct bl_measure *m)
{
	m->size = pango_size;
	m->ctx = NULL;
	bool own;
	return context_for("", false, &own) ? 0 : -1; /* pango can make a context */
}

void bl_measure_pango_free(struct bl_measure *m)
{
	m->size = NULL;
}

static void set_rgb(cairo_t *cr, struct bl_rgb c)
{
	cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

enum align { LEFT, CENTER, RIGHT };

/* Where a chart is painted: shapes on cr; text too, or, given a sink,
 * handed to it line by line (SVG writes it as <text>). */
struct pen {
	cairo_t *cr;
	const struct bl_text_sink *sink;
};

/* Each line of layout l, set at (x, y) in the current user space, to the
 * pen's sink: its baseline and start, in the space cairo's matrix maps. */
static void send_lines(const struct pen *p, PangoLayout *l, double x, double y, double size,
		       bool bold, struct bl_rgb colour)
{
	cairo_matrix_t m;
	cairo_get_matrix(p->cr, &m);
	const char *text = pango_layout_get_text(l);
	PangoLayoutIter *it = pango_layout_get_iter(l);
	do {
		PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
		PangoRectangle lr;
		pango_layout_iter_get_line_extents(it, NULL, &lr);
		struct bl_text_line t = {
			.text = text + line->start_index,
			.len = (size_t)line->length,
			.x = x + lr.x / (double)PANGO_SCALE,
			.y = y + pango_layout_iter_get_baseline(it) / (double)PANGO_SCALE,
			.size = size,
			.bold = bold,
			.colour = colour,
			.matrix = {m.xx, m.yx, m.xy, m.yy, m.x0, m.y0},
		};
		if (t.len)
			p->sink->line(p->sink->ctx, &t);
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
}

/* Text in box r: horizontally aligned, vertically centred when r.h > 0. */
static void text_in(const struct pen *p, const char *text, double size, bool bold, struct bl_rect r,
		    double wrap, enum align a, struct bl_rgb colour)
{
	if (!text || !*text)
		return;
	PangoAlignment align = wrap <= 0     ? PANGO_ALIGN_LEFT
			       : a == CENTER ? PANGO_ALIGN_CENTER
			       : a == RIGHT  ? PANGO_ALIGN_RIGHT
					     : PANGO_ALIGN_LEFT;
	PangoLayout *l = make_layout(text, size, wrap, bold, align);
	if (!l)
		return;
	PangoRectangle logical;
	pango_layout_get_extents(l, NULL, &logical);
	double w = logical.width / (double)PANGO_SCALE, h = logical.height / (double)PANGO_SCALE;
	double x = r.x, y = r.y;
	if (wrap > 0)
		x = r.x; /* pango aligns inside the wrap width */
	else if (a == CENTER)
		x = r.x + (r.w - w) / 2;
	else if (a == RIGHT)
		x = r.x + r.w - w;
	if (r.h > 0 && h < r.h)
		y = r.y + (r.h - h) / 2;
	if (p->sink) {
		send_lines(p, l, x, y, size, bold, colour);
	} else {
		set_rgb(p->cr, colour);
		cairo_move_to(p->cr, x, y);
		pango_cairo_show_layout(p->cr, l);
	}
	g_object_unref(l);
}

/* Black or white, whichever reads better on colour c. */
static struct bl_rgb on_colour(struct bl_rgb c)
{
	double lum = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
	return lum > 0.55 ? (struct bl_rgb){0.1, 0.1, 0.1} : (struct bl_rgb){1, 1, 1};
}

static struct bl_rgb mix(struct bl_rgb a, struct bl_rgb b, double t)
{
	return (struct bl_rgb){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/* A censored bar: pale fill, diagonal hatching, dashed outline; fainter
 * still when no bound was printed (an open column, not a value). */
static void hatched(cairo_t *cr, struct bl_rect r, struct bl_rgb c, struct bl_rgb bg, bool open)
{
	cairo_save(cr);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	set_rgb(cr, mix(c, bg, open ? 0.9 : 0.7));
	cairo_fill_preserve(cr);
	cairo_clip(cr);
	set_rgb(cr, open ? mix(c, bg, 0.55) : c);
	cairo_set_line_width(cr, 1.5);
	for (double d = -r.h; d < r.w; d += 6) {
		cairo_move_to(cr, r.x + d, r.y + r.h);
		cairo_line_to(cr, r.x + d + r.h, r.y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
	cairo_save(cr);
	double dash[] = {4, 3};
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_line_width(cr, 1.2);
	set_rgb(cr, c);
	/* not inverted where a side of the bar is under 1.2 px: cairo's
	 * dasher took a time on such an outline that grew with the chart */
	cairo_rectangle(cr, r.x + 0.6, r.y + 0.6, fmax(r.w - 1.2, 0), fmax(r.h - 1.2, 0));
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* The value axis's title with its direction: under horizontal bars, up
 * the left of vertical ones. */
static void draw_axis_title(const struct pen *p, const struct bl_chart *c,
			    const struct bl_layout *l, const struct bl_theme *t)
{
	cairo_t *cr = p->cr;
	char axis[256];
	bl_axis_text(c, axis, sizeof axis);
	if (l->horizontal) {
		text_in(p, axis, l->font, false, l->axis_title, -1, CENTER, t->text);
		return;
	}
	cairo_save(cr);
	cairo_translate(cr, l->axis_title.x, l->axis_title.y + l->axis_title.h);
	cairo_rotate(cr, -M_PI / 2);
	text_in(p, axis, l->font, false, (struct bl_rect){0, 0, l->axis_title.h, 0}, -1, CENTER,
		t->text);
	cairo_restore(cr);
}

/* A bar whose repeats disagree: a dot for each run on its middle line,
 * ringed in the background colour so that it shows on the bar. */
static void dots(cairo_t *cr, const struct bl_bar_box *bb, const struct bl_bar_marks *mk,
		 bool horizontal, const struct bl_theme *t)
{
	double r = fmax(2.5, fmin(horizontal ? bb->r.h : bb->r.w, 16) / 5);
	for (size_t k = 0; k < mk->ndots; k++) {
		double x = horizontal ? mk->dots[k] : bb->r.x + bb->r.w / 2;
		double y = horizontal ? bb->r.y + bb->r.h / 2 : mk->dots[k];
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		set_rgb(cr, t->text);
		cairo_fill_preserve(cr);
		set_rgb(cr, t->background);
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
	}
}

/* An open end: an arrow past the bar's tip, saying "more than this". */
static void arrow(cairo_t *cr, struct bl_rect r, bool horizontal, struct bl_rgb c)
{
	set_rgb(cr, c);
	if (horizontal) {
		double x = r.x + r.w, y = r.y + r.h / 2, s = fmin(r.h / 2, 6);
		cairo_move_to(cr, x + 2, y - s);
		cairo_line_to(cr, x + 2 + s, y);
		cairo_line_to(cr, x + 2, y + s);
	} else {
		double x = r.x + r.w / 2, y = r.y, s = fmin(r.w / 2, 6);
		cairo_move_to(cr, x - s, y - 2);
		cairo_line_to(cr, x, y - 2 - s);
		cairo_line_to(cr, x + s, y - 2);
	}
	cairo_close_path(cr);
	cairo_fill(cr);
}

/* A min-max whisker across the bar's middle, capped at both ends. */
static void whisker(cairo_t *cr, const struct bl_bar_box *bb, bool horizontal)
{
	if (horizontal) {
		double y = bb->r.y + bb->r.h / 2, cap = fmin(bb->r.h * 0.25, 6);
		cairo_move_to(cr, bb->wlo, y);
		cairo_line_to(cr, bb->whi, y);
		cairo_move_to(cr, bb->wlo, y - cap);
		cairo_line_to(cr, bb->wlo, y + cap);
		cairo_move_to(cr, bb->whi, y - cap);
		cairo_line_to(cr, bb->whi, y + cap);
	} else {
		double x = bb->r.x + bb->r.w / 2, cap = fmin(bb->r.w * 0.25, 6);
		cairo_move_to(cr, x, bb->wlo);
		cairo_line_to(cr, x, bb->whi);
		cairo_move_to(cr, x - cap, bb->wlo);
		cairo_line_to(cr, x + cap, bb->wlo);
		cairo_move_to(cr, x - cap, bb->whi);
		cairo_line_to(cr, x + cap, bb->whi);
	}
	cairo_stroke(cr);
}

static bool thin(const struct bl_bar_box *bb, bool horizontal)
{
	return (horizontal ? bb->r.h : bb->r.w) < BL_THIN_BAR;
}

/* A thin bar's fill: 0 its series' colour, 1 censored, 2 censored
 * without a bound (the colours hatched() fills them with). */
static unsigned thin_kind(const struct bl_bar *b, const struct bl_bar_box *bb)
{
	return b->censored ? 1u + bb->stub : 0u;
}

/* The fill of thin bar i, as fill_thin_bars groups them: 3 x its series
 * + its kind, or its kind alone in a crowded chart (one grey for all). */
static size_t thin_key(const struct bl_chart *c, const struct bl_layout *l, size_t i)
{
	return (l->crowded ? 0 : 3 * c->bars[i].ser) + thin_kind(&c->bars[i], &l->bars[i]);
}

/* A thin bar's fill of kind `kind`: its series' colour, paler when
 * censored; grey for every series when the chart is crowded. */
static struct bl_rgb thin_fill(const struct bl_theme *t, const struct bl_layout *l, size_t ser,
			       unsigned kind)
{
	struct bl_rgb c = l->crowded ? mix(t->muted, t->background, 0.25) : bl_theme_series(t, ser);
	return kind ? mix(c, t->background, kind == 2 ? 0.9 : 0.7) : c;
}

/* Does bar b start where bar a ends, from the same base? */
static bool touches(struct bl_rect a, struct bl_rect b, bool horizontal)
{
	if (horizontal)
		return fabs(a.y + a.h - b.y) < 1e-6 && fabs(a.x - b.x) < 1e-6;
	return fabs(a.x + a.w - b.x) < 1e-6 && fabs(a.y + a.h - (b.y + b.h)) < 1e-6;
}

/* Bars r[idx[0]], ... that touch one another, as one outline along
 * their ends: two points a bar where a rectangle takes four and a move. */
static void outline(cairo_t *cr, const struct bl_layout *l, const size_t *idx, size_t n)
{
	const struct bl_rect first = l->bars[idx[0]].r, last = l->bars[idx[n - 1]].r;
	if (l->horizontal) {
		cairo_move_to(cr, first.x, first.y);
		for (size_t j = 0; j < n; j++) {
			const struct bl_rect r = l->bars[idx[j]].r;
			cairo_line_to(cr, r.x + r.w, r.y);
			cairo_line_to(cr, r.x + r.w, r.y + r.h);
		}
		cairo_line_to(cr, first.x, last.y + last.h);
	} else {
		cairo_move_to(cr, first.x, first.y + first.h);
		for (size_t j = 0; j < n; j++) {
			const struct bl_rect r = l->bars[idx[j]].r;
			cairo_line_to(cr, r.x, r.y);
			cairo_line_to(cr, r.x + r.w, r.y);
		}
		cairo_line_to(cr, last.x + last.w, last.y + last.h);
	}
	cairo_close_path(cr);
}

/* The bars r[idx[0]], ... r[idx[n - 1]] of one fill, in order, into the
 * path: in a crowded chart, each run of bars side by side as one
 * outline (a run log's SVG was 7 MB of rectangles), else a rectangle
 * each. */
static void trace_bars(cairo_t *cr, const struct bl_layout *l, const size_t *idx, size_t n)
{
	for (size_t j = 0, k; j < n; j = k) {
		k = j + 1;
		if (!l->crowded) {
			const struct bl_rect r = l->bars[idx[j]].r;
			cairo_rectangle(cr, r.x, r.y, r.w, r.h);
			continue;
		}
		while (k < n && touches(l->bars[idx[k - 1]].r, l->bars[idx[k]].r, l->horizontal))
			k++;
		outline(cr, l, idx + j, k - j);
	}
}

/* The thin bars (a chart of thousands of series), those of one fill as
 * one path, filled once: painted one by one, an SVG or PDF surface keeps
 * each bar as its own shape until it is finished (80 MB and a 20 MB file
 * for 50,000 bars). The fills are a series' (painted in series order, as
 * the bars are, so that where bars share a pixel their colours blend as
 * before), or in a crowded chart three for all (10,000 series were
 * still 10,000 shapes). False when memory ran out: each bar is then
 * filled by itself. */
static bool fill_thin_bars(cairo_t *cr, const struct bl_chart *c, const struct bl_layout *l,
			   const struct bl_theme *t)
{
	size_t nkeys = l->crowded ? 3 : 3 * c->nseries, nthin = 0;
	for (size_t i = 0; i < c->nbars; i++)
		nthin += thin(&l->bars[i], l->horizontal) && c->bars[i].ser < c->nseries;
	if (!nthin)
		return true;
	/* the thin bars' indexes, grouped by fill (a counting sort), each
	 * group in bar order */
	size_t *start = calloc(nkeys + 1, sizeof *start), *order = malloc(nthin * sizeof *order);
	if (!start || !order) {
		free(start);
		free(order);
		return false;
	}
	for (size_t i = 0; i < c->nbars; i++)
		if (thin(&l->bars[i], l->horizontal) && c->bars[i].ser < c->nseries)
			start[thin_key(c, l, i) + 1]++;
	for (size_t k = 0; k < nkeys; k++)
		start[k + 1] += start[k];
	for (size_t i = 0; i < c->nbars; i++)
		if (thin(&l->bars[i], l->horizontal) && c->bars[i].ser < c->nseries)
			order[start[thin_key(c, l, i)]++] = i;
	/* start[k] is now where group k ends */
	for (size_t k = 0, from = 0; k < nkeys; from = start[k++]) {
		trace_bars(cr, l, order + from, start[k] - from);
		if (start[k] > from) {
			set_rgb(cr, thin_fill(t, l, k / 3, (unsigned)(k % 3)));
			cairo_fill(cr);
		}
	}
	free(start);
	free(order);
	return true;
}

/* One bar: filled (unless `filled` already), or hatched with an open
 * end when censored and not thin; its whisker, and its marks (its runs'
 * dots, its value label and its n; mk NULL in a crowded chart). */
static void draw_bar(const struct pen *p, const struct bl_bar *b, const struct bl_bar_box *bb,
		     const struct bl_bar_marks *mk, const struct bl_layout *l,
		     const struct bl_theme *t, bool filled)
{
	cairo_t *cr = p->cr;
	struct bl_rgb col = bl_theme_series(t, b->ser);
	if (filled) {
		/* a thin bar, by fill_thin_bars */
	} else if (thin(bb, l->horizontal)) {
		set_rgb(cr, thin_fill(t, l, b->ser, thin_kind(b, bb)));
		cairo_rectangle(cr, bb->r.x, bb->r.y, bb->r.w, bb->r.h);
		cairo_fill(cr);
	} else if (b->censored) {
		hatched(cr, bb->r, col, t->background, bb->stub);
		arrow(cr, bb->r, l->horizontal, col);
	} else {
		set_rgb(cr, col);
		cairo_rectangle(cr, bb->r.x, bb->r.y, bb->r.w, bb->r.h);
		cairo_fill(cr);
	}
	if (bb->whisker) {
		set_rgb(cr, t->text);
		cairo_set_line_width(cr, 1.5);
		whisker(cr, bb, l->horizontal);
	}
	if (!mk)
		return;
	dots(cr, bb, mk, l->horizontal, t);
	text_in(p, mk->text, l->font * 0.85, false, mk->label, -1, LEFT, t->text);
	text_in(p, mk->ntext, l->font * 0.75, false, mk->nbox, -1, LEFT,
		b->censored ? t->text : on_colour(col));
}

void bl_draw_chart(void *cr, const struct bl_chart *c, const struct bl_layout *l,
		   const struct bl_theme *t)
{
	bl_draw_chart_texts(cr, c, l, t, NULL);
}

void bl_draw_chart_texts(void *vcr, const struct bl_chart *c, const struct bl_layout *l,
			 const struct bl_theme *t, const struct bl_text_sink *sink)
{
	cairo_t *cr = vcr;
	const struct pen pen = {cr, sink}, *p = &pen;
	double f = l->font;
	const struct bl_rect P = l->plot;

	set_rgb(cr, t->background);
	cairo_paint(cr);
	text_in(p, c->title, f * 1.5, true, l->title, l->title.w, LEFT, t->text);
	text_in(p, c->subtitle, f * 0.9, false, l->subtitle, l->subtitle.w, LEFT, t->muted);

	for (size_t i = 0; i < l->nlegend; i++) {
		const struct bl_legend_box *lb = &l->legend[i];
		set_rgb(cr, bl_theme_series(t, i));
		cairo_rectangle(cr, lb->swatch.x, lb->swatch.y, lb->swatch.w, lb->swatch.h);
		cairo_fill(cr);
		text_in(p, c->series[i], f, false, (struct bl_rect){lb->tx, lb->ty, 0, 0}, -1, LEFT,
			t->text);
	}

	/* grid and ticks */
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < l->nticks; i++) {
		double at = round(l->ticks[i].pos) + 0.5;
		set_rgb(cr, t->grid);
		if (l->horizontal) {
			cairo_move_to(cr, at, P.y);
			cairo_line_to(cr, at, P.y + P.h);
		} else {
			cairo_move_to(cr, P.x, at);
			cairo_line_to(cr, P.x + P.w, at);
		}
		cairo_stroke(cr);
		if (l->horizontal)
			text_in(p, l->ticks[i].text, f * 0.9, false,
				(struct bl_rect){at - 40, P.y + P.h + 4, 80, 0}, -1, CENTER,
				t->muted);
		else
			text_in(p, l->ticks[i].text, f * 0.9, false,
				(struct bl_rect){P.x - 86, at - f * 0.6, 80, 0}, -1, RIGHT,
				t->muted);
	}
	draw_axis_title(p, c, l, t);

	bool thin_filled = fill_thin_bars(cr, c, l, t);
	for (size_t i = 0; i < c->nbars; i++) {
		const struct bl_bar *b = &c->bars[i];
		const struct bl_bar_box *bb = &l->bars[i];
		draw_bar(p, b, bb, l->marks ? &l->marks[i] : NULL, l, t,
			 thin_filled && thin(bb, l->horizontal) && b->ser < c->nseries);
	}

	/* the base line */
	set_rgb(cr, t->axis);
	cairo_set_line_width(cr, 1);
	if (l->horizontal) {
		cairo_move_to(cr, round(P.x) + 0.5, P.y);
		cairo_line_to(cr, round(P.x) + 0.5, P.y + P.h);
	} else {
		cairo_move_to(cr, P.x, round(P.y + P.h) + 0.5);
		cairo_line_to(cr, P.x + P.w, round(P.y + P.h) + 0.5);
	}
	cairo_stroke(cr);

	for (size_t i = 0; i < c->ncats; i++) {
		const struct bl_cat_box *cb = &l->cats[i];
		if (l->horizontal) {
			struct bl_rect r = cb->r;
			text_in(p, c->cats[i], f, false, r, cb->wrap, RIGHT, t->text);
		} else {
			struct bl_rect r = cb->r;
			r.h = 0;
			text_in(p, c->cats[i], f, false, r, cb->wrap, CENTER, t->text);
		}
	}
	text_in(p, l->note_text, f * 0.85, false,
		(struct bl_rect){l->note.x, l->note.y, l->note.w, 0}, l->note.w, LEFT, t->muted);
}
