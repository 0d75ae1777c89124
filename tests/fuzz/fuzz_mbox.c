/* fuzz_mbox.c - the streaming reader: an mbox fed in small, uneven chunks
 * must give the same messages as the whole buffer, and every message must
 * lie inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../feed.h"
#include "fuzz_mbox_input.h"

struct seen {
	size_t n, bytes;
	size_t size;
};

static int each(struct bl_message *m, void *ctx)
{
	struct seen *s = ctx;
	if (m->raw_offset + m->raw_len > s->size)
		abort();
	s->n++;
	s->bytes += m->raw_len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	char *buf = as_mbox(data, size, &n);
	if (!buf)
		return 0;
	struct seen whole = {0, 0, n}, streamed = {0, 0, n};
	bl_ingest_buffer_as(bl_parser_ingest(), buf, n, BL_INPUT_MBOX, each, &whole);
	struct feed f = {buf, n, 0, size ? data[0] + 1u : 1, 0};
	bl_ingest_stream(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, each, &streamed);
	if (whole.n != streamed.n || whole.bytes != streamed.bytes || whole.bytes != n)
		abort();
	free(buf);
	return 0;
}
