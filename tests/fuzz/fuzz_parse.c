/* fuzz_parse.c - arbitrary bytes through ingest, the scanner and every
 * registered parser, then JSON serialization. Any crash, leak, undefined
 * behaviour or sanitizer report is a finding. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../parsers/benchlog.h"

static int each(struct bl_message *m, void *ctx)
{
	(void)ctx;
	json_t *doc = bl_parse_message(m, "fuzz");
	if (doc) {
		char *s = json_dumps(doc, JSON_COMPACT);
		free(s);
		json_decref(doc);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bl_ingest_buffer(bl_parser_ingest(), (const char *)data, size, each, NULL);
	return 0;
}
