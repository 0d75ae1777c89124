/* write.c - a document written run by run.
 *
 * A message that is one long stream of benchmark output can hold a million
 * runs; as one JSON tree its document took several times the input in
 * memory. Here the head of the document is written first, each run as
 * the scanner hands it over (bl_doc_flush), then the tail: the same bytes
 * jansson writes for the whole tree, whose layout this file reproduces
 * (",", ":" when compact; with JSON_INDENT(n), a newline and n spaces per
 * level before each member, ": " between key and value). */
#include "benchlog.h"

#include <stdlib.h>
#include <string.h>

#include "system.h"

/* jansson hands its output over a few bytes at a time (a key, a quote, a
 * comma): gathered here, the writer is called once per OUTBUF bytes. */
#define OUTBUF ((size_t)1 << 16)

struct out {
	json_dump_callback_t write;
	void *ctx;
	size_t flags;
	unsigned depth; /* of the value being written (reindent) */
	size_t nruns;
	int err;
	size_t n;
	char buf[OUTBUF];
};

static void flush_out(struct out *o)
{
	if (o->n && !o->err && o->write(o->buf, o->n, o->ctx) != 0)
		o->err = -1;
	o->n = 0;
}

static void put(struct out *o, const char *s, size_t n)
{
	if (o->err || !n)
		return;
	if (n > OUTBUF - o->n) {
		flush_out(o);
		if (n > OUTBUF) {
			if (!o->err && o->write(s, n, o->ctx) != 0)
				o->err = -1;
			return;
		}
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

/* A newline and the indentation of `depth`, or a space between members
 * when not compact and not indented (jansson's dump_indent). */
static void indent(struct out *o, unsigned depth, bool space)
{
	static const char spaces[] = "                                ";
	unsigned n = (unsigned)(o->flags & JSON_MAX_INDENT) * depth;
	if (o->flags & JSON_MAX_INDENT) {
		put(o, "\n", 1);
		while (n) {
			unsigned k = n < sizeof spaces - 1 ? n : (unsigned)sizeof spaces - 1;
			put(o, spaces, k);
			n -= k;
		}
	} else if (space && !(o->flags & JSON_COMPACT)) {
		put(o, " ", 1);
	}
}

/* jansson writes a nested value as if at depth 0: each of its newlines
 * gets the indentation of the depth it really sits at. */
static int reindent(const char *buf, size_t size, void *data)
{
	struct out *o = data;
	while (size && !o->err) {
		const char *nl = memchr(buf, '\n', size);
		size_t n = nl ? (size_t)(nl - buf) : size;
		put(o, buf, n);
		if (!nl)
			break;
		indent(o, o->depth, false);
		buf += n + 1;
		size -= n + 1;
	}
	return o->err;
}

/* Compact output has no newline to indent. */
static int plain(const char *buf, size_t size, void *data)
{
	struct out *o = data;
	put(o, buf, size);
	return o->err;
}

static void value(struct out *o, json_t *v, unsigned depth)
{
	o->depth = depth;
	json_dump_callback_t cb = (o->flags & JSON_MAX_INDENT) ? reindent : plain;
	if (!o->err && json_dump_callback(v, cb, o, o->flags | JSON_ENCODE_ANY) != 0)
		o->err = -1;
}

static void key(struct out *o, const char *k)
{
	put(o, "\"", 1);
	put(o, k, strlen(k)); /* the document's own keys: nothing to escape */
	put(o, "\"", 1);
	if (o->flags & JSON_COMPACT)
		put(o, ":", 1);
	else
		put(o, ": ", 2);
}

static int write_run(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t index)
{
	struct out *o = ctx;
	json_t *j = bl_doc_run_json(doc, run, index);
	if (!j)
		return -1;
	if (o->nruns++) {
		put(o, ",", 1);
		indent(o, 2, true);
	} else {
		put(o, "[", 1);
		indent(o, 2, false);
	}
	value(o, j, 2);
	json_decref(j);
	return o->err;
}

json_t *bl_parse_message_write(struct bl_message *m, const char *path, size_t flags,
			       json_dump_callback_t write, void *wctx)
{
	struct out *o = malloc(sizeof *o); /* OUTBUF: not on the stack */
	if (!o)
		return NULL;
	o->write = write;
	o->ctx = wctx;
	o->flags = flags;
	o->depth = 0;
	o->nruns = 0;
	o->err = 0;
	o->n = 0;
	struct bl_doc doc;
	if (bl_doc_init(&doc, m, path) < 0) {
		free(o);
		return NULL;
	}
	doc.system = bl_system_extract(m);
	json_t *head = bl_doc_head_json(&doc), *tail = NULL;
	if (!head)
		goto fail;
	const char *k;
	json_t *v;
	put(o, "{", 1);
	indent(o, 1, false);
	json_object_foreach(head, k, v)
	{
		key(o, k);
		value(o, v, 1);
		put(o, ",", 1);
		indent(o, 1, true);
	}
	key(o, "runs");
	doc.sink = write_run;
	doc.sink_ctx = o;
	if (bl_scan_message_into(m, &doc) < 0 || doc.sink_rc)
		goto fail;
	if (o->nruns) {
		indent(o, 1, false);
		put(o, "]", 1);
	} else {
		put(o, "[]", 2);
	}
	tail = bl_doc_tail_json(&doc);
	if (!tail)
		goto fail;
	json_object_foreach(tail, k, v)
	{
		put(o, ",", 1);
		indent(o, 1, true);
		key(o, k);
		value(o, v, 1);
	}
	indent(o, 0, false);
	put(o, "}", 1);
	flush_out(o);
	if (o->err)
		goto fail;
	json_decref(head);
	bl_doc_free(&doc);
	free(o);
	return tail;
fail:
	json_decref(head);
	json_decref(tail);
	bl_doc_free(&doc);
	free(o);
	return NULL;
}
