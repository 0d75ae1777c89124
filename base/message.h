/* message.h - one message of input as clean UTF-8 text, with a map back to
 * the original bytes.
 *
 * Ingest turns raw bytes (a plain file, later mail and HTML) into messages.
 * Every later stage reads `text`; positions reported to the user go through
 * bl_message_origin() and bl_message_line() so that they point at the bytes
 * of the original file, whatever decoding happened in between. */
#ifndef BL_MESSAGE_H
#define BL_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct bl_sites;

/* From text offset `text_off` on, text byte t came from raw byte
 * raw_off + (step + 1) (t - text_off) of the message, until the next
 * segment: step 0 for a copy; 1 for ASCII decoded from UTF-16 ("d\0d\0"
 * made "dd", each byte from the first of its two); 2 for a run of
 * quoted-printable's escapes ("=E6=BC=A2" made 3 bytes, each from its
 * '='); any step from 1 to 3 for bytes put one by one that far apart
 * (bl_tbuf_putc). A step-0 segment's bytes past those it came from map
 * to the last of them (a replacement: U+FFFD for one byte). 32 bits each, half the memory of a map with an entry every few
 * bytes (text with a bad byte every third one: 2 million entries a
 * window): a text is at most BL_TBUF_MAX bytes (BL_SEG_MAX), and raw
 * offsets count from the message's first byte, at most BL_SEG_RAW_MAX. */
struct bl_offset_seg {
	uint32_t text_off;
	uint32_t raw_off : 30;
	uint32_t step : 2;
};
#define BL_SEG_MAX ((size_t)UINT32_MAX)
#define BL_SEG_RAW_MAX (((size_t)1 << 30) - 1)

/* The raw offset that text offset t, in segment g, came from. */
static inline size_t bl_seg_raw(const struct bl_offset_seg *g, size_t t)
{
	return g->raw_off + (t - g->text_off) * (g->step + 1u);
}

#define BL_MAX_DECODINGS 12

/* Zero bytes after a message's text, for code that reads a little ahead. */
#define BL_TEXT_PAD 64

/* From original offset raw_off on, lines were quoted `depth` deep ("> ",
 * ">> "), until the next entry. */
struct bl_quote_seg {
	size_t raw_off;
	int depth;
};

/* The lines starting at text offsets [from, to) that begin, after their
 * blanks, with the bytes text[at, at + n) have both left out by the line
 * readers (see bl_message_prefix_add). */
struct bl_prefix_seg {
	size_t from, to;
	size_t at, n;
};

/* Raw bytes in UTF-16 or UTF-32 (bl_message.raw_wide): the encoding and
 * its byte order. 0 stands for bytes where a line feed is '\n'. */
enum { BL_UTF16_LE = 1, BL_UTF16_BE = 2, BL_UTF32_LE = 3, BL_UTF32_BE = 4 };
/* The bytes of a unit of such an order: 2 or 4 (1 for 0). */
static inline size_t bl_wide_size(int order)
{
	return order >= BL_UTF32_LE ? 4 : order ? 2 : 1;
}

struct bl_message {
	size_t index; /* 0-based position in the input (mbox order) */
	const char *raw; /* original bytes of this message (borrowed) */
	size_t raw_len;
	int raw_wide; /* the raw bytes are UTF-16 or UTF-32 of this order (0:
		       * not): a line break is a unit, "\n\0" in UTF-16LE */
	size_t raw_offset; /* offset of raw[0] in the input file */
	size_t raw_line; /* 1-based line of raw[0] in the input file */

	char *text; /* decoded UTF-8, NUL-terminated and followed by
				* BL_TEXT_PAD - 1 more zero bytes (owned unless
				* text_borrowed) */
	size_t len;
	bool text_borrowed; /* text is in `raw` itself (nothing needed
				* decoding, or a mail's body past its headers,
				* and raw is padded): not freed with the message */

	struct bl_offset_seg *segs; /* sorted by text_off; owned */
	size_t nsegs, segcap;

	char *subject, *from, *date, *message_id; /* owned, may be NULL */
	const char *decodings[BL_MAX_DECODINGS]; /* static strings, in order */
	size_t ndecodings;

