/* fonts.c - the fonts a chart's texts are set in: two pango font maps.
 *
 * Charts are set in DejaVu Sans (the first family of BL_FONT_FAMILY).
 * Through the system's fontconfig configuration, every `benchlog chart`
 * would parse dozens of XML files (15 M instructions) and pango would sort
 * every installed font for each font it asks for (17 M more), a third of
 * the command. So the texts of a chart whose every character the regular
 * and bold files of that family hold (BL_FONT_FILE, BL_FONT_BOLD_FILE: see
 * the Makefile) go through a fontconfig configuration of their own,
 * holding those two files and nothing else (0.3 M instructions from
 * fontconfig's cache of their directory, 4 M from the files). A chart with
 * any other text (a CJK label, a control character) goes through the
 * system configuration, loaded the first time one needs it, where
 * fontconfig falls back to the fonts that have its characters; and so do
 * all charts when a file is missing or is not that family's regular or
 * bold face. Through either map a character DejaVu Sans has is drawn from
 * the same file with the same options (draw.c sets them on both contexts),
 * so a chart is the same whichever path it took. */
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fonts.h"
#include "render.h"

#ifndef BL_FONT_FILE
#define BL_FONT_FILE "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#endif
#ifndef BL_FONT_BOLD_FILE
#define BL_FONT_BOLD_FILE "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#endif

/* One face of the private configuration: its characters, and the ASCII
 * ones as a bitmap (most labels are ASCII). */
struct face {
	FcCharSet *chars; /* a reference of our own */
	uint64_t ascii[2];
};

static struct {
	bool tried; /* the private fonts were looked at */
	bool current; /* the private configuration is fontconfig's current one */
	FcConfig *config; /* NULL: every text takes the system path */
	struct face face[2]; /* regular, bold */
	bool system_only; /* this render's texts all take the system path */
	PangoFontMap *own, *sys;
} F;

/* The system configuration as FcInit() loads it, without the catalogue of
 * /usr/share/fontconfig/conf.avail that FcInit also parses (every file
 * there, enabled or not, only to keep its description for fc-conflist:
 * 40% of FcInit) and that is never applied. NULL when it cannot be loaded
 * so (no configuration file, or no cache directory named in it): then
 * FcInitLoadConfigAndFonts, which has its fallbacks. */
static FcConfig *system_config(void)
{
	FcConfig *c = FcConfigCreate();
	if (!c)
		return NULL;
	/* NULL: FONTCONFIG_FILE or the default fonts.conf, as FcInit reads */
	if (!FcConfigParseAndLoad(c, NULL, FcTrue)) {
		FcConfigDestroy(c);
		return NULL;
	}
	/* FcInit adds default cache directories when the configuration names
	 * none; leave that case to it */
	FcStrList *dirs = FcConfigGetCacheDirs(c);
	bool any = dirs && FcStrListNext(dirs) != NULL;
	if (dirs)
		FcStrListDone(dirs);
	if (!any || !FcConfigBuildFonts(c)) {
		FcConfigDestroy(c);
		return NULL;
	}
	return c;
}

static void drop_private(void)
{
	for (int i = 0; i < 2; i++) {
		if (F.face[i].chars)
			FcCharSetDestroy(F.face[i].chars);
		F.face[i].chars = NULL;
	}
	if (F.config)
		FcConfigDestroy(F.config);
	F.config = NULL;
}

/* The pattern of the font file `path` in set fs, if it is the one face
 * of BL_FONT_FIRST of that file with weight w. */
static FcPattern *face_of(FcFontSet *fs, const char *path, int w)
{
	FcPattern *found = NULL;
	for (int i = 0; i < fs->nfont; i++) {
		FcChar8 *file, *family;
		int weight, index;
		if (FcPatternGetString(fs->fonts[i], FC_FILE, 0, &file) != FcResultMatch ||
		    strcmp((const char *)file, path) != 0)
			continue;
		if (found ||
		    FcPatternGetString(fs->fonts[i], FC_FAMILY, 0, &family) != FcResultMatch ||
		    strcmp((const char *)family, BL_FONT_FIRST) != 0 ||
		    FcPatternGetInteger(fs->fonts[i], FC_WEIGHT, 0, &weight) != FcResultMatch ||
		    weight != w ||
		    FcPatternGetInteger(fs->fonts[i], FC_INDEX, 0, &index) != FcResultMatch ||
		    index != 0)
			return NULL; /* a collection, another family or weight */
		found = fs->fonts[i];
	}
	return found;
}

