/* fuzz_unflatten.c - flattened posts split into lines. */
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
	bl_unflatten_detect((const char *)data, size);
	bl_unflatten(&m, &in, &out);
	if (out.len && out.len != size)
		abort(); /* a break replaces a blank: the length never changes */
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
