/* layout.c - where everything of a chart goes, computed as data before any
 * drawing: title, legend, plot area, one box per bar with its whisker and
 * labels, category labels (wrapped), ticks. Tests check these boxes; draw.c
 * only paints them.
 *
 * Vertical bars unless the category labels would need more than three
 * lines in their slot (or there are many bars): then the chart turns
 * horizontal, with the labels in a column on the left. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define MARGIN 20.0
#define GAP 8.0
#define MAX_LABEL_LINES 3
#define MAX_HEIGHT 30000.0 /* cairo image surfaces stop at 32767 px */
#define ARROW 6.0 /* size of a censored bar's arrow, as draw.c paints it */
#define LEGEND_LINES 4 /* lines of legend the default heights leave room for */
#define LEGEND_MAX_LINES 64 /* lines of legend at most */
#define PLOT_MIN 240.0 /* px a legend leaves at least to the plot and its labels */

static void measure(const struct bl_measure *m, const char *t, double size, double wrap, bool bold,
		    double *w, double *h)
{
	m->size(m->ctx, t, size, wrap, bold, w, h);
}

/* Position along the value axis, 0..1 from the base. */
static double frac(const struct bl_scale *s, double v)
{
	if (s->log) {
		if (!(v > 0))
			return 0;
		double f = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
		return f < 0 ? 0 : f > 1 ? 1 : f;
	}
	if (!(s->hi > s->lo))
		return 0;
	double f = (v - s->lo) / (s->hi - s->lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

static void value_text(const struct bl_chart *c, const struct bl_bar *b, char *buf, size_t len)
{
	char num[20];
	if (isnan(b->value)) {
		snprintf(buf, len, "too fast");
		return;
	}
	const char *mark = b->censored ? "≥ " : b->approximate ? "~" : "";
	if (b->disagree) {
		/* repeats that disagree: their range, not a median that hides it */
		char hi[20];
		bl_scale_format(&c->scale, b->min, num, sizeof num);
		bl_scale_format(&c->scale, b->max, hi, sizeof hi);
		snprintf(buf, len, "%s%s %s %s%s", mark, num, b->n == 2 ? "/" : "–", hi,
			 b->warning ? "*" : "");
		return;
	}
	bl_scale_format(&c->scale, b->value, num, sizeof num);
	snprintf(buf, len, "%s%s%s", mark, num, b->warning ? "*" : "");
}

/* The length of a bar without a printed bound: an open column the length
 * of the plot beside bars with values, never a short bar that would read
 * as a small value; half the plot when no bar has a value and there is
 * no axis. */
static double stub_len(const struct bl_chart *c, double plot_len)
{
	return c->scale.nticks == 0 ? plot_len / 2 : plot_len - ARROW - 2;
}

/* The marks of each run of a bar whose repeats disagree, along the value
 * axis from `base` (pixels, `dir` -1 up or +1 right, `len` the plot's
 * length). */
static void place_dots(const struct bl_chart *c, const struct bl_bar *b, struct bl_bar_marks *mk,
		       double base, double dir, double len)
{
	mk->ndots = b->nvals;
	for (size_t k = 0; k < b->nvals; k++)
		mk->dots[k] = base + dir * frac(&c->scale, b->vals[k]) * len;
}

void bl_layout_free(struct bl_layout *l)
{
	free(l->bars);
	free(l->marks);
	free(l->cats);
	free(l->legend);
	l->bars = NULL;
	l->marks = NULL;
	l->cats = NULL;
	l->legend = NULL;
}

/* Whether the chart has a legend: more than one series, or one named. */
static bool has_legend(const struct bl_chart *c)
{
	return c->nseries > 1 || (c->nseries == 1 && c->series[0][0]);
}

/* Legend items flow left to right and wrap, from y down to `limit` at
 * most: the items that fit are placed (l->nlegend); returns the height
 * they take, 0 for none. */
static double place_legend(const struct bl_chart *c, const struct bl_measure *m,
			   struct bl_layout *l, double y, double limit)
{
	l->nlegend = 0;
	if (!has_legend(c))
		return 0;
	double x = MARGIN, lh = 0, f = l->font, top = y;
	for (size_t i = 0; i < c->nseries; i++) {
		double w, h;
		measure(m, c->series[i], f, -1, false, &w, &h);
		double iw = f + 6 + w + 18;
		double row = y, rowh = lh;
		if (x > MARGIN && x + iw > l->width - MARGIN) {
			row = y + lh + 4;
			rowh = 0;
		}
		if (row + (h > rowh ? h : rowh) + 0.5 > limit)
			break;
		if (row != y) {
			x = MARGIN;
			y = row;
			lh = 0;
		}
		l->legend[i].swatch = (struct bl_rect){x, y + (h - f) / 2, f, f};
		l->legend[i].tx = x + f + 6;
		l->legend[i].ty = y;
		x += iw;
		if (h > lh)
			lh = h;
		l->nlegend = i + 1;
	}
	return l->nlegend ? y + lh - top + 0.5 : 0;
}

/* What the marks mean, and when the legend names only the first
 * `shown` of the series, that it does. */
static void note_text(const struct bl_chart *c, size_t shown, bool crowded, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t used = 0;
	const char *parts[8];
	size_t n = 0;
	if (c->any_repeats) /* a crowded chart's bars have no whiskers or dots */
		parts[n++] = crowded ? "bars: median of n repeats"
				     : "bars: median of n repeats, whiskers: min–max";
	if (c->any_disagree && !crowded)
		parts[n++] = "dots: each run, where repeats disagree by more than 2×";
	if (c->auto_log)
		parts[n++] = "log scale: the values span more than two orders of magnitude";
	char warned[128];
	if (c->warning[0]) {
		snprintf(warned, sizeof warned, "*: read with a warning (%s, in the document)",
			 c->warning);
		parts[n++] = warned;
	}
	bool stub = false;
	for (size_t i = 0; i < c->nbars; i++)
		stub |= isnan(c->bars[i].value);
	char none[160];
	if (c->any_censored && c->scale.nticks == 0) {
		snprintf(none, sizeof none,
			 "no value printed: every test ran too fast to time, so there is "
			 "nothing to compare (%s: censored)",
			 crowded ? "pale" : "hatched");
		parts[n++] = none;
	} else if (c->any_censored && crowded) /* thin bars: no hatching, labels or arrows */
		parts[n++] = stub ? "pale: censored, the test ran too fast to time (its whole "
				    "length: no bound printed, not a value)"
				  : "pale: censored, the test ran too fast to time";
	else if (c->any_censored)
		parts[n++] =
			stub ? "hatched: censored, the test ran too fast to time (≥: its lower bound; "
			       "too fast: no bound printed)"
			     : "hatched ≥: lower bound (the test ran too fast to time)";
	if (c->any_approximate)
		parts[n++] = "~: printed rounded";
	char crowd[96];
	if (crowded) {
		snprintf(crowd, sizeof crowd,
			 "grey: %zu series side by side, too many to tell apart by colour",
			 c->nseries);
		parts[n++] = crowd;
	}
	char cut[96];
	if (has_legend(c) && !crowded && shown < c->nseries) {
		snprintf(cut, sizeof cut, "legend: the first %zu of %zu series", shown, c->nseries);
		parts[n++] = cut;
	}
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? "; " : "", parts[i]);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

/* Would the category labels fit under vertical bars in three lines? */
static bool labels_fit_vertical(const struct bl_chart *c, const struct bl_measure *m, double slot,
				double font)
{
	if (slot < 28)
		return false;
	for (size_t i = 0; i < c->ncats; i++) {
		double w, h, w1, h1;
		measure(m, c->cats[i], font, slot - 6, false, &w, &h);
		measure(m, "Xg", font, -1, false, &w1, &h1);
		if (w > slot - 4 || h > h1 * MAX_LABEL_LINES + 1)
			return false;
	}
	return true;
}

/* The tick labels of the value axis, formatted; returns the widest. */
static double place_ticks(const struct bl_chart *c, const struct bl_measure *m, struct bl_layout *l)
{
	double f = l->font, w, h, tickw = 0;
	l->nticks = c->scale.nticks;
	for (size_t i = 0; i < l->nticks; i++) {
		bl_scale_format(&c->scale, c->scale.ticks[i], l->ticks[i].text,
				sizeof l->ticks[i].text);
		measure(m, l->ticks[i].text, f * 0.9, -1, false, &w, &h);
		if (w > tickw)
			tickw = w;
	}
	return tickw;
}

/* Horizontal bars when asked for; by default when there are many bars in
 * many categories, or the labels would not fit under vertical bars. */
static bool horizontal(const struct bl_chart *c, const struct bl_measure *m,
		       const struct bl_layout *l, enum bl_orient orient, double tickw, double lineh)
{
	if (orient == BL_ORIENT_HORIZONTAL)
		return true;
	if (orient == BL_ORIENT_VERTICAL)
		return false;
	size_t nslots = c->ncats ? c->ncats : 1;
	double plot_w = l->width - 2 * MARGIN - tickw - lineh - 12;
	return c->nbars > 48 ? (c->ncats > 12)
			     : !labels_fit_vertical(c, m, plot_w / (double)nslots, l->font);
}

/* The width of the category label column of a horizontal chart: its
 * widest label, at most 35% of the chart. */
static double label_column(const struct bl_chart *c, const struct bl_measure *m,
			   const struct bl_layout *l)
{
	double w, h, labcol = 0;
	double maxcol = l->width * 0.35;
	for (size_t i = 0; i < c->ncats; i++) {
		measure(m, c->cats[i], l->font, -1, false, &w, &h);
		if (w > labcol)
			labcol = w;
	}
	if (labcol > maxcol)
		labcol = maxcol;
	return labcol + 2;
}

/* The chart's height: `height` when given, 540 for vertical bars, and for
 * horizontal ones room for each bar or each wrapped label in the column
 * `labcol` wide, within 360 px and MAX_HEIGHT. */
static double chart_height(const struct bl_chart *c, const struct bl_measure *m,
			   const struct bl_layout *l, double height, double labcol)
{
	if (height > 0)
		return height;
	if (!l->horizontal)
		return 540;
	double bar_thick = 18; /* px per bar when the height is free */
	double ser = c->nseries ? (double)c->nseries : 1;
	size_t nslots = c->ncats ? c->ncats : 1;
	/* a crowded chart's bars are thin at any height: a band the eye
	 * reads for each category, not 30,000 px */
	double slot = l->crowded ? 60 : ser * bar_thick / 0.8;
	double minslot = 0, w, h;
	for (size_t i = 0; i < c->ncats; i++) {
		measure(m, c->cats[i], l->font, labcol, false, &w, &h);
		if (h + 6 > minslot)
			minslot = h + 6;
	}
	if (slot < minslot)
		slot = minslot;
	double hgt = 200 + (double)nslots * slot;
	if (hgt < 360)
		hgt = 360;
	if (hgt > MAX_HEIGHT)
		hgt = MAX_HEIGHT; /* the bars get thinner */
	return hgt;
}

/* The title and subtitle; returns the y below them. */
static double place_titles(const struct bl_chart *c, const struct bl_measure *m,
			   struct bl_layout *l)
{
	double f = l->font, w, h, y = MARGIN;
	measure(m, c->title, f * 1.5, l->width - 2 * MARGIN, true, &w, &h);
	l->title = (struct bl_rect){MARGIN, y, l->width - 2 * MARGIN, h};
	y += h + 2;
	measure(m, c->subtitle, f * 0.9, l->width - 2 * MARGIN, false, &w, &h);
	l->subtitle = (struct bl_rect){MARGIN, y, l->width - 2 * MARGIN, h};
	return y + h + GAP;
}

/* The footer: the note on marks, if any; returns the y above it. */
static double place_note(const struct bl_measure *m, struct bl_layout *l)
{
	double w, h, bottom = l->height - MARGIN;
	if (l->note_text[0]) {
		measure(m, l->note_text, l->font * 0.85, l->width - 2 * MARGIN, false, &w, &h);
		l->note = (struct bl_rect){MARGIN, bottom - h, l->width - 2 * MARGIN, h};
		bottom -= h + GAP;
	}
	return bottom;
}

/* The legend under the titles (which end at y); returns the y below it.
 * The default heights leave room for LEGEND_LINES lines of legend, and
 * such a legend is placed as it is. A longer one makes the chart taller
 * (not when the height was `fixed`), up to LEGEND_MAX_LINES lines, which
 * name the first series (the colours repeat long before); where it would
 * still leave the plot and its labels less than PLOT_MIN, it names fewer,
 * never fewer than LEGEND_LINES lines hold. The note says when the legend
 * does not name every series. A crowded chart has none: the note says
 * its bars are grey. */
static double place_legend_room(const struct bl_chart *c, const struct bl_measure *m,
				struct bl_layout *l, double y, bool fixed, double lineh)
{
	if (l->crowded) { /* its colours are not told apart in the plot */
		note_text(c, 0, true, l->note_text, sizeof l->note_text);
		return y;
	}
	double lg = place_legend(c, m, l, y, y + LEGEND_MAX_LINES * (lineh + 4));
	double room = LEGEND_LINES * (lineh + 4);
	if (lg > room && !fixed)
		l->height = fmin(l->height + lg - room, MAX_HEIGHT);
	note_text(c, l->nlegend, l->crowded, l->note_text, sizeof l->note_text);
	if (lg > room && place_note(m, l) - (y + lg + GAP) < PLOT_MIN) {
		/* the note as it will read (the count shown has as many digits
		 * at most), then the lines of legend that leave PLOT_MIN */
		note_text(c, c->nseries - 1, l->crowded, l->note_text, sizeof l->note_text);
		lg = place_legend(c, m, l, y, fmax(place_note(m, l) - PLOT_MIN - GAP, y + room));
		note_text(c, l->nlegend, l->crowded, l->note_text, sizeof l->note_text);
	}
	return lg ? y + lg + GAP : y;
}

/* The room between two bars side by side, `bw` apart: a pixel, less
 * between bars under 2 px, none under 1 px (a chart of thousands of
 * series), whose width would otherwise be negative: cairo drew each a
 * pixel wide over its neighbours. */
static double bar_gap(double bw)
{
	return fmax(0, fmin(1, bw - 1));
}

/* Are there more series than colours, and will every bar be thinner
 * than BL_THIN_BAR at the `height` asked for (0: chosen)? The plot is
 * narrower (or, horizontal, shorter) than the chart at its tallest, and
 * its bars take 0.8 of it. A few series over many categories keep their
 * colours however thin their bars. */
static bool crowded(const struct bl_chart *c, const struct bl_layout *l, double height)
{
	double extent = l->horizontal ? fmax(height, MAX_HEIGHT) : l->width;
	double slots = (double)(c->ncats ? c->ncats : 1) * (double)c->nseries;
	return c->nbars && c->nseries > BL_SERIES_COLOURS && extent * 0.8 / slots < BL_THIN_BAR;
}

/* Bar i of a vertical chart, `bw` wide in its category's slot (`slot`
 * wide, from `left`), up from `base`: its box, whisker, value label above
 * (none when wider than the bar) and n= at its foot (none when it does
 * not fit). */
static void place_vbar(const struct bl_chart *c, const struct bl_measure *m, struct bl_layout *l,
		       size_t i, double left, double base, double slot, double bw)
{
	double f = l->font, w, h;
	const struct bl_bar *b = &c->bars[i];
	struct bl_bar_box *bb = &l->bars[i];
	double x = left + slot * (double)b->cat + slot * 0.1 + bw * (double)b->ser;
	double v = isnan(b->value) ? NAN : b->value;
	/* no printed bound: an open column the height of the plot, never a
	 * short bar that would read as a small value */
	double hpx = isnan(v) ? stub_len(c, l->plot.h) : frac(&c->scale, v) * l->plot.h;
	bb->stub = isnan(v);
	bb->r = (struct bl_rect){x + bar_gap(bw) / 2, base - hpx, bw - bar_gap(bw), hpx};
	if (!l->marks)
		return;
	struct bl_bar_marks *mk = &l->marks[i];
	bb->whisker = b->n > 1 && !isnan(b->min) && b->max > b->min;
	double tip = base - hpx;
	if (bb->whisker) {
		bb->wlo = base - frac(&c->scale, b->min) * l->plot.h;
		bb->whi = base - frac(&c->scale, b->max) * l->plot.h;
		if (bb->whi < tip)
			tip = bb->whi;
	}
	if (b->censored)
		tip -= ARROW + 2; /* the open end's arrow */
	place_dots(c, b, mk, base, -1, l->plot.h);
	value_text(c, b, mk->text, sizeof mk->text);
	measure(m, mk->text, f * 0.85, -1, false, &w, &h);
	if (w > bw + slot * 0.1)
		mk->text[0] = '\0'; /* too narrow: the axis tells */
	mk->label = (struct bl_rect){x + bw / 2 - w / 2, tip - h - 1, w, h};
	if (b->n > 1) {
		snprintf(mk->ntext, sizeof mk->ntext, "n=%zu", b->n);
		measure(m, mk->ntext, f * 0.75, -1, false, &w, &h);
		mk->nbox = (struct bl_rect){x + bw / 2 - w / 2, base - h - 2, w, h};
		if (w > bw - 2 || h + 4 > hpx)
			mk->ntext[0] = '\0';
	}
}

/* Vertical bars between y and bottom: the value axis on the left (after
 * tick labels `tickw` wide), the category labels wrapped under their
 * slots. */
static void place_vertical(const struct bl_chart *c, const struct bl_measure *m,
			   struct bl_layout *l, double y, double bottom, double tickw, double lineh)
{
	size_t nslots = c->ncats ? c->ncats : 1;
	double ser = c->nseries ? (double)c->nseries : 1;
	double f = l->font, w, h;
	double left = MARGIN + lineh + 6 + tickw + 6;
	double right = l->width - MARGIN;
	double slot = (right - left) / (double)nslots;
	double labh = 0;
	for (size_t i = 0; i < c->ncats; i++) {
		measure(m, c->cats[i], f, slot - 6, false, &w, &h);
		if (h > labh)
			labh = h;
	}
	if (labh > lineh * 5)
		labh = lineh * 5;
	double top = y + lineh; /* room for value labels above the tallest bar */
	double base = bottom - labh - 6;
	l->plot = (struct bl_rect){left, top, right - left, base - top};
	l->axis_title = (struct bl_rect){MARGIN, top, lineh, base - top};
	for (size_t i = 0; i < l->nticks; i++)
		l->ticks[i].pos = base - frac(&c->scale, c->scale.ticks[i]) * l->plot.h;
	for (size_t i = 0; i < c->ncats; i++) {
		l->cats[i].r =
			(struct bl_rect){left + slot * (double)i + 3, base + 6, slot - 6, labh};
		l->cats[i].wrap = slot - 6;
	}
	double group = slot * 0.8, bw = group / ser;
	for (size_t i = 0; i < c->nbars; i++)
		place_vbar(c, m, l, i, left, base, slot, bw);
}

/* Bar i of a horizontal chart, `bh` thick in its category's slot (`slot`
 * high, from `top`), right from `left`: its box, whisker, value label
 * after it (none when thicker than the bar) and n= inside its start
 * (none when it does not fit). */
static void place_hbar(const struct bl_chart *c, const struct bl_measure *m, struct bl_layout *l,
		       size_t i, double left, double top, double slot, double bh)
{
	double f = l->font, w, h;
	const struct bl_bar *b = &c->bars[i];
	struct bl_bar_box *bb = &l->bars[i];
	double yb = top + slot * (double)b->cat + slot * 0.1 + bh * (double)b->ser;
	double v = b->value;
	double wpx = isnan(v) ? stub_len(c, l->plot.w) : frac(&c->scale, v) * l->plot.w;
	bb->stub = isnan(v);
	bb->r = (struct bl_rect){left, yb + bar_gap(bh) / 2, wpx, bh - bar_gap(bh)};
	if (!l->marks)
		return;
	struct bl_bar_marks *mk = &l->marks[i];
	bb->whisker = b->n > 1 && !isnan(b->min) && b->max > b->min;
	double tip = left + wpx;
	if (bb->whisker) {
		bb->wlo = left + frac(&c->scale, b->min) * l->plot.w;
		bb->whi = left + frac(&c->scale, b->max) * l->plot.w;
		if (bb->whi > tip)
			tip = bb->whi;
	}
	if (b->censored)
		tip += ARROW + 2;
	place_dots(c, b, mk, left, 1, l->plot.w);
	value_text(c, b, mk->text, sizeof mk->text);
	measure(m, mk->text, f * 0.85, -1, false, &w, &h);
	if (h > bh + slot * 0.1)
		mk->text[0] = '\0'; /* too thin: the axis tells */
	mk->label = (struct bl_rect){tip + 4, yb + bh / 2 - h / 2, w, h};
	if (b->n > 1) {
		snprintf(mk->ntext, sizeof mk->ntext, "n=%zu", b->n);
		measure(m, mk->ntext, f * 0.75, -1, false, &w, &h);
		mk->nbox = (struct bl_rect){left + 3, yb + bh / 2 - h / 2, w, h};
		if (h > bh - 1 || w + 6 > wpx)
			mk->ntext[0] = '\0';
	}
}

/* Horizontal bars between y and bottom: the category labels in a column
 * `labcol` wide on the left, the value axis along the bottom. */
static void place_horizontal(const struct bl_chart *c, const struct bl_measure *m,
			     struct bl_layout *l, double y, double bottom, double labcol,
			     double lineh)
{
	size_t nslots = c->ncats ? c->ncats : 1;
	double ser = c->nseries ? (double)c->nseries : 1;
	double left = MARGIN + labcol + GAP;
	double right = l->width - MARGIN - 70; /* room for the last value label */
	double axis_h = lineh * 0.9 + 4 + lineh + 4; /* tick labels and axis title */
	double top = y, base = bottom - axis_h;
	l->plot = (struct bl_rect){left, top, right - left, base - top};
	l->axis_title = (struct bl_rect){left, bottom - lineh, right - left, lineh};
	for (size_t i = 0; i < l->nticks; i++)
		l->ticks[i].pos = left + frac(&c->scale, c->scale.ticks[i]) * l->plot.w;
	double slot = l->plot.h / (double)nslots;
	for (size_t i = 0; i < c->ncats; i++) {
		l->cats[i].r = (struct bl_rect){MARGIN, top + slot * (double)i, labcol, slot};
		l->cats[i].wrap = labcol;
	}
	double group = slot * 0.8, bh = group / ser;
	for (size_t i = 0; i < c->nbars; i++)
		place_hbar(c, m, l, i, left, top, slot, bh);
}

static bool rects_meet(struct bl_rect a, struct bl_rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* No value label over another: a label that would cover one placed before
 * it moves one line further out (above a column, right of a bar) when
 * that is free and inside the canvas, else it is left out; the axis, the
 * table and the model still give the value. Labels are drawn on most bars
 * or on none. */
static void unclash_labels(const struct bl_chart *c, struct bl_layout *l)
{
	struct bl_bar_marks *mk = l->marks;
	if (!mk)
		return;
	for (size_t i = 0; i < c->nbars; i++) {
		struct bl_bar_marks *lab = &mk[i];
		if (!lab->text[0])
			continue;
		for (int tries = 0; tries < 2; tries++) {
			bool clash = false;
			for (size_t j = 0; j < i && !clash; j++)
				clash = mk[j].text[0] && rects_meet(lab->label, mk[j].label);
			if (!clash)
				break;
			struct bl_rect up = lab->label;
			if (l->horizontal)
				up.x += up.w + 4;
			else
				up.y -= up.h + 1;
			if (tries == 1 || up.y < l->title.y || up.x + up.w > l->width) {
				lab->text[0] = '\0';
				break;
			}
			lab->label = up;
		}
	}
	/* labels on a few bars only read as if those were special: when
	 * most do not fit, the axis alone gives the values */
	size_t shown = 0;
	for (size_t i = 0; i < c->nbars; i++)
		shown += mk[i].text[0] != '\0';
	if (shown * 2 < c->nbars)
		for (size_t i = 0; i < c->nbars; i++)
			mk[i].text[0] = '\0';
}

int bl_layout_chart(const struct bl_chart *c, double width, double height, enum bl_orient orient,
		    const struct bl_measure *m, struct bl_layout *l)
{
	memset(l, 0, sizeof *l);
	l->bars = calloc(c->nbars ? c->nbars : 1, sizeof *l->bars);
	l->cats = calloc(c->ncats ? c->ncats : 1, sizeof *l->cats);
	l->legend = calloc(c->nseries ? c->nseries : 1, sizeof *l->legend);
	if (!l->bars || !l->cats || !l->legend) {
		bl_layout_free(l);
		return -1;
	}
	l->width = width > 0 ? width : 960;
	l->font = 13;
	double w, lineh;
	measure(m, "Xg", l->font, -1, false, &w, &lineh);

	/* tick labels: their widest text decides the left margin */
	double tickw = place_ticks(c, m, l);
	l->horizontal = horizontal(c, m, l, orient, tickw, lineh);
	double labcol = l->horizontal ? label_column(c, m, l) : 0;
	l->crowded = crowded(c, l, height);
	l->height = chart_height(c, m, l, height, labcol);
	if (!l->crowded && !(l->marks = calloc(c->nbars ? c->nbars : 1, sizeof *l->marks))) {
		bl_layout_free(l);
		return -1;
	}
	double y = place_legend_room(c, m, l, place_titles(c, m, l), height > 0, lineh);
	double bottom = place_note(m, l);
	if (l->horizontal)
		place_horizontal(c, m, l, y, bottom, labcol, lineh);
	else
		place_vertical(c, m, l, y, bottom, tickw, lineh);
	unclash_labels(c, l);
	return 0;
}
