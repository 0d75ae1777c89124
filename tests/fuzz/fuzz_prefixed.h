/* fuzz_prefixed.h - the harness of the parser fuzz targets: the input goes
 * through ingest and the scanner behind one of a few heads chosen by its
 * first byte, so that mutations land inside a block of the tool's output
 * (a random input rarely starts one). Each target defines `heads` and
 * includes this file. */
#ifndef FUZZ_PREFIXED_H
#define FUZZ_PREFIXED_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"

static int fuzz_each(struct bl_message *m, void *ctx)
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

static int fuzz_prefixed(const char *const *heads, size_t nheads, const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	const char *head = heads[data[0] % nheads];
	size_t hl = strlen(head);
	char *buf = malloc(hl + size);
	if (!buf)
		return 0;
	memcpy(buf, head, hl);
	memcpy(buf + hl, data + 1, size - 1);
	bl_ingest_buffer(bl_parser_ingest(), buf, hl + size - 1, fuzz_each, NULL);
	free(buf);
	return 0;
}

#endif