	struct bl_diags diags; /* what ingest noticed */
	bool truncated; /* the input was cut off (MIME, base64, HTML): the
				* document is partial */

	struct bl_quote_seg *quotes; /* sorted by raw_off; owned; may be NULL */
	size_t nquotes, quotecap;

	/* prefixes left out of the lines they stand on (sorted by from,
	 * disjoint; owned; may be NULL) */
	struct bl_prefix_seg *prefixes;
	size_t nprefixes, prefixcap;

	/* One window of an input too large to decode whole (see window.h):
	 * the runs that start in input bytes [own_from, own_to) are this
	 * window's; the bytes around them are context shared with the
	 * windows before and after. All windows of an input make one
	 * document. */
	struct {
		bool on;
		bool last;
		size_t index;
		size_t own_from, own_to;
		size_t next_from; /* where the next window's bytes start */
		bool rough_cut; /* own_from is not at a safe point (see window.h) */
		bool mid_line; /* the window's first byte does not start a line */
		/* a window of one part of a mail read part by part: the
		 * part's text starts with its first byte, or ends with its
		 * last (no run goes on across either) */
		bool text_starts, text_ends;
		bool ended; /* the body's data ended before it (base64's '='):
			     * nothing of it is text */
		int wide; /* a window of a UTF-16 or UTF-32 text: its order
			   * (BL_UTF16_LE...), decided on the text's start */
		/* a window of an HTML page past its first: where the page's
		 * decoding stands at its first byte (html.c) */
		struct bl_html_state {
			enum bl_html_open {
				BL_HTML_IN_TEXT,
				BL_HTML_IN_CDATA,
				BL_HTML_IN_COMMENT,
				BL_HTML_IN_SCRIPT,
				BL_HTML_IN_STYLE
			} open; /* the markup the window starts inside */
			int pre; /* <pre> elements open */
			int newlines; /* line breaks at the end of the text so far */
			bool pending_space; /* a blank seen, not yet written */
			bool started; /* some text came before */
			bool h1_found, title_found; /* headings before: the
						     * first names the page */
			/* a comment open at the window's start: where its
			 * "<!--" is (input offset and line) */
			size_t comment_from, comment_line;
		} html;
	} window;

	/* the places of the text the scan, the system reader and the
	 * unflattener look at (sites.h), found once; owned, NULL until found;
	 * `plan`: what ingest looks for (NULL: nothing, the unflattener then
	 * searches for itself) */
	struct bl_sites *sites;
	const struct bl_site_plan *plan;

	/* cache for bl_message_line: raw offset and its line */
	size_t line_cache_off, line_cache_line;

	/* cache for bl_line_at on long lines (two, least recently used goes):
	 * text[lc_start[i]] starts a line and [lc_start[i], lc_hi[i]) holds no
	 * newline. Zero-initialized is valid; text must not change once lines
	 * have been read. */
	size_t lc_start[2], lc_hi[2];
	unsigned lc_last;
};

/* Builds a message from bytes taken as UTF-8 text: invalid sequences and
 * NUL bytes become U+FFFD (a run of NUL bytes becomes one), each kind
 * reported once with its first position
 * and a count. `raw` must outlive the message. Returns 0, or -1 when memory
 * ran out (the message is then empty but valid to free). */
int bl_message_from_text(struct bl_message *m, const char *raw, size_t len, size_t raw_offset,
			 size_t raw_line);

/* Offset in the input file of the byte that text[text_off] came from. */
size_t bl_message_origin(const struct bl_message *m, size_t text_off);

/* The first text offset whose byte came from input offset `origin` or
 * later (m->len when none did). */
size_t bl_message_text_at(const struct bl_message *m, size_t origin);

/* 1-based line in the input file of text[text_off] (counting '\n' in the
 * original bytes). Cheap for nondecreasing calls. */
size_t bl_message_line(struct bl_message *m, size_t text_off);

/* Quote depth (0 when not quoted) of the line holding text[text_off]. */
int bl_message_quote_depth(const struct bl_message *m, size_t text_off);

/* Records a decoding step ("utf-8-repair", "quoted-printable", "mbox"). */
void bl_message_add_decoding(struct bl_message *m, const char *name);

void bl_message_free(struct bl_message *m);

