/* cmd_chart.c - `benchlog chart`: posts or documents to PNG, SVG or PDF. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../parsers/parser.h"
#include "../render/render.h"
#include "cli.h"
#include "render_opts.h"

/* The charts each tool's descriptor names (parsers/views.h), a line a
 * tool: "  dd: dd throughput". */
static void tool_charts(void)
{
	printf("charts by tool (others: every B/s result per label):\n");
	for (size_t i = 0; bl_parsers[i]; i++) {
		const struct bl_chart_view *v = bl_parsers[i]->views;
		if (!v || !v->name)
			continue;
		int col = printf("  %s:", bl_parsers[i]->name);
		for (size_t k = 0; v[k].name; k++) {
			bool dup = false;
			for (size_t j = 0; j < k && !dup; j++)
				dup = strcmp(v[j].title, v[k].title) == 0;
			if (dup)
				continue;
			if (k)
				col += printf(",");
			if (col + 1 + (int)strlen(v[k].title) > 78)
				col = printf("\n   ") - 1;
			col += printf(" %s", v[k].title);
		}
		printf("\n");
	}
	printf("\n");
}

static void help(void)
{
	printf("usage: benchlog chart [options] INPUT... -o FILE.{png,svg,pdf}\n"
	       "       benchlog chart --all [options] INPUT... -o DIR/\n\n"
	       "Draws the comparisons the inputs are about, the charts each tool's posts\n"
	       "are read for (below). INPUT is a post (parsed first) or benchlog JSON\n"
	       "('-' is stdin). Repeats become one bar at the median with a min-max\n"
	       "whisker; censored values are hatched lower bounds.\n\n");
	tool_charts();
	printf("options:\n"
	       "  -o, --output PATH    the chart file ('-': standard output); its extension\n"
	       "                       picks the format. PNG, SVG and .vl.json (Vega-Lite)\n"
	       "                       hold the first chart, PDF one page per chart\n"
	       "  --all                one file per chart in the directory -o names\n"
	       "  --format FMT         png, svg, pdf or vl.json (default: the extension; png\n"
	       "                       for --all)\n"
	       "  --model              print the charts as JSON instead of drawing them (to -o\n"
	       "                       or standard output): each chart's bars, series, colours,\n"
	       "                       unit and whether lower is better\n"
	       "%s"
	       "  --log                logarithmic value axis (default: when the values of a\n"
	       "                       chart span more than two orders of magnitude)\n"
	       "  --horizontal         horizontal bars (default: when labels are long)\n"
	       "  --vertical           vertical bars\n"
	       "  --width PX, --height PX   canvas size (default 960 wide, height to fit)\n"
	       "  --theme NAME         light (default) or dark\n"
	       "  -q, --quiet          print no file names and no notes on standard error\n"
	       "  -h, --help           this help\n\n"
	       "exit status: 0 ok, 1 unreadable input or nothing to chart, 2 usage.\n",
	       cli_select_help);
}

static bool parse_px(const char *arg, double *v)
{
	char *end;
	errno = 0;
	long x = strtol(arg, &end, 10);
	if (errno || *end || x < 100 || x > 10000)
		return false;
	*v = (double)x;
	return true;
}

/* What `benchlog chart` was asked for. */
struct chart_args {
	struct bl_chart_opts o;
	struct bl_render_opts ro;
	const char *output, *format; /* NULL when not given */
	bool all, model, quiet;
};

/* Beside enum bl_format: a Vega-Lite specification of the chart's data. */
enum { FORMAT_VEGA_LITE = BL_FORMAT_PDF + 1 };
static const char *const format_ext[] = {"png", "svg", "pdf", "vl.json"};

/* The format a file name or --format word names, or -1. */
static int format_of(const char *name)
{
	size_t n = strlen(name);
	if (n >= 7 && strcasecmp(name + n - 7, "vl.json") == 0)
		return FORMAT_VEGA_LITE;
	return bl_format_from_path(name);
}