/* Where fontconfig keeps the caches of font directories (Debian's, then
 * the user's). */
static const char cache_dirs[] = "<fontconfig><cachedir>/var/cache/fontconfig</cachedir>"
				 "<cachedir prefix=\"xdg\">fontconfig</cachedir></fontconfig>";

/* Fonts path[0] and path[1] into the system set of configuration c from
 * fontconfig's caches of their directories (what FcConfigBuildFonts reads
 * for the directories named, here with every other file of them left
 * out), so that their character maps need not be read from the files:
 * 0.3 M instructions instead of 4 M. False, with c untouched, when a
 * directory has no valid cache (fontconfig would scan every font in it)
 * or a path needs quoting in XML or in a glob. */
static bool from_cache(FcConfig *c, const char *const path[2])
{
	char dir[2][512], xml[2048];
	for (int i = 0; i < 2; i++) {
		const char *slash = strrchr(path[i], '/');
		size_t n = slash ? (size_t)(slash - path[i]) : 0;
		if (!slash || n == 0 || n >= sizeof dir[i] || strpbrk(path[i], "*?[]\\&<>\"'"))
			return false;
		memcpy(dir[i], path[i], n);
		dir[i][n] = '\0';
	}
	if (!FcConfigParseAndLoadFromMemory(c, (const FcChar8 *)cache_dirs, FcFalse))
		return false;
	for (int i = 0; i < 2; i++) {
		FcCache *k = FcDirCacheLoad((const FcChar8 *)dir[i], c, NULL);
		if (!k)
			return false;
		FcDirCacheUnload(k); /* fontconfig keeps it for the build below */
	}
	int n = snprintf(xml, sizeof xml,
			 "<fontconfig><dir>%s</dir><dir>%s</dir><selectfont>"
			 "<acceptfont><glob>%s</glob><glob>%s</glob></acceptfont>"
			 "<rejectfont><glob>*</glob></rejectfont></selectfont></fontconfig>",
			 dir[0], dir[1], path[0], path[1]);
	return n > 0 && (size_t)n < sizeof xml &&
	       FcConfigParseAndLoadFromMemory(c, (const FcChar8 *)xml, FcFalse) &&
	       FcConfigBuildFonts(c);
}

/* The two faces of font set fs: their characters into F.face. */
static bool take_faces(FcFontSet *fs, const char *const path[2])
{
	static const int weight[2] = {FC_WEIGHT_REGULAR, FC_WEIGHT_BOLD};
	if (!fs || fs->nfont != 2)
		return false;
	for (int i = 0; i < 2; i++) {
		FcPattern *p = face_of(fs, path[i], weight[i]);
		FcCharSet *cs;
		if (!p || FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) != FcResultMatch)
			return false;
		struct face *f = &F.face[i];
		if (!(f->chars = FcCharSetCopy(cs)))
			return false;
		for (FcChar32 ch = 0; ch < 128; ch++)
			if (FcCharSetHasChar(cs, ch))
				f->ascii[ch >> 6] |= (uint64_t)1 << (ch & 63);
	}
	return true;
}

/* The configuration holding only files regular and bold, from
 * fontconfig's caches or else from the files. false (and nothing kept)
 * when either is missing or not what it should be. */
static bool load_private(const char *regular, const char *bold)
{
	const char *path[2] = {regular, bold};
	if (!regular || !bold || !(F.config = FcConfigCreate()))
		return false;
	if (from_cache(F.config, path) && take_faces(FcConfigGetFonts(F.config, FcSetSystem), path))
		return true;
	/* from the files, in a fresh configuration (without what from_cache
	 * may have put in before it gave up) */
	drop_private();
	memset(F.face, 0, sizeof F.face);
	if (!(F.config = FcConfigCreate()))
		return false;
	for (int i = 0; i < 2; i++)
		if (!FcConfigAppFontAddFile(F.config, (const FcChar8 *)path[i]))
			goto fail;
	/* the system fonts: none (an empty set rather than the system's) */
	if (FcConfigBuildFonts(F.config) &&
	    take_faces(FcConfigGetFonts(F.config, FcSetApplication), path))
		return true;
fail:
	drop_private();
	memset(F.face, 0, sizeof F.face);
	return false;
}

