/* palette.c - colours: the Okabe-Ito palette (distinguishable with the
 * common colour-vision deficiencies), on a light or a dark background. */
#include <string.h>

#include "render.h"

#define RGB(x)                                                                                     \
	{                                                                                          \
		((x) >> 16 & 0xff) / 255.0, ((x) >> 8 & 0xff) / 255.0, ((x)&0xff) / 255.0          \
	}

/* blue, orange, bluish green, vermillion, sky blue, reddish purple, yellow */
static const struct bl_rgb okabe_ito[] = {
	RGB(0x0072B2), RGB(0xE69F00), RGB(0x009E73), RGB(0xD55E00),
	RGB(0x56B4E9), RGB(0xCC79A7), RGB(0xF0E442),
};

static const struct bl_theme themes[] = {
	{"light", RGB(0xFFFFFF), RGB(0x1A1A1A), RGB(0x5F5F5F), RGB(0xE3E3E3), RGB(0x333333),
	 okabe_ito, sizeof okabe_ito / sizeof okabe_ito[0]},
	{"dark", RGB(0x1C1C1E), RGB(0xEDEDED), RGB(0xA8A8A8), RGB(0x3A3A3C), RGB(0xBBBBBB),
	 okabe_ito, sizeof okabe_ito / sizeof okabe_ito[0]},
};

const struct bl_theme *bl_theme_get(const char *name)
{
	if (!name)
		return &themes[0];
	for (size_t i = 0; i < sizeof themes / sizeof themes[0]; i++)
		if (strcmp(themes[i].name, name) == 0)
			return &themes[i];
	return NULL;
}

static struct bl_rgb mix(struct bl_rgb a, struct bl_rgb b, double f)
{
	return (struct bl_rgb){a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

/* Past the palette's seven colours (iozone's 13 tests), each comes again
 * deeper (mixed with the text colour), then paler (with the background):
 * 21 series (BL_SERIES_COLOURS) before two share a colour. */
_Static_assert(3 * sizeof okabe_ito / sizeof okabe_ito[0] == BL_SERIES_COLOURS,
	       "BL_SERIES_COLOURS: three of each palette colour");
struct bl_rgb bl_theme_series(const struct bl_theme *t, size_t i)
{
	struct bl_rgb c = t->series[i % t->nseries];
	switch (i / t->nseries % 3) {
	case 1: return mix(c, t->text, 0.45);
	case 2: return mix(c, t->background, 0.5);
	default: return c;
	}
}
