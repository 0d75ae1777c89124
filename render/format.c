/* format.c - a chart file's format from its name: the one part of
 * choosing an output that needs no drawing library. */
#include <string.h>
#include <strings.h>

#include "render.h"

int bl_format_from_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot)
		return -1;
	if (strcasecmp(dot, ".png") == 0)
		return BL_FORMAT_PNG;
	if (strcasecmp(dot, ".svg") == 0)
		return BL_FORMAT_SVG;
	if (strcasecmp(dot, ".pdf") == 0)
		return BL_FORMAT_PDF;
	return -1;
}
