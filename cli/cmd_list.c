/* cmd_list.c - `benchlog list`: the parser registry, and `benchlog schema`. */
#include <stdio.h>
#include <string.h>

#include "../parsers/benchlog.h"
#include "cli.h"

int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		puts("usage: benchlog list\n\n"
		     "Lists the tool parsers, each with its one-line summary and the\n"
		     "variants of the tool's output it knows.");
		return EXIT_OK;
	}
	if (argc > 1) {
		cli_error("list: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	for (size_t i = 0; bl_parsers[i]; i++) {
		const struct bl_parser *p = bl_parsers[i];
		printf("%-14s %s\n", p->name, p->summary);
		for (const char *const *v = p->variants; v && *v; v++)
			printf("%-14s   - %s\n", "", *v);
	}
	return EXIT_OK;
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
