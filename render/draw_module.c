/* draw_module.c - the table benchlog-draw.so hands the program
 * (draw_module.h). */
#include "draw_module.h"

__attribute__((visibility("default"))) const struct bl_draw_module bl_draw_module_v1 = {
	.version = BL_VERSION,
	.abi = BL_DRAW_ABI,
	.chart_size = sizeof(struct bl_chart),
	.opts_size = sizeof(struct bl_render_opts),
	.render = bl_render,
	.svg_with = bl_render_svg_with,
	.fonts_init = bl_render_fonts_init,
	.cleanup = bl_render_cleanup,
};
