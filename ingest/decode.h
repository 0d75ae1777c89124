/* decode.h - the decoders of the ingest stage, each in its own file.
 *
 * Each reads a struct bl_src and appends to a struct bl_tbuf (tbuf.h), so
 * that every output byte keeps its offset in the original input. What a
 * decoder notices about bad input goes to the message's diagnostics with
 * that offset; a decoder never stops at bad input: it keeps what it can
 * read and says what it could not. All of them run in time linear in
 * their input. A decoder that returns false (nothing to change) may leave
 * `out` incomplete: quote.c and rewrap.c write nothing until their first
 * change, so that a text they leave alone is not copied. */
#ifndef BL_DECODE_H
#define BL_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/message.h"
#include "../base/tbuf.h"
#include "../base/utf8.h"
#include "shapes.h"

/* qp.c - quoted-printable (RFC 2045 6.7). `flattened`: the text lost its
 * line breaks, so a soft break shows as "= " between words. Invalid
 * escapes are kept as they are, and reported. */
void bl_qp_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool flattened);
/* Whether text with no headers looks quoted-printable: escapes ("=3D",
 * "=20") and soft breaks, and few '=' that are neither. */
bool bl_qp_detect(const char *s, size_t len);
/* "=3D" left encoded in text that is not quoted-printable (a 7bit reply
 * quoting a quoted-printable line) made '=' again, with an info
 * diagnostic; true when one was. */
bool bl_qp_stray(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);

/* base64.c - base64 (RFC 2045 6.8); white space skipped, other stray
 * characters and a truncated end reported. */
void bl_base64_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);
/* Decodes into a plain buffer (for RFC 2047 words); returns bytes written. */
size_t bl_base64_decode_plain(const char *s, size_t n, unsigned char *out);
/* The value (0..63) of c, one of base64's 64 characters (either
 * alphabet), or -1 when it is not one of them. */
int bl_base64_value(unsigned char c);
/* The decoder starts a piece of its map (one segment) at a line of
 * base64, and at the first group of four characters in each block of
 * this many input bytes: a window starting at either maps its bytes as
 * a whole reading does. */
#define BL_BASE64_BLOCK 1024

/* charset.c - text in `charset` to UTF-8 (iconv). NULL, "us-ascii" and
 * "utf-8" only repair: invalid UTF-8 and NUL become U+FFFD. An unknown
 * charset is reported and repaired as UTF-8. Returns true when bytes
 * changed (a decoding worth recording). */
bool bl_charset_to_utf8(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
			const char *charset);
/* qp.c - the value of a hex digit (either case), or -1. */
int bl_hex_value(unsigned char c);

/* utf16.c - a text that starts with a byte order mark of UTF-32 or UTF-16:
 * which (BL_UTF32_LE: FF FE 00 00, BL_UTF32_BE: 00 00 FE FF, BL_UTF16_LE:
 * FF FE, BL_UTF16_BE: FE FF, message.h), or 0. */
int bl_wide_bom(const char *s, size_t n);
/* The same, or without a mark, the encoding and order in which nearly
 * all of the first 1 KB is ASCII characters; 0 when the text is neither. */
int bl_wide_order(const char *s, size_t n);
/* The unit at s (bl_wide_size(order) bytes) in encoding and order `order`. */
uint32_t bl_wide_value(const char *s, int order);
/* The text in UTF-16 or UTF-32 of order `order` (past its mark, at the
 * start of a text) as UTF-8, each character mapped to where it starts;
 * returns true. */
bool bl_wide_to_utf8(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, int order);
/* The repair alone, for the decoding pipeline: returns false, writing
 * nothing, when the text is valid UTF-8 without NUL bytes (no copy). */
bool bl_utf8_repair(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);
/* Whether a byte below 0x80 always stands for itself in this charset
 * (not UTF-16 or -32, UCS-2, UTF-7, ISO-2022 or HZ): ASCII runs are
 * copied without iconv, and a line break is a byte '\n' wherever it
 * stands. */
bool bl_charset_ascii_compatible(const char *charset);
/* Whether bl_charset_to_utf8() takes text in this charset as UTF-8 (no
 * charset, "utf-8", "us-ascii", ...): repaired, not converted. */
bool bl_charset_is_utf8(const char *charset);
/* A header string in `charset` as a new UTF-8 string (invalid bytes as
 * U+FFFD); NULL only when memory ran out. */
char *bl_charset_string(const char *s, size_t n, const char *charset);

