/* views.c - the charts of each tool as its descriptor lists them (struct
 * bl_parser's views, parsers/views.h), the generic chart for a tool without
 * any, the display names of metrics and the ends of a copying tool's runs.
 * Render names no tool: what a tool's charts show lives in its parser file. */
#include <stdio.h>
#include <string.h>

#include "../parsers/parser.h"
#include "internal.h"

/* Every B/s result per label: for a tool without views of its own (hdparm)
 * and for documents of a tool that no parser here knows. */
static const struct bl_chart_view generic[] = {
	{.name = "throughput",
	 .title = "throughput",
	 .unit = "B/s",
	 .category = BL_KEY_LABEL,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

const struct bl_chart_view *bl_views_for(const char *tool, bool *is_generic)
{
	const struct bl_parser *p = tool ? bl_parser_find(tool) : NULL;
	*is_generic = !p || !p->views || !p->views[0].name;
	return *is_generic ? generic : p->views;
}

const struct bl_transfer *bl_transfer_of(const char *tool)
{
	const struct bl_parser *p = tool ? bl_parser_find(tool) : NULL;
	return p ? p->transfer : NULL;
}

static const char *title_in(const struct bl_metric_info *info, const char *metric)
{
	for (; info && info->metric; info++)
		if (strcmp(info->metric, metric) == 0)
			return info->title;
	return NULL;
}

const char *bl_metric_title(const char *tool, const char *metric, char *buf, size_t len)
{
	const struct bl_parser *p = tool ? bl_parser_find(tool) : NULL;
	/* a tool's own titles only: iozone's random_read is not bonnie++'s
	 * "random read (files)" */
	const char *title = p ? title_in(p->metrics, metric) : NULL;
	if (title)
		return title;
	/* "random_read" -> "random read" */
	size_t i = 0;
	for (; metric[i] && i + 1 < len; i++)
		buf[i] = metric[i] == '_' ? ' ' : metric[i];
	buf[i] = '\0';
	return buf;
}
