/* fuzz_diskinfo.c - arbitrary bytes through the diskinfo parser: once as
 * they are, once behind a device line and its first -v line, so that
 * mutations land inside a diskinfo block rather than before one. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static const char prefix[] =
	"# diskinfo -citv -wS ada0 ada1\n/dev/ada0\n\t512         \t# sectorsize\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bl_ingest_buffer(bl_parser_ingest(), (const char *)data, size, each, NULL);
	if (size > 1 << 16)
		return 0;
	char *buf = malloc(sizeof prefix - 1 + size);
	if (!buf)
		return 0;
	memcpy(buf, prefix, sizeof prefix - 1);
	memcpy(buf + sizeof prefix - 1, data, size);
	bl_ingest_buffer(bl_parser_ingest(), buf, sizeof prefix - 1 + size, each, NULL);
	free(buf);
	return 0;
}
