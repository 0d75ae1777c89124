/* reader.h - the chunked reader of stream.c and the spans it reads in
 * windows, shared with parts.c (a long multipart mail, part by part). */
#ifndef BL_READER_H
#define BL_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "decode.h"
#include "ingest.h"

/* An input read a chunk at a time: buf holds input bytes [base,
 * base + len). */
struct reader {
	const struct bl_ingest_plan *plan; /* the tools' sites and shapes */
	bl_read_fn rd;
	void *rctx;
	char *buf;
	size_t len, cap;
	size_t base; /* input offset of buf[0] */
	bool eof;
	/* reading bytes already in memory (bl_mbox_cuts_in): buf points into
	 * them, `left` more follow what was read, and each drop is told to
	 * `done` (NULL: not) */
	bool in_memory;
	size_t left;
	void (*done)(void *dctx, size_t upto);
	void *dctx;
};

struct bl_parts;

/* What bl_span_windows reads: a text input from its start, one mail
 * from its first byte to its end, or a text part of a mail read part by
 * part (parts.c). */
struct span {
	enum bl_input_format fmt;
	size_t index; /* of the message in its input */
	size_t start, line; /* input offset and line of its first byte */
	const struct bl_headers *body; /* a mail, or an HTML page: how its
					* windows past the first are decoded */
	struct bl_html_state html; /* a page: where its decoding stands at
				    * the next window's first byte */
	bool base64; /* a mail's body in base64 */
	size_t data_from; /* base64: where its characters start */
	bool ended; /* base64: its data ended ('=') before the window */
	int wide; /* a text in UTF-16 or UTF-32: its order (BL_UTF16_LE...) */
	bool framed; /* a mail of an mbox: ends at the next separator line */
	size_t end; /* where it ends (SIZE_MAX until found) */
	size_t scan; /* framed: where the search for its end goes on */
	size_t end_line; /* the line where it ends, once read */
	/* a text part (decoded by `body` from its first window on): the walk
	 * whose delimiters end it; its windows are numbered from
	 * first_index, and `more`: windows of the same document follow its
	 * last */
	struct bl_parts *part_of;
	size_t first_index;
	bool more;
};

/* Reads one more chunk (growing the buffer when it is full); 0, -1 when
 * memory ran out, -2 on a read error. */
int bl_reader_fill(struct reader *r);
/* Drops the bytes before input offset `from` (base <= from <= the end of
 * what was read). */
void bl_reader_drop(struct reader *r, size_t from);
/* Looks for the end of a framed span, or of a part, in what was read
 * since the last look. */
void bl_span_find_end(const struct reader *r, struct span *sp);
/* The span sp a window at a time (window.h), buf[0] its first byte;
 * `overlap` < window / 2. On return sp->end and sp->end_line say where
 * it ended. */
int bl_span_windows(struct reader *r, struct span *sp, size_t window, size_t overlap,
		    bl_message_fn each, void *ctx);

/* parts.c - the end of text part sp of walk w in what its reader holds,
 * once read (sp->end). */
void bl_parts_find_end(struct bl_parts *w, struct span *sp);
/* The mail at `at` (buf[0] its first byte, its headers h, taken over,
 * with a multipart body from input offset body_at), longer than window +
 * overlap: part by part, its windows one document (*taken), or left to
 * be read whole when its first delimiter is not within a window of its
 * body's start. *next: where the message after it starts. */
int bl_parts_windows(struct reader *r, enum bl_input_format fmt, const struct bl_mbox_cut *at,
		     size_t scan, struct bl_headers *h, size_t body_at, size_t window,
		     size_t overlap, bl_message_fn each, void *ctx, struct bl_mbox_cut *next,
		     bool *taken);

#endif
