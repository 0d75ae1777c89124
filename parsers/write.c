/* write.c - a document written run by run.
 *
 * A message that is one long stream of benchmark output can hold a million
 * runs; as one JSON tree its document took several times the input in
 * memory. Here the head of the document is written first, each run as
 * the scanner hands it over (bl_doc_flush), then the tail: the same bytes
 * jansson writes for the whole tree, whose layout this file reproduces
 * (",", ":" when compact; with JSON_INDENT(n), a newline and n spaces per
 * level before each member, ": " between key and value), but for each
 * element of a run's rows, on one line as jansson writes it without
 * indentation. golden.c checks the bytes against jansson's for every
 * corpus document (tests/rows_layout.h). */
#include "benchlog.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/buf.h"
#include "../base/find.h"
#include "../base/hash.h"
#include "../base/numfmt.h"
#include "parser.h"
#include "spill.h"
#include "system.h"
#include "table.h"

/* Output is gathered here: the writer is called once per OUTBUF bytes. */
#define OUTBUF ((size_t)1 << 16)

struct rlist;
struct held_runs;

/* The members' names as written ("name": or "name": with a space), by
 * the address of the string literal that holds the name: a dense stream
 * writes a dozen names for each result. */
#define KEY_SET_BITS 7
#define KEY_SETS (1 << KEY_SET_BITS) /* of two slots each */
#define KEY_SLOTS (2 * KEY_SETS)
#define KEY_MAX 40
struct key_text {
	const char *k; /* NULL: empty slot */
	size_t n;
	char t[KEY_MAX + 8]; /* copied whole: a copy of a size known ahead */
};

struct out {
	json_dump_callback_t write;
	void *ctx;
	size_t flags;
	size_t nruns;
	int err;
	struct held_runs *held; /* results handed over before their runs (write_results) */
	struct key_text keys[KEY_SLOTS];
	size_t n;
	char buf[OUTBUF];
};

static void flush_out(struct out *o)
{
	if (o->n && !o->err && o->write(o->buf, o->n, o->ctx) != 0)
		o->err = -1;
	o->n = 0;
}

/* put() of what does not fit in the buffer: flushed first, and written
 * as it is when larger than the buffer. */
static void put_flush(struct out *o, const char *s, size_t n)
{
	if (o->err || !n)
		return;
	flush_out(o);
	if (n > OUTBUF) {
		if (!o->err && o->write(s, n, o->ctx) != 0)
			o->err = -1;
		return;
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

/* n bytes from s to d, a short run without a call: most are a key, a
 * quote or a number (a call to memcpy cost more than its copy, 28
 * million of them on a 21 MB zpool stream). Two copies of 8 (or 4)
 * bytes that overlap cover 8 to 16 (4 to 8). */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
}

/* Inline: most calls put a quote, a comma or a short string, and a call
 * each cost as much as the copy (2 million calls on 60 MB of archive). */
static inline void put(struct out *o, const char *s, size_t n)
{
	if (n <= OUTBUF - o->n && !o->err) {
		copy_bytes(o->buf + o->n, s, n); /* s may be NULL when n is 0 */
		o->n += n;
		return;
	}
	put_flush(o, s, n);
}

/* A newline and the indentation of `depth`, or a space between members
 * when not compact and not indented (jansson's dump_indent). */
static void indent_put(struct out *o, unsigned depth, bool space)
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

/* indent_put(), inline where it writes nothing (--jsonl: a million calls
 * on a 21 MB zpool stream) */
static inline void indent(struct out *o, unsigned depth, bool space)
{
	if ((o->flags & JSON_MAX_INDENT) || (space && !(o->flags & JSON_COMPACT)))
		indent_put(o, depth, space);
}

/* Whether one of the 8 bytes of w is a control character, '"' or '\\':
 * a byte below 0x20 borrows into its top bit when 0x20 is taken from it
 * (bytes from 0x80 on are kept out by ~w), a byte equal to c is zero
 * after ^c and borrows when 1 is taken. A borrow passed on to the next
 * byte follows a byte that is found anyway. */
static inline bool escape_in8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
	const uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
	return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & top;
}

/* A string as jansson writes it without JSON_ENSURE_ASCII and
 * JSON_ESCAPE_SLASH: '"', '\\' and control characters escaped, the rest
 * (valid UTF-8, as jansson keeps its strings) as is. Most strings need
 * no escape: they are passed 8 bytes a step. */
static inline bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c != '"' && c != '\\';
}

/* s, which has nothing to escape, between quotes in one copy; false
 * (nothing written) when the buffer has no room for it. */
static inline bool quoted(struct out *o, const char *s, size_t n)
{
	if (n + 2 > OUTBUF - o->n || o->err)
		return false;
	char *d = o->buf + o->n;
	d[0] = '"';
	copy_bytes(d + 1, s, n);
	d[n + 1] = '"';
	o->n += n + 2;
	return true;
}

static void string(struct out *o, const char *s, size_t n)
{
	size_t from = 0, i = 0;
	for (uint64_t w; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		if (escape_in8(w))
			break;
	}
	while (i < n && plain_byte((unsigned char)s[i]))
		i++;
	if (i == n && quoted(o, s, n))
		return;
	put(o, "\"", 1);
	for (; i < n; i++) {
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
		default: snprintf(esc, sizeof esc, "\\u%04X", c); put(o, esc, 6);
		}
	}
	put(o, s + from, n - from);
	put(o, "\"", 1);
}

/* Formatted in the buffer where it has room, as most are. */
static void integer(struct out *o, json_int_t v)
{
	if (OUTBUF - o->n >= BL_NUM_MAX && !o->err) {
		o->n += bl_fmt_int((long long)v, o->buf + o->n);
		return;
	}
	char b[BL_NUM_MAX];
	put(o, b, bl_fmt_int((long long)v, b));
}

/* A real as jansson writes it (numfmt.c): through json_dump_callback
 * each cost 3,500 instructions. golden.c compares the bytes with
 * jansson's for every corpus document. */
static void real(struct out *o, double v)
{
	char b[BL_NUM_MAX];
	size_t n = bl_fmt_real(v, (int)((o->flags >> 11) & 0x1F), b);
	if (!n) {
		o->err = -1;
		return;
	}
	put(o, b, n);
}

static void key(struct out *o, const char *k);

/* v at nesting `depth`, laid out as jansson's dump does (a newline and the
 * indentation of the level before each member and before the closing
 * bracket; "{}" and "[]" when empty). jansson's own dump, called for each
 * value, cost a third of the time on dense tool output: it hands over a
 * few bytes per call and formats every integer with snprintf. Reals are
 * written as its dump writes them (real()). */
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
	case JSON_STRING: string(o, json_string_value(v), json_string_length(v)); break;
	case JSON_INTEGER: integer(o, json_integer_value(v)); break;
	case JSON_TRUE: put(o, "true", 4); break;
	case JSON_FALSE: put(o, "false", 5); break;
	case JSON_NULL: put(o, "null", 4); break;
	default: /* JSON_REAL */ real(o, json_real_value(v));
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

/* What comes before a run: the runs' bracket, or a comma after the run
 * before. */
static void run_separator(struct out *o)
{
	if (o->nruns++) {
		put(o, ",", 1);
		indent(o, 2, true);
	} else {
		put(o, "[", 1);
		indent(o, 2, false);
	}
}

static int put_held_run(struct out *o, struct bl_doc *doc, struct bl_run *run, size_t index);
static int write_results(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t n);
static void free_held(struct out *o);
/* Fills a slot of `set` with name k, the older of the two if both are
 * taken; NULL for a name too long or with a byte to escape. */
static __attribute__((noinline)) const struct key_text *key_fill(struct out *o,
								 struct key_text *set,
								 const char *k)
{
	if (set[0].k && set[1].k) {
		struct key_text t = set[0];
		set[0] = set[1];
		set[1] = t;
	}
	struct key_text *kt = &set[set[0].k ? 1 : 0];
	size_t n = strlen(k);
	for (size_t i = 0; i < n; i++)
		if (!plain_byte((unsigned char)k[i]))
			return NULL;
	if (n > KEY_MAX)
		return NULL;
	memset(kt->t, 0, sizeof kt->t);
	kt->t[0] = '"';
	memcpy(kt->t + 1, k, n);
	kt->t[n + 1] = '"';
	kt->t[n + 2] = ':';
	kt->t[n + 3] = ' ';
	kt->n = n + ((o->flags & JSON_COMPACT) ? 3 : 4);
	kt->k = k;
	return kt;
}

/* The slot of name k (a string literal), filled on first use. */
static inline const struct key_text *key_text(struct out *o, const char *k)
{
	struct key_text *set = &o->keys[2 * bl_hash_ptr(k, KEY_SET_BITS)];
	if (set[0].k == k)
		return &set[0];
	if (set[1].k == k)
		return &set[1];
	return key_fill(o, set, k);
}

/* member() across lines, or of a name not cached */
static __attribute__((noinline)) void member_slow(struct out *o, unsigned depth, bool more,
						  const char *k, const struct key_text *kt)
{
	if (more) {
		put(o, ",", 1);
		indent(o, depth, true);
	} else {
		indent(o, depth, false);
	}
	if (kt)
		put(o, kt->t, kt->n);
	else
		key(o, k);
}

/* One member of an object at `depth` (after the first: `more`), named by
 * the string literal k. */
