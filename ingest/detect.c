/* detect.c - what kind of input a buffer holds, from its first bytes:
 * an mbox archive ("From " line, then headers), one mail message (a
 * header block), an HTML page, or text. Quoted-printable without headers
 * and flattened posts are found later, in the text itself. */
#include <string.h>

#include "decode.h"
#include "ingest.h"

static const char *const names[] = {"auto", "text", "mbox", "eml", "html", "qp", NULL};

const char *bl_input_format_name(enum bl_input_format f)
{
	return (unsigned)f < sizeof names / sizeof names[0] - 1 ? names[f] : "?";
}

bool bl_input_format_parse(const char *s, enum bl_input_format *out)
{
	for (size_t i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum bl_input_format)i;
			return true;
		}
	return false;
}

enum bl_input_format bl_detect_format(const char *s, size_t len)
{
	if (len > 65536)
		len = 65536;
	if (bl_mbox_detect(s, len))
		return BL_INPUT_MBOX;
	if (bl_headers_detect(s, len))
		return BL_INPUT_EML;
	if (bl_html_detect(s, len))
		return BL_INPUT_HTML;
	return BL_INPUT_TEXT;
}
