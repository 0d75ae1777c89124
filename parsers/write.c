/* write.c - a document written run by run.
 *
 * A message that is one long stream of benchmark output can hold a million
 * runs; as one JSON tree its document took several times the input in
 * memory. Here the head of the document is written first, each run as
 * the scanner hands it over (bl_doc_flush), then the tail: the same bytes
 * jansson writes for the whole tree, whose layout this file reproduces
 * (",", ":" when compact; with JSON_INDENT(n), a newline and n spaces per
 * level before each member, ": " between key and value). golden.c checks
 * the bytes against jansson's for every corpus document. */
#include "benchlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"

/* Output is gathered here: the writer is called once per OUTBUF bytes. */
#define OUTBUF ((size_t)1 << 16)

struct out {
	json_dump_callback_t write;
	void *ctx;
	size_t flags;
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

/* A string as jansson writes it without JSON_ENSURE_ASCII and
 * JSON_ESCAPE_SLASH: '"', '\\' and control characters escaped, the rest
 * (valid UTF-8, as jansson keeps its strings) as is. */
static void string(struct out *o, const char *s, size_t n)
{
	put(o, "\"", 1);
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(o, s + from, i - from);
		from = i + 1;
		char esc[8];
		switch (c) {
		case '"': put(o, "\\\"", 2); break;
		case '\\': put(o, "\\\\", 2); break;
		case '\b': put(o, "\\b", 2); break;
		case '\f': put(o, "\\f", 2); break;
		case '\n': put(o, "\\n", 2); break;
		case '\r': put(o, "\\r", 2); break;
		case '\t': put(o, "\\t", 2); break;
		default:
			snprintf(esc, sizeof esc, "\\u%04X", c);
			put(o, esc, 6);
		}
	}
	put(o, s + from, n - from);
	put(o, "\"", 1);
}

static void integer(struct out *o, json_int_t v)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	put(o, p, (size_t)(buf + sizeof buf - p));
}

static int plain(const char *buf, size_t size, void *data)
{
	struct out *o = data;
	put(o, buf, size);
	return o->err;
}

static void key(struct out *o, const char *k);

/* v at nesting `depth`, laid out as jansson's dump does (a newline and the
 * indentation of the level before each member and before the closing
 * bracket; "{}" and "[]" when empty). jansson's own dump, called for each
 * value, cost a third of the time on dense tool output: it hands over a
 * few bytes per call and formats every integer with snprintf. Reals still
 * go through jansson (precision, exponent form). */
static void value(struct out *o, json_t *v, unsigned depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		void *it = json_object_iter(v);
		if (!it) {
			put(o, "{}", 2);
			break;
		}
		put(o, "{", 1);
		indent(o, depth + 1, false);
		while (it) {
			key(o, json_object_iter_key(it));
			value(o, json_object_iter_value(it), depth + 1);
			it = json_object_iter_next(v, it);
			if (it) {
				put(o, ",", 1);
				indent(o, depth + 1, true);
			}
		}
		indent(o, depth, false);
		put(o, "}", 1);
		break;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		if (!n) {
			put(o, "[]", 2);
			break;
		}
		put(o, "[", 1);
		indent(o, depth + 1, false);
		for (size_t i = 0; i < n; i++) {
			value(o, json_array_get(v, i), depth + 1);
			if (i + 1 < n) {
				put(o, ",", 1);
				indent(o, depth + 1, true);
			}
		}
		indent(o, depth, false);
		put(o, "]", 1);
		break;
	}
	case JSON_STRING:
		string(o, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		integer(o, json_integer_value(v));
		break;
	case JSON_TRUE:
		put(o, "true", 4);
		break;
	case JSON_FALSE:
		put(o, "false", 5);
		break;
	case JSON_NULL:
		put(o, "null", 4);
		break;
	default: /* JSON_REAL */
		if (!o->err && json_dump_callback(v, plain, o, o->flags | JSON_ENCODE_ANY) != 0)
			o->err = -1;
	}
}

static void key(struct out *o, const char *k)
{
	string(o, k, strlen(k));
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