static inline void member(struct out *o, unsigned depth, bool more, const char *k)
{
	const struct key_text *kt = key_text(o, k);
	if (kt && !(o->flags & JSON_MAX_INDENT) && sizeof kt->t + 2 <= OUTBUF - o->n && !o->err) {
		/* on one line: a comma (and a space unless compact), the name */
		char *d = o->buf + o->n;
		if (more) {
			*d++ = ',';
			if (!(o->flags & JSON_COMPACT))
				*d++ = ' ';
		}
		/* three 16-byte moves: a 48-byte memcpy became rep movs, whose
		 * start-up cost dozens of cycles a name */
		_Static_assert(sizeof kt->t == 48, "the copy below moves 48 bytes");
		memcpy(d, kt->t, 16);
		memcpy(d + 16, kt->t + 16, 16);
		memcpy(d + 32, kt->t + 32, 16);
		o->n = (size_t)(d + kt->n - o->buf);
		return;
	}
	member_slow(o, depth, more, k, kt);
}

/* A string member's value as jansson has it: null for NULL or what it
 * does not take as a string. */
static void string_or_null(struct out *o, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (s && bl_json_string_ok(s, n))
		string(o, s, n);
	else
		put(o, "null", 4);
}

/* A string of a result: the store's, its length and plainness known. */
static void stored(struct out *o, const char *s)
{
	size_t n = bl_strs_len(s);
	if (!bl_strs_plain(s) || !quoted(o, s, n))
		string(o, s, n);
}

/* A result's value: an integer when whole, a real, or null. */
static void result_value(struct out *o, const struct bl_result *r)
{
	double v;
	if (!bl_result_number(r, &v))
		put(o, "null", 4);
	else if (bl_value_is_int(v))
		integer(o, (json_int_t)v);
	else
		real(o, v);
}

static void coord_value(struct out *o, const struct bl_coord *c)
{
	switch (c->type) {
	case BL_VAL_NULL: put(o, "null", 4); break;
	case BL_VAL_TRUE: put(o, "true", 4); break;
	case BL_VAL_FALSE: put(o, "false", 5); break;
	case BL_VAL_INT: integer(o, (json_int_t)c->v.i); break;
	case BL_VAL_REAL: real(o, c->v.d); break;
	default: stored(o, c->v.s);
	}
}

/* A result at nesting `depth`, as value() would write bl_result_json(r). */
static void put_result(struct out *o, const struct bl_result *r, unsigned depth)
{
	put(o, "{", 1);
	bool more = false;
	if (r->metric) {
		member(o, depth + 1, false, "metric");
		stored(o, r->metric);
		more = true;
	}
	member(o, depth + 1, more, "value");
	result_value(o, r);
	if (r->unit) {
		member(o, depth + 1, true, "unit");
		stored(o, r->unit);
	}
	if (r->raw) {
		member(o, depth + 1, true, "raw");
		stored(o, r->raw);
	}
	if (r->flags) {
		const char *names[4];
		size_t n = bl_flag_names(r->flags, names);
		member(o, depth + 1, true, "flags");
		put(o, "[", 1);
		for (size_t i = 0; i < n; i++) {
			if (i)
				put(o, ",", 1);
			indent(o, depth + 2, i > 0);
			string(o, names[i], strlen(names[i]));
		}
		indent(o, depth + 1, false);
		put(o, "]", 1);
	}
	for (unsigned k = 0; k < r->ncoord; k++) {
		member(o, depth + 1, true, r->coord[k].key);
		coord_value(o, &r->coord[k]);
	}
	indent(o, depth, false);
	put(o, "}", 1);
}

/* ------------------------------------------------------------ rows
 *
 * The results of a run of records, as rows (table.h). A row's values are
 * gathered in a text of their own, and written after the row's shape
 * number once the row ends: its shape is known only then. */

/* Whether a run of `tool` is written as rows. */
static bool rows_tool(size_t flags, const char *tool)
{
	const struct bl_parser *p;
	return !(flags & BL_WRITE_OBJECTS) && tool && (p = bl_parser_find(tool)) && p->records &&
	       p->records->rows;
}

struct rowsink {
	struct bl_rows g;
	struct out *row; /* the open row's values, each after ",": depth 5 */
	struct bl_buf over; /* what the row's text held beyond OUTBUF */
};

static struct out *out_new(size_t flags, json_dump_callback_t write, void *wctx);
static void out_free(struct out *o);

static int row_overflow(const char *buf, size_t n, void *ctx)
{
	return bl_buf_put(&((struct rowsink *)ctx)->over, buf, n) ? 0 : -1;
}

/* The flags an element of "rows" is written with: on one line, its
 * members apart by ", " where the document is indented (a row of a
 * `zpool iostat` table reads as one line of it, not as 30). */
static size_t row_flags(size_t flags)
{
	return flags & ~(size_t)JSON_MAX_INDENT;
}

static struct rowsink *rowsink_new(size_t flags)
{
	struct rowsink *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	bl_rows_init(&s->g);
	s->over = (struct bl_buf){0};
	if (!(s->row = out_new(row_flags(flags), row_overflow, s))) {
		free(s);
		return NULL;
	}
	return s;
}

static void rowsink_free(struct rowsink *s)
{
	if (!s)
		return;
	bl_rows_free(&s->g);
	out_free(s->row);
	bl_buf_free(&s->over);
	free(s);
}

/* The separator before a list's next element, at depth 4. */
static void element(struct out *o, size_t *elems)
{
	if ((*elems)++) {
		put(o, ",", 1);
		indent(o, 4, true);
	}
}

static void put_names(struct out *o, const char *const *names, unsigned n)
{
	if (!n) {
		put(o, "[]", 2);
		return;
	}
	put(o, "[", 1);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			put(o, ",", 1);
		indent(o, 6, i > 0);
		string(o, names[i], strlen(names[i]));
	}
	indent(o, 5, false);
	put(o, "]", 1);
}

/* {"shape": id, "coords": [...], "cells": [{"metric": m, "unit": u}...]} */
static void put_shape(struct out *o, const struct bl_row_shape *s, int id)
{
	put(o, "{", 1);
	member(o, 5, false, "shape");
	integer(o, id);
	member(o, 5, true, "coords");
	put_names(o, s->keys, s->nkeys);
	member(o, 5, true, "cells");
	put(o, s->ncells ? "[" : "[]", s->ncells ? 1 : 2);
	for (unsigned i = 0; i < s->ncells; i++) {
		if (i)
			put(o, ",", 1);
		indent(o, 6, i > 0);
		const char *m = s->metric[i], *u = s->unit[i];
		if (!m && !u) {
			put(o, "{}", 2);
			continue;
		}
		put(o, "{", 1);
		if (m) {
			member(o, 7, false, "metric");
			stored(o, m);
		}
		if (u) {
			member(o, 7, m != NULL, "unit");
			stored(o, u);
		}
		indent(o, 6, false);
		put(o, "}", 1);
	}
	if (s->ncells) {
		indent(o, 5, false);
		put(o, "]", 1);
	}
	indent(o, 4, false);
	put(o, "}", 1);
}

static void row_next(struct out *r)
{
	put(r, ",", 1);
	indent(r, 5, true);
}

/* The flags of a cell in a compact row, as written: ,"approximate" and
 * the like, made once for each set of flags (4 bits) a thread writes. */
struct flags_text {
	unsigned char n; /* 0: not made yet; else the length + 1 */
	char t[47]; /* ,"censored","approximate","computed","not-run" */
};
static _Thread_local struct flags_text flags_texts[16];

/* A flag's name has nothing to escape. */
static __attribute__((noinline)) const struct flags_text *flags_fill(unsigned flags)
{
	struct flags_text *f = &flags_texts[flags & 15];
	const char *names[4];
	size_t n = 0, count = bl_flag_names(flags & 15, names);
	for (size_t i = 0; i < count; i++) {
		size_t len = strlen(names[i]);
		f->t[n++] = ',';
		f->t[n++] = '"';
		memcpy(f->t + n, names[i], len);
		n += len;
		f->t[n++] = '"';
	}
	f->n = (unsigned char)(n + 1);
	return f;
}

/* Writes the flags' text at d; its length. */
static inline size_t flags_compact(unsigned flags, char *d)
{
	const struct flags_text *f = &flags_texts[flags & 15];
	if (!f->n)
		f = flags_fill(flags);
	memcpy(d, f->t, sizeof f->t);
	return f->n - 1u;
}

/* row_cell in a compact row (--jsonl, and the default output), written
 * straight into the buffer: ",331" or ",[7864320,"7.5M","approximate"]".
 * False, nothing written, for a real, a raw text that needs escapes, or
 * no room: those take the general way. */
static bool row_cell_compact(struct out *r, const struct bl_result *res)
{
	if ((r->flags & JSON_MAX_INDENT) || !(r->flags & JSON_COMPACT) || r->err)
		return false;
	size_t rawn = res->raw ? bl_strs_len(res->raw) : 0;
	double v = 0;
	bool number = bl_result_number(res, &v);
	if ((res->raw && !bl_strs_plain(res->raw)) || (number && !bl_value_is_int(v)) ||
	    OUTBUF - r->n < rawn + 2 * BL_NUM_MAX + 64)
		return false;
	char *d = r->buf + r->n;
	bool whole = !res->raw && !res->flags;
	*d++ = ',';
	if (!whole)
		*d++ = '[';
	if (number) {
		d += bl_fmt_int((long long)v, d);
	} else {
		memcpy(d, "null", 4);
		d += 4;
	}
	if (!whole) {
		*d++ = ',';
		if (res->raw) {
			*d++ = '"';
			copy_bytes(d, res->raw, rawn);
			d += rawn;
			*d++ = '"';
		} else {
			memcpy(d, "null", 4);
			d += 4;
		}
		d += flags_compact(res->flags, d);
		*d++ = ']';
	}
	r->n = (size_t)(d - r->buf);
	return true;
}

