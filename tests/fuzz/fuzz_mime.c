/* fuzz_mime.c - headers (RFC 2047 words), MIME multipart walking and every leaf decoder. */
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
	struct bl_headers h;
	bl_headers_detect((const char *)data, size);
	bl_headers_parse(&in, &h);
	if (!h.type[0])
		memcpy(h.type, "text/plain", 11);
	bl_mime_body(&m, &in, &h, &out);
	bl_headers_free(&h);
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