/* rfc822.c - a header block. */
struct bl_headers {
	char *subject, *from, *date, *message_id; /* UTF-8, RFC 2047 decoded */
	char type[64]; /* "text/plain" (lower case); "" if absent */
	char charset[48];
	char boundary[128];
	char encoding[32]; /* Content-Transfer-Encoding, lower case */
	char disposition[32]; /* "inline", "attachment" */
	bool flowed, delsp; /* format=flowed; delsp=yes */
	size_t body; /* offset of the body in the source */
	bool has_body; /* an empty line ended the headers */
	size_t nfields;
};
/* Parses the header block at the start of src; Subject and From are RFC
 * 2047 decoded, every kept value is valid UTF-8. */
void bl_headers_parse(struct bl_src *src, struct bl_headers *h);
void bl_headers_free(struct bl_headers *h);
/* RFC 2047: a header value with =?charset?Q|B?...?= words decoded, as a new
 * UTF-8 string. */
char *bl_rfc2047_decode(const char *s, size_t n);
/* Whether the text starts with a mail header block (eml detection). */
bool bl_headers_detect(const char *s, size_t len);

/* mime.c - the text of a MIME entity (headers already parsed into h; the
 * body starts at h->body): multipart walked (text/plain preferred, then
 * text/html), transfer encodings and charsets undone, HTML made text. */
void bl_mime_body(struct bl_message *m, struct bl_src *entity, const struct bl_headers *h,
		  struct bl_tbuf *out);
/* Whether the line [s, s+len) (without its newline) is a delimiter of
 * boundary b (bl bytes): 1 for "--b", 2 for the closing "--b--", else 0;
 * blanks may follow. */
int bl_mime_delimiter(const char *s, size_t len, const char *b, size_t bl);
/* Whether a part of headers h is text (no type is text/plain), or HTML. */
bool bl_mime_is_text(const struct bl_headers *h);
bool bl_mime_is_html(const struct bl_headers *h);
/* A part's headers ph completed from those of its multipart h: no type
 * is text/plain (message/rfc822 in a digest), no charset is h's. */
void bl_mime_part_defaults(struct bl_headers *ph, const struct bl_headers *h);
/* The part of an alternative to read, of its np parts' headers ph: the
 * plain text, else HTML, else the first that is text or multipart; np
 * when there is none. */
size_t bl_mime_pick(const struct bl_headers *ph, size_t np);
/* Whether an entity of headers h is sent as is: no transfer encoding,
 * or 7bit, 8bit, binary. */
bool bl_mime_identity(const struct bl_headers *h);
/* Whether an entity of headers h is one text part sent as is (no
 * transfer encoding, UTF-8 or ASCII, not HTML): its text is its body's
 * bytes when they are valid UTF-8. */
bool bl_mime_as_is(const struct bl_headers *h);
/* The UTF-8 text of a part in UTF-8 or ASCII (headers h): repaired into
 * out (true, "charset" listed when the part named one) where it has bytes
 * that are not UTF-8, else left as it is (false). */
bool bl_mime_utf8_repair(struct bl_message *m, struct bl_src *in, const struct bl_headers *h,
			 struct bl_tbuf *out);

/* html.c - the text of an HTML page: <pre> layout kept, <br> and block
 * elements as line breaks, entities decoded, script and style dropped. */
void bl_html_to_text(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);
/* Where the decoding of page bytes s[0, n) stands at their end, when it
 * stood at `from` at their start (NULL: the page's start); s[0] is at
 * input offset `offset`, on line `line`. False when memory ran out. The
 * bytes need not be UTF-8: the state depends on markup and blanks
 * only. */
bool bl_html_state_after(const char *s, size_t n, size_t offset, size_t line,
			 const struct bl_html_state *from, struct bl_html_state *at);
/* Where at or before c, and not before lo, page bytes s[0, n) may be
 * cut for a window to start (their decoding from `from`, NULL: the
 * page's start): c between two items or inside text; else the start of
 * the tag or entity c is inside; inside a comment, script, style or
 * CDATA section, short of its closer; SIZE_MAX when there is none. */
size_t bl_html_safe_cut(const char *s, size_t n, const struct bl_html_state *from, size_t lo,
			size_t c);
/* html_regions.c - the HTML regions of a text post (a run of lines
 * ending in <br>) decoded each on its own, the text around them kept.
 * True when one was. */