/* A cell: the value, or [value, raw, flag...] (raw null when none). */
static void row_cell(struct out *r, const struct bl_result *res)
{
	if (row_cell_compact(r, res))
		return;
	row_next(r);
	if (!res->raw && !res->flags) {
		result_value(r, res);
		return;
	}
	put(r, "[", 1);
	indent(r, 6, false);
	result_value(r, res);
	put(r, ",", 1);
	indent(r, 6, true);
	if (res->raw)
		stored(r, res->raw);
	else
		put(r, "null", 4);
	const char *names[4];
	size_t n = bl_flag_names(res->flags, names);
	for (size_t i = 0; i < n; i++) {
		put(r, ",", 1);
		indent(r, 6, true);
		put(r, "\"", 1); /* a flag's name has nothing to escape */
		put(r, names[i], strlen(names[i]));
		put(r, "\"", 1);
	}
	indent(r, 5, false);
	put(r, "]", 1);
}

/* Ends the open row: its shape declared when new, then the row. */
static int rows_close(struct out *o, struct rowsink *s, size_t *elems)
{
	if (!s || !s->g.open)
		return o->err;
	bool declare;
	int id = bl_rows_end(&s->g, &declare);
	if (id < 0 || s->row->err)
		return o->err = -1;
	size_t flags = o->flags;
	if (declare) {
		element(o, elems);
		o->flags = row_flags(flags);
		put_shape(o, &s->g.shapes[id], id);
		o->flags = flags;
	}
	element(o, elems);
	o->flags = row_flags(flags);
	put(o, "[", 1);
	integer(o, id);
	put(o, s->over.p, s->over.n);
	put(o, s->row->buf, s->row->n);
	put(o, "]", 1);
	o->flags = flags;
	s->row->n = 0;
	s->over.n = 0;
	return o->err;
}

/* Adds result r to the rows written to o. */
static int rows_add(struct out *o, struct rowsink *s, size_t *elems, const struct bl_result *r)
{
	if (!bl_rows_joins(&s->g, r)) {
		if (rows_close(o, s, elems) != 0 || bl_rows_start(&s->g, r) < 0)
			return o->err = -1;
		for (unsigned k = 0; k < r->ncoord; k++) {
			row_next(s->row);
			coord_value(s->row, &r->coord[k]);
		}
	}
	if (bl_rows_cell(&s->g, r) < 0)
		return o->err = -1;
	row_cell(s->row, r);
	return s->row->err ? (o->err = -1) : o->err;
}

/* The run's results as rows, the value of its "rows" member. */
static void put_rows(struct out *o, const struct bl_results *rs)
{
	size_t n = bl_results_count(rs), elems = 0;
	if (!n) {
		put(o, "[]", 2);
		return;
	}
	struct rowsink *s = rowsink_new(o->flags);
	if (!s) {
		o->err = -1;
		return;
	}
	put(o, "[", 1);
	indent(o, 4, false);
	for (size_t i = 0; i < n && !o->err; i++)
		rows_add(o, s, &elems, bl_results_at(rs, i));
	rows_close(o, s, &elems);
	rowsink_free(s);
	indent(o, 3, false);
	put(o, "]", 1);
}

/* The run's results, as the value of its "results" member. */
static void put_results(struct out *o, const struct bl_results *rs)
{
	size_t n = bl_results_count(rs);
	if (!n) {
		put(o, "[]", 2);
		return;
	}
	put(o, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(o, ",", 1);
		indent(o, 4, i > 0);
		put_result(o, bl_results_at(rs, i), 4);
	}
	indent(o, 3, false);
	put(o, "]", 1);
}

/* Run r after the runs before it, as value() would write
 * bl_doc_run_json(doc, r, index), without the tree. */
static int put_run(struct out *o, struct bl_doc *doc, const struct bl_run *r, size_t index)
{
	run_separator(o);
	put(o, "{", 1);
	member(o, 3, false, "tool");
	string_or_null(o, r->tool);
	member(o, 3, true, "variant");
	string_or_null(o, r->variant);
	member(o, 3, true, "label");
	string_or_null(o, r->label);
	member(o, 3, true, "command");
	string_or_null(o, r->command);
	member(o, 3, true, "group");
	integer(o, r->group < 0 ? (json_int_t)index : r->group);
	if (r->quote_depth) {
		member(o, 3, true, "quote_depth");
		integer(o, r->quote_depth);
	}
	struct bl_span sp = bl_doc_span(doc, r->off, r->end_off);
	const char *const names[] = {"line", "end_line", "offset", "end_offset"};
	const size_t vals[] = {sp.line, sp.end_line, sp.offset, sp.end_offset};
	member(o, 3, true, "span");
	put(o, "{", 1);
	for (size_t i = 0; i < 4; i++) {
		member(o, 4, i > 0, names[i]);
		integer(o, (json_int_t)vals[i]);
	}
	indent(o, 3, false);
	put(o, "}", 1);
	member(o, 3, true, "params");
	value(o, r->params, 3);
	if (rows_tool(o->flags, r->tool)) {
		member(o, 3, true, "rows");
		put_rows(o, &r->results);
	} else {
		member(o, 3, true, "results");
		put_results(o, &r->results);
	}
	if (r->time.present) {
		json_t *t = bl_doc_time_json(doc, &r->time);
		if (!t)
			return o->err = -1;
		member(o, 3, true, "time");
		value(o, t, 3);
		json_decref(t);
	}
	indent(o, 2, false);
	put(o, "}", 1);
	return o->err;
}

static int write_run(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t index)
{
	struct out *o = ctx;
	return o->held ? put_held_run(o, doc, run, index) : put_run(o, doc, run, index);
}

/* The head's members, then "runs": (the caller writes the runs). */
static void write_head(struct out *o, json_t *head)
{
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
}

/* The end of the runs (`nruns` were written), the tail's members and the
 * closing brace. */
static void write_tail(struct out *o, size_t nruns, json_t *tail)
{
	const char *k;
	json_t *v;
	if (nruns) {
		indent(o, 1, false);
		put(o, "]", 1);
	} else {
		put(o, "[]", 2);
	}
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
}

static bool ascii(const char *s)
{
	return !s || bl_ascii_span(s, strlen(s)) == strlen(s);
}

/* The head of bl_doc_head_json() written as value() would write it,
 * without the tree: building and freeing it cost as much as finding the
 * runs in a prose mail. Only for a head of ASCII strings (jansson would
 * take an invalid string as null; ASCII it keeps as is) and no system
 * section; false (nothing written) otherwise. */
static bool write_head_direct(struct out *o, const struct bl_doc *doc)
{
	const struct bl_message *m = doc->msg;
	if (doc->system || !ascii(doc->path) || !ascii(m->subject) || !ascii(m->from) ||
	    !ascii(m->date) || !ascii(m->message_id))
		return false;
	put(o, "{", 1);
	member(o, 1, false, "schema");
	string(o, BL_SCHEMA_ID, strlen(BL_SCHEMA_ID));
	member(o, 1, true, "source");
	put(o, "{", 1);
	member(o, 2, false, "path");
	string_or_null(o, doc->path);
	if (m->subject || m->from || m->date || m->message_id || m->index) {
		member(o, 2, true, "message");
		put(o, "{", 1);
		member(o, 3, false, "index");
		integer(o, (json_int_t)m->index);
		const char *const names[] = {"subject", "from", "date", "message_id"};
		const char *const vals[] = {m->subject, m->from, m->date, m->message_id};
		for (size_t i = 0; i < 4; i++)
			if (vals[i]) {
				member(o, 3, true, names[i]);
				string(o, vals[i], strlen(vals[i]));
			}
		indent(o, 2, false);
		put(o, "}", 1);
	}
	member(o, 2, true, "decoding");
	if (!m->ndecodings) {
		put(o, "[]", 2);
	} else {
		put(o, "[", 1);
		for (size_t i = 0; i < m->ndecodings; i++) {
			if (i) {
				put(o, ",", 1);
				indent(o, 3, true);
			} else {
				indent(o, 3, false);
			}
			string(o, m->decodings[i], strlen(m->decodings[i]));
		}
		indent(o, 2, false);
		put(o, "]", 1);
	}
	member(o, 2, true, "offset");
	integer(o, (json_int_t)m->raw_offset);
	member(o, 2, true, "bytes");
	integer(o, (json_int_t)m->raw_len);
	indent(o, 1, false);
	put(o, "}", 1);
	put(o, ",", 1);
	indent(o, 1, true);
	key(o, "runs");
	return true;
}

/* One out kept from the last message, a thread's own: an mbox of
 * 100,000 messages allocates its 80 KB once, and fills its names' cache
 * once, instead of once a message. */
static _Thread_local struct out *spare;

static struct out *out_new(size_t flags, json_dump_callback_t write, void *wctx)
{
	struct out *o = spare;
	spare = NULL;
	/* the names' text holds a blank or not, as the flags say */
	bool keys_good = o && o->flags == flags;
	if (!o && !(o = malloc(sizeof *o))) /* OUTBUF: not on the stack */
		return NULL;
	if (!keys_good)
		for (size_t i = 0; i < KEY_SLOTS; i++)
			o->keys[i].k = NULL;
	o->write = write;
	o->ctx = wctx;
	o->flags = flags;
	o->nruns = 0;
	o->err = 0;
	o->held = NULL;
	o->n = 0;
	return o;
}

/* Ends o: kept as the spare when there is none. */
static void out_free(struct out *o)
{
	if (!spare)
		spare = o;
	else
		free(o);
}

void bl_write_cleanup(void)
{
	free(spare);
	spare = NULL;
}

