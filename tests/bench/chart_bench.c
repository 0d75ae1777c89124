/* chart_bench.c - time to render a chart of many bars, in process (fonts
 * loaded once, as in a long-running use of the library).
 * usage: chart_bench [DOC.json|-] [repeats]
 * Without a document (or with -): 100 dd bars, 50 labels x write/read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdbool.h>

#include "../../render/render.h"

struct sink {
	size_t n;
};

static int count_write(void *ctx, const unsigned char *data, size_t len)
{
	(void)data;
	((struct sink *)ctx)->n += len;
	return 0;
}

/* CPU time of this process: on a shared machine the wall clock measures
 * the neighbours too. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 50 configurations, each written and read: 100 bars. */
static json_t *hundred_bars(void)
{
	json_t *runs = json_array();
	for (int i = 0; i < 100; i++) {
		char label[32];
		bool read = i % 2;
		snprintf(label, sizeof label, "configuration %d", i / 2);
		json_array_append_new(
			runs,
			json_pack("{s:s, s:s, s:s, s:s, s:i, s:{s:i, s:i, s:i, s:i}, s:{s:s, s:s}, "
				  "s:[{s:s, s:f, s:s}]}",
				  "tool", "dd", "variant", "bsd", "label", label, "command",
				  read ? "dd if=/x of=/dev/null bs=1m"
				       : "dd if=/dev/zero of=/x bs=1m",
				  "group", i, "span", "line", i + 1, "end_line", i + 1, "offset", 0,
				  "end_offset", 0, "params", "input", read ? "/x" : "/dev/zero",
				  "output", read ? "/dev/null" : "/x", "results", "metric",
				  "throughput", "value", 1e6 * (i + 1), "unit", "B/s"));
	}
	return json_pack("{s:s, s:{s:s, s:[], s:i, s:i}, s:o, s:[], s:b}", "schema", "benchlog/1",
			 "source", "path", "bench.txt", "decoding", "offset", 0, "bytes", 0, "runs",
			 runs, "diagnostics", "partial", 0);
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	if (reps < 1)
		reps = 1;
	json_t *docs = json_array();
	if (argc > 1 && strcmp(argv[1], "-") != 0)
		json_array_append_new(docs, json_load_file(argv[1], 0, NULL));
	else
		json_array_append_new(docs, hundred_bars());
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	bl_render_fonts_init(); /* as `benchlog chart` does */
	double t0 = now();
	if (bl_chart_build(docs, &o, &cs, err, sizeof err) < 0 || cs.n == 0) {
		fprintf(stderr, "no chart: %s\n", err);
		return 1;
	}
	printf("model: %zu bars, %.1f ms\n", cs.v[0].nbars, (now() - t0) * 1e3);
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	static const char *const names[] = {"png", "svg", "pdf"};
	for (int f = BL_FORMAT_PNG; f <= BL_FORMAT_PDF; f++) {
		double best = 1e9, first = 0;
		struct sink s = {0};
		for (int r = 0; r < reps; r++) {
			s.n = 0;
			t0 = now();
			bl_render(cs.v, 1, (enum bl_format)f, &ro, count_write, &s, err,
				  sizeof err);
			double t = now() - t0;
			if (r == 0)
				first = t;
			if (t < best)
				best = t;
		}
		printf("%s: first %.1f ms, best of %d %.1f ms, %zu bytes\n", names[f], first * 1e3,
		       reps, best * 1e3, s.n);
	}
	bl_charts_free(&cs);
	json_decref(docs);
	bl_render_cleanup();
	return 0;
}
