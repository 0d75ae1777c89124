/* views.c - the charts each tool's posts are about, as data.
 *
 * Metric names follow the parsers' vocabulary: dd `throughput`; time
 * `elapsed`, `user`, `system`; bonnie and bonnie++ `seq_output_char` ...
 * `random_delete`; iozone one metric per test with `file_size` and
 * `record_size` coordinates; diskinfo seek times (s) and transfer rates
 * (B/s); zpool iostat `read_bandwidth`, `write_bandwidth`, `read_ops`,
 * `write_ops` with `vdev` and `sample` coordinates. A tool without a view
 * gets the generic one: every B/s result per label. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const dd_metrics[] = {"throughput", NULL};
static const char *const time_metrics[] = {"elapsed", "user", "system", NULL};
static const char *const bonnie_rates[] = {
	"seq_output_char", "seq_output_block", "seq_output_rewrite",
	"seq_input_char", "seq_input_block", NULL};
static const char *const bonnie_ops[] = {
	"random_seeks", "seq_create", "seq_read", "seq_delete",
	"random_create", "random_read", "random_delete", NULL};
static const char *const zpool_bw[] = {"read_bandwidth", "write_bandwidth", NULL};
static const char *const zpool_ops[] = {"read_ops", "write_ops", NULL};

static const struct bl_view views[] = {
	{"dd", "throughput", "dd throughput", dd_metrics, "B/s",
	 BL_KEY_LABEL, BL_KEY_DIRECTION, BL_KEY_NONE, NULL, false, NULL, false},
	{"time", "elapsed", "time(1) per command", time_metrics, "s",
	 BL_KEY_LABEL, BL_KEY_METRIC, BL_KEY_NONE, NULL, false, NULL, false},
	{"bonnie", "rates", "bonnie sequential rates", bonnie_rates, "B/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"bonnie", "ops", "bonnie seeks", bonnie_ops, "ops/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"bonnie++", "rates", "bonnie++ sequential rates", bonnie_rates, "B/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"bonnie++", "ops", "bonnie++ seeks and file operations", bonnie_ops, "ops/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	/* auto mode and -i tables: a curve per test against record size, one
	 * chart per file size (throughput-mode figures carry a scope) */
	{"iozone", "throughput", "iozone throughput by record size", NULL, "B/s",
	 BL_KEY_RECORD_SIZE, BL_KEY_METRIC, BL_KEY_FILE_SIZE, "scope", false, NULL, true},
	{"iozone", "ops", "iozone operations by record size", NULL, "ops/s",
	 BL_KEY_RECORD_SIZE, BL_KEY_METRIC, BL_KEY_FILE_SIZE, "scope", false, NULL, true},
	/* throughput mode (-t, -l/-u): the children's sum per test, a bar per
	 * run, one chart per number of processes or threads */
	{"iozone", "tests", "iozone throughput per test", NULL, "B/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_PROCESSES, NULL, false, "children", false},
	{"iozone", "tests-ops", "iozone operations per test", NULL, "ops/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_PROCESSES, NULL, false, "children", false},
	{"diskinfo", "seek", "diskinfo seek times", NULL, "s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"diskinfo", "transfer", "diskinfo transfer rates", NULL, "B/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"diskinfo", "iops", "diskinfo random IOPS", NULL, "ops/s",
	 BL_KEY_METRIC, BL_KEY_LABEL, BL_KEY_NONE, NULL, false, NULL, false},
	{"zpool-iostat", "bandwidth", "zpool iostat bandwidth per vdev", zpool_bw, "B/s",
	 BL_KEY_VDEV, BL_KEY_METRIC, BL_KEY_NONE, NULL, true, NULL, false},
	{"zpool-iostat", "ops", "zpool iostat operations per vdev", zpool_ops, "ops/s",
	 BL_KEY_VDEV, BL_KEY_METRIC, BL_KEY_NONE, NULL, true, NULL, false},
	{"zpool-iostat", "ops-count", "zpool iostat operations per vdev", zpool_ops, "ops",
	 BL_KEY_VDEV, BL_KEY_METRIC, BL_KEY_NONE, NULL, true, NULL, false},
};

static const struct bl_view generic = {
	NULL, "throughput", "throughput", NULL, "B/s",
	BL_KEY_LABEL, BL_KEY_METRIC, BL_KEY_NONE, NULL, false, NULL, false};

size_t bl_views_for(const char *tool, const struct bl_view **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
		if (strcmp(views[i].tool, tool) == 0 && n < max)
			out[n++] = &views[i];
	if (n == 0 && max > 0)
		out[n++] = &generic;
	return n;
}

static const struct {
	const char *metric, *title;
} titles[] = {
	{"seq_output_char", "write per char"},
	{"seq_output_block", "block write"},
	{"seq_output_rewrite", "rewrite"},
	{"seq_input_char", "read per char"},
	{"seq_input_block", "block read"},
	{"random_seeks", "random seeks"},
	{"seq_create", "seq. create"},
	{"seq_read", "seq. read (files)"},
	{"seq_delete", "seq. delete"},
	{"random_create", "random create"},
	{"random_read", "random read (files)"},
	{"random_delete", "random delete"},
	{"elapsed", "real"},
	{"system", "sys"},
	{"read_bandwidth", "read"},
	{"write_bandwidth", "write"},
	{"read_ops", "read"},
	{"write_ops", "write"},
};

const char *bl_metric_title(const char *tool, const char *metric, char *buf, size_t len)
{
	(void)tool;
	for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
		if (strcmp(titles[i].metric, metric) == 0)
			return titles[i].title;
	/* "random_read" -> "random read" */
	size_t i = 0;
	for (; metric[i] && i + 1 < len; i++)
		buf[i] = metric[i] == '_' ? ' ' : metric[i];
	buf[i] = '\0';
	return buf;
}