json_t *bl_parse_message_write(struct bl_message *m, const char *path, size_t flags,
			       json_dump_callback_t write, void *wctx)
{
	struct out *o = out_new(flags, write, wctx);
	if (!o)
		return NULL;
	struct bl_doc doc;
	if (bl_doc_init(&doc, m, path) < 0) {
		out_free(o);
		return NULL;
	}
	bl_message_prefix_clear(m); /* whole lines, as bl_parse_message reads */
	doc.system = bl_system_extract(m);
	json_t *head = NULL, *tail = NULL;
	if (!write_head_direct(o, &doc)) {
		if (!(head = bl_doc_head_json(&doc)))
			goto fail;
		write_head(o, head);
	}
	doc.sink = write_run;
	doc.results_sink = write_results;
	doc.sink_ctx = o;
	if (bl_scan_message_into(m, &doc) < 0 || doc.sink_rc)
		goto fail;
	tail = bl_doc_tail_json(&doc);
	if (!tail)
		goto fail;
	write_tail(o, o->nruns, tail);
	if (o->err)
		goto fail;
	json_object_set_new(tail, "runs_written", json_integer((json_int_t)o->nruns));
	json_decref(head);
	bl_doc_free(&doc);
	free_held(o);
	out_free(o);
	return tail;
fail:
	json_decref(head);
	json_decref(tail);
	bl_doc_free(&doc);
	free_held(o);
	out_free(o);
	return NULL;
}

/* ------------------------------------------------ windows of one input
 *
 * A large text input comes as windows (ingest/window.h), which make one
 * document. Its head (source.decoding, source.bytes, system) is known
 * only after the last window, and it comes before the runs: the runs are
 * written to a spill (spill.h) and copied out after the head. */

/* system items kept from all windows (system.c keeps as many per message) */
#define SYSTEM_ITEMS_MAX 200

static int put_spilled(const char *buf, size_t n, void *o)
{
	put(o, buf, n);
	return ((struct out *)o)->err;
}

/* Copies the spill to o. */
static void spill_out(struct bl_spill *sp, struct out *o)
{
	if (bl_spill_copy(sp, put_spilled, o) != 0)
		o->err = -1;
}

/* Puts the bytes of `from` after o's: taken over whole when o writes to
 * a spill and from is in a file, not copied. from is left to be freed. */
static void spill_append(struct out *o, struct bl_spill *from)
{
	if (o->write == bl_spill_write && bl_spill_in_file(from)) {
		flush_out(o);
		if (o->err || bl_spill_adopt(o->ctx, from))
			return;
	}
	spill_out(from, o);
}

/* Results written as text one after another, for a run whose results are
 * written before the run itself is: a stream of records handed over while
 * it is claimed (bl_doc_run_progress), or held across windows. Memory,
 * then a temporary file. */
struct rlist {
	struct out *o;
	struct bl_spill sp;
	size_t n; /* results */
	size_t elems; /* elements written: results, or rows and shapes */
	struct rowsink *rows; /* a list of rows: their gathering */
	const char *tool; /* the tool of the results added, and */
	bool as_rows; /* whether they are rows (rows_tool) */
};

/* l's writer, made on first use; it writes to l's spill wherever l has
 * been moved since (a list is handed over by copying it) */
static struct out *rlist_out(struct rlist *l, size_t flags)
{
	if (!l->o)
		l->o = out_new(flags, bl_spill_write, &l->sp);
	if (l->o)
		l->o->ctx = &l->sp;
	return l->o;
}

/* Adds a result of a run of `tool` to l. */
static int rlist_add(struct rlist *l, size_t flags, const char *tool,
		     const struct bl_result *result)
{
	if (!rlist_out(l, flags))
		return -1;
	l->n++;
	if (tool != l->tool) {
		l->tool = tool;
		l->as_rows = rows_tool(flags, tool);
	}
	if (l->as_rows) {
		if (!l->rows && !(l->rows = rowsink_new(flags)))
			return -1;
		return rows_add(l->o, l->rows, &l->elems, result);
	}
	element(l->o, &l->elems);
	put_result(l->o, result, 4);
	return l->o->err;
}

/* Adds the run's results [from, n) after those of l. */
static int rlist_add_run(struct rlist *l, size_t flags, const struct bl_run *r, size_t from)
{
	int rc = 0;
	for (size_t i = from; i < bl_results_count(&r->results) && !rc; i++)
		rc = rlist_add(l, flags, r->tool, bl_results_at(&r->results, i));
	return rc;
}

/* Writes l's open row: its text is then whole. Into l's own spill,
 * wherever l was moved since (as rlist_out). */
static int rlist_close_row(struct rlist *l)
{
	if (!l->rows || !l->o)
		return 0;
	l->o->ctx = &l->sp;
	return rows_close(l->o, l->rows, &l->elems);
}

static void rlist_free(struct rlist *l)
{
	out_free(l->o);
	bl_spill_free(&l->sp);
	rowsink_free(l->rows);
	memset(l, 0, sizeof *l);
}

/* Moves the results of `from` after those of `to`. */
static int rlist_move(struct rlist *to, size_t flags, struct rlist *from)
{
	int rc = 0;
	if (from->n) {
		if (!rlist_out(to, flags) || !rlist_out(from, flags) || rlist_close_row(to) ||
		    rlist_close_row(from)) {
			rlist_free(from);
			return -1;
		}
		flush_out(from->o);
		if (to->elems) {
			put(to->o, ",", 1);
			indent(to->o, 4, true);
		}
		spill_append(to->o, &from->sp);
		to->n += from->n;
		to->elems += from->elems;
		/* from's declarations now stand after to's: to declares anew */
		if (!to->rows) {
			to->rows = from->rows;
			from->rows = NULL;
		}
		if (to->rows)
			bl_rows_forget(&to->rows->g);
		rc = from->o->err || to->o->err ? -1 : 0;
	}
	rlist_free(from);
	return rc;
}

/* Run j (a run's JSON without its results) after the runs before it, as
 * put_run() puts it, its results those of l; l is emptied. */
static int put_run_list(struct out *o, json_t *j, struct rlist *l)
{
	if (l->o) {
		rlist_close_row(l);
		flush_out(rlist_out(l, o->flags));
		if (l->o->err)
			goto fail;
	}
	bool rows = rows_tool(o->flags, json_string_value(json_object_get(j, "tool")));
	run_separator(o);
	put(o, "{", 1);
	indent(o, 3, false);
	for (void *it = json_object_iter(j); it;) {
		const char *k = json_object_iter_key(it);
		bool results = strcmp(k, "results") == 0;
		key(o, results && rows ? "rows" : k);
		if (!results) {
			value(o, json_object_iter_value(it), 3);
		} else if (!l->n) {
			put(o, "[]", 2);
		} else {
			put(o, "[", 1);
			indent(o, 4, false);
			spill_append(o, &l->sp);
			indent(o, 3, false);
			put(o, "]", 1);
		}
		if ((it = json_object_iter_next(j, it))) {
			put(o, ",", 1);
			indent(o, 3, true);
		}
	}
	indent(o, 2, false);
	put(o, "}", 1);
	rlist_free(l);
	return o->err;
fail:
	rlist_free(l);
	return -1;
}

/* The results handed over before their runs, by run: the run under way
 * streams its results while the run before it still waits to be written
 * (the scanner keeps the last run open until the next one begins), and a
 * claim may make several runs. */
#define HELD_RUNS 4
struct held_runs {
	struct {
		bool used;
		const char *tool;
		size_t off; /* the run's start: which run */
		struct rlist l;
	} v[HELD_RUNS];
};

/* The list of the run, or a free one made its when `make`; NULL when
 * there is none (then the run keeps its results). */
static struct rlist *held_of(struct held_runs *h, const struct bl_run *run, bool make)
{
	for (size_t i = 0; i < HELD_RUNS; i++)
		if (h->v[i].used && h->v[i].off == run->off && h->v[i].tool == run->tool)
			return &h->v[i].l;
	for (size_t i = 0; make && i < HELD_RUNS; i++)
		if (!h->v[i].used) {
			h->v[i].used = true;
			h->v[i].tool = run->tool;
			h->v[i].off = run->off;
			return &h->v[i].l;
		}
	return NULL;
}

static void held_done(struct held_runs *h, struct rlist *l)
{
	for (size_t i = 0; i < HELD_RUNS; i++)
		if (&h->v[i].l == l) {
			rlist_free(l);
			h->v[i].used = false;
		}
}

/* Run r, whose first results were handed over before it (write_results):
 * those, then its own. */
static int put_held_run(struct out *o, struct bl_doc *doc, struct bl_run *run, size_t index)
{
	struct rlist *l = held_of(o->held, run, false);
	if (!l || !l->n) {
		if (l)
			held_done(o->held, l);
		return put_run(o, doc, run, index);
	}
	json_t *j = bl_doc_run_head_json(doc, run, index);
	int rc = !j || rlist_add_run(l, o->flags, run, 0) != 0 ? -1 : put_run_list(o, j, l);
	held_done(o->held, l);
	json_decref(j);
	return rc;
}

static int write_results(void *ctx, struct bl_doc *doc, struct bl_run *run, size_t n)
{
	(void)doc;
	struct out *o = ctx;
	if (!o->held && !(o->held = calloc(1, sizeof *o->held)))
		return -1;
	struct rlist *l = held_of(o->held, run, true);
	if (!l)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (rlist_add(l, o->flags, run->tool, bl_results_at(&run->results, i)) != 0)
			return -1;
	return 0;
}

static void free_held(struct out *o)
{
	for (size_t i = 0; o->held && i < HELD_RUNS; i++)
		rlist_free(&o->held->v[i].l);
	free(o->held);
	o->held = NULL;
}