/* The options into a, optind left on the first INPUT. Returns -1 to go
 * on, or the exit status: after --help, or a bad option (reported). */
static int read_options(int argc, char **argv, struct chart_args *a)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"all", no_argument, NULL, OPT_ALL},
		{"model", no_argument, NULL, OPT_MODEL},
		{"log", no_argument, NULL, OPT_LOG},
		{"quiet", no_argument, NULL, 'q'},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"horizontal", no_argument, NULL, OPT_HORIZONTAL},
		{"vertical", no_argument, NULL, OPT_VERTICAL},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"height", required_argument, NULL, OPT_HEIGHT},
		{"theme", required_argument, NULL, OPT_THEME},
		{"help", no_argument, NULL, 'h'},
		CLI_SELECT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
		int r = cli_select_option(ch, optarg, &a->o);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (ch) {
		case 'o': a->output = optarg; break;
		case OPT_ALL: a->all = true; break;
		case OPT_MODEL: a->model = true; break;
		case 'q': a->quiet = true; break;
		case OPT_FORMAT: a->format = optarg; break;
		case OPT_HORIZONTAL: a->ro.orient = BL_ORIENT_HORIZONTAL; break;
		case OPT_VERTICAL: a->ro.orient = BL_ORIENT_VERTICAL; break;
		case OPT_WIDTH:
			if (!parse_px(optarg, &a->ro.width)) {
				cli_error("--width: '%s' is not a number of pixels (100-10000)",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_HEIGHT:
			if (!parse_px(optarg, &a->ro.height)) {
				cli_error("--height: '%s' is not a number of pixels (100-10000)",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_THEME:
			if (!(a->ro.theme = bl_theme_get(optarg))) {
				cli_error("--theme: '%s' is not light or dark", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("chart", ch, argv);
		}
	}
	return -1;
}

/* The format to write: --format wins, else the extension of -o (png for
 * --all: -o is a directory), once -o and an INPUT are known to be there.
 * Returns it, or -1 on a usage error (reported). */
static int output_format(const struct chart_args *a, bool has_input)
{
	if (!has_input) {
		cli_error("chart: no INPUT (use '-' for standard input)");
		return -1;
	}
	if (a->model && !a->all)
		return 0; /* JSON, to -o or standard output */
	if (!a->output) {
		cli_error("chart: -o FILE is required (its extension picks png, svg, pdf or "
			  "vl.json)");
		return -1;
	}
	int fmt;
	if (a->format || a->all) {
		char probe[16];
		snprintf(probe, sizeof probe, ".%s", a->format ? a->format : "png");
		fmt = strlen(probe) < 10 ? format_of(probe) : -1;
		if (fmt < 0) {
			cli_error("--format: '%s' is not png, svg, pdf or vl.json", a->format);
			return -1;
		}
	} else if ((fmt = format_of(a->output)) < 0) {
		cli_error("chart: cannot tell the format of '%s': name it .png, .svg, .pdf or "
			  ".vl.json, or give --format",
			  a->output);
		return -1;
	}
	if (a->all && strcmp(a->output, "-") == 0) {
		cli_error("chart: --all writes files into a directory: -o DIR/");
		return -1;
	}
	return fmt;
}

/* A JSON value into path ('-' or NULL: standard output), atomically, and
 * dropped. Returns 0, or -1 when it was not written (reported). */
static int write_json(json_t *j, const char *path)
{
	struct cli_out out;
	if (!j) {
		cli_error("chart: out of memory");
		return -1;
	}
	int rc = cli_out_open(&out, path) < 0 ? -1 : 0;
	if (rc == 0 && (json_dumpf(j, out.f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) < 0 ||
			fputc('\n', out.f) == EOF)) {
		cli_out_abort(&out);
		rc = -1;
	} else if (rc == 0) {
		rc = cli_out_commit(&out);
	}
	json_decref(j);
	return rc;
}

/* Charts [0, n) in format fmt into path: drawn, or as Vega-Lite. */
static int write_file(const struct bl_chart *charts, size_t n, int fmt,
		      const struct bl_render_opts *ro, const char *path)
{
	if (fmt == FORMAT_VEGA_LITE)
		return write_json(bl_chart_vega_lite(&charts[0], ro->theme), path);
	return cli_render_file(charts, n, (enum bl_format)fmt, ro, path);
}

/* --all: each chart in a file of its own in `dir` ("out/dd-throughput.png"),
 * whose path is printed. Returns 0, or -1 when one was not written. */
static int write_each(const struct bl_charts *charts, int fmt, bool as_model, bool quiet,
		      const struct bl_render_opts *ro, const char *dir)
{
	int rc = 0;
	mkdir(dir, 0755); /* an existing directory is fine */
	for (size_t i = 0; i < charts->n; i++) {
		size_t n = strlen(dir) + strlen(charts->v[i].id) + 12;
		char *path = malloc(n);
		if (!path) {
			rc = -1;
			break;
		}
		snprintf(path, n, "%s%s%s.%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			 charts->v[i].id, as_model ? "json" : format_ext[fmt]);
		int w = as_model ? write_json(bl_charts_model(&charts->v[i], 1, ro->theme), path)
				 : write_file(&charts->v[i], 1, fmt, ro, path);
		if (w < 0)
			rc = -1;
		else if (!quiet)
			printf("%s\n", path);
		free(path);
	}
	return rc;
}

/* The charts in one file: a PDF holds them all, a PNG or SVG the first
 * (which stderr says when there are more). Returns 0, or -1 when it was
 * not written. */
static int write_one(const struct bl_charts *charts, int fmt, bool quiet,
		     const struct bl_render_opts *ro, const char *path)
{
	if (write_file(charts->v, charts->n, fmt, ro, path) < 0)
		return -1;
	if (charts->n > 1 && fmt != BL_FORMAT_PDF && !quiet)
		fprintf(stderr,
			"benchlog: %zu charts; %s holds the first (%s); --all writes each, "
			"a .pdf holds all\n",
			charts->n, path, charts->v[0].id);
	return 0;
}

int cmd_chart(int argc, char **argv)
{
	struct chart_args a = {.ro = {.width = 960, .theme = bl_theme_get("light")}};
	int r = read_options(argc, argv, &a);
	if (r >= 0)
		return r;
	int fmt = output_format(&a, optind < argc);
	if (fmt < 0)
		return EXIT_USAGE;

	json_t *docs = cli_docs_new();
	int rc = EXIT_OK;
	if (!docs)
		return EXIT_DATA;
	if (cli_load_docs(argv + optind, argc - optind, docs) < 0)
		rc = EXIT_DATA;
	struct bl_charts charts;
	char err[1024];
	if (bl_chart_build(docs, &a.o, &charts, err, sizeof err) < 0) {
		cli_error("chart: %s", err);
		cli_docs_free(docs);
		return a.o.where && strcmp(err, "out of memory") != 0 ? EXIT_USAGE : EXIT_DATA;
	}
	if (charts.n == 0)
		cli_explain_empty(docs, &a.o, "chart");
	/* the charts keep nothing of the documents: their blocks go before
	 * drawing, which takes as much again on a long post */
	cli_docs_free(docs);
	if (charts.n == 0) {
		rc = EXIT_DATA;
	} else if (a.all) {
		if (write_each(&charts, fmt, a.model, a.quiet, &a.ro, a.output) < 0)
			rc = EXIT_DATA;
	} else if (a.model) {
		if (write_json(bl_charts_model(charts.v, charts.n, a.ro.theme), a.output) < 0)
			rc = EXIT_DATA;
	} else if (write_one(&charts, fmt, a.quiet, &a.ro, a.output) < 0) {
		rc = EXIT_DATA;
	}
	bl_charts_free(&charts);
	return rc;
}
