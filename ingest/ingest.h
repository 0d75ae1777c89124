/* ingest.h - raw input bytes to messages of clean text.
 *
 * The input is split into messages (an mbox holds many; anything else is
 * one) and each is handed to a callback as soon as it is decoded, a long
 * one a window at a time (window.h), so that memory is bounded by a
 * window, or by the largest message that cannot be windowed. Decoding
 * undoes what mail and archives did to a transcript: MIME,
 * quoted-printable, base64, charsets, HTML, mail quoting, re-wrapped lines
 * and posts flattened onto one line. Every text byte keeps its offset in
 * the input (see message.h).
 *
 * Each function takes the plan of the readers above (the parsers'
 * bl_parser_ingest(), shapes.h): the sites of each message's text are
 * found with its site plan once, for the unflattener here and the
 * parsers after, and the tools' shapes tell the unflattener and the
 * rewrapper what tool lines look like. With NULL no tool is known:
 * nothing is unflattened or rejoined. */
#ifndef BL_INGEST_H
#define BL_INGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/message.h"
#include "shapes.h"

/* Called once per message; a non-zero return stops ingestion and is
 * returned by bl_ingest_*. The message is freed after the call. */
typedef int (*bl_message_fn)(struct bl_message *m, void *ctx);

enum bl_input_format {
	BL_INPUT_AUTO, /* detect from the first bytes */
	BL_INPUT_TEXT, /* plain text (quoted-printable still detected) */
	BL_INPUT_MBOX, /* mbox archive: many messages */
	BL_INPUT_EML, /* one RFC 5322 message */
	BL_INPUT_HTML, /* an HTML page */
	BL_INPUT_QP, /* quoted-printable text without headers */
};

const char *bl_input_format_name(enum bl_input_format f);
/* "auto", "text", "mbox", "eml", "html", "qp"; false if unknown. */
bool bl_input_format_parse(const char *s, enum bl_input_format *out);
/* What the first bytes of an input look like (never BL_INPUT_AUTO/QP). */
enum bl_input_format bl_detect_format(const char *s, size_t len);

/* The message of raw[0, len), the whole input, as ingest makes it of a
 * plain text that nothing in needs decoding (as the windows that read it
 * found): its text is raw itself, which BL_TEXT_PAD zero bytes follow.
 * It has no sites: it is shown, not parsed again. */
struct bl_message;
void bl_ingest_as_is(struct bl_message *m, const char *raw, size_t len);
/* Ingests a whole buffer (format detected). Returns 0, the callback's
 * non-zero value, or -1 when memory ran out. */
int bl_ingest_buffer(const struct bl_ingest_plan *plan, const char *raw, size_t len,
		     bl_message_fn each, void *ctx);
int bl_ingest_buffer_as(const struct bl_ingest_plan *plan, const char *raw, size_t len,
			enum bl_input_format fmt, bl_message_fn each, void *ctx);

/* Reads up to cap bytes into buf: returns the count, 0 at the end, -1 on
 * a read error. */
typedef long (*bl_read_fn)(void *rctx, char *buf, size_t cap);

/* Ingests a stream read in chunks: an mbox is split at its "From " lines
 * and each message handed over before the next is read. Plain text (and
 * quoted-printable text without headers) longer than a window is handed
 * over a window at a time (m->window.on; see window.h), and so is a mail
 * (of an mbox or alone) whose body is one plain-text part in an
 * ASCII-compatible charset: the windows of
 * one input, or of one mail, make one document. Other mails and HTML
 * pages are read whole. Returns 0, the callback's value, -1 when memory ran out, -2 on a
 * read error. */
int bl_ingest_stream(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
		     enum bl_input_format fmt, bl_message_fn each, void *ctx);
/* The same with the window's size and the context read on either side of
 * it (bl_ingest_stream: BL_WINDOW_DEFAULT, BL_WINDOW_OVERLAP); window 0
 * reads every input whole. An overlap of half the window or more is cut
 * to a quarter of it. */
int bl_ingest_stream_window(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
			    enum bl_input_format fmt, size_t window, size_t overlap,
			    bl_message_fn each, void *ctx);

/* Where a message of an mbox begins in the whole input: byte offset, line
 * (from 1) and message index (from 0). */
struct bl_mbox_cut {
	size_t offset, line, index;
};
extern const struct bl_mbox_cut bl_mbox_start; /* {0, 1, 0} */

/* Where to cut an mbox so that its pieces, each read by
 * bl_ingest_mbox_piece, give the messages of a whole reading: for each of
 * the n ascending byte offsets in targets, the first message that begins
 * at or after it (cuts[k].offset is the input's size, line and index 0,
 * when none does). rd reads from the message start `from` on
 * (&bl_mbox_start, or a cut found before: the cuts can be found a few at
 * a time). Frames the input without decoding it and reads no further
 * than the last target's message. Returns 0, -1 when memory ran out, -2
 * on a read error. */
int bl_mbox_cuts(bl_read_fn rd, void *rctx, const struct bl_mbox_cut *from, const size_t *targets,
		 size_t n, struct bl_mbox_cut *cuts);

/* The same over the rest of the input in memory, s[0, len) (from
 * `from` on: a mapped file, read without a copy). As the framing moves on
 * it tells `done` (when set) that the bytes before input offset `upto`
 * are read no more, so that they can be unmapped. Returns 0, or -1 when
 * memory ran out. */
int bl_mbox_cuts_in(const char *s, size_t len, const struct bl_mbox_cut *from,
		    const size_t *targets, size_t n, struct bl_mbox_cut *cuts,
		    void (*done)(void *dctx, size_t upto), void *dctx);

/* Ingests one piece of an mbox, read by rd from the message start `at`
 * (bl_mbox_start, or a cut from bl_mbox_cuts) up to the first message
 * that begins at or after `until` (SIZE_MAX: to the end), which is the
 * cut of target `until`: the piece ends without knowing where, and reads
 * a chunk past its end at most. Offsets, lines and message indexes count
 * from the start of the whole input, as in a whole reading. Returns as
 * bl_ingest_stream. */
int bl_ingest_mbox_piece(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
			 const struct bl_mbox_cut *at, size_t until, bl_message_fn each, void *ctx);

/* For the readers that frame a stream into messages and windows
 * (stream.c): the decoding pipeline of one message (ingest.c). */
struct bl_headers;

/* Where the decoding `name` (an entry of source.decoding) comes in the
 * pipeline of a text or a single-part mail, the inputs read in windows:
 * the windows' decodings are merged in this order, which is that of a
 * whole reading even when no window has all of them. Unknown names come
 * last. */
int bl_decoding_rank(const char *name);

/* Decodes m->raw into m->text by the steps of `fmt`. `padded`:
 * BL_TEXT_PAD readable zero bytes follow m->raw, which is then read in
 * place. `qp_decided`: plain text whose quoted-printable test was made
 * already (on the first window of a large input). `body`: m is a window
 * of a mail's body past the first, decoded by the mail's headers (NULL
 * otherwise). Returns 0, or -1 when memory ran out. */
int bl_ingest_decode(struct bl_message *m, enum bl_input_format fmt, bool padded, bool qp_decided,
		     const struct bl_headers *body);

/* Decodes the message raw[0, len) (input offset raw_offset, line
 * raw_line, index-th of its input) and hands it to each; returns each's
 * value, or -1 when memory ran out. */
int bl_ingest_one(const struct bl_ingest_plan *plan, const char *raw, size_t len, size_t raw_offset,
		  size_t raw_line, size_t index, enum bl_input_format fmt, bool padded,
		  bl_message_fn each, void *ctx);

#endif
