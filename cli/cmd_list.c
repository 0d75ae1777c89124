/* cmd_list.c - `benchlog list`: the parser registry, a tool's variants
 * and metrics; and `benchlog schema`. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../parsers/benchlog.h"
#include "../parsers/parser.h"
#include "cli.h"

static void help(void)
{
	puts("usage: benchlog list [--json] [TOOL]\n\n"
	     "Lists the tool parsers, each with its one-line summary and the\n"
	     "variants of the tool's output it knows. With TOOL, that tool's\n"
	     "variants and every metric its results carry: the name (a '*' stands\n"
	     "for a family of names), the units it comes in, and what it measures.\n\n"
	     "options:\n"
	     "  --json       the same as JSON: an array of tools, each with name,\n"
	     "               summary, command, variants and metrics\n"
	     "  -h, --help   this help");
}

static void print_tool(const struct bl_parser *p, bool metrics)
{
	printf("%-14s %s\n", p->name, p->summary);
	for (const char *const *v = p->variants; v && *v; v++)
		printf("%-14s   - %s\n", "", *v);
	if (!metrics)
		return;
	printf("\nmetric                             units                  what it measures\n");
	for (const struct bl_metric_info *m = p->metrics; m && m->metric; m++) {
		char u[64];
		size_t j = 0;
		for (const char *s = m->units ? m->units : ""; *s && j + 3 < sizeof u; s++)
			j += (size_t)snprintf(u + j, sizeof u - j, *s == ' ' ? ", " : "%c", *s);
		u[j] = '\0';
		printf("%-34s %-22s %s\n", m->metric, u, m->about ? m->about : "");
	}
}

static json_t *strings(const char *const *v)
{
	json_t *a = json_array();
	for (; v && *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

/* "B/s ops/s" as ["B/s", "ops/s"]. */
static json_t *units(const char *s)
{
	json_t *a = json_array();
	while (s && *s) {
		size_t n = strcspn(s, " ");
		if (n)
			json_array_append_new(a, json_stringn(s, n));
		s += n + (s[n] == ' ');
	}
	return a;
}

static json_t *tool_json(const struct bl_parser *p)
{
	json_t *ms = json_array();
	for (const struct bl_metric_info *m = p->metrics; m && m->metric; m++)
		json_array_append_new(ms, json_pack("{s:s, s:s?, s:o, s:s?}", "metric", m->metric,
						    "title", m->title, "units", units(m->units),
						    "about", m->about));
	return json_pack("{s:s, s:s, s:s?, s:o, s:o}", "name", p->name, "summary", p->summary,
			 "command", p->command_word, "variants", strings(p->variants), "metrics",
			 ms);
}

static int print_json(const struct bl_parser *only)
{
	json_t *a = json_array();
	for (size_t i = 0; bl_parsers[i]; i++)
		if (!only || bl_parsers[i] == only)
			json_array_append_new(a, tool_json(bl_parsers[i]));
	int rc = json_dumpf(a, stdout, JSON_INDENT(2)) == 0 && putchar('\n') != EOF;
	json_decref(a);
	return rc && fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool as_json = false;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case 'J': as_json = true; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("list", ch, argv);
		}
	}
	if (argc - optind > 1) {
		cli_error("list: one TOOL at most ('%s' is one too many)", argv[optind + 1]);
		return EXIT_USAGE;
	}
	const struct bl_parser *only = NULL;
	if (optind < argc && !(only = bl_parser_find(argv[optind]))) {
		cli_error("list: no tool '%s'; the tools are:", argv[optind]);
		for (size_t i = 0; bl_parsers[i]; i++)
			fprintf(stderr, "  %s\n", bl_parsers[i]->name);
		return EXIT_USAGE;
	}
	if (as_json)
		return print_json(only);
	for (size_t i = 0; bl_parsers[i]; i++)
		if (!only || bl_parsers[i] == only)
			print_tool(bl_parsers[i], only != NULL);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}

int cmd_schema(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		puts("usage: benchlog schema\n\n"
		     "Prints the JSON Schema (2020-12) that every benchlog/1 document\n"
		     "follows; the same file is schema/benchlog.schema.json.");
		return EXIT_OK;
	}
	if (argc > 1) {
		cli_error("schema: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	fputs(bl_schema_text, stdout);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
}
