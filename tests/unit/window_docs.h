/* window_docs.h - the documents of an input read in windows, against
 * those of a whole reading, and the encodings mails send text in: shared
 * by the unit tests of windows (test_window.c) and of mails read part by
 * part (test_parts.c). */
#ifndef BL_TEST_WINDOW_DOCS_H
#define BL_TEST_WINDOW_DOCS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../feed.h"
#include "check.h"

struct buf {
	char *s;
	size_t n, cap;
};

static inline int buf_write(const char *s, size_t n, void *ctx)
{
	struct buf *b = ctx;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

struct docs {
	json_t *docs; /* array */
	struct bl_window_doc *w;
	size_t windows;
};

static inline void add_doc(struct docs *d, struct buf *b)
{
	json_error_t e;
	json_t *j = json_loadb(b->s ? b->s : "", b->n, 0, &e);
	CHECK(j != NULL);
	/* rows (table.h) as results: windows may declare a shape again */
	CHECK(!j || bl_doc_expand_rows(j) == NULL);
	if (j)
		json_array_append_new(d->docs, j);
	free(b->s);
}

static inline int each(struct bl_message *m, void *ctx)
{
	struct docs *d = ctx;
	struct buf b = {0};
	const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15);
	json_t *tail;
	if (m->window.on) {
		d->windows++;
		if (!d->w)
			d->w = bl_window_doc_new("input", flags);
		if (bl_window_doc_add(d->w, m) < 0)
			return -1;
		if (!m->window.last)
			return 0;
		tail = bl_window_doc_finish(d->w, buf_write, &b);
		bl_window_doc_free(d->w);
		d->w = NULL;
	} else {
		tail = bl_parse_message_write(m, "input", flags, buf_write, &b);
	}
	CHECK(tail != NULL);
	json_decref(tail);
	add_doc(d, &b);
	return 0;
}

/* The documents of s read in windows (window 0: whole); *nwin windows. */
static inline json_t *parse(const char *s, size_t len, size_t window, size_t overlap, size_t *nwin)
{
	struct docs d = {json_array(), NULL, 0};
	struct feed f = {s, len, 0, 65536, 100003};
	int rc = bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, window,
					 overlap, each, &d);
	CHECK(rc == 0);
	bl_window_doc_free(d.w);
	if (nwin)
		*nwin = d.windows;
	return d.docs;
}

/* s as the body of a quoted-printable mail: '=' and bytes past ASCII
 * as =XX, lines past 70 bytes broken softly (inside a character too). */
static inline size_t qp_encode(const char *s, size_t n, char *out)
{
	size_t l = 0, col = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			out[l++] = '\n';
			col = 0;
			continue;
		}
		if (col >= 70) {
			memcpy(out + l, "=\n", 2);
			l += 2;
			col = 0;
		}
		if (c >= 0x80 || c == '=') {
			l += (size_t)sprintf(out + l, "=%02X", c);
			col += 3;
		} else {
			out[l++] = (char)c;
			col++;
		}
	}
	return l;
}

/* s in base64: lines of `width` characters (SIZE_MAX: one line) ended by
 * `eol`; `junk` (if any) inserted after every `every` characters. */
static inline size_t b64_enc_v(const unsigned char *s, size_t n, size_t width, const char *eol,
			       const char *junk, size_t every, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t l = 0, col = 0, cnt = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) |
			     (i + 2 < n ? s[i + 2] : 0);
		char q[4] = {a[v >> 18 & 63], a[v >> 12 & 63], i + 1 < n ? a[v >> 6 & 63] : '=',
			     i + 2 < n ? a[v & 63] : '='};
		for (int k = 0; k < 4; k++) {
			out[l++] = q[k];
			if (junk && ++cnt % every == 0) {
				memcpy(out + l, junk, strlen(junk));
				l += strlen(junk);
			}
			if (++col == width) {
				memcpy(out + l, eol, strlen(eol));
				l += strlen(eol);
				col = 0;
			}
		}
	}
	if (col) {
		memcpy(out + l, eol, strlen(eol));
		l += strlen(eol);
	}
	return l;
}

/* s as a base64 body in lines of `width` characters (76 from encoders;
 * any other width puts groups of four across line breaks). */
static inline size_t base64_encode(const unsigned char *s, size_t n, size_t width, char *out)
{
	return b64_enc_v(s, n, width, "\n", NULL, 0, out);
}

/* Whether docs are the whole reading's: all of them, or (`all` false)
 * their sources (their decodings) and runs alone. */
static inline bool like_whole(json_t *whole, json_t *docs, bool all)
{
	if (all)
		return json_equal(docs, whole);
	if (json_array_size(docs) != json_array_size(whole))
		return false;
	for (size_t i = 0; i < json_array_size(whole); i++) {
		json_t *a = json_array_get(whole, i), *b = json_array_get(docs, i);
		if (!json_equal(json_object_get(a, "source"), json_object_get(b, "source")) ||
		    !json_equal(json_object_get(a, "runs"), json_object_get(b, "runs")))
			return false;
	}
	return true;
}

/* Whether the documents docs of input s, read in windows, are those of
 * its whole reading `whole`, as a test counts them alike. */
typedef bool (*docs_like_fn)(const char *s, json_t *whole, json_t *docs);

static inline bool docs_all_like(const char *s, json_t *whole, json_t *docs)
{
	(void)s;
	return like_whole(whole, docs, true);
}

static inline bool docs_runs_like(const char *s, json_t *whole, json_t *docs)
{
	(void)s;
	return like_whole(whole, docs, false);
}

/* The documents of s in windows of several sizes are those of a whole
 * reading (`like`); *nwin: the windows of the first (the most). */
static inline void check_windows_by(const char *s, size_t len, size_t ndocs, size_t *nwin,
				    docs_like_fn like)
{
	json_t *whole = parse(s, len, 0, 0, NULL);
	CHECK(json_array_size(whole) == ndocs);
	for (size_t window = 16384; window < 70000; window = window * 2 + 77) {
		size_t n = 0;
		json_t *docs = parse(s, len, window, window / 4, &n);
		if (window == 16384)
			*nwin = n;
		bool same = like(s, whole, docs);
		if (!same)
			printf("windows of %zu: the documents differ from a whole reading\n",
			       window);
		CHECK(same);
		json_decref(docs);
	}
	json_decref(whole);
}

static inline void check_like_whole(const char *s, size_t len, size_t ndocs, size_t *nwin)
{
	check_windows_by(s, len, ndocs, nwin, docs_all_like);
}

/* The sources and runs alone: windows smaller than unflatten.c's huge
 * line do not each see a line longer than it, which the whole reading
 * notes. */
static inline void check_sources_runs_like_whole(const char *s, size_t len, size_t ndocs,
						 size_t *nwin)
{
	check_windows_by(s, len, ndocs, nwin, docs_runs_like);
}

#endif