/* A line of text: [s, s+len) without its terminator ("\n" or "\r\n").
 *
 * A line longer than BL_LINE_MAX bytes (a post whose newlines an archive
 * dropped) is handed out in pieces, cut at fixed text offsets (multiples of
 * BL_LINE_MAX, moved forward to a UTF-8 character start), so that reading
 * the lines around any offset costs at most BL_LINE_MAX (+3) bytes, whatever the
 * length of the line: scanning stays linear. A piece's `next` is the start
 * of the following piece; the last piece ends at the newline. */
#define BL_LINE_MAX 4096

struct bl_line {
	const char *s;
	size_t len;
	size_t off; /* text offset of s */
	size_t next; /* text offset of the following line (== m->len at end) */
	size_t cut; /* bytes of a prefix left out before s (bl_message_prefix_add) */
};

/* The line (or piece of a long line) containing text offset `off`
 * (off <= m->len). Amortized O(length of the line or piece). */
void bl_line_at(const struct bl_message *m, size_t off, struct bl_line *out);
/* Where piece k (k >= 1) of a long line starts when the line runs over
 * it: k * BL_LINE_MAX, moved forward to a character start. */
size_t bl_line_cut(const struct bl_message *m, size_t k);
/* The next / previous line; false at the end / start of the text. */
bool bl_line_next(const struct bl_message *m, const struct bl_line *cur, struct bl_line *out);
bool bl_line_prev(const struct bl_message *m, const struct bl_line *cur, struct bl_line *out);
/* The whole line that line or piece l is part of, for a reader that must
 * see a long line entire (dd's status=progress updates, joined by '\r'
 * on one line of a log, one a second): from its start, or from `floor`
 * when it starts before, to its newline; its prefix left out as
 * bl_line_at() does. True when the line's first byte is in it; false
 * when floor, or the start of the text (a window's that begins inside
 * the line), cuts it. O(length of the line): once per block, not per
 * anchor. */
bool bl_line_whole(const struct bl_message *m, const struct bl_line *l, size_t floor,
		   struct bl_line *out);

/* Makes the line readers leave out the prefix text[at, at + n) of the
 * lines that start in text[from, to) with it, after any blanks, and those
 * blanks: a prefix that stands on the lines of a block, as quoting does,
 * and that the block is read without,
 *   10.0.0.11:      Children see throughput for  1 initial writers  = ...
 *       # ... 31+1 records in
 * Blocks are added in text order (from at or after the last one's to);
 * false when one is out of order or memory ran out. */
bool bl_message_prefix_add(struct bl_message *m, size_t from, size_t to, size_t at, size_t n);
/* Takes back the block added last. */
void bl_message_prefix_drop(struct bl_message *m);
/* Takes back every block: the message reads with whole lines again, as a
 * second reading of it must start (a scan adds the blocks it reads). */
static inline void bl_message_prefix_clear(struct bl_message *m)
{
	m->nprefixes = 0;
}
/* The prefix bytes left out of the line text[ls, ls + len), or 0. */
size_t bl_message_prefix_at(const struct bl_message *m, size_t ls, size_t len);

/* A diagnostic of the decoding at original offset `origin` (relative to the
 * message's raw bytes); its line is filled in by bl_message_diag_lines. */
void bl_message_diag(struct bl_message *m, enum bl_level level, const char *code, size_t origin,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Fills in the line of every diagnostic of the decoding (one pass over the bytes). */
void bl_message_diag_lines(struct bl_message *m);

/* The map of a text that is the raw bytes from raw_off on, read in place
 * (text_borrowed): one segment; -1 when memory ran out. */
int bl_message_map_from(struct bl_message *m, size_t raw_off);

/* The line breaks in s[0, n), bytes in UTF-16 or UTF-32 of order `wide` (s[0]
 * the first byte of a unit) or, with 0, in an encoding where a line feed
 * is the byte '\n'. */
size_t bl_raw_lines(const char *s, size_t n, int wide);
/* The line breaks whose first byte is in raw bytes [from, to) of m. */
size_t bl_message_raw_lines(const struct bl_message *m, size_t from, size_t to);
/* Whether raw byte `at` of m starts a line (the message's first, or the
 * first after a line break). */
bool bl_message_raw_line_start(const struct bl_message *m, size_t at);

#endif
