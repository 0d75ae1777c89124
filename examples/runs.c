/* runs.c - prints the runs benchlog reads in a post, one line each, and
 * their measured numbers: an example of the library's interface
 * (include/benchlog.h).
 *
 *   cc runs.c $(pkg-config --cflags --libs benchlog) -o runs
 *   ./runs post.txt */
#include <benchlog.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void print_run(const struct bl_documents *d, size_t doc, size_t run)
{
	const char *label = bl_documents_run_label(d, doc, run);
	const char *command = bl_documents_run_command(d, doc, run);
	printf("line %zu: %s", bl_documents_run_line(d, doc, run),
	       bl_documents_run_tool(d, doc, run));
	if (label)
		printf(" \"%s\"", label);
	if (command)
		printf(" (%s)", command);
	putchar('\n');
	struct bl_result_value v;
	for (size_t i = 0; bl_documents_result(d, doc, run, i, &v); i++) {
		if (isnan(v.value))
			printf("  %s: none%s\n", v.metric,
			       v.censored ? " (too fast to measure)" : "");
		else
			printf("  %s: %.6g %s\n", v.metric, v.value, v.unit);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: runs FILE\n");
		return 2;
	}
	struct bl_documents *d = bl_documents_read_file(argv[1]);
	if (!d) {
		fprintf(stderr, "runs: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	size_t n = 0;
	for (size_t doc = 0; doc < bl_documents_count(d); doc++) {
		for (size_t run = 0; run < bl_documents_runs(d, doc); run++, n++)
			print_run(d, doc, run);
		struct bl_diagnostic g;
		for (size_t i = 0; bl_documents_diagnostic(d, doc, i, &g); i++)
			fprintf(stderr, "%s:%zu: %s: %s [%s]\n", argv[1], g.line, g.level,
				g.message, g.code);
	}
	printf("%zu runs (benchlog %s)\n", n, bl_library_version());
	bl_documents_free(d);
	return 0;
}
