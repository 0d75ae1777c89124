/* render_opts.h - options shared by `benchlog chart` and `benchlog table`. */
#ifndef BL_CLI_RENDER_OPTS_H
#define BL_CLI_RENDER_OPTS_H

#include "../render/render.h"

enum {
	OPT_TOOL = 0x100,
	OPT_METRIC,
	OPT_GROUP_BY,
	OPT_WHERE,
	OPT_SORT,
	OPT_UNITS,
	OPT_TITLE,
	OPT_LOG,
	OPT_ALL,
	OPT_FORMAT,
	OPT_HORIZONTAL,
	OPT_VERTICAL,
	OPT_WIDTH,
	OPT_HEIGHT,
	OPT_THEME,
	OPT_MARKDOWN,
	OPT_CSV,
	OPT_MODEL,
	OPT_BASELINE,
};

#define CLI_SELECT_LONGOPTS                                                                        \
	{"tool", required_argument, NULL, OPT_TOOL},                                               \
		{"metric", required_argument, NULL, OPT_METRIC},                                   \
		{"group-by", required_argument, NULL, OPT_GROUP_BY},                               \
		{"where", required_argument, NULL, OPT_WHERE},                                     \
		{"sort", required_argument, NULL, OPT_SORT},                                       \
		{"units", required_argument, NULL, OPT_UNITS},                                     \
		{"title", required_argument, NULL, OPT_TITLE},                                     \
	{                                                                                          \
		"baseline", required_argument, NULL, OPT_BASELINE                                  \
	}

extern const char cli_select_help[];
/* Why nothing was charted, on stderr: no runs at all, no run of --tool
 * (and the tools there are), no result --metric names (and the metrics
 * there are), or the options filtered everything out. */
void cli_explain_empty(json_t *docs, const struct bl_chart_opts *o, const char *cmd);
int cli_select_option(int ch, const char *arg, struct bl_chart_opts *o);

/* Renders charts [0, n) in format fmt into path ('-': standard output),
 * atomically; says why on stderr and returns -1 on failure. */
int cli_render_file(const struct bl_chart *charts, size_t n, enum bl_format fmt,
		    const struct bl_render_opts *ro, const char *path);

#endif