static void setup(const char *regular, const char *bold, bool make_current)
{
	F.tried = true;
	if (load_private(regular, bold)) {
		/* pango's first font map calls FcInit (in a thread of its own):
		 * with a current configuration, that loads nothing */
		if (make_current && FcConfigSetCurrent(F.config))
			F.current = true;
		return;
	}
	if (make_current) {
		FcConfig *c = system_config();
		if (c && FcConfigSetCurrent(c))
			F.current = false;
		if (c)
			FcConfigDestroy(c); /* the current configuration holds its own reference */
	}
}

int bl_render_fonts_init(void)
{
	if (!F.tried)
		setup(BL_FONT_FILE, BL_FONT_BOLD_FILE, true);
	return F.config ? 0 : -1;
}

int bl_render_fonts_use(const char *regular, const char *bold)
{
	bl_render_cleanup(); /* and bl_fonts_free */
	setup(regular, bold, false);
	return F.config ? 0 : -1;
}

/* Does face f have every character of UTF-8 text s? No for text that is
 * not UTF-8. */
static bool covers(const struct face *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		FcChar32 ch;
		if (*p < 0x80) {
			if (!(f->ascii[*p >> 6] >> (*p & 63) & 1))
				return false;
			p++;
			continue;
		}
		int n = FcUtf8ToUcs4(p, &ch, (int)strnlen((const char *)p, 4));
		if (n <= 0 || !FcCharSetHasChar(f->chars, ch))
			return false;
		p += n;
	}
	return true;
}

static PangoFontMap *system_map(void)
{
	if (F.sys)
		return F.sys;
	PangoFontMap *fm = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
	if (!fm)
		return NULL;
	if (F.current) {
		/* fontconfig's current configuration is the private one */
		FcConfig *c = system_config();
		if (!c)
			c = FcInitLoadConfigAndFonts();
		pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(fm), c); /* takes a reference */
		if (c)
			FcConfigDestroy(c);
	}
	return F.sys = fm;
}

static void setup_once(void)
{
	if (!F.tried)
		setup(BL_FONT_FILE, BL_FONT_BOLD_FILE, false);
}

static bool text_covered(const char *text, bool bold)
{
	return !text || covers(&F.face[bold ? 1 : 0], text);
}

void bl_fonts_for_charts(const struct bl_chart *c, size_t n)
{
	setup_once();
	F.system_only = !F.config;
	for (size_t k = 0; k < n && !F.system_only; k++) {
		const struct bl_chart *ch = &c[k];
		bool ok = text_covered(ch->title, true) && text_covered(ch->subtitle, false) &&
			  text_covered(ch->metric_label, false) &&
			  text_covered(ch->scale.unit, false);
		for (size_t i = 0; ok && i < ch->ncats; i++)
			ok = text_covered(ch->cats[i], false);
		for (size_t i = 0; ok && i < ch->nseries; i++)
			ok = text_covered(ch->series[i], false);
		F.system_only = !ok;
	}
}

PangoFontMap *bl_fonts_map_for(const char *text, bool bold, bool *own)
{
	setup_once();
	*own = false;
	if (F.config && !F.system_only && text_covered(text, bold)) {
		if (!F.own) {
			F.own = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
			if (F.own)
				pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(F.own), F.config);
		}
		if (F.own) {
			*own = true;
			return F.own;
		}
	}
	return system_map();
}

/* pango 1.50 never releases a font map's configuration (its finalize
 * has no FcConfigDestroy); set_config(NULL) does. */
static void drop_map(PangoFontMap **fm)
{
	if (!*fm)
		return;
	pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(*fm), NULL);
	g_object_unref(*fm);
	*fm = NULL;
}

void bl_fonts_free(void)
{
	drop_map(&F.own);
	drop_map(&F.sys);
	drop_private();
	memset(F.face, 0, sizeof F.face);
	F.tried = false;
	F.system_only = false;
	/* F.current stays: the configuration fontconfig holds is still ours */
}
