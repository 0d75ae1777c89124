/* fuzz_qp.c - quoted-printable decoding (plain and flattened) and its detector. */
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
	bl_qp_detect((const char *)data, size);
	bl_qp_decode(&m, &in, &out, size && data[0] & 1);
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
