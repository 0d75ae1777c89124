/* fonts.h - the font maps chart texts are set with (render/fonts.c). */
#ifndef BL_RENDER_FONTS_H
#define BL_RENDER_FONTS_H

#include <pango/pango.h>
#include <stdbool.h>

/* The families a chart asks for, in order, and the first of them: the
 * one whose regular and bold files the private configuration holds. */
#define BL_FONT_FAMILY "DejaVu Sans, Noto Sans CJK SC, sans-serif"
#define BL_FONT_FIRST "DejaVu Sans"

/* The font map to set `text` with, in bold or not: the private one when
 * its face has every character of text (*own set), else the system's.
 * Owned by fonts.c; NULL only when pango can make no font map. */
PangoFontMap *bl_fonts_map_for(const char *text, bool bold, bool *own);

struct bl_chart;
/* Before drawing charts [0, n): when a text of theirs (title, subtitle,
 * axis title, unit, categories, series) has a character the private fonts
 * lack, every text of theirs takes the system path, not that text alone:
 * each font map has cairo fonts of its own, and SVG and PDF would hold the
 * same glyphs twice, in two font subsets. */
void bl_fonts_for_charts(const struct bl_chart *c, size_t n);

/* Drops both font maps and the private configuration (the next
 * bl_fonts_map_for looks at the font files again). */
void bl_fonts_free(void);

#endif
