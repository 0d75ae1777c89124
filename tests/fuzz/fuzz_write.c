/* fuzz_write.c - arbitrary bytes through ingest and the scanner, each
 * document written run by run (bl_parse_message_write, as `benchlog parse`
 * does), indented and compact: the bytes must be jansson's dump of the
 * document's tree, its rows (table.h) expanded. A difference aborts (a
 * finding). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../rows_layout.h"

struct buf {
	char *s;
	size_t len, cap;
};

static int add(const char *p, size_t n, void *ctx)
{
	struct buf *b = ctx;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *v = realloc(b->s, cap);
		if (!v)
			return -1;
		b->s = v;
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* The bytes read back are what jansson writes for them (each element of
 * their rows on one line: rows_layout.h), and with their rows expanded
 * (table.h), they are jansson's dump of the tree. */
static void same(struct bl_message *m, json_t *tree, size_t flags)
{
	char *want = json_dumps(tree, flags);
	struct buf got = {0};
	json_t *tail = bl_parse_message_write(m, "fuzz", flags, add, &got);
	json_t *back = got.s ? json_loads(got.s, 0, NULL) : NULL;
	char *layout = back ? rows_layout_dump(back, flags) : NULL;
	char *expanded = back && !bl_doc_expand_rows(back) ? json_dumps(back, flags) : NULL;
	if (want && tail &&
	    (!layout || !expanded || strcmp(layout, got.s) != 0 || strcmp(want, expanded) != 0))
		abort();
	json_decref(tail);
	json_decref(back);
	free(layout);
	free(expanded);
	free(want);
	free(got.s);
}

static int each(struct bl_message *m, void *ctx)
{
	(void)ctx;
	json_t *doc = bl_parse_message(m, "fuzz");
	if (doc) {
		same(m, doc, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_COMPACT);
		same(m, doc, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_INDENT(2));
		json_decref(doc);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bl_ingest_buffer(bl_parser_ingest(), (const char *)data, size, each, NULL);
	return 0;
}
