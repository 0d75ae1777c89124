/* pipeline.h - one message's decoding (ingest.c), for the readers that
 * frame a stream into messages and windows (stream.c). */
#ifndef BL_PIPELINE_H
#define BL_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "decode.h"
#include "ingest.h"

/* Decodes m->raw into m->text by the steps of `fmt`. `padded`:
 * BL_TEXT_PAD readable zero bytes follow m->raw, which is then read in
 * place. `qp_decided`: plain text whose quoted-printable test was made
 * already (on the first window of a large input). `body`: m is a window
 * of a mail's body past the first, decoded by the mail's headers (NULL
 * otherwise). Returns 0, or -1 when memory ran out. */
int bl_ingest_decode(struct bl_message *m, enum bl_input_format fmt, bool padded, bool qp_decided,
		     const struct bl_headers *body);

/* Decodes the message raw[0, len) (input offset raw_offset, line
 * raw_line, index-th of its input) and hands it to each; returns each's
 * value, or -1 when memory ran out. */
int bl_ingest_one(const struct bl_ingest_plan *plan, const char *raw, size_t len, size_t raw_offset,
		  size_t raw_line, size_t index, enum bl_input_format fmt, bool padded,
		  bl_message_fn each, void *ctx);

#endif
