/* post.h - a corpus post parsed through the library, for the chart tests. */
#ifndef BL_TEST_POST_H
#define BL_TEST_POST_H

#include <stdio.h>

#include "../../parsers/benchlog.h"

static int post_collect(struct bl_message *m, void *ctx)
{
	json_t *doc = bl_parse_message(m, "post.txt");
	return doc ? json_array_append_new(ctx, doc) : -1;
}

/* The documents of the post at path (up to 1 MB of it); an empty array
 * when it cannot be read. */
static json_t *post(const char *path)
{
	json_t *docs = json_array();
	FILE *f = fopen(path, "rb");
	if (!f)
		return docs;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	bl_ingest_buffer(bl_parser_ingest(), buf, n, post_collect, docs);
	return docs;
}

#endif
