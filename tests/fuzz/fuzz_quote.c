/* fuzz_quote.c - mail quoting stripped, depths recorded. */
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
	bl_quote_strip(&m, &in, &out);
	for (size_t i = 1; i < m.nquotes; i++)
		if (m.quotes[i].raw_off < m.quotes[i - 1].raw_off)
			abort();
	fuzz_check_map(&out, size);
	fuzz_done(&m, &out);
	return 0;
}
