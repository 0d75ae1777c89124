/* cmd_table.c - `benchlog table`: the chart comparisons as text. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../render/render.h"
#include "cli.h"
#include "render_opts.h"

static void help(void)
{
	printf("usage: benchlog table [options] INPUT...\n\n"
	       "Prints the comparisons `benchlog chart` draws as aligned tables: one\n"
	       "row per label, one column per series, repeats as median (min-max, n).\n"
	       "INPUT is a post or benchlog JSON ('-' is stdin).\n\n"
	       "options:\n"
	       "  -o, --output FILE    write to FILE (atomically)\n"
	       "  --markdown           Markdown tables (for forums and issues)\n"
	       "  --csv                tidy CSV: one row per result (source, tool, label,\n"
	       "                       command, metric, value, unit, flags, coordinates)\n"
	       "%s"
	       "  -h, --help           this help\n\n"
	       "exit status: 0 ok, 1 unreadable input or nothing to show, 2 usage.\n",
	       cli_select_help);
}

int cmd_table(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"markdown", no_argument, NULL, OPT_MARKDOWN},
		{"csv", no_argument, NULL, OPT_CSV},
		{"help", no_argument, NULL, 'h'},
		CLI_SELECT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct bl_chart_opts o = {0};
	const char *output = NULL;
	bool markdown = false, csv = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		int r = cli_select_option(ch, optarg, &o);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (ch) {
		case 'o': output = optarg; break;
		case OPT_MARKDOWN: markdown = true; break;
		case OPT_CSV: csv = true; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("table", ch, argv);
		}
	}
	if (markdown && csv) {
		cli_error("table: --markdown and --csv exclude each other");
		return EXIT_USAGE;
	}
	char *stdin_only[] = {"-"};
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;

	json_t *docs = cli_docs_new();
	if (!docs)
		return EXIT_DATA;
	int rc = cli_load_docs(files, nfiles, docs) < 0 ? EXIT_DATA : EXIT_OK;
	struct cli_out out;
	if (cli_out_open(&out, output) < 0) {
		cli_docs_free(docs);
		return EXIT_DATA;
	}
	int bad = 0;
	char err[1024];
	if (csv) {
		/* a bad --where is a usage error, told apart from a write error */
		json_t *none = json_array();
		struct bl_charts probe;
		int ok = bl_chart_build(none, &o, &probe, err, sizeof err);
		json_decref(none);
		if (ok < 0) {
			cli_error("table: %s", err);
			cli_out_abort(&out);
			cli_docs_free(docs);
			return EXIT_USAGE;
		}
		bl_charts_free(&probe);
		bad = bl_table_csv(docs, &o, cli_write_out, out.f) < 0;
	} else {
		struct bl_charts charts;
		if (bl_chart_build(docs, &o, &charts, err, sizeof err) < 0) {
			cli_error("table: %s", err);
			cli_out_abort(&out);
			cli_docs_free(docs);
			return EXIT_USAGE;
		}
		if (charts.n == 0) {
			cli_explain_empty(docs, &o, "table");
			rc = EXIT_DATA;
		}
		for (size_t i = 0; i < charts.n && !bad; i++) {
			if (i && cli_write_out(out.f, (const unsigned char *)"\n", 1) < 0)
				bad = 1;
			if (!bad && bl_table_chart(&charts.v[i],
						   markdown ? BL_TABLE_MARKDOWN : BL_TABLE_TEXT,
						   cli_write_out, out.f) < 0)
				bad = 1;
		}
		bl_charts_free(&charts);
	}
	cli_docs_free(docs);
	if (bad) {
		cli_error("%s: write error", output ? output : "standard output");
		cli_out_abort(&out);
		return EXIT_DATA;
	}
	if (cli_out_commit(&out) < 0)
		return EXIT_DATA;
	return rc;
}
