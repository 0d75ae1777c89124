/* fuzz_window.c - a large input read in windows (ingest/stream.c,
 * bl_window_doc_*): plain text, or a mail (of an mbox, or alone) whose
 * body is read in windows. The first byte picks the window and its
 * context, the rest is the input (its format detected), fed in uneven
 * reads. Each input must give documents
 * that are valid JSON, messages that lie inside the input, and no crash
 * or leak, wherever the windows are cut. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../feed.h"

struct out {
	char *s;
	size_t n, cap;
};

static int sink(const char *s, size_t n, void *ctx)
{
	struct out *o = ctx;
	if (o->n + n > o->cap) {
		size_t cap = (o->n + n) * 2;
		char *p = realloc(o->s, cap);
		if (!p)
			return -1;
		o->s = p;
		o->cap = cap;
	}
	memcpy(o->s + o->n, s, n);
	o->n += n;
	return 0;
}

struct state {
	size_t size;
	struct bl_window_doc *w;
	struct out out;
};

static void check_json(struct out *o)
{
	json_error_t e;
	json_t *j = json_loadb(o->s ? o->s : "", o->n, 0, &e);
	if (!j || !json_is_object(j))
		abort(); /* a document that is not a JSON object */
	json_decref(j);
	o->n = 0;
}

static int each(struct bl_message *m, void *ctx)
{
	struct state *st = ctx;
	if (m->raw_offset > st->size || m->raw_len > st->size - m->raw_offset)
		abort(); /* a message outside the input */
	const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER;
	json_t *tail;
	if (m->window.on) {
		if (!st->w)
			st->w = bl_window_doc_new("input", flags);
		if (!st->w || bl_window_doc_add(st->w, m) < 0)
			return -1;
		if (!m->window.last)
			return 0;
		tail = bl_window_doc_finish(st->w, sink, &st->out);
		bl_window_doc_free(st->w);
		st->w = NULL;
	} else {
		tail = bl_parse_message_write(m, "input", flags, sink, &st->out);
	}
	if (!tail)
		return -1;
	json_decref(tail);
	check_json(&st->out);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* windows of 64 bytes to 16 KB, context up to a half of the window */
	size_t window = (size_t)64 << (data[0] & 7);
	size_t overlap = window / (2 + (data[0] >> 3 & 7));
	struct feed f = {(const char *)data + 1, size - 1, 0, 1 + (data[0] >> 6) * 97, 0};
	struct state st = {size - 1, NULL, {NULL, 0, 0}};
	bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, window, overlap,
				each, &st);
	bl_window_doc_free(st.w);
	free(st.out.s);
	return 0;
}
