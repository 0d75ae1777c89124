/* registry.c - the table of tool parsers.
 *
 * To add a tool: write parsers/<tool>.c ending with its
 * `const struct bl_parser bl_parser_<tool>` (its charts too, views.h, or
 * none for the generic one), declare it below, add one line to the table,
 * and add a folder of cases under corpus/<tool>/. The Makefile picks up
 * every .c file in parsers/ by itself. Order matters only when two anchors
 * match at the same place: the earlier parser is asked first. */
#include <fnmatch.h>
#include <string.h>

#include "parser.h"

extern const struct bl_parser bl_parser_dd;
extern const struct bl_parser bl_parser_time;
extern const struct bl_parser bl_parser_bonnie;
extern const struct bl_parser bl_parser_bonniepp;
extern const struct bl_parser bl_parser_diskinfo;
extern const struct bl_parser bl_parser_zpool_iostat;
extern const struct bl_parser bl_parser_iozone;
extern const struct bl_parser bl_parser_hdparm;

const struct bl_parser *const bl_parsers[] = {
	&bl_parser_dd,       &bl_parser_time,     &bl_parser_bonnie,
	&bl_parser_bonniepp, &bl_parser_diskinfo, &bl_parser_zpool_iostat,
	&bl_parser_iozone,   &bl_parser_hdparm,   NULL,
};

const struct bl_parser *bl_parser_find(const char *name)
{
	for (size_t i = 0; bl_parsers[i]; i++)
		if (strcmp(bl_parsers[i]->name, name) == 0)
			return bl_parsers[i];
	return NULL;
}

bool bl_metric_matches(const char *pattern, const char *metric)
{
	return fnmatch(pattern, metric, 0) == 0;
}
