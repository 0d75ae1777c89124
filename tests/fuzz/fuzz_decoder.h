/* fuzz_decoder.h - what every decoder fuzz target checks: the output map
 * stays inside the input (every decoded byte points at an input byte), the
 * output is bounded, and nothing leaks (ASan). A broken invariant aborts,
 * which libFuzzer reports as a finding. */
#ifndef FUZZ_DECODER_H
#define FUZZ_DECODER_H

#include <stdlib.h>
#include <string.h>

#include "../../ingest/decode.h"
#include "../../parsers/parser.h"

static void fuzz_check_map(const struct bl_tbuf *out, size_t in_len)
{
	for (size_t i = 0; i < out->nsegs; i++) {
		if (out->segs[i].raw_off > in_len)
			abort();
		if (i && out->segs[i].text_off < out->segs[i - 1].text_off)
			abort();
		if (out->segs[i].text_off > out->len)
			abort();
	}
}

/* A message over the fuzz input, for diagnostics. */
static void fuzz_message(struct bl_message *m, const uint8_t *data, size_t size)
{
	/* the tools' shapes, as the pipeline hands them to the decoders */
	bl_shapes_use(bl_parser_ingest());
	memset(m, 0, sizeof *m);
	m->raw = (const char *)data;
	m->raw_len = size;
	m->raw_line = 1;
}

static void fuzz_done(struct bl_message *m, struct bl_tbuf *out)
{
	bl_message_diag_lines(m);
	bl_tbuf_free(out);
	bl_message_free(m);
}

#endif
