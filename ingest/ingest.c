/* ingest.c - raw input bytes to messages. For now every input is one
 * message of text; mail archives and HTML come in through here. */
#include "ingest.h"

int bl_ingest_buffer(const char *raw, size_t len, bl_message_fn each, void *ctx)
{
	struct bl_message m;
	if (bl_message_from_text(&m, raw, len, 0, 1) < 0) {
		bl_message_free(&m);
		return -1;
	}
	int rc = each(&m, ctx);
	bl_message_free(&m);
	return rc;
}