struct bl_window_doc {
	char *path;
	struct bl_carry carry; /* bl_doc.carry of each window */
	struct out *runs; /* to `spill` */
	struct bl_spill spill;
	size_t nruns;
	int err;
	/* the head: from the first window, the decodings of all */
	char *subject, *from, *date, *message_id;
	size_t index;
	const char *decodings[BL_MAX_DECODINGS];
	size_t ndecodings;
	size_t offset, end; /* of the input (or mail) the windows make */
	size_t before_end; /* the end of what the window before read */
	json_t *system;
	size_t system_items;
	/* the tail */
	struct bl_diags msg_diags, doc_diags;
	bool partial;
	/* runs kept so far: where the last starts and ends, its group, tool,
	 * command and label */
	bool have_last;
	size_t last_off, last_end, last_group;
	const char *last_tool;
	char *last_command, *last_label;
	size_t kept_end, floor; /* the end of the last run kept that the next
				 * window does not see whole; floor: kept_end
				 * when the window began */
	long next_group;
	/* this window: its run numbers to the document's (-1: dropped) */
	long *ids;
	size_t nids, idcap;
	long prev_local, prev_global; /* group of the run before, window's and document's */
	/* this window's runs' diagnostics past its thousand: all, those of
	 * offsets outside its own part, and those it counts (of the runs it
	 * keeps, as it keeps their stored ones) */
	size_t run_drops, run_drops_elsewhere, kept_run_drops;
	size_t tail_from; /* input offset of the window's last line */
	/* a run of records that its window's end cut, held for the next
	 * window to continue (struct bl_records): its JSON with the records
	 * that start in the window's own part, the results of the others
	 * (kept for when no continuation comes), their number, its run
	 * number, and the window's runs that began and continued it */
	struct {
		json_t *run;
		struct rlist results, tail;
		const struct bl_records *rec;
		const char *tool;
		size_t nrec, id, at;
		/* where the next window takes its records from: the start of
		 * the first record the window did not settle (unsettled_from),
		 * or the end of its own part */
		size_t from_off;
		size_t ntail; /* records whose results are in `tail` */
		/* this window cannot read again the record at from_off, and
		 * keeps it as read (keep_cut_record): it continues from its own
		 * part */
		bool cut_kept;
		bool touched; /* opened or continued by this window */
		long local, cont_local;
		char *resume; /* the run's resume text (bl_run.resume), owned */
	} open;
	/* the results a run of records under way in this window handed over
	 * (window_results): it continues the held run, or it is its own, its
	 * results before and after the window's own part ends apart */
	struct cur {
		size_t off; /* the run's start (text offset) */
		enum { CUR_NONE, CUR_CONT, CUR_OWN, CUR_DECLINED } mode;
		struct rlist results, tail;
	} cur[2]; /* the run under way, and the one before until it is final */
};

static void cur_free(struct cur *c)
{
	rlist_free(&c->results);
	rlist_free(&c->tail);
	c->mode = CUR_NONE;
}

/* The slot of the run that starts at text offset `off`; a free one made
 * its when `make` (the run under way: any other is final by then). */
static struct cur *cur_of(struct bl_window_doc *w, size_t off, bool make)
{
	for (size_t i = 0; i < 2; i++)
		if (w->cur[i].mode != CUR_NONE && w->cur[i].off == off)
			return &w->cur[i];
	if (!make)
		return NULL;
	for (size_t i = 0; i < 2; i++)
		if (w->cur[i].mode == CUR_NONE) {
			w->cur[i].off = off;
			return &w->cur[i];
		}
	return NULL;
}

struct bl_window_doc *bl_window_doc_new(const char *path, size_t flags)
{
	struct bl_window_doc *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->path = strdup(path ? path : "-");
	w->runs = out_new(flags, bl_spill_write, &w->spill);
	if (!w->path || !w->runs) {
		bl_window_doc_free(w);
		return NULL;
	}
	return w;
}

void bl_window_doc_free(struct bl_window_doc *w)
{
	if (!w)
		return;
	free(w->path);
	free(w->carry.p);
	out_free(w->runs);
	bl_spill_free(&w->spill);
	free(w->subject);
	free(w->from);
	free(w->date);
	free(w->message_id);
	free(w->last_command);
	free(w->last_label);
	json_decref(w->system);
	json_decref(w->open.run);
	rlist_free(&w->open.results);
	rlist_free(&w->open.tail);
	free(w->open.resume);
	cur_free(&w->cur[0]);
	cur_free(&w->cur[1]);
	bl_diags_free(&w->msg_diags);
	bl_diags_free(&w->doc_diags);
	free(w->ids);
	free(w);
}

/* The first of the run's records that starts at input offset `from` or
 * later (r->nrec when none does); they start in the text's order, which
 * is the input's. */