bool bl_html_regions(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);
/* Whether bytes look like an HTML page or fragment. */
bool bl_html_detect(const char *s, size_t len);
/* The charset named by <meta charset> / http-equiv in the page head, copied
 * to out (lower case); false when none. */
bool bl_html_meta_charset(const char *s, size_t len, char *out, size_t outsz);

/* quote.c - mail quoting ("> ", ">> ", "> > ", "| ") stripped; the depth of
 * each line kept in the message (bl_message_quote_depth). Returns true when
 * some line was quoted. */
bool bl_quote_strip(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out);

/* rewrap.c - lines a mail client broke undone: format=flowed (RFC 3676)
 * when `flowed`, and tool lines broken near 72 columns. Returns true when
 * something was joined. */
bool bl_rewrap(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool flowed,
	       bool delsp);
/* The tool lines it joins: those of the shapes marked `rewrapped`
 * (shapes.h), from bl_shapes_use(). */
bool bl_rewrap_compose(const struct bl_ingest_plan *p);
/* format=flowed undone before quoting is stripped (quote marks kept on
 * the first line of each joined paragraph). */
bool bl_flowed_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool delsp);

/* unflatten.c - a post flattened onto one line: line breaks put back
 * before prompts, commands and tool output. Returns true when some break
 * was put back. `sites`: found on the same text (bl_sites_find), or NULL
 * (then its literals are searched here). */
bool bl_unflatten(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
		  const struct bl_sites *sites);
/* The same, handing the breaks it made (ascending: the offsets of the
 * blanks it made newlines) to *at and *n when the text changed, else NULL
 * and 0 (the caller frees *at): for bl_sites_update(). */
bool bl_unflatten_breaks(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
			 const struct bl_sites *sites, size_t **at, size_t *n);
/* The same, each break written into `text` (in->s, the caller's to
 * change) in place of the blank it replaces: a break is one byte for one
 * and keeps the map, so no copy of the text is made. */
bool bl_unflatten_breaks_in_place(struct bl_message *m, struct bl_src *in, char *text,
				  const struct bl_sites *sites, size_t **at, size_t *n);
/* A whole mail flattened onto one line keeps its headers inline
 * ("... Subject: More zfs benchmarks X-BeenThere: ..."): Subject, From,
 * Date and Message-ID are read from there when nothing else set them. */
void bl_unflatten_headers(struct bl_message *m, const char *s, size_t n);
/* Whether the text has lines long enough to be a flattened post, or a
 * short line holding two tool lines (or a prompt and one). `sites` as for
 * bl_unflatten(). */
bool bl_unflatten_detect(const char *s, size_t len, const struct bl_sites *sites);
/* The unflattener's patterns, composed from p's shapes (NULL: none, and
 * nothing is unflattened), from bl_shapes_use(). */
bool bl_unflatten_compose(const struct bl_ingest_plan *p);
/* For tests: with the prefilters off, the unflattener runs each of its
 * regexes on every line it would run it on without them (a line's
 * literals tell that a regex cannot match there, or that a short line is
 * one tool line alone): the reference they must agree with. */
void bl_unflatten_set_prefilter(bool on);

/* mbox.c - mbox framing. */
/* Whether a line (without its newline) is an mbox "From " separator. */
bool bl_mbox_is_separator(const char *line, size_t len);
/* Whether the bytes start like an mbox archive. */
bool bl_mbox_detect(const char *s, size_t len);
/* The bytes of the separator line at the start of s (its newline with
 * it), or 0 when s does not start with one. */
size_t bl_mbox_separator_len(const char *s, size_t n);
/* Where the first quoted separator line (">From ", ">>From " ...) at or
 * after i starts (i is 0 or follows a newline), or n. */
size_t bl_mbox_next_quoted(const char *s, size_t n, size_t i);
/* The next separator line at or after `from` (a line start, or just
 * after one): its offset, or len when there is none in [from, len);
 * *incomplete when a candidate's line is cut by the end of the buffer
 * (unless at_eof: the buffer ends the input). */
size_t bl_mbox_next_separator(const char *s, size_t len, size_t from, bool at_eof,
			      bool *incomplete);
/* One message of the archive: its separator line dropped and ">From "
 * lines unquoted (mboxrd: one '>' removed). */
void bl_mbox_unquote(struct bl_src *in, struct bl_tbuf *out);
/* The bytes from `skip` on, their ">From " lines at or after i unquoted
 * (i: skip, or just after a newline). */
void bl_mbox_unquote_from(struct bl_src *in, struct bl_tbuf *out, size_t skip, size_t i);

#endif
