/* ingest.h - raw input bytes to messages of clean text.
 *
 * The input is split into messages and each is handed to a callback as soon
 * as it is decoded, so memory is bounded by the largest message. */
#ifndef BL_INGEST_H
#define BL_INGEST_H

#include <stddef.h>

#include "message.h"

/* Called once per message; a non-zero return stops ingestion and is
 * returned by bl_ingest_buffer. The message is freed after the call. */
typedef int (*bl_message_fn)(struct bl_message *m, void *ctx);

/* Ingests a whole buffer. Returns 0, the callback's non-zero value, or -1
 * when memory ran out. */
int bl_ingest_buffer(const char *raw, size_t len, bl_message_fn each, void *ctx);

#endif
