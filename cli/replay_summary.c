/* replay_summary.c - what `benchlog replay` says on stderr when it is done:
 * a line a run, as a sysadmin would write it:
 *
 *   run 0 (dd) single hdd, UFS2: throughput 22.7 MB/s then, 1.03 GB/s now,
 *     45.3× faster; written to the device before dd's time stops
 *
 * Each ratio is the document's: the replayed value over the archived one
 * scaled to the replay's size (a time of a smaller copy is compared with
 * the post's time scaled down, never with the post's own). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../render/render.h"
#include "cli.h"

/* The row a run is judged by: its first rate, else the time(1) real. */
static json_t *headline(json_t *rows)
{
	size_t i;
	json_t *row, *time = NULL;
	json_array_foreach(rows, i, row)
	{
		const char *u = json_string_value(json_object_get(row, "unit"));
		const char *m = json_string_value(json_object_get(row, "metric"));
		if (!json_is_number(json_object_get(row, "replayed")) || !u || !m)
			continue;
		if (strcmp(u, "B/s") == 0 || strcmp(u, "ops/s") == 0)
			return row;
		if (!time && strcmp(m, "time.real") == 0)
			time = row;
	}
	return time;
}

/* "45.3× faster", "2.1× slower", "the same": the ratio read the way the
 * unit is better. */
static void verdict(double ratio, const char *unit, char *buf, size_t len)
{
	bool lower_better = bl_unit_better(unit) == BL_BETTER_LOWER;
	double gain = lower_better ? 1 / ratio : ratio;
	if (!isfinite(gain) || gain <= 0)
		snprintf(buf, len, "no ratio");
	else if (fabs(gain - 1) < 0.05)
		snprintf(buf, len, "about the same");
	else if (gain > 1)
		snprintf(buf, len, "%.3g× faster", gain);
	else
		snprintf(buf, len, "%.3g× slower", 1 / gain);
}

/* "throughput 22.7 MB/s then, 1.03 GB/s now, 45.3× faster" */
static void compare_text(json_t *row, char *buf, size_t len)
{
	const char *m = json_string_value(json_object_get(row, "metric"));
	const char *u = json_string_value(json_object_get(row, "unit"));
	json_t *exp = json_object_get(row, "expected");
	double then = json_number_value(exp ? exp : json_object_get(row, "archived"));
	double now = json_number_value(json_object_get(row, "replayed"));
	char a[32], b[32], v[48], scaled[64] = "";
	bl_format_value(then, u, BL_UNITS_DECIMAL, a, sizeof a);
	bl_format_value(now, u, BL_UNITS_DECIMAL, b, sizeof b);
	verdict(json_number_value(json_object_get(row, "ratio")), u, v, sizeof v);
	if (exp) {
		char orig[32];
		bl_format_value(json_number_value(json_object_get(row, "archived")), u,
				BL_UNITS_DECIMAL, orig, sizeof orig);
		snprintf(scaled, sizeof scaled, " (the post's %s scaled)", orig);
	}
	snprintf(buf, len, "%s %s then%s, %s now, %s", m, a, scaled, b, v);
}

/* What keeps the page cache out, or a warning when nothing does and the
 * replay fits in memory. */
static void cache_text(json_t *plan, double memory, char *buf, size_t len)
{
	const char *how = json_string_value(json_object_get(plan, "page_cache"));
	double bytes = json_number_value(json_object_get(plan, "replay_bytes"));
	buf[0] = '\0';
	if (how) {
		snprintf(buf, len, "; %s", how);
	} else if (bytes > 0 && memory > 0 && bytes < memory) {
		char b[32], m[32], want[32];
		bl_format_value(bytes, "B", BL_UNITS_BINARY, b, sizeof b);
		bl_format_value(memory, "B", BL_UNITS_BINARY, m, sizeof m);
		bl_format_value(2 * memory, "B", BL_UNITS_BINARY, want, sizeof want);
		snprintf(buf, len,
			 "; %s fits in this machine's %s of memory and nothing keeps the page "
			 "cache out: it may time memory (--max-bytes %s would not fit)",
			 b, m, want);
	}
}

void cli_replay_summary(json_t *cmp, FILE *f)
{
	double memory = json_number_value(json_object_get(
		json_object_get(json_object_get(cmp, "environment"), "cpu"), "memory_bytes"));
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(cmp, "replays"), i, e)
	{
		const char *st = json_string_value(json_object_get(e, "status"));
		const char *tool = json_string_value(json_object_get(e, "tool"));
		const char *label = json_string_value(json_object_get(e, "label"));
		if (!label)
			label = json_string_value(json_object_get(e, "command"));
		fprintf(f, "run %lld (%s) %s: ",
			(long long)json_integer_value(json_object_get(e, "run")), tool ? tool : "?",
			label ? label : "");
		json_t *row = headline(json_object_get(e, "comparison"));
		if (!st || strcmp(st, "done") != 0 || !row) {
			const char *why = json_string_value(json_object_get(e, "reason"));
			fprintf(f, "%s%s%s\n", st ? st : "?", why ? ": " : "", why ? why : "");
			continue;
		}
		char cmp_text[256], cache[256];
		compare_text(row, cmp_text, sizeof cmp_text);
		cache_text(json_object_get(e, "plan"), memory, cache, sizeof cache);
		fprintf(f, "%s%s\n", cmp_text, cache);
	}
}
