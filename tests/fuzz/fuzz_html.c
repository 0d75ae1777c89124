/* fuzz_html.c - HTML to text: tags, entities, <pre>, script/style, comments, meta charset. */
#include <stdint.h>

#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bl_message m;
	struct bl_tbuf out;
	struct bl_src in;
	fuzz_message(&m, data, size);
	bl_tbuf_init(&out);
	bl_src_plain(&in, (const char *)data, size, 0);
	char cs[48];
	bl_html_detect((const char *)data, size);
	bl_html_meta_charset((const char *)data, size, cs, sizeof cs);
	bl_html_to_text(&m, &in, &out);
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
