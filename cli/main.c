/* main.c - the benchlog command: a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include "../parsers/benchlog.h"
#include "../render/render.h"
#include "cli.h"
#include "json_pool.h"

struct subcommand {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{"parse", "find benchmark runs in posts and write benchlog/1 JSON", cmd_parse},
	{"chart", "draw comparison charts (PNG, SVG, PDF) from posts or documents", cmd_chart},
	{"table", "print the same comparisons as a terminal, Markdown or CSV table", cmd_table},
	{"report", "write one HTML page: each post beside what was read from it", cmd_report},
	{"list", "list the tool parsers; with TOOL, its variants and metrics", cmd_list},
	{"schema", "print the JSON Schema of benchlog/1 documents", cmd_schema},
	{"replay", "run the posts' commands again here, safely, and compare", cmd_replay},
	{NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fputs("usage: benchlog <command> [options] [FILE...]\n"
	      "       benchlog --version | --help\n\n"
	      "benchlog reads storage-benchmark output pasted into mails, posts and\n"
	      "archives (dd, time, ...), turns it into normalized JSON, and draws\n"
	      "comparison charts and tables.\n\n"
	      "commands:\n",
	      f);
	for (const struct subcommand *c = subcommands; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fputs("\n'benchlog <command> --help' describes a command.\n"
	      "exit status: 0 ok, 1 input that could not be read or parsed, 2 usage.\n",
	      f);
}

int main(int argc, char **argv)
{
	(void)json_pool_use();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("benchlog %s (schema %s)\n", BL_VERSION, BL_SCHEMA_ID);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	for (const struct subcommand *c = subcommands; c->name; c++) {
		if (strcmp(argv[1], c->name) == 0) {
			int rc = c->run(argc - 1, argv + 1);
			bl_cleanup();
			bl_render_cleanup();
			return rc;
		}
	}
	cli_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
