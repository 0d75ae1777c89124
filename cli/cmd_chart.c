/* cmd_chart.c - `benchlog chart`: posts or documents to PNG, SVG or PDF. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../render/render.h"
#include "cli.h"
#include "render_opts.h"

static void help(void)
{
	printf("usage: benchlog chart [options] INPUT... -o FILE.{png,svg,pdf}\n"
	       "       benchlog chart --all [options] INPUT... -o DIR/\n\n"
	       "Draws the comparisons the inputs are about: dd throughput per label with\n"
	       "write and read side by side, time per command, bonnie/bonnie++ rates per\n"
	       "test, iozone throughput by record size, diskinfo seek times and transfer\n"
	       "rates, zpool iostat bandwidth per vdev. INPUT is a post (parsed first) or\n"
	       "benchlog JSON ('-' is stdin). Repeats become one bar at the median with a\n"
	       "min-max whisker; censored values are hatched lower bounds.\n\n"
	       "options:\n"
	       "  -o, --output PATH    the chart file ('-': standard output); its extension\n"
	       "                       picks the format. PNG and SVG hold the first chart,\n"
	       "                       PDF one page per chart\n"
	       "  --all                one file per chart in the directory -o names\n"
	       "  --format FMT         png, svg or pdf (default: the extension; png for --all)\n"
	       "%s"
	       "  --horizontal         horizontal bars (default: when labels are long)\n"
	       "  --vertical           vertical bars\n"
	       "  --width PX, --height PX   canvas size (default 960 wide, height to fit)\n"
	       "  --theme NAME         light (default) or dark\n"
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

int cmd_chart(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"all", no_argument, NULL, OPT_ALL},
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
	struct bl_chart_opts o = {0};
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	const char *output = NULL, *format = NULL;
	bool all = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		int r = cli_select_option(ch, optarg, &o);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (ch) {
		case 'o': output = optarg; break;
		case OPT_ALL: all = true; break;
		case OPT_FORMAT: format = optarg; break;
		case OPT_HORIZONTAL: ro.orient = BL_ORIENT_HORIZONTAL; break;
		case OPT_VERTICAL: ro.orient = BL_ORIENT_VERTICAL; break;
		case OPT_WIDTH:
			if (!parse_px(optarg, &ro.width)) {
				cli_error("--width: '%s' is not a number of pixels (100-10000)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_HEIGHT:
			if (!parse_px(optarg, &ro.height)) {
				cli_error("--height: '%s' is not a number of pixels (100-10000)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_THEME:
			if (!(ro.theme = bl_theme_get(optarg))) {
				cli_error("--theme: '%s' is not light or dark", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (!output) {
		cli_error("chart: -o FILE is required (its extension picks png, svg or pdf)");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		cli_error("chart: no INPUT (use '-' for standard input)");
		return EXIT_USAGE;
	}
	/* --format wins; else the extension of -o (not for a directory) */
	int fmt;
	if (format || all) {
		char probe[16];
		snprintf(probe, sizeof probe, ".%s", format ? format : "png");
		fmt = strlen(probe) < 6 ? bl_format_from_path(probe) : -1;
		if (fmt < 0) {
			cli_error("--format: '%s' is not png, svg or pdf", format);
			return EXIT_USAGE;
		}
	} else if ((fmt = bl_format_from_path(output)) < 0) {
		cli_error("chart: cannot tell the format of '%s': name it .png, .svg or .pdf, "
			  "or give --format", output);
		return EXIT_USAGE;
	}
	if (all && strcmp(output, "-") == 0) {
		cli_error("chart: --all writes files into a directory: -o DIR/");
		return EXIT_USAGE;
	}

	json_t *docs = cli_docs_new();
	int rc = EXIT_OK;
	if (!docs)
		return EXIT_DATA;
	if (cli_load_docs(argv + optind, argc - optind, docs) < 0)
		rc = EXIT_DATA;
	struct bl_charts charts;
	char err[160];
	if (bl_chart_build(docs, &o, &charts, err, sizeof err) < 0) {
		cli_error("chart: %s", err);
		cli_docs_free(docs);
		return o.where && strcmp(err, "out of memory") != 0 ? EXIT_USAGE : EXIT_DATA;
	}
	if (charts.n == 0) {
		cli_error("chart: no results to chart in the input%s",
			  o.tool || o.metric || o.where ? " (with these options)" : "");
		rc = EXIT_DATA;
	} else if (all) {
		mkdir(output, 0755); /* an existing directory is fine */
		static const char *const ext[] = {"png", "svg", "pdf"};
		for (size_t i = 0; i < charts.n; i++) {
			size_t n = strlen(output) + strlen(charts.v[i].id) + 8;
			char *path = malloc(n);
			if (!path) {
				rc = EXIT_DATA;
				break;
			}
			snprintf(path, n, "%s%s%s.%s", output,
				 output[strlen(output) - 1] == '/' ? "" : "/", charts.v[i].id, ext[fmt]);
			if (cli_render_file(&charts.v[i], 1, (enum bl_format)fmt, &ro, path) < 0)
				rc = EXIT_DATA;
			else
				printf("%s\n", path);
			free(path);
		}
	} else {
		if (cli_render_file(charts.v, charts.n, (enum bl_format)fmt, &ro, output) < 0)
			rc = EXIT_DATA;
		else if (charts.n > 1 && fmt != BL_FORMAT_PDF)
			fprintf(stderr, "benchlog: %zu charts; %s holds the first (%s); --all writes each, "
					"a .pdf holds all\n",
				charts.n, output, charts.v[0].id);
	}
	bl_charts_free(&charts);
	cli_docs_free(docs);
	return rc;
}
