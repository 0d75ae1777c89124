/* render_opts.c - the options chart and table share: what to select and
 * how to group, sort and scale it; and writing rendered charts to a file
 * (chart, replay --chart). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/run_results.h"
#include "cli.h"
#include "render_opts.h"

const char cli_select_help[] =
	"  --tool NAME          only runs of this tool (dd, time, bonnie++, iozone, ...)\n"
	"  --metric NAME        chart this metric (throughput, elapsed, seq_output_block, ...)\n"
	"  --group-by KEY       categories by label (default), run, source, tool or metric\n"
	"  --where REGEX        only runs whose label or command matches (PCRE2, caseless)\n"
	"  --sort ORDER         input (default), name or value (largest first)\n"
	"  --units U            decimal (MB/s) or binary (MiB/s); default: what the\n"
	"                       tool prints (MiB/s for zpool iostat, else MB/s)\n"
	"  --title TEXT         the chart's title\n"
	"  --baseline LABEL     every bar as a percentage of the bar labelled LABEL\n"
	"                       (its series' bar; a caseless part of a label will do)\n";

/* Returns 1 when ch was one of the shared options, 0 when not, -1 on a bad
 * value (reported). */
int cli_select_option(int ch, const char *arg, struct bl_chart_opts *o)
{
	int v;
	switch (ch) {
	case OPT_TOOL: o->tool = arg; return 1;
	case OPT_METRIC: o->metric = arg; return 1;
	case OPT_WHERE: o->where = arg; return 1;
	case OPT_TITLE: o->title = arg; return 1;
	case OPT_LOG: o->log = true; return 1;
	case OPT_BASELINE: o->baseline = arg; return 1;
	case OPT_GROUP_BY:
		if ((v = bl_key_parse(arg)) < 0) {
			cli_error("--group-by: '%s' is not label, run, source, tool or metric",
				  arg);
			return -1;
		}
		o->group_by = (enum bl_key)v;
		return 1;
	case OPT_SORT:
		if ((v = bl_sort_parse(arg)) < 0) {
			cli_error("--sort: '%s' is not input, name or value", arg);
			return -1;
		}
		o->sort = (enum bl_sort)v;
		return 1;
	case OPT_UNITS:
		if ((v = bl_units_parse(arg)) < 0) {
			cli_error("--units: '%s' is not decimal or binary", arg);
			return -1;
		}
		o->units = (enum bl_units)v;
		return 1;
	}
	return 0;
}

/* The distinct strings of member `key` of every run (key "tool") or of
 * every result of the runs of `tool` (key "metric", tool NULL: any), in
 * input order and comma-separated, into buf. */
static void present(json_t *docs, const char *key, const char *tool, char *buf, size_t len)
{
	char *seen[128]; /* copied: a result read from its text goes */
	size_t nseen = 0, used = 0, i, j, k;
	json_t *doc, *run;
	buf[0] = '\0';
	json_array_foreach(docs, i, doc)
	{
		json_array_foreach(json_object_get(doc, "runs"), j, run)
		{
			const char *t = json_string_value(json_object_get(run, "tool"));
			if (tool && (!t || strcmp(t, tool) != 0))
				continue;
			bool results = strcmp(key, "tool") != 0;
			struct bl_res_iter it;
			struct bl_res r;
			bl_res_begin(&it, run);
			for (k = 0; (results ? bl_res_next(&it, &r) : k < 1) && nseen < 128; k++) {
				const char *v = json_string_value(
					results ? bl_res_get(&r, key) : json_object_get(run, key));
				bool dup = !v;
				for (size_t s = 0; s < nseen && !dup; s++)
					dup = strcmp(seen[s], v) == 0;
				if (dup || used + strlen(v) + 3 >= len ||
				    !(seen[nseen] = strdup(v)))
					continue;
				nseen++;
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? ", " : "", v);
			}
			bl_res_end(&it);
		}
	}
	for (k = 0; k < nseen; k++)
		free(seen[k]);
}

void cli_explain_empty(json_t *docs, const struct bl_chart_opts *o, const char *cmd)
{
	char have[1024];
	present(docs, "tool", NULL, have, sizeof have);
	if (!have[0]) {
		cli_error("%s: no benchmark output in the input", cmd);
		return;
	}
	if (o->tool) {
		char only[1024];
		present(docs, "tool", o->tool, only, sizeof only);
		if (!only[0]) {
			cli_error("%s: --tool %s: no run of it in the input (its tools: %s)", cmd,
				  o->tool, have);
			return;
		}
	}
	if (o->metric) {
		char metrics[2048];
		present(docs, "metric", o->tool, metrics, sizeof metrics);
		cli_error("%s: --metric %s: no such result in the input (its metrics%s%s: %s)", cmd,
			  o->metric, o->tool ? " of " : "", o->tool ? o->tool : "", metrics);
		return;
	}
	cli_error("%s: no results to show in the input%s", cmd,
		  o->where || o->tool ? " (with these options)" : "");
}

/* Renders charts [0, n) into path, atomically (see cli_out_open). */
int cli_render_file(const struct bl_chart *charts, size_t n, enum bl_format fmt,
		    const struct bl_render_opts *ro, const char *path)
{
	struct cli_out out;
	char err[4400]; /* a module's path (cli/lazy/draw.c) */
	if (cli_out_open(&out, path) < 0)
		return -1;
	bl_render_fonts_init(); /* once; nothing else here has used fontconfig */
	if (bl_render(charts, n, fmt, ro, cli_write_out, out.f, err, sizeof err) < 0) {
		cli_error("%s: %s", path, err);
		cli_out_abort(&out);
		return -1;
	}
	return cli_out_commit(&out);
}
