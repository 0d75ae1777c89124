/* fonts.c - fontconfig's configuration, loaded without its catalogue.
 *
 * FcInit() parses the configuration (/etc/fonts/fonts.conf and conf.d),
 * then also every file of /usr/share/fontconfig/conf.avail, enabled or not,
 * only to keep their descriptions for fc-conflist. On Debian 12 that
 * second parse is 40% of FcInit (10 M of 25 M instructions, 3 ms), paid by
 * every `benchlog chart`. bl_render_fonts_init() loads the same
 * configuration and fonts as FcInit and makes it current, without the
 * catalogue; pango's own FcInit then finds it and does nothing. Matching
 * and rendering are the same: the catalogue is never applied. */
#include <fontconfig/fontconfig.h>
#include <stdbool.h>

#include "render.h"

int bl_render_fonts_init(void)
{
	static bool done;
	if (done)
		return 0;
	done = true;
	FcConfig *c = FcConfigCreate();
	if (!c)
		return -1;
	/* NULL: FONTCONFIG_FILE or the default fonts.conf, as FcInit reads */
	if (!FcConfigParseAndLoad(c, NULL, FcTrue)) {
		FcConfigDestroy(c);
		return -1; /* FcInit will fall back to its built-in configuration */
	}
	/* FcInit adds default cache directories when the configuration names
	 * none; leave that case to it */
	FcStrList *dirs = FcConfigGetCacheDirs(c);
	bool any = dirs && FcStrListNext(dirs) != NULL;
	if (dirs)
		FcStrListDone(dirs);
	if (!any || !FcConfigBuildFonts(c) || !FcConfigSetCurrent(c)) {
		FcConfigDestroy(c);
		return -1;
	}
	FcConfigDestroy(c); /* the current configuration holds its own reference */
	return 0;
}
