/* views.h - what a tool's charts show, as data its descriptor carries
 * (struct bl_parser): the default charts of its results, the display names
 * of its metrics, and, for a tool that copies one file to another, how to
 * tell a write from a read.
 *
 * The parsers know what a tool's results mean; render draws whatever these
 * say and names no tool. Nothing here depends on render. */
#ifndef BL_VIEWS_H
#define BL_VIEWS_H

#include <stdbool.h>

/* What decides the bars' categories (the x axis), their series (legend),
 * or which chart of a view a bar goes to. */
enum bl_key {
	BL_KEY_NONE,
	BL_KEY_LABEL, /* the run's label, or a name made from its command */
	BL_KEY_RUN, /* every run on its own (no aggregation of repeats) */
	BL_KEY_SOURCE, /* the input file */
	BL_KEY_TOOL,
	BL_KEY_METRIC, /* the result's metric (bonnie tests, iozone tests) */
	BL_KEY_DIRECTION, /* a transfer's direction (struct bl_transfer): write,
			   * read; the metric's title for other tools */
	BL_KEY_RECORD_SIZE, /* result coordinates */
	BL_KEY_FILE_SIZE,
	BL_KEY_VDEV,
	BL_KEY_SAMPLE,
	BL_KEY_PROCESSES, /* iozone -t: "2 processes", "4 threads" */
	BL_KEY_BLOCK_SIZE, /* the "size" of one I/O: diskinfo -i, -wS */
};

/* A default chart of a tool: which of its results, and what makes the
 * categories, the series and separate charts. Arrays of views end with an
 * entry whose name is NULL. */
struct bl_chart_view {
	const char *name; /* the chart's file name part: "throughput" */
	const char *title; /* "dd throughput" */
	const char *const *metrics; /* NULL-terminated; NULL: every metric in `unit` */
	const char *unit; /* the base unit the results must have: "B/s" */
	enum bl_key category; /* the bars along the axis */
	enum bl_key series; /* the bars of one category, told by colour */
	enum bl_key chart_per; /* one chart per value (BL_KEY_NONE: one chart) */
	/* results that carry this member are left out: iozone's throughput
	 * mode figures carry "scope", and have views of their own */
	const char *skip_results_with;
	/* only results whose "scope" is this ("children": iozone -t's sum of
	 * its processes' throughput); NULL: any */
	const char *only_scope;
	/* the run's sample 0 reports averages since boot (zpool iostat): left
	 * out when later samples follow it */
	bool skip_since_boot_sample;
	/* never merge the cells of different runs: when two runs fill one
	 * (category, series) cell, each run's name goes before the series
	 * (an iozone -a run and an iozone -I -a run of one post) */
	bool keep_runs_apart;
	/* the tool prints binary multiples (zpool's "187M" is 187 MiB/s): the
	 * chart's default unit is MiB/s, not MB/s */
	bool binary_units;
	/* a chart of this view is drawn only when it has this many series (0:
	 * always): iozone's panel of one test compares file sizes, and says
	 * nothing of a run of one file size */
	unsigned min_series;
};

/* A metric of the tool: its display name ("seq_output_block" is a "block
 * write"), the units its results come in, and what it measures, for
 * charts and for `benchlog list TOOL`. A tool's array names every metric
 * its parser writes; `metric` may be a pattern where a family of them
 * is alike ("*_cpu", "*q_*_pend": '*' stands for any run of characters),
 * and then has no title. Arrays end with an entry whose metric is NULL. */
struct bl_metric_info {
	const char *metric;
	const char *title; /* NULL: the name with '_' as ' ' */
	const char *units; /* space-separated: "B/s ops/s" */
	const char *about;
};

/* Whether `metric` is named by entry pattern `pattern` ('*': any run). */
bool bl_metric_matches(const char *pattern, const char *metric);

/* A tool whose run copies one file to another (dd): the same throughput
 * metric measures writes and reads, and only the ends tell which. Reading
 * a generator makes the run a write of its other end; writing a sink makes
 * it a read of its first end; both, a test of memory; neither, a copy. */
struct bl_transfer {
	const char *from, *to; /* the params naming the two ends */
	const char *const *generators; /* NULL-terminated: "/dev/zero" */
	const char *const *sinks; /* NULL-terminated: "/dev/null" */
};

#endif
