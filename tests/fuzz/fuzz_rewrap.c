/* fuzz_rewrap.c - re-wrapped lines joined, and format=flowed. */
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
	if (size && (data[0] & 1))
		bl_flowed_decode(&m, &in, &out, data[0] & 2);
	else
		bl_rewrap(&m, &in, &out, false, false);
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
