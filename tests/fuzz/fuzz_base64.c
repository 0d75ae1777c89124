/* fuzz_base64.c - base64 bodies: stray bytes, padding, truncated groups. */
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
	bl_base64_decode(&m, &in, &out);
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
