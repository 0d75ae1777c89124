/* draw.c - the program's drawing, loaded when it first draws
 * (render/draw_module.h): from benchlog-draw.so beside the program (the
 * build tree), in ../lib/benchlog beside its directory (an installed
 * tree, wherever it was moved), or in BL_MODULE_DIR (where `make install`
 * put it). Only build/benchlog links this file; it stands in for the
 * drawing code that the library archive holds. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "../../render/draw_module.h"

#ifndef BL_MODULE_DIR
#define BL_MODULE_DIR "/usr/local/lib/benchlog"
#endif

static const struct bl_draw_module *module;
static bool tried;
static char why[4 * PATH_MAX]; /* longer than any message below */

/* The table in the module at path, or NULL with why set. */
static const struct bl_draw_module *open_module(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, sizeof why, "%s", dlerror());
		return NULL;
	}
	const struct bl_draw_module *m = dlsym(h, BL_DRAW_MODULE_SYMBOL);
	if (!m || strcmp(m->version, BL_VERSION) != 0 || m->abi != BL_DRAW_ABI ||
	    m->chart_size != sizeof(struct bl_chart) ||
	    m->opts_size != sizeof(struct bl_render_opts)) {
		snprintf(why, sizeof why, "%s: %s", path,
			 m ? "built for another version of benchlog" : "not a drawing module");
		dlclose(h);
		return NULL;
	}
	return m;
}

/* The program's file, its links followed: from /proc, else (no /proc
 * mounted) the name it was started by, resolved from the directory it
 * was started in (the program never changes it before drawing). */
static bool program_path(char exe[PATH_MAX])
{
	ssize_t len = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	if (len > 0) {
		exe[len] = '\0';
		return true;
	}
	const char *name = (const char *)getauxval(AT_EXECFN);
	return name && realpath(name, exe);
}

/* The module, loaded on the first call: the first of the places that
 * holds one. NULL with why set. */
static const struct bl_draw_module *draw_module(void)
{
	if (tried)
		return module;
	tried = true;
	char exe[PATH_MAX], dirs[3][PATH_MAX + 32], path[PATH_MAX + 64];
	const int dir_max = PATH_MAX + 31; /* a dir's length at most */
	size_t n = 0;
	if (program_path(exe)) {
		const char *dir = dirname(exe);
		snprintf(dirs[n++], sizeof dirs[0], "%s", dir);
		snprintf(dirs[n++], sizeof dirs[0], "%s/../lib/benchlog", dir);
	}
	snprintf(dirs[n++], sizeof dirs[0], "%s", BL_MODULE_DIR);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%.*s/%s", dir_max, dirs[i], BL_DRAW_MODULE_FILE);
		if (access(path, F_OK) == 0)
			return module = open_module(path);
	}
	snprintf(why, sizeof why, "%s is in none of %s%s%s%s%s", BL_DRAW_MODULE_FILE, dirs[0],
		 n > 1 ? ", " : "", n > 1 ? dirs[1] : "", n > 2 ? ", " : "", n > 2 ? dirs[2] : "");
	return NULL;
}

const char *bl_render_unavailable(void)
{
	return draw_module() ? NULL : why;
}

int bl_render(const struct bl_chart *charts, size_t n, enum bl_format fmt,
	      const struct bl_render_opts *o, bl_write_fn write, void *ctx, char *err,
	      size_t errlen)
{
	if (!draw_module()) {
		snprintf(err, errlen, "cannot draw charts: %s", why);
		return -1;
	}
	return module->render(charts, n, fmt, o, write, ctx, err, errlen);
}

int bl_render_svg_with(const struct bl_chart *c, const struct bl_render_opts *o,
		       const struct bl_svg_opts *so, bl_write_fn write, void *ctx)
{
	return draw_module() ? module->svg_with(c, o, so, write, ctx) : -1;
}

int bl_render_fonts_init(void)
{
	return draw_module() ? module->fonts_init() : -1;
}

void bl_render_cleanup(void)
{
	if (module) /* never loaded for it */
		module->cleanup();
}
