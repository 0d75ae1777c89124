/* cmd_report.c - `benchlog report`: posts and what was read from them,
 * side by side, in one self-contained HTML page. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/buf.h"
#include "../base/sites.h"
#include "../parsers/benchlog.h"
#include "../render/report.h"
#include "cli.h"
#include "render_opts.h"

static void help(void)
{
	printf("usage: benchlog report [options] POST... -o report.html\n\n"
	       "Writes one HTML page that stands alone (no network, no external script\n"
	       "or font): the decoded text of each message with every run highlighted\n"
	       "and linked to its row, the diagnostics beside their lines, the system\n"
	       "context, the comparisons as sortable tables and as SVG charts whose bars\n"
	       "link to their runs. POST is a post, a mail, an mbox or an HTML page ('-'\n"
	       "is stdin); benchlog JSON holds no text to show, so it is refused.\n\n"
	       "options:\n"
	       "  -o, --output FILE    write to FILE (atomically; default: standard output)\n"
	       "  --title TEXT         the page's title\n"
	       "  --theme light|dark   the charts' colours\n"
	       "  -q, --quiet          no summary on stderr\n"
	       "%s"
	       "  -h, --help           this help\n\n"
	       "The --tool, --metric, ... options choose the charts, as for `benchlog chart`.\n\n"
	       "exit status: 0 ok, 1 an unreadable input, 2 usage.\n",
	       cli_select_help);
}

struct adding {
	struct bl_report *r;
	const char *path;
	int failed;
};

static int each_message(struct bl_message *m, json_t *doc, void *vctx)
{
	struct adding *a = vctx;
	if (bl_report_add(a->r, m, a->path, doc) < 0) {
		a->failed = 1;
		return -1;
	}
	return 0;
}

static int add_input(struct bl_report *r, const char *file)
{
	const char *path = strcmp(file, "-") == 0 ? "<stdin>" : file;
	struct adding a = {r, path, 0};
	bool is_docs;
	int rc = cli_each_message(file, path, each_message, &a, &is_docs);
	if (is_docs)
		cli_error("report: %s is benchlog JSON, which keeps no text to show: give the "
			  "post it was parsed from",
			  path);
	return rc;
}

static int write_page(struct bl_report *r, const struct bl_report_opts *ro, const char *output)
{
	char err[4400]; /* a module's path (cli/lazy/draw.c) */
	if (bl_report_compare(r, ro, err, sizeof err) < 0) {
		cli_error("report: %s", err);
		return -1;
	}
	/* the charts keep nothing of the documents: their blocks go before
	 * the charts are drawn, which takes as much again on a long post */
	cli_docs_free(NULL);
	struct cli_out out;
	if (cli_out_open(&out, output) < 0)
		return -1;
	if (bl_report_write(r, ro, cli_write_out, out.f, err, sizeof err) < 0) {
		cli_error("report: %s", err);
		cli_out_abort(&out);
		return -1;
	}
	return cli_out_commit(&out);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"theme", required_argument, NULL, OPT_THEME},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		CLI_SELECT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct bl_chart_opts co = {0};
	struct bl_report_opts ro = {.charts = &co};
	const char *output = NULL;
	bool quiet = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
		if (ch == OPT_TITLE) {
			ro.title = optarg;
			continue;
		}
		int r = cli_select_option(ch, optarg, &co);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (ch) {
		case 'o': output = optarg; break;
		case 'q': quiet = true; break;
		case OPT_THEME:
			if (!(ro.theme = bl_theme_get(optarg))) {
				cli_error("report: unknown theme '%s' (light, dark)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("report", ch, argv);
		}
	}
	char *stdin_only[] = {"-"};
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;
	/* jansson takes from the documents' blocks from here on (docs.c):
	 * nothing made before may be freed through them */
	cli_docs_arena(false);
#ifdef M_MMAP_THRESHOLD
	/* a large buffer mapped, and given back when freed: a post read
	 * twice, or read again whole, lets go of what its first reading took
	 * (glibc would raise its threshold past those buffers, and keep the
	 * next ones in a heap they fragment) */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	struct bl_report *r = bl_report_new();
	if (!r) {
		cli_error("report: out of memory");
		return EXIT_DATA;
	}
	int failed = 0;
	for (int f = 0; f < nfiles; f++)
		if (add_input(r, files[f]) < 0)
			failed++;
	bl_sites_drop_spare(); /* no more reading */
	int rc = failed ? EXIT_DATA : EXIT_OK;
	if (failed < nfiles) { /* no input read: no page */
		if (write_page(r, &ro, output) < 0)
			rc = EXIT_DATA;
		else if (!quiet && output && strcmp(output, "-") != 0)
			fprintf(stderr, "benchlog: report: %zu run%s from %d input%s in %s\n",
				bl_report_runs(r), bl_report_runs(r) == 1 ? "" : "s", nfiles,
				nfiles == 1 ? "" : "s", output);
	}
	bl_report_free(r);
	cli_docs_free(NULL); /* the documents' blocks */
	return rc;
}
