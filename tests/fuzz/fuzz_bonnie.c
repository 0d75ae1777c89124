/* fuzz_bonnie.c - arbitrary text through the scanner with a bonnie or
 * bonnie++ header in front, so that every input reaches the two parsers'
 * row, cell, wrap and CSV code (a random input rarely starts a table). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"

static const char *const heads[] = {
	"Version 1.93d       ------Sequential Output------ --Sequential Input- --Random-\n"
	"Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n",
	"Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	"feasvm              -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	"files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n",
	"              ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-\n"
	"              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --04k (03)-\n"
	"Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU   /sec %CPU\n",
	"1.98,2.00a,",
	"",
};

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
	if (size == 0)
		return 0;
	const char *head = heads[data[0] % (sizeof heads / sizeof *heads)];
	size_t hl = strlen(head);
	char *buf = malloc(hl + size);
	if (!buf)
		return 0;
	memcpy(buf, head, hl);
	memcpy(buf + hl, data + 1, size - 1);
	bl_ingest_buffer(buf, hl + size - 1, each, NULL);
	free(buf);
	return 0;
}
