/* fuzz_zpool_iostat.c - arbitrary bytes through the zpool iostat parser: once as
 * they are, once behind a command line and a -v -l header, so that
 * mutations land inside a report rather than before one. */
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
	"# zpool iostat -vl -T u tank 5 2\n"
	"              capacity     operations     bandwidth    total_wait     disk_wait    syncq_wait    asyncq_wait  scrub   trim  rebuild\n"
	"pool        alloc   free   read  write   read  write   read  write   read  write   read  write   read  write   wait   wait   wait\n"
	"----------  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----\n";

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