static size_t record_from(const struct bl_message *m, const struct bl_run *r, size_t from)
{
	size_t lo = 0, hi = r->nrec;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (bl_message_origin(m, r->rec_off[mid]) < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first record of run r that this window does not settle, r's
 * records from `from` on being its to settle: those from its own part's
 * end on; and when the window's end cuts r, the last record it read,
 * whose end may be cut too (a zpool sample longer than the context after
 * the own part: the next window reads it again from its start). */
static size_t unsettled_from(const struct bl_message *m, const struct bl_run *r, size_t from,
			     bool cut)
{
	size_t to = record_from(m, r, m->window.own_to);
	if (cut && to == r->nrec && to > from)
		to--;
	return to;
}

/* Where the window after continues a run that this window settled up to
 * its record `to`: that record's start, or this window's own end when it
 * read none past it. */
static size_t next_from(const struct bl_message *m, const struct bl_run *r, size_t to)
{
	return to < r->nrec ? bl_message_origin(m, r->rec_off[to]) : m->window.own_to;
}

/* The record of a result: its number under the records' key; a result
 * with none is the run's own, after all its records (dd's records lines
 * and summary below its progress display). */
static size_t record_of(const struct bl_records *rec, const struct bl_result *result)
{
	if (!bl_result_get(result, rec->key))
		return SIZE_MAX;
	long long v = bl_result_int(result, rec->key, 0);
	return v < 0 ? 0 : (size_t)v;
}

/* The params of held run j, which has n records, where the tool counts
 * them. */
static void count_records(const struct bl_records *rec, json_t *j, size_t n)
{
	if (rec->count)
		rec->count(json_object_get(j, "params"), n);
}

/* The record of results one after another: those of one place (the
 * values of a table row) are of the same record, read once. */
struct record_cache {
	uint64_t place;
	size_t record;
};

static size_t record_of_next(struct record_cache *rc, const struct bl_records *rec,
			     const struct bl_result *result)
{
	if (result->place && result->place == rc->place)
		return rc->record;
	rc->place = result->place;
	return rc->record = record_of(rec, result);
}

/* Writes the held run. Not continued (no window after its own saw it):
 * with the results of its records past the cut, which may be cut. */
static int close_open(struct bl_window_doc *w, bool continued)
{
	json_t *j = w->open.run;
	size_t flags = w->runs->flags;
	int rc = 0;
	if (!continued && w->open.tail.n) {
		rc = rlist_move(&w->open.results, flags, &w->open.tail);
		w->open.nrec += w->open.ntail;
		count_records(w->open.rec, j, w->open.nrec);
		struct bl_diag *d = bl_diags_add(
			&w->doc_diags, BL_WARNING, "ingest.window-cut-run", 0, w->open.at,
			"this run reaches the end of a window of the input and the window after it "
			"does not continue it: its last records may be cut");
		if (d) {
			d->run = (long)w->open.id;
			json_t *span = json_object_get(j, "span");
			d->line = (size_t)json_integer_value(json_object_get(span, "line"));
		}
		w->partial = true;
	}
	if (rc == 0)
		rc = put_run_list(w->runs, j, &w->open.results);
	json_decref(j);
	w->open.run = NULL;
	rlist_free(&w->open.results);
	rlist_free(&w->open.tail);
	free(w->open.resume);
	w->open.resume = NULL;
	return rc;
}

/* Takes the resume text of run r (held or continued) for the next window. */
static void take_resume(struct bl_window_doc *w, struct bl_run *r)
{
	if (!r->resume)
		return;
	free(w->open.resume);
	w->open.resume = r->resume;
	r->resume = NULL;
}

/* Holds run r, which the window's end cut, for the next window: with
 * the results of its records that start before the window's own part
 * ends (and those it handed over before); those of the others aside. */
static int open_run(struct bl_window_doc *w, struct bl_doc *doc, struct bl_run *r,
		    const struct bl_records *rec, size_t index, size_t at, struct cur *c)
{
	struct bl_message *m = doc->msg;
	size_t flags = w->runs->flags;
	json_t *j = bl_doc_run_head_json(doc, r, w->nruns);
	if (!j)
		return -1;
	if (c) {
		w->open.results = c->results;
		w->open.tail = c->tail;
		memset(&c->results, 0, sizeof c->results);
		memset(&c->tail, 0, sizeof c->tail);
	}
	size_t cut = unsettled_from(m, r, 0, true);
	int rc = 0;
	for (size_t i = 0; i < bl_results_count(&r->results); i++) {
		const struct bl_result *res = bl_results_at(&r->results, i);
		rc |= rlist_add(record_of(rec, res) < cut ? &w->open.results : &w->open.tail, flags,
				r->tool, res);
	}
	count_records(rec, j, cut);
	w->open.run = j; /* its results in the lists */
	w->open.rec = rec;
	w->open.tool = r->tool;
	w->open.nrec = cut;
	w->open.ntail = r->nrec - cut;
	w->open.from_off = next_from(m, r, cut);
	w->open.id = w->nruns++;
	w->open.at = at;
	w->open.touched = true;
	w->open.local = (long)index;
	take_resume(w, r);
	return rc ? -1 : 0;
}

/* Whether run r of doc, from input offset `at`, reads on the held run:
 * the same tool, from before the window's own part; or the run its
 * parser's resume read on with, from no later than the held run's next
 * record (from_off), or from anywhere when that record starts before the
 * own part (the window before could not read it whole: continues_from
 * keeps what was read of it). */
static bool reads_on_open(const struct bl_window_doc *w, const struct bl_doc *doc,
			  const struct bl_run *r, size_t at)
{
	size_t own_from = doc->msg->window.own_from, next = w->open.from_off;
	bool resumed = doc->resume.read && doc->base == 0 && doc->nruns && &doc->runs[0] == r;
	return w->open.run && !w->open.touched && r->tool == w->open.tool &&
	       (at < own_from || (resumed && (at <= next || next < own_from)));
}

/* Whether run r of this window is the held run seen again, reaching into
 * the window's own part. */
static bool continues_open(const struct bl_window_doc *w, const struct bl_doc *doc,
			   const struct bl_run *r, size_t at, size_t end)
{
	return reads_on_open(w, doc, r, at) && r->nrec && end > doc->msg->window.own_from;
}

/* The held run's last record, which the window before read as far as
 * its end and this window does not read again from its start (longer
 * than the context before this window's own part): kept as read there,
 * and said to be so. */
static void keep_cut_record(struct bl_window_doc *w)
{
	if (rlist_move(&w->open.results, w->runs->flags, &w->open.tail) != 0)
		w->err = -1;
	w->open.nrec += w->open.ntail;
	w->open.ntail = 0;
	count_records(w->open.rec, w->open.run, w->open.nrec);
	w->open.cut_kept = true;
	struct bl_diag *d = bl_diags_add(
		&w->doc_diags, BL_WARNING, "ingest.window-cut-record", 0, w->open.from_off,
		"a record of this run (a sample) is longer than what is read around a cut "
		"between two windows of the input: it is kept as far as one window read it");
	if (d)
		d->run = (long)w->open.id;
	w->partial = true;
}

/* The first record of run r, this window's reading of the held run, that
 * continues it: the one at the held run's from_off (r->nrec while r has
 * not read that far). When r has no record there (it begins later), the
 * window before's reading of that record is kept, and r continues from
 * this window's own part. */
static size_t continues_from(struct bl_window_doc *w, const struct bl_message *m,
			     const struct bl_run *r)
{
	if (w->open.cut_kept)
		return record_from(m, r, m->window.own_from);
	size_t k = record_from(m, r, w->open.from_off);
	if (k >= r->nrec)
		return r->nrec;
	if (w->open.from_off < m->window.own_from &&
	    bl_message_origin(m, r->rec_off[k]) != w->open.from_off) {
		keep_cut_record(w);
		k = record_from(m, r, m->window.own_from);
	}
	return k;
}

/* Adds the results of run r from its record continues_from() on to the
 * held run, numbered on from the held ones; those of its records from
 * `to` on aside, numbered on too (they follow the held ones when no
 * window continues the run). The first time: what was aside of the held
 * run is obsolete, this window has read it again. */
static int continue_results(struct bl_window_doc *w, const struct bl_message *m, struct bl_run *r,
			    size_t n, struct cur *c, size_t to)
{
	const struct bl_records *rec = w->open.rec;
	size_t from = continues_from(w, m, r);
	if (!c || c->mode != CUR_CONT) {
		rlist_free(&w->open.tail);
		w->open.ntail = 0;
		if (c)
			c->mode = CUR_CONT;
	}
	size_t flags = w->runs->flags;
	int rc = 0;
	uint64_t was = 0, now = 0; /* the last place renumbered, and its new one */
	struct record_cache seen = {0};
	for (size_t i = 0; i < n; i++) {
		struct bl_result *res = bl_results_at(&r->results, i);
		size_t k = record_of_next(&seen, rec, res);
		if (k < from)
			continue;
		/* results of one place are of one record, renumbered alike
		 * here: they share a new place */
		uint64_t place = res->place;
		if (k != SIZE_MAX)
			rec->renumber(res, w->open.nrec + (k - from));
		if (place && place != was) {
			was = place;
			now = bl_place_new();
		}
		res->place = place ? now : 0;
		rc |= rlist_add(k >= to ? &w->open.tail : &w->open.results, flags, w->open.tool,
				res);
	}
	return rc ? -1 : 0;
}

/* The held run seen again, r: continued by its results, held on when this
 * window cut it too, else written. */
static int continue_open(struct bl_window_doc *w, struct bl_doc *doc, struct bl_run *r,
			 size_t index, bool cut)
{
	struct bl_message *m = doc->msg;
	const struct bl_records *rec = w->open.rec;
	struct cur *c = cur_of(w, r->off, false);
	size_t from = continues_from(w, m, r);
	size_t to = cut ? unsettled_from(m, r, from, true) : r->nrec;
	/* not cut: the records this window handed on past its own part
	 * (continue_results put them aside) come before those left */
	if (!cut && c && c->mode == CUR_CONT && w->open.tail.n &&
	    rlist_move(&w->open.results, w->runs->flags, &w->open.tail) != 0)
		return -1;
	if (continue_results(w, m, r, bl_results_count(&r->results), c, to) != 0)
		return -1;
	if (c)
		c->mode = CUR_NONE; /* its lists are the held run's */
	json_t *j = w->open.run;
	w->open.nrec += to > from ? to - from : 0;
	if (cut) {
		w->open.from_off = next_from(m, r, to);
		w->open.ntail = r->nrec - to;
	}
	count_records(rec, j, w->open.nrec);
	/* the span ends where this window's part of the run does */
	struct bl_span now = bl_doc_span(doc, r->off, r->end_off);
	json_t *span = json_object_get(j, "span");
	json_object_set_new(span, "end_line", json_integer((json_int_t)now.end_line));
	json_object_set_new(span, "end_offset", json_integer((json_int_t)now.end_offset));
	w->open.touched = true;
	w->open.cont_local = (long)index;
	w->ids[index] = (long)w->open.id;
	if (cut) {
		w->open.local = (long)index;
		take_resume(w, r);
		return 0;
	}
	/* not cut: this reading reaches the run's end, which may tell the
	 * variant the window that held it could not (dd's summary below a
	 * progress display); what was aside comes after, as read */
	if (r->variant && json_is_null(json_object_get(j, "variant")))
		json_object_set_new(j, "variant", json_string(r->variant));
	if (rlist_move(&w->open.results, w->runs->flags, &w->open.tail) != 0)
		return -1;
	return close_open(w, true);
}

/* Whether the window may keep a run that begins at `at`: in its own part
 * and after the runs kept, or cut at the window's first byte (which
 * window_run_one settles once the run's end is known). */
static bool may_keep(const struct bl_window_doc *w, const struct bl_message *m, size_t at)
{
	return at >= w->floor && at < m->window.own_to &&
	       (at >= m->window.own_from || at == m->raw_offset);
}

/* Whether a run from input offset `at` to `end` begins in the part the
 * window before owned but ends past all that window read, and no run kept
 * before reaches into it: that window could not read the run whole, and
 * did not claim it (a dd progress display of megabytes, which only the
 * summary below makes a run). This window keeps it. */
static bool unseen_before(const struct bl_window_doc *w, const struct bl_message *m, size_t at,
			  size_t end)
{
	return m->window.index > 0 && at >= w->floor && at < m->window.own_from &&
	       end > w->before_end && end > m->window.own_from &&
	       !(w->have_last && w->last_end > at);
}

/* The results sink of a window: the results of a run of records under way
 * (bl_doc_run_progress) go where the run will (window_run decides the
 * same by the run's start): into the held run it continues, aside for a
 * run the window owns, or they stay in the run. */
static int window_results(void *ctx, struct bl_doc *doc, struct bl_run *r, size_t n)
{
	struct bl_window_doc *w = ctx;
	struct bl_message *m = doc->msg;
	const struct bl_parser *p = bl_parser_find(r->tool);
	size_t at = bl_message_origin(m, r->off);
	if (!p || !p->records)
		return 1;
	struct cur *c = cur_of(w, r->off, true);
	if (!c)
		return 1;
	if (c->mode == CUR_NONE) {
		if (reads_on_open(w, doc, r, at)) {
			/* its records before those that continue the held
			 * run are this window's to drop: dropped until one
			 * continues it */
			if (continues_from(w, m, r) >= r->nrec)
				return 0;
			return continue_results(w, m, r, n, c, record_from(m, r, m->window.own_to));
		}
		/* a run cut at the window's first byte is kept or not once its
		 * end is known (window_run_one): its results are put aside as
		 * an own run's until then */
		c->mode = may_keep(w, m, at) ||
					  unseen_before(w, m, at, bl_message_origin(m, r->end_off))
				  ? CUR_OWN
				  : CUR_DECLINED;
	}
	if (c->mode == CUR_CONT)
		return continue_results(w, m, r, n, c, record_from(m, r, m->window.own_to));
	/* a run the window cannot keep (a fragment of one the window before
	 * kept, or the next window's) has its results let go as they come: a
	 * dense table in the context around the window's own part would
	 * otherwise be held whole, 440 bytes a value */
	if (c->mode == CUR_DECLINED)
		return 0;
	size_t to = record_from(m, r, m->window.own_to), flags = w->runs->flags;
	int rc = 0;
	struct record_cache seen = {0};
	for (size_t i = 0; i < n; i++) {
		const struct bl_result *res = bl_results_at(&r->results, i);
		rc |= rlist_add(record_of_next(&seen, p->records, res) >= to ? &c->tail
									     : &c->results,
				flags, r->tool, res);
	}
	return rc ? -1 : 0;
}

/* A run kept from input offset `at` to `end`, in repeat group g: the
 * last kept, and the next window drops what it sees of a run that starts
 * before its bytes do, a fragment of this one (a run it sees whole, it
 * owns or drops by its start). */
static void note_kept(struct bl_window_doc *w, const struct bl_message *m, const struct bl_run *r,
		      size_t at, size_t end, long g)
{
	w->have_last = true;
	w->last_off = at;
	w->last_end = end;
	w->last_group = (size_t)g;
	w->last_tool = r->tool;
	free(w->last_command);
	free(w->last_label);
	w->last_command = r->command ? strdup(r->command) : NULL;
	w->last_label = r->label ? strdup(r->label) : NULL;
	if (at < m->window.next_from && end > w->kept_end)
		w->kept_end = end;
}

/* Whether r, which this window drops, is the last run kept seen again
 * from where the window's bytes start: a run of another window's that
 * ends here. */
static bool tail_of_last(const struct bl_window_doc *w, const struct bl_run *r, size_t at,
			 size_t end)
{
	return w->have_last && r->tool == w->last_tool && at > w->last_off && end == w->last_end;
}

/* Gives r, the last run kept seen again from where this window starts,
 * the command and label read where that run began (a window before), so
 * that the run after it is grouped with it as in a whole reading (doc.c's
 * repeat groups compare the command of the run before). */
static void take_last_head(const struct bl_window_doc *w, struct bl_run *r)
{
	if (w->last_command && !r->command)
		r->command = strdup(w->last_command);
	if (w->last_label && !r->label)
		r->label = strdup(w->last_label);
}

/* Room in w->ids for run `index` of the window, the runs before it
 * marked dropped until told. */
static int ids_room(struct bl_window_doc *w, size_t index)
{
	if (index >= w->idcap) {
		size_t cap = w->idcap ? w->idcap * 2 : 64;
		while (cap <= index)
			cap *= 2;
		long *v = realloc(w->ids, cap * sizeof *v);
		if (!v)
			return -1;
		w->ids = v;
		w->idcap = cap;
	}
	while (w->nids <= index)
		w->ids[w->nids++] = -1;
	return 0;
}

/* The document's repeat group of run r (from input offset `at` to `end`),
 * which the window kept or not: the window numbers its own; a run dropped
 * here that the window before kept (the same start) carries its group
 * over. -1: none (a run dropped that no window kept). */
static long repeat_group(struct bl_window_doc *w, struct bl_run *r, size_t at, size_t end,
			 bool keep)
{
	long g;
	if (r->group == w->prev_local && w->prev_global >= 0)
		g = w->prev_global;
	else if (!keep && w->have_last && at == w->last_off)
		g = (long)w->last_group;
	else if (!keep && tail_of_last(w, r, at, end)) {
		take_last_head(w, r);
		g = (long)w->last_group;
	} else if (keep)
		g = w->next_group++;
	else
		g = -1;
	w->prev_local = r->group;
	w->prev_global = g;
	return g;
}

/* Says of kept run r, next in the document, that its first line began
 * before its window (head_cut) or that the window's end may cut it. */
static void say_window_cut(struct bl_window_doc *w, struct bl_message *m, const struct bl_run *r,
			   size_t at, bool head_cut, bool cut)
{
	if (head_cut) {
		struct bl_diag *d = bl_diags_add(
			&w->doc_diags, BL_INFO, "ingest.window-cut-line",
			bl_message_line(m, r->off), at,
			"this run's first line starts before the %zu bytes read with it: its span "
			"starts at the first of them",
			m->raw_len);
		if (d)
			d->run = (long)w->nruns;
	}
	if (cut) {
		struct bl_diag *d = bl_diags_add(
			&w->doc_diags, BL_WARNING, "ingest.window-cut-run",
			bl_message_line(m, r->off), at,
			"this run reaches the end of a window of the input (%zu bytes read at once): "
			"it may be cut, its rest read as another run",
			m->raw_len);
		if (d)
			d->run = (long)w->nruns;
		w->partial = true;
	}
}

/* Writes kept run r to the spill, after the results it handed over
 * before (c's), if any. */
static int write_kept(struct bl_window_doc *w, struct bl_doc *doc, struct bl_run *r, struct cur *c)
{
	if (!c || (!c->results.n && !c->tail.n))
		return write_run(w->runs, doc, r, w->nruns);
	/* results handed over before: theirs come first */
	json_t *j = bl_doc_run_head_json(doc, r, w->nruns);
	int rc = !j || rlist_move(&c->results, w->runs->flags, &c->tail) != 0 ||
				 rlist_add_run(&c->results, w->runs->flags, r, 0) != 0
			 ? -1
			 : put_run_list(w->runs, j, &c->results);
	json_decref(j);
	return rc;
}

/* The run sink of a window: keeps the runs that start in the window's own
 * part of the input and after the runs already kept, gives them the
 * document's numbers and repeat groups, and writes them to the spill. */
static int window_run_one(struct bl_window_doc *w, struct bl_doc *doc, struct bl_run *r,
			  size_t index, struct cur *c)
{
	struct bl_message *m = doc->msg;
	size_t at = bl_message_origin(m, r->off), end = bl_message_origin(m, r->end_off);
	/* a run that starts where the window does and reaches its own part
	 * began in a line longer than the context read before it (a block
	 * after megabytes of NUL bytes): no window before saw its end */
	bool head_cut = at == m->raw_offset && m->window.index > 0 && !m->window.text_starts &&
			!(w->have_last && w->last_off >= at);
	bool keep = (may_keep(w, m, at) &&
		     (at >= m->window.own_from || (head_cut && end >= m->window.own_from))) ||
		    unseen_before(w, m, at, end);
	if (ids_room(w, index) != 0)
		return -1;
	size_t e = m->raw_offset + m->raw_len, after = e - m->window.own_to;
	size_t margin = after / 2 < 4096 ? after / 2 : 4096;
	/* the run reaches into the last line the window read, which the
	 * window's end may have cut, or nearly: so may the run be (what would
	 * have extended it, a time report below, was not read) */
	bool cut = !m->window.last && !m->window.text_ends &&
		   (end > w->tail_from || end + margin >= e);
	w->run_drops += r->diags_dropped;
	w->run_drops_elsewhere += r->diags_dropped_elsewhere;
	/* of the held run's, only its own part's (as its stored ones) */
	size_t own_drops = r->diags_dropped - r->diags_dropped_elsewhere;
	/* a run whose records the window's end cuts is held for the next
	 * window; one whose records ended (dd's summary) only said to be cut
	 * (a time report below it may be past the window) */
	bool records_cut = cut && !r->records_end;
	if (continues_open(w, doc, r, at, end)) {
		w->kept_run_drops += own_drops;
		take_last_head(w, r);
		w->last_end = end;
		w->prev_local = r->group;
		w->prev_global = json_integer_value(json_object_get(w->open.run, "group"));
		if (at < m->window.next_from && end > w->kept_end)
			w->kept_end = end;
		return continue_open(w, doc, r, index, records_cut);
	}
	long g = repeat_group(w, r, at, end, keep);
	if (!keep)
		return 0;
	if (w->open.run && close_open(w, false) != 0)
		return -1;
	r->group = g;
	const struct bl_parser *p = bl_parser_find(r->tool);
	if (records_cut && p && p->records && p->records->renumber && r->nrec) {
		w->kept_run_drops += own_drops;
		if (open_run(w, doc, r, p->records, index, at, c) != 0)
			return -1;
		w->ids[index] = (long)w->open.id;
		note_kept(w, m, r, at, end, g);
		return 0;
	}
	w->ids[index] = (long)w->nruns;
	w->kept_run_drops += r->diags_dropped;
	say_window_cut(w, m, r, at, head_cut, cut);
	if (write_kept(w, doc, r, c) != 0)
		return -1;
	w->nruns++;
	note_kept(w, m, r, at, end, g);
	return 0;
}

/* The run sink of a window (above), and the end of what the run handed
 * over before (window_results). */
static int window_run(void *ctx, struct bl_doc *doc, struct bl_run *r, size_t index)
{
	struct bl_window_doc *w = ctx;
	struct cur *c = cur_of(w, r->off, false);
	/* r is written with the document's group, and doc.c groups the next
	 * run with it by the window's own number: that is given back */
	long local = r->group;
	int rc = window_run_one(w, doc, r, index, c);
	r->group = local;
	if (c)
		cur_free(c);
	return rc;
}

/* The window's decodings not seen yet, each put in its pipeline place
 * (bl_decoding_rank): one window may need only the charset repaired and
 * another only quoting stripped, and the whole reading lists both in
 * the order it ran them. */
static void add_decodings(struct bl_window_doc *w, const struct bl_message *m)
{
	for (size_t i = 0; i < m->ndecodings; i++) {
		const char *name = m->decodings[i];
		int rank = bl_decoding_rank(name);
		size_t k = 0, at = w->ndecodings;
		for (; k < w->ndecodings && strcmp(w->decodings[k], name) != 0; k++)
			if (at == w->ndecodings && bl_decoding_rank(w->decodings[k]) > rank)
				at = k;
		if (k < w->ndecodings)
			continue;
		if (w->ndecodings == BL_MAX_DECODINGS)
			return;
		memmove(w->decodings + at + 1, w->decodings + at,
			(w->ndecodings - at) * sizeof *w->decodings);
		w->decodings[at] = name;
		w->ndecodings++;
	}
}

/* The window's system items on its own lines (an item on the line where
 * the window begins is the window before's, unless that line starts
 * here), appended to the document's. */
static void add_system(struct bl_window_doc *w, struct bl_message *m)
{
	size_t own_from = m->window.own_from - m->raw_offset;
	size_t first_line = m->raw_line + bl_message_raw_lines(m, 0, own_from);
	bool line_starts = bl_message_raw_line_start(m, own_from);
	/* what lies past the window's own part is the next window's */
	size_t len = m->len;
	m->len = bl_message_text_at(m, m->window.own_to);
	json_t *sys = bl_system_extract(m);
	m->len = len;
	memset(m->lc_start, 0, sizeof m->lc_start);
	memset(m->lc_hi, 0, sizeof m->lc_hi);
	m->lc_last = 0;
	if (!sys)
		return;
	if (!w->system)
		w->system = json_object();
	const char *k;
	json_t *items;
	json_object_foreach(sys, k, items)
	{
		size_t i;
		json_t *it;
		json_array_foreach(items, i, it)
		{
			size_t line = (size_t)json_integer_value(json_object_get(it, "line"));
			if (line < first_line || (line == first_line && !line_starts))
				continue;
			if (w->system_items >= SYSTEM_ITEMS_MAX)
				break;
			json_t *to = json_object_get(w->system, k);
			if (!to) {
				to = json_array();
				json_object_set_new(w->system, k, to);
			}
			json_array_append(to, it);
			w->system_items++;
		}
	}
	json_decref(sys);
}

static void copy_diag(struct bl_diags *to, const struct bl_diag *d, long run)
{
	struct bl_diag *c =
		bl_diags_add(to, d->level, d->code, d->line, d->offset, "%s", d->message);
	if (c)
		c->run = run;
}

/* The diagnostics of window m's decoding that the document keeps. */
static void keep_decoding_diags(struct bl_window_doc *w, struct bl_message *m)
{
	const size_t own_from = m->window.own_from, own_to = m->window.own_to;
	if (m->window.rough_cut) {
		struct bl_diag *d = bl_diags_add(
			&w->msg_diags, BL_INFO, "ingest.window-rough-cut", 0, own_from,
			"the text has no line break, sentence end or NUL bytes to cut a window at "
			"near byte %zu (a line, or a page's text, too long to read at once), where "
			"it was cut: runs around it may be missing or cut",
			own_from);
		if (d)
			d->line =
				m->raw_line + bl_message_raw_lines(m, 0, own_from - m->raw_offset);
	}
	for (size_t i = 0; i < m->diags.n; i++) {
		/* its own part's, and what the last window says of bytes
		 * before its own (an HTML comment never closed, where it
		 * opened; so does a mail part's last), or the first window of a
		 * mail's part of the parts passed over before it */
		const struct bl_diag *d = &m->diags.v[i];
		if ((d->offset >= own_from && (d->offset < own_to || m->window.last)) ||
		    ((m->window.last || m->window.text_ends) && d->offset < m->raw_offset) ||
		    (m->window.text_starts && d->offset <= m->raw_offset))
			copy_diag(&w->msg_diags, d, -1);
	}
	w->msg_diags.dropped += m->diags.dropped;
}

/* The diagnostics of window m's runs (doc's) that the document keeps,
 * and whether they make it partial. What is said of the lines another
 * window owns is that window's to say (a header cut at the window's end,
 * a sample of a continued run cut in two), and so is the document being
 * partial because of it. */
static void keep_doc_diags(struct bl_window_doc *w, const struct bl_message *m,
			   const struct bl_doc *doc)
{
	const size_t own_from = m->window.own_from, own_to = m->window.own_to;
	size_t kept_warnings = 0, other_warnings = 0;
	for (size_t i = 0; i < doc->diags.n; i++) {
		const struct bl_diag *d = &doc->diags.v[i];
		bool keep;
		if (d->run >= 0) {
			bool before = d->run == w->open.cont_local && d->offset < own_from;
			bool past = d->run == w->open.local && d->offset >= own_to;
			keep = (size_t)d->run < w->nids && w->ids[d->run] >= 0 && !before && !past;
		} else {
			keep = d->offset >= own_from && (d->offset < own_to || m->window.last);
		}
		if (d->level >= BL_WARNING) {
			kept_warnings += keep;
			other_warnings += !keep;
		}
		if (keep)
			copy_diag(&w->doc_diags, d, d->run >= 0 ? w->ids[d->run] : -1);
	}
	/* the dropped diagnostics of no run, by where they point; those of
	 * runs, as the runs are kept */
	size_t of_doc = doc->diags.dropped - w->run_drops,
	       of_doc_elsewhere = doc->diags.dropped_elsewhere - w->run_drops_elsewhere;
	size_t dropped = of_doc - of_doc_elsewhere + w->kept_run_drops;
	w->doc_diags.dropped += dropped;
	/* partial for a warning of another window's part alone: that window
	 * reads it (an info dropped past the list's size says nothing) */
	bool others = other_warnings && !kept_warnings && !doc->diags.dropped_warnings;
	w->partial |= (doc->partial && !others) || m->truncated;
}

int bl_window_doc_add(struct bl_window_doc *w, struct bl_message *m)
{
	if (w->err)
		return -1;
	if (m->window.index > 0 && m->subject) {
		/* a page's first <h1> in a window past the first */
		free(w->subject);
		w->subject = strdup(m->subject);
	}
	if (m->window.index == 0) {
		w->index = m->index;
		w->offset = m->raw_offset;
		w->subject = m->subject ? strdup(m->subject) : NULL;
		w->from = m->from ? strdup(m->from) : NULL;
		w->date = m->date ? strdup(m->date) : NULL;
		w->message_id = m->message_id ? strdup(m->message_id) : NULL;
	}
	add_decodings(w, m);
	w->before_end = m->window.index > 0 ? w->end : 0;
	w->end = m->raw_offset + m->raw_len;
	add_system(w, m);
	w->floor = w->kept_end;
	const char *nl = m->len ? memrchr(m->text, '\n', m->len) : NULL;
	w->tail_from = nl ? bl_message_origin(m, (size_t)(nl - m->text)) + 1 : m->raw_offset;
	w->nids = 0;
	w->open.touched = false;
	w->open.cut_kept = false;
	w->open.local = w->open.cont_local = -1;
	w->prev_local = -2;
	w->prev_global = -1;
	w->run_drops = w->run_drops_elsewhere = w->kept_run_drops = 0;
	struct bl_doc doc;
	if (bl_doc_init(&doc, m, w->path) < 0) {
		w->err = -1;
		return -1;
	}
	doc.sink = window_run;
	doc.results_sink = window_results;
	doc.sink_ctx = w;
	doc.carry = &w->carry;
	/* the held run is read on by its parser's resume, where it left
	 * resume text, and its parser is told of it; but not when no record
	 * of it starts before this window's part (none settled, none left to
	 * read again): its command and header are then in this window's
	 * context, and a scan reads the run from there as a claim would */
	if (w->open.run && (w->open.nrec || w->open.from_off < m->window.own_from)) {
		doc.resume.tool = w->open.tool;
		doc.resume.text = w->open.resume;
	}
	if (w->have_last) {
		doc.window_before.tool = w->last_tool;
		doc.window_before.label = w->last_label;
		doc.window_before.end = w->last_end;
	}
	doc.diags.own_from = m->window.own_from;
	doc.diags.own_to = m->window.last ? SIZE_MAX : m->window.own_to;
	if (bl_scan_message_into(m, &doc) < 0 || doc.sink_rc || w->runs->err) {
		bl_doc_free(&doc);
		w->err = -1;
		return -1;
	}
	if (w->open.run && !w->open.touched && close_open(w, false) != 0) {
		bl_doc_free(&doc);
		w->err = -1;
		return -1;
	}
	keep_decoding_diags(w, m);
	keep_doc_diags(w, m, &doc);
	bl_doc_free(&doc);
	return 0;
}

json_t *bl_window_doc_finish(struct bl_window_doc *w, json_dump_callback_t write, void *wctx)
{
	if (w->err)
		return NULL;
	if (w->open.run && close_open(w, false) != 0)
		return NULL;
	flush_out(w->runs);
	if (w->runs->err)
		return NULL;
	/* a message and a document that stand for the whole input */
	struct bl_message m;
	memset(&m, 0, sizeof m);
	m.index = w->index;
	m.subject = w->subject;
	m.from = w->from;
	m.date = w->date;
	m.message_id = w->message_id;
	memcpy(m.decodings, w->decodings, sizeof m.decodings);
	m.ndecodings = w->ndecodings;
	m.raw_offset = w->offset;
	m.raw_len = w->end - w->offset;
	m.diags = w->msg_diags;
	struct bl_doc doc;
	struct out *o = out_new(w->runs->flags, write, wctx);
	if (!o || bl_doc_init(&doc, &m, w->path) < 0) {
		out_free(o);
		return NULL;
	}
	doc.system = json_incref(w->system);
	doc.diags = w->doc_diags;
	doc.partial = w->partial;
	json_t *head = bl_doc_head_json(&doc), *tail = bl_doc_tail_json(&doc);
	if (head && tail) {
		write_head(o, head);
		spill_out(&w->spill, o);
		write_tail(o, w->nruns, tail);
		json_object_set_new(tail, "runs_written", json_integer((json_int_t)w->nruns));
	}
	int err = !head || !tail || o->err;
	/* the diagnostics stay w's */
	memset(&doc.diags, 0, sizeof doc.diags);
	bl_doc_free(&doc);
	json_decref(head);
	out_free(o);
	if (err) {
		json_decref(tail);
		return NULL;
	}
	return tail;
}

int bl_parse_message_or_window(struct bl_window_doc **windows, struct bl_message *m,
			       const char *path, size_t flags, json_dump_callback_t write,
			       void *wctx, json_t **tail)
{
	*tail = NULL;
	if (!m->window.on) {
		*tail = bl_parse_message_write(m, path, flags, write, wctx);
		return *tail ? 0 : -1;
	}
	if (!*windows && !(*windows = bl_window_doc_new(path, flags)))
		return -1;
	if (bl_window_doc_add(*windows, m) < 0)
		return -1;
	if (!m->window.last)
		return 0;
	*tail = bl_window_doc_finish(*windows, write, wctx);
	bl_window_doc_free(*windows);
	*windows = NULL;
	return *tail ? 0 : -1;
}
