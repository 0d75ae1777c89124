/* draw_module.h - drawing as a module the program loads when it first
 * draws.
 *
 * Drawing needs cairo, pango and fontconfig, which bring 30 more shared
 * libraries: loading and relocating them took half of the start of every
 * benchlog process (5.3 ms of CPU, 2.5 without), what `parallel benchlog
 * parse ::: FILES` pays per file, whether or not it draws. So the program
 * (build/benchlog) is linked without them, and the functions it calls to
 * draw (bl_render, bl_render_svg_with, bl_render_fonts_init,
 * bl_render_cleanup, bl_render_unavailable) forward to this table, found
 * in benchlog-draw.so by cli/lazy/draw.c. The tests, the fuzzers and the
 * public library link the drawing code in as before. */
#ifndef BL_DRAW_MODULE_H
#define BL_DRAW_MODULE_H

#include "render.h"

/* The table's symbol; the number changes with the table's layout. */
#define BL_DRAW_MODULE_SYMBOL "bl_draw_module_v1"
#define BL_DRAW_MODULE_FILE "benchlog-draw.so"

/* A checksum of render.h and this file (the Makefile's DRAW_ABI): the
 * interface the module was built from. */
#ifndef BL_DRAW_ABI
#define BL_DRAW_ABI 0UL
#endif

struct bl_draw_module {
	/* the module's build: a program takes only a module of its own
	 * version and interface, and the sizes of what they hand each other */
	const char *version;
	unsigned long abi;
	size_t chart_size, opts_size;
	int (*render)(const struct bl_chart *charts, size_t n, enum bl_format fmt,
		      const struct bl_render_opts *o, bl_write_fn write, void *ctx, char *err,
		      size_t errlen);
	int (*svg_with)(const struct bl_chart *c, const struct bl_render_opts *o,
			const struct bl_svg_opts *so, bl_write_fn write, void *ctx);
	int (*fonts_init)(void);
	void (*cleanup)(void);
};

#endif
