/* stream.c - an input read in chunks and handed over a message or a
 * window at a time, so that memory holds one message (or one window) and
 * a chunk, whatever the input's length:
 *   - an mbox is framed at its "From " lines;
 *   - a plain text longer than a window is read in windows (window.h);
 *   - so is a mail (of an mbox, or an .eml file) longer than a window
 *     when its body is one plain-text part, as a long log sent as a mail
 *     is: its first window is decoded as a mail, the others by its
 *     headers (transfer encoding, charset, format=flowed); in base64, a
 *     window starts where a group of four characters does;
 *   - so is an HTML page: a window past the first goes on from where the
 *     decoding of the page stood at its first byte (html.c);
 *   - so is a text in UTF-16 or UTF-32 (utf16.c), cut between two of its
 *     units;
 *   - so is a multipart mail, part by part (parts.c);
 *   - so is a mail whose body is an HTML page sent as is, a window
 *     going on from where the decoding of the page stood, as for a page;
 *   - other long mails (HTML in a transfer encoding, UTF-16) are read
 *     whole. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/find.h"
#include "decode.h"
#include "ingest.h"
#include "reader.h"
#include "window.h"

#define CHUNK ((size_t)1 << 16)
#define READ_MAX ((size_t)1 << 20)

/* A message longer than this, framed only to find where messages begin
 * (bl_mbox_cuts), is not held: its bytes are dropped as they are read. */
#define SKIP_AT ((size_t)1 << 20)

/* A window's short context (cut_context): this part of it, and at least
 * SHORT_CONTEXT_MIN bytes. A tool's run is a few kilobytes (the longest of
 * the corpus, a zpool report, 9 KB), and a run longer than the context
 * after a cut is cut there unless its tool reads records (zpool). */
#define SHORT_CONTEXT_PARTS 24
#define SHORT_CONTEXT_MIN ((size_t)1 << 16)

static size_t count_lines(const char *s, size_t n)
{
	return bl_count_byte(s, n, '\n');
}

/* Room for n more bytes after r->len (so that BL_TEXT_PAD zero bytes can
 * follow a window in place). */
static int room(struct reader *r, size_t n)
{
	if (r->in_memory || r->cap - r->len >= n)
		return 0;
	size_t cap = r->cap ? r->cap : CHUNK * 2;
	while (cap - r->len < n)
		cap *= 2;
	char *b = realloc(r->buf, cap);
	if (!b)
		return -1;
	r->buf = b;
	r->cap = cap;
	return 0;
}

/* Reads one more chunk (growing the buffer when it is full). */
int bl_reader_fill(struct reader *r)
{
	if (r->eof)
		return 0;
	if (r->in_memory) {
		size_t n = r->left < READ_MAX ? r->left : READ_MAX;
		r->len += n;
		r->left -= n;
		r->eof = n == 0;
		return 0;
	}
	if (room(r, CHUNK) < 0)
		return -1;
	/* a bounded read: the buffer grows with what is kept, not with what
	 * one read could take */
	size_t n = r->cap - r->len < READ_MAX ? r->cap - r->len : READ_MAX;
	long got = r->rd(r->rctx, r->buf + r->len, n);
	if (got < 0)
		return -2;
	if (got == 0)
		r->eof = true;
	r->len += (size_t)got;
	return 0;
}

/* Drops the bytes before input offset `from` (base <= from <= the end of
 * what was read). */
void bl_reader_drop(struct reader *r, size_t from)
{
	size_t k = from - r->base;
	if (!k)
		return;
	if (r->in_memory) {
		r->buf += k;
		r->len -= k;
		r->base = from;
		if (r->done)
			r->done(r->dctx, from);
		return;
	}
	memmove(r->buf, r->buf + k, r->len - k);
	r->len -= k;
	r->base = from;
}

void bl_span_find_end(const struct reader *r, struct span *sp)
{
	if (sp->part_of && sp->end == SIZE_MAX)
		bl_parts_find_end(sp->part_of, sp);
	if (!sp->framed || sp->end != SIZE_MAX)
		return;
	if (sp->scan < r->base)
		sp->scan = r->base;
	size_t from = sp->scan - r->base;
	bool inc;
	size_t sep = bl_mbox_next_separator(r->buf, r->len, from, r->eof, &inc);
	if (sep < r->len && !inc) {
		sp->end = r->base + sep;
		return;
	}
	/* resume at the '\n' before a candidate line cut by the end of what
	 * was read, or where "\nFrom " may straddle that end */
	size_t keep = inc ? sep - 1 : (r->len >= 6 ? r->len - 6 : 0);
	sp->scan = r->base + (keep > from ? keep : from);
}

/* Whether the two hex digits at h are a byte that starts a UTF-8
 * character (not 80..BF, a byte inside one). */
static bool qp_starts_char(const char *h)
{
	int hi = bl_hex_value((unsigned char)h[0]), lo = bl_hex_value((unsigned char)h[1]);
	return hi >= 0 && lo >= 0 && (hi < 8 || hi >= 0xC);
}

/* The last "=XX" in input bytes [lo, hi) whose byte starts a character
 * (quoted-printable: a place to cut no character in two), or SIZE_MAX. */
static size_t qp_char_start(const struct reader *r, size_t lo, size_t hi)
{
	const char *b = r->buf - r->base;
	for (size_t at = hi; at-- > lo;)
		if (b[at] == '=' && at + 2 < hi && qp_starts_char(b + at + 1))
			return at;
	return SIZE_MAX;
}

/* Where in input bytes [lo, hi) a window may start (lo < hi): after a
 * line break of the decoded window m, so that the next window splits its
 * lines where a reading of the whole input would (the unflattener's
 * breaks included: a long line is re-broken the same way from any of its
 * breaks on); else by the bytes (window.h). `raw_lines` (a mail's body,
 * a page): only after a line break that is one in the bytes too, so that
 * the next window starts where its transfer encoding does (not inside
 * the "=0A" of a quoted-printable line break), or, in a page (`tags`),
 * at the tag that made one ("<br>", "<p>": not inside markup). *rough:
 * no safe point was found. */
static size_t pick_cut(const struct bl_message *m, const struct reader *r, size_t lo, size_t hi,
		       bool raw_lines, bool tags, bool *rough)
{
	size_t tlo = bl_message_text_at(m, lo), thi = bl_message_text_at(m, hi);
	while (thi > tlo) {
		const char *nl = memrchr(m->text + tlo, '\n', thi - tlo);
		if (!nl)
			break;
		size_t from = bl_message_origin(m, (size_t)(nl - m->text));
		char byte = from >= r->base && from < r->base + r->len ? r->buf[from - r->base] : 0;
		bool in_bytes = byte == '\n', tag = tags && byte == '<';
		size_t at = tag ? from : from + 1;
		if (at > lo && at <= hi && (!raw_lines || in_bytes || tag)) {
			*rough = false;
			return at;
		}
		if (!raw_lines)
			break;
		thi = (size_t)(nl - m->text);
	}
	enum bl_cut kind;
	size_t at = r->base + bl_window_cut(r->buf, lo - r->base, hi - r->base, &kind);
	/* in a page, a line of the bytes is no line of the text */
	*rough = tags || kind >= BL_CUT_BLANK;
	return at;
}

/* A window being read: input bytes [s, e), starting at line `line`,
 * owning the runs that start in [own_from, own_to); mid_line: s is not
 * at the start of a line (next_mid_line: nor is the next window's). */
struct win {
	size_t s, e, line, index, own_from, own_to;
	bool last, rough, mid_line, next_mid_line;
};

/* Where the window after w may start: in [*lo, *hi), at least `overlap`
 * bytes before w's own part ends (w->own_to), and no further back than
 * the first half of that part. */
static void next_range(const struct win *w, size_t cut_lo, size_t overlap, size_t *lo, size_t *hi)
{
	*hi = w->own_to - overlap > w->own_from ? w->own_to - overlap : w->own_from;
	*lo = *hi - w->own_from > cut_lo - w->own_from ? *hi - (cut_lo - w->own_from) : w->own_from;
}

/* Whether a window starting at `next` starts inside a line. */
static bool mid_line_at(const struct reader *r, const struct win *w, size_t next)
{
	return next > w->s ? r->buf[next - 1 - r->base] != '\n' : w->mid_line;
}

/* Whether the span's text is HTML: a page, or a mail's body or part in
 * HTML sent as is (its bytes are the page's, whose decoding each window
 * goes on from). */
static bool span_html(const struct span *sp)
{
	if (sp->fmt == BL_INPUT_HTML)
		return true;
	const struct bl_headers *h = sp->body;
	return h && bl_mime_is_html(h) && bl_mime_identity(h);
}

/* Where the page of window w starts: its first byte, or in a mail's
 * first window the body's. */
static size_t html_from(const struct span *sp, const struct win *w)
{
	return !w->index && sp->data_from > w->s ? sp->data_from : w->s;
}

/* A cut c in [lo, ...) of window w of a page, found by the bytes alone,
 * moved back to where the page's decoding may stop and go on (not in
 * a tag, an entity or a closer: bl_html_safe_cut); c itself when there
 * is no such place. */
static size_t page_cut(const struct reader *r, const struct span *sp, const struct win *w,
		       size_t lo, size_t c)
{
	size_t s = html_from(sp, w);
	if (c <= s)
		return s;
	lo = lo > s ? lo : s;
	size_t at = bl_html_safe_cut(r->buf + (s - r->base), w->e - s, w->index ? &sp->html : NULL,
				     lo - s, c - s);
	return at == SIZE_MAX ? c : s + at;
}

/* UTF-16 or UTF-32: the unit that ends at input offset `at` (a multiple
 * of its size from the span's start, past its first unit). */
static uint32_t unit_before(const struct reader *r, const struct span *sp, size_t at)
{
	return bl_wide_value(r->buf + (at - bl_wide_size(sp->wide) - r->base), sp->wide);
}

/* Input offset `at` moved back to the start of a unit of the span's. */
static size_t unit_start(const struct span *sp, size_t at)
{
	return at - (at - sp->start) % bl_wide_size(sp->wide);
}

/* A unit that a window must not end after: the first of a UTF-16 pair. */
static bool high_surrogate(const struct span *sp, uint32_t u)
{
	return bl_wide_size(sp->wide) == 2 && u >= 0xD800 && u < 0xDC00;
}

/* Where in input bytes (lo, hi] a window of a UTF-16 or UTF-32 text may
 * start: between two units, counted from the span's start, after the
 * last line feed; else after the last blank, else between any two
 * characters (*rough: not after a line feed); else the last place
 * between two units (a stretch of lone high surrogates). */
static size_t wide_cut(const struct reader *r, const struct span *sp, size_t lo, size_t hi,
		       bool *rough)
{
	size_t us = bl_wide_size(sp->wide);
	size_t blank = SIZE_MAX, any = SIZE_MAX, top = unit_start(sp, hi);
	*rough = true;
	for (size_t at = top; at > lo && at >= sp->start + us && at >= r->base + us; at -= us) {
		uint32_t u = unit_before(r, sp, at);
		if (u == '\n') {
			*rough = false;
			return at;
		}
		if (blank == SIZE_MAX && (u == ' ' || u == '\t'))
			blank = at;
		if (any == SIZE_MAX && !high_surrogate(sp, u))
			any = at;
	}
	return blank != SIZE_MAX ? blank : any != SIZE_MAX ? any : top;
}

/* The cut of a window of a UTF-16 or UTF-32 text (w->own_to) and where
 * the next window starts (*next): as window_message does for other
 * texts, by the units of the bytes (a line break of the text is one). */
static void wide_cuts(const struct reader *r, const struct span *sp, struct win *w, size_t cut_lo,
		      size_t cut_hi, size_t overlap, size_t *next)
{
	bool rough, unused;
	size_t lo, hi;
	w->own_to = wide_cut(r, sp, cut_lo, cut_hi, &rough);
	w->rough = rough;
	next_range(w, cut_lo, overlap, &lo, &hi);
	*next = lo < hi ? wide_cut(r, sp, lo, hi, &unused) : w->own_from;
	w->next_mid_line = *next > w->s ? unit_before(r, sp, *next) != '\n' : w->mid_line;
}

/* Whether the bytes decoded on either side of the group of base64 at i
 * are ASCII (prev: the byte before it, -1 at the data's start), so that
 * a window starting there cuts no character of the text in two. */
static bool ascii_at(const unsigned char *b, size_t i, size_t hi, int prev)
{
	int v0 = bl_base64_value(b[i]), v1 = -1;
	for (size_t j = i + 1; j < hi && v1 < 0 && b[j] != '='; j++)
		v1 = bl_base64_value(b[j]);
	return prev < 0x80 && v1 >= 0 && (v0 << 2 | v1 >> 4) < 0x80;
}

/* Where in input bytes [lo, hi) a window of base64 may start: where the
 * decoder starts a piece of its map (base64.c) with a group of four
 * characters (counted from `from`, where one starts): at a line's start,
 * or at the first group in a block of BL_BASE64_BLOCK bytes. The last
 * such place with ASCII decoded on either side is taken, else the last;
 * SIZE_MAX when there is none. *eq: where the data ends ('='), before
 * hi; else SIZE_MAX. */
static size_t base64_cut(const struct reader *r, size_t from, size_t lo, size_t hi, size_t *eq)
{
	const unsigned char *b = (const unsigned char *)r->buf - r->base;
	size_t count = 0, any = SIZE_MAX, clean = SIZE_MAX, group = SIZE_MAX;
	int v2 = -1, v3 = -1; /* the last two characters' values */
	*eq = SIZE_MAX;
	for (size_t i = from; i < hi; i++) {
		if (b[i] == '=') {
			*eq = i;
			break;
		}
		int v = bl_base64_value(b[i]);
		if (v < 0)
			continue;
		if (count % 4 == 0) {
			bool piece = (i > r->base && b[i - 1] == '\n') ||
				     (group != SIZE_MAX &&
				      i / BL_BASE64_BLOCK != group / BL_BASE64_BLOCK);
			if (i >= lo && piece) {
				any = i;
				if (ascii_at(b, i, hi, count ? (v2 & 3) << 6 | v3 : -1))
					clean = i;
			}
			group = i;
		}
		v2 = v3;
		v3 = v;
		count++;
	}
	return clean != SIZE_MAX ? clean : any;
}

/* The cut of a window of a base64 body (w->own_to) and where the next
 * window starts (*next): as window_message, where each window decodes
 * as the whole body does there (base64_cut). A stretch with no group to
 * start at (blank lines) is cut by the bytes, the next window starting
 * where this one did. A body whose data ended before the cut leaves the
 * next windows nothing to decode (sp->ended). */
static void base64_cuts(const struct reader *r, struct span *sp, struct win *w, size_t cut_lo,
			size_t cut_hi, size_t overlap, size_t *next)
{
	size_t from = w->index ? w->s : sp->data_from, eq, unused, lo, hi;
	size_t cut = base64_cut(r, from, cut_lo, cut_hi, &eq);
	if (cut == SIZE_MAX) {
		enum bl_cut kind;
		cut = r->base + bl_window_cut(r->buf, cut_lo - r->base, cut_hi - r->base, &kind);
	}
	w->own_to = cut;
	w->rough = false; /* a group's start, or no text: decoded exactly */
	if (eq < cut) {
		/* nothing is decoded past the '=': the next window starts at
		 * the cut, with no text */
		sp->ended = true;
		*next = cut;
	} else {
		next_range(w, cut_lo, overlap, &lo, &hi);
		size_t at = lo < hi ? base64_cut(r, from, lo, hi, &unused) : SIZE_MAX;
		*next = at != SIZE_MAX ? at : w->s;
	}
	w->next_mid_line = mid_line_at(r, w, *next);
}

/* The BL_TEXT_PAD bytes at `end`, in the read buffer after the bytes
 * being decoded in place, saved and zeroed (so that they read as a
 * decoded text's padding), then put back. */
static void pad_in_place(char *end, char save[BL_TEXT_PAD])
{
	memcpy(save, end, BL_TEXT_PAD);
	memset(end, 0, BL_TEXT_PAD);
}

static void unpad(char *end, const char save[BL_TEXT_PAD])
{
	memcpy(end, save, BL_TEXT_PAD);
}

/* Whether the span's text is quoted-printable. */
static bool span_qp(const struct span *sp)
{
	return sp->fmt == BL_INPUT_QP ||
	       (sp->body && strcmp(sp->body->encoding, "quoted-printable") == 0);
}

/* How far back from where it would end a window's end may move. */
#define END_REACH ((size_t)1 << 16)

/* Whether the line break at b[nl] ends a line of quoted-printable with
 * "=" (a soft break: the line goes on, maybe inside a character). */
static bool soft_break(const char *b, size_t lo, size_t nl)
{
	while (nl > lo && (b[nl - 1] == '\r' || b[nl - 1] == ' ' || b[nl - 1] == '\t'))
		nl--;
	return nl > lo && b[nl - 1] == '=';
}

/* Whether input offset `at`, in the bytes window m was decoded from,
 * is inside a line of its text: in quoted-printable, after a soft line
 * break ("=\n": the line goes on) but not after the "=0A" of a hard one. */
static bool text_mid_line(const struct bl_message *m, size_t at)
{
	size_t t = bl_message_text_at(m, at);
	return t > 0 && t <= m->len && m->text[t - 1] != '\n';
}

/* A cut c in [lo, ...) of a quoted-printable text moved to where a
 * character starts: back before the "=C3" of "=C3=\n=A9" when c is at
 * the "=A9" after a soft line break (a long line of the text is broken
 * there, inside characters too), or to the lead byte of a character sent
 * as is; on past an escape c is inside (the "0A" of a line break "=0A");
 * c itself when a character starts there, or no place before it does. */
static size_t qp_start(const struct reader *r, size_t lo, size_t c)
{
	const char *b = r->buf - r->base;
	size_t end = r->base + r->len;
	if (c >= end)
		return c;
	unsigned char x = (unsigned char)b[c];
	if (x >= 0x80 && x < 0xC0) {
		size_t at = c;
		while (at > lo && ((unsigned char)b[at] & 0xC0) == 0x80)
			at--;
		return ((unsigned char)b[at] & 0xC0) == 0xC0 ? at : c;
	}
	/* inside an escape: after the line break "=0A" made (a line of
	 * the text ends there) */
	for (size_t k = 1; k <= 2 && c >= lo + k; k++)
		if (b[c - k] == '=' && c - k + 2 < end &&
		    bl_hex_value((unsigned char)b[c - k + 1]) >= 0 &&
		    bl_hex_value((unsigned char)b[c - k + 2]) >= 0)
			return c - k + 3;
	bool escaped = x == '=' && c + 2 < end && bl_hex_value((unsigned char)b[c + 1]) >= 0 &&
		       bl_hex_value((unsigned char)b[c + 2]) >= 0;
	if (!escaped || qp_starts_char(b + c + 1))
		return c;
	size_t at = qp_char_start(r, lo, c);
	return at != SIZE_MAX ? at : c;
}

/* Where window w, not the last, ends: at `want` or a little before it
 * (never back into the first half of the context after its own part,
 * which ends at own_max at the latest),
 * where the text decoded from its bytes ends between two characters (in
 * base64 at a group with ASCII decoded on either side, in quoted-printable
 * after a line break that is one in the text, else not inside a UTF-8
 * character), so that no character is cut in two and repaired there: a
 * decoding a whole reading does not make. The end is in the context
 * after the window's own part, where a few bytes less change nothing. */
static size_t window_end(const struct reader *r, const struct span *sp, const struct win *w,
			 size_t own_max, size_t want)
{
	const char *b = r->buf - r->base;
	/* no further back than the context after the own part allows */
	size_t lo = want - own_max > END_REACH ? want - END_REACH : own_max + (want - own_max) / 2;
	size_t eq, at;
	if (sp->wide) {
		/* between two units, not inside a surrogate pair */
		at = unit_start(sp, want);
		return high_surrogate(sp, unit_before(r, sp, at)) ? at - 2 : at;
	}
	if (sp->base64) {
		at = base64_cut(r, w->index ? w->s : sp->data_from, lo, want, &eq);
		return at != SIZE_MAX && eq == SIZE_MAX ? at : want;
	}
	bool qp = span_qp(sp);
	for (at = want; qp && at > lo; at--)
		if (b[at - 1] == '\n' && !soft_break(b, lo, at - 1))
			return at;
	/* no line break near: before an "=XX" that starts a character */
	if (qp && (at = qp_char_start(r, lo, want)) != SIZE_MAX)
		return at;
	/* the last character's lead byte, and whether all of it is before want */
	for (at = want - 1; at > lo && want - at < 4 && ((unsigned char)b[at] & 0xC0) == 0x80;)
		at--;
	unsigned char lead = (unsigned char)b[at];
	size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
	return at + len > want ? at : want;
}

/* The message of window w: its bytes decoded in place (the bytes after
 * them are zeroed meanwhile, then put back); 0, or -1 when memory ran
 * out. */
static int window_decode(struct reader *r, const struct span *sp, const struct win *w,
			 struct bl_message *m)
{
	memset(m, 0, sizeof *m);
	m->plan = r->plan ? r->plan->sites : NULL;
	m->index = sp->index;
	m->raw = r->buf + (w->s - r->base);
	m->raw_len = w->e - w->s;
	m->raw_offset = w->s;
	m->raw_line = w->line;
	m->line_cache_line = w->line;
	m->window.on = true;
	m->window.last = w->last;
	m->window.index = sp->first_index + w->index;
	m->window.own_from = w->own_from;
	m->window.rough_cut = w->rough;
	m->window.mid_line = w->mid_line;
	m->window.ended = sp->ended;
	m->window.wide = sp->wide;
	if (w->index)
		m->window.html = sp->html;
	return bl_ingest_decode(m, sp->fmt, true, true, w->index || sp->part_of ? sp->body : NULL);
}

/* Decodes window w, picks the end of its own part in [cut_lo, cut_hi)
 * unless it is the last, hands it over, and picks where the next window
 * starts (*next: at least `overlap` bytes before the cut). */
static int window_message(struct reader *r, struct span *sp, struct win *w, size_t cut_lo,
			  size_t cut_hi, size_t overlap, size_t *next, bl_message_fn each,
			  void *ctx)
{
	char *raw = r->buf + (w->s - r->base);
	size_t len = w->e - w->s;
	char save[BL_TEXT_PAD];
	pad_in_place(raw + len, save);
	struct bl_message m;
	int rc = window_decode(r, sp, w, &m);
	if (rc == 0 && !w->last && sp->base64) {
		base64_cuts(r, sp, w, cut_lo, cut_hi, overlap, next);
	} else if (rc == 0 && !w->last && sp->wide) {
		wide_cuts(r, sp, w, cut_lo, cut_hi, overlap, next);
	} else if (rc == 0 && !w->last) {
		bool rough, next_rough, raw_lines = sp->body != NULL, tags = span_html(sp);
		bool qp = span_qp(sp);
		w->own_to = pick_cut(&m, r, cut_lo, cut_hi, raw_lines, tags, &rough);
		if (tags && rough)
			w->own_to = page_cut(r, sp, w, cut_lo, w->own_to);
		if (qp)
			w->own_to = qp_start(r, cut_lo, w->own_to);
		/* from the window's own part: decoded as a whole reading would */
		size_t lo, hi;
		next_range(w, cut_lo, overlap, &lo, &hi);
		*next = lo < hi ? pick_cut(&m, r, lo, hi, raw_lines, tags, &next_rough)
				: w->own_from;
		if (tags && lo < hi && next_rough)
			*next = page_cut(r, sp, w, lo, *next);
		if (tags && *next < html_from(sp, w))
			*next = html_from(sp, w); /* a mail's next window: from its body on */
		if (qp && lo < hi)
			*next = qp_start(r, lo, *next);
		/* a cut by the bytes at a soft line break is inside a line of
		 * the text (the next window still starts a line of the bytes,
		 * where a ">From " is unquoted) */
		w->rough = rough || (qp && text_mid_line(&m, w->own_to));
		w->next_mid_line = mid_line_at(r, w, *next);
	}
	if (w->index && sp->body && sp->body->subject && m.subject) {
		/* a heading in an HTML mail: the mail has its Subject */
		free(m.subject);
		m.subject = NULL;
	}
	m.window.own_to = w->own_to;
	m.window.next_from = w->last ? w->e : *next;
	if (sp->part_of) {
		/* decoded as the end of the part's data; the document goes on */
		m.window.text_starts = w->index == 0;
		m.window.text_ends = w->last;
		m.window.last = w->last && !sp->more;
	}
	if (rc == 0)
		rc = each(&m, ctx);
	bl_message_free(&m);
	unpad(raw + len, save);
	return rc;
}

/* The line breaks of span sp in input bytes [from, to) (from at the
 * start of a character). */
static size_t span_lines(const struct reader *r, const struct span *sp, size_t from, size_t to)
{
	return bl_raw_lines(r->buf + (from - r->base), to - from, sp->wide);
}

/* Reads until the window from own_from on, and the context after it,
 * are read, or the span ends; 0, or as bl_reader_fill(). */
static int read_window(struct reader *r, struct span *sp, size_t want)
{
	bl_span_find_end(r, sp);
	while (!r->eof && r->base + r->len < want && sp->end == SIZE_MAX) {
		int rc = bl_reader_fill(r);
		if (rc < 0)
			return rc;
		bl_span_find_end(r, sp);
	}
	return room(r, BL_TEXT_PAD);
}

/* Whether no line of input bytes [from, to) is `max` bytes long or
 * longer (the line that goes on before `from` counted from there). */
static bool lines_below(const struct reader *r, size_t from, size_t to, size_t max)
{
	const char *p = r->buf + (from - r->base), *end = r->buf + (to - r->base);
	while ((size_t)(end - p) >= max) {
		const char *nl = memchr(p, '\n', max);
		if (!nl)
			return false;
		p = nl + 1;
	}
	return true;
}

/* The context read on either side of the cut of window w (want: where
 * the full context after its own part ends). Where every line from
 * before the earliest cut to the end of that context is short, the cut
 * is at a line break with whole lines on either side, and a short
 * context gives both windows the same lines near it: window / 24 (256 KB
 * of a 6 MB window), not `overlap`, read twice a window for nothing but
 * the runs that cross the cut. A post flattened onto long lines, and
 * text whose cuts are made by its encoding (quoted-printable, base64,
 * UTF-16, HTML), keep the full context. */
static size_t cut_context(const struct reader *r, const struct span *sp, const struct win *w,
			  size_t window, size_t overlap, size_t want)
{
	size_t ctx = window / SHORT_CONTEXT_PARTS;
	if (ctx < SHORT_CONTEXT_MIN)
		ctx = SHORT_CONTEXT_MIN;
	if (ctx >= overlap || sp->base64 || sp->wide || span_qp(sp) || span_html(sp))
		return overlap;
	size_t from = w->own_from + window / 2 - ctx; /* ctx < overlap < window / 2 */
	size_t to = r->base + r->len < want ? r->base + r->len : want;
	return to > from && lines_below(r, from, to, ctx / 4) ? ctx : overlap;
}

/* The span sp, longer than window + overlap, a window at a time (see
 * window.h); buf[0] is its first byte. `overlap` < window / 2. On
 * return sp->end and sp->end_line say where it ended. */
int bl_span_windows(struct reader *r, struct span *sp, size_t window, size_t overlap,
		    bl_message_fn each, void *ctx)
{
	struct win w = {.s = sp->start, .line = sp->line, .own_from = sp->start};
	int rc;
	for (;;) {
		/* the window's own part and the context after it */
		size_t want = w.own_from + window + overlap;
		if ((rc = read_window(r, sp, want)) < 0)
			return rc;
		bool ends = r->eof || sp->end != SIZE_MAX;
		size_t end = sp->end != SIZE_MAX ? sp->end : r->base + r->len;
		if (w.index == 0 && sp->fmt == BL_INPUT_TEXT && !sp->wide &&
		    bl_qp_detect(r->buf, r->len))
			sp->fmt = BL_INPUT_QP; /* decided once, on the first window */
		w.last = ends && end <= want;
		size_t context = w.last ? overlap : cut_context(r, sp, &w, window, overlap, want);
		w.e = w.last ? end
			     : window_end(r, sp, &w, w.own_from + window,
					  w.own_from + window + context);
		w.own_to = end;
		size_t next = 0;
		rc = window_message(r, sp, &w, w.own_from + window / 2, w.own_from + window,
				    context, &next, each, ctx);
		if (rc != 0)
			return rc;
		size_t hs = html_from(sp, &w);
		if (!w.last && span_html(sp) &&
		    !bl_html_state_after(r->buf + (hs - r->base), next - hs, hs,
					 w.line + span_lines(r, sp, w.s, hs),
					 w.index ? &sp->html : NULL, &sp->html))
			return -1;
		if (w.last) {
			sp->end = w.e;
			sp->end_line = w.line + span_lines(r, sp, w.s, w.e);
			return 0;
		}
		w.line += span_lines(r, sp, w.s, next);
		w.s = next;
		w.mid_line = w.next_mid_line;
		w.own_from = w.own_to;
		w.index++;
		bl_reader_drop(r, next);
	}
}

/* The headers of the mail whose first bytes are in the buffer (for
 * bl_headers_free), and where its body starts. */
static void mail_headers(const struct reader *r, enum bl_input_format fmt, struct bl_headers *h,
			 size_t *body_at)
{
	size_t skip = fmt == BL_INPUT_MBOX ? bl_mbox_separator_len(r->buf, r->len) : 0;
	struct bl_src src;
	bl_src_plain(&src, r->buf + skip, r->len - skip, r->base + skip);
	bl_headers_parse(&src, h);
	*body_at = r->base + skip + h->body;
}

/* Whether a mail of headers h has one plain-text part for a body, or
 * one HTML part sent as is, which windows can decode each on its own or
 * from where the one before left it (its line breaks are bytes '\n', not
 * UTF-16's two or UTF-32's four). */
static bool plain_body(const struct bl_headers *h)
{
	const char *e = h->encoding;
	bool plain = (!h->type[0] || strcmp(h->type, "text/plain") == 0) &&
		     (bl_mime_identity(h) || strcmp(e, "quoted-printable") == 0 ||
		      strcmp(e, "base64") == 0);
	/* HTML whose bytes are the page's: decoded from where the one before
	 * left it (html.c) */
	bool page = bl_mime_is_html(h) && bl_mime_identity(h);
	return h->has_body && (plain || page) &&
	       (!h->charset[0] || bl_charset_ascii_compatible(h->charset));
}

/* The mail of format fmt at `at`, buf[0] its first byte, longer than
 * window + overlap: in windows when its body is one plain-text part, part
 * by part when it is multipart (parts.c) (*windowed), else left to be
 * read whole. */
static int window_mail(struct reader *r, enum bl_input_format fmt, const struct bl_mbox_cut *at,
		       size_t scan, size_t window, size_t overlap, bl_message_fn each, void *ctx,
		       struct bl_mbox_cut *next, bool *windowed)
{
	struct bl_headers h;
	size_t body_at;
	mail_headers(r, fmt, &h, &body_at);
	if (h.has_body && strncmp(h.type, "multipart/", 10) == 0 && h.boundary[0])
		return bl_parts_windows(r, fmt, at, scan, &h, body_at, window, overlap, each, ctx,
					next, windowed);
	*windowed = plain_body(&h);
	if (!*windowed)
		bl_headers_free(&h);
	/* a base64 body is cut where its groups start, counted from its
	 * first character, and a page where its decoding stands, from its
	 * first byte: headers longer than half a window leave the first
	 * window no place to cut them, and are read whole */
	bool base64 = *windowed && strcmp(h.encoding, "base64") == 0;
	bool page = *windowed && bl_mime_is_html(&h);
	if ((base64 || page) && body_at - at->offset >= window / 2) {
		bl_headers_free(&h);
		*windowed = false;
	}
	if (!*windowed)
		return 0;
	struct span sp = {.fmt = fmt,
			  .index = at->index,
			  .start = at->offset,
			  .line = at->line,
			  .body = &h,
			  .base64 = base64,
			  .data_from = body_at,
			  .framed = fmt == BL_INPUT_MBOX,
			  .end = SIZE_MAX,
			  .scan = scan};
	int rc = bl_span_windows(r, &sp, window, overlap, each, ctx);
	bl_headers_free(&h);
	*next = (struct bl_mbox_cut){sp.end, sp.end_line, at->index + 1};
	return rc;
}

/* A message framed in an mbox: raw bytes (NULL when it was too long to
 * hold, and the framing needs only where it is) and where they begin in
 * the whole input. A non-zero return stops the framing. */
typedef int (*frame_fn)(const char *raw, size_t len, const struct bl_mbox_cut *at, void *fctx);

struct framing;

/* A message that grew past f->long_at bytes before its end was read
 * (buf[0] is its first byte; the search for its end goes on at input
 * offset `scan`): read to its end and handed over (*taken; *next is where
 * the message after it starts), or left to be read whole. */
typedef int (*long_fn)(struct reader *r, const struct framing *f, const struct bl_mbox_cut *at,
		       size_t scan, struct bl_mbox_cut *next, bool *taken);

struct framing {
	frame_fn fn;
	long_fn on_long; /* NULL: every message is read whole */
	size_t long_at;
	void *fctx;
};

/* A message framed only to find where it is (bl_mbox_cuts): its bytes
 * are dropped as they are read, up to its end. */
static int skip_long(struct reader *r, const struct framing *f, const struct bl_mbox_cut *at,
		     size_t scan, struct bl_mbox_cut *next, bool *taken)
{
	struct span sp = {.framed = true, .end = SIZE_MAX, .scan = scan};
	size_t line = at->line;
	int rc;
	for (bl_span_find_end(r, &sp); sp.end == SIZE_MAX && !r->eof; bl_span_find_end(r, &sp)) {
		line += count_lines(r->buf, sp.scan - r->base);
		bl_reader_drop(r, sp.scan);
		if ((rc = bl_reader_fill(r)) < 0)
			return rc;
	}
	size_t end = sp.end != SIZE_MAX ? sp.end : r->base + r->len;
	line += count_lines(r->buf, end - r->base);
	bl_reader_drop(r, end);
	*next = (struct bl_mbox_cut){end, line, at->index + 1};
	*taken = true;
	return f->fn(NULL, end - at->offset, at, f->fctx);
}

/* Splits the mbox read by r at its "From " lines, from the message start
 * `at` on, and hands each message to f->fn before the next is read:
 * memory holds one message and a chunk (a long one goes to f->on_long). */
static int frame_mbox(struct reader *r, const struct bl_mbox_cut *at, const struct framing *f)
{
	r->base = at->offset;
	size_t start = 0, scan = 0, line = at->line, index = at->index;
	bool whole = false; /* the current message is read whole */
	int rc;
	for (;;) {
		bool inc;
		size_t sep = bl_mbox_next_separator(r->buf, r->len, scan, r->eof, &inc);
		if (sep < r->len && !inc) {
			if (sep > start) {
				struct bl_mbox_cut m = {r->base + start, line, index++};
				if ((rc = f->fn(r->buf + start, sep - start, &m, f->fctx)))
					return rc;
				line += count_lines(r->buf + start, sep - start);
			}
			start = sep;
			scan = sep;
			whole = false;
			continue;
		}
		if (r->eof) {
			/* an empty input is one empty message (a piece that
			 * begins at the end of its input holds none) */
			if (r->len > start || (index == 0 && at->offset == 0)) {
				struct bl_mbox_cut m = {r->base + start, line, index++};
				return f->fn(r->buf ? r->buf + start : "", r->len - start, &m,
					     f->fctx);
			}
			return 0;
		}
		/* keep only the current message, then read on */
		/* resume the search at the '\n' before a cut candidate line, or
		 * where "\nFrom " may straddle the end of what was read */
		size_t keep_from = inc ? sep - 1 : (r->len >= 6 ? r->len - 6 : 0);
		if (keep_from < start)
			keep_from = start;
		bl_reader_drop(r, r->base + start);
		scan = keep_from - start;
		start = 0;
		if (f->on_long && !whole && r->len >= f->long_at) {
			struct bl_mbox_cut m = {r->base, line, index}, next;
			bool taken = false;
			if ((rc = f->on_long(r, f, &m, r->base + scan, &next, &taken)))
				return rc;
			whole = !taken;
			if (taken) {
				start = scan = next.offset - r->base;
				line = next.line;
				index = next.index;
				continue;
			}
		}
		if ((rc = bl_reader_fill(r)) < 0)
			return rc;
	}
}

const struct bl_mbox_cut bl_mbox_start = {0, 1, 0};

struct decode_each {
	const struct reader *r;
	const struct bl_ingest_plan *plan;
	enum bl_input_format fmt;
	size_t window, overlap;
	bl_message_fn each;
	void *ctx;
	size_t until; /* the first message at or after this offset ends it */
	bool reached; /* it did: the framing stops there */
};

/* Whether the message at `at` is past the piece being read (then the
 * framing is stopped, with 1). */
static bool reached(struct decode_each *d, const struct bl_mbox_cut *at)
{
	if (at->offset < d->until)
		return false;
	d->reached = true;
	return true;
}

static int decode_each(const char *raw, size_t len, const struct bl_mbox_cut *at, void *fctx)
{
	struct decode_each *d = fctx;
	if (reached(d, at))
		return 1;
	/* read in place, padded: BL_TEXT_PAD zero bytes over those after it
	 * (the next mail's first ones, put back after), so that a mail
	 * whose body needs no decoding is not copied */
	const struct reader *r = d->r;
	char *in_buf = r->in_memory ? NULL : r->buf;
	bool padded = in_buf && raw >= in_buf && raw < in_buf + r->cap &&
		      r->cap - (size_t)(raw - in_buf) - len >= BL_TEXT_PAD;
	char save[BL_TEXT_PAD];
	if (padded)
		pad_in_place((char *)raw + len, save);
	int rc = bl_ingest_one(d->plan, raw, len, at->offset, at->line, at->index, d->fmt, padded,
			       d->each, d->ctx);
	if (padded)
		unpad((char *)raw + len, save);
	return rc;
}

static int window_long(struct reader *r, const struct framing *f, const struct bl_mbox_cut *at,
		       size_t scan, struct bl_mbox_cut *next, bool *taken)
{
	struct decode_each *d = f->fctx;
	if (reached(d, at))
		return 1;
	return window_mail(r, d->fmt, at, scan, d->window, d->overlap, d->each, d->ctx, next,
			   taken);
}

/* Frames an mbox for decoding, its long mails in windows (window 0:
 * each read whole), from the message `at` to the first message that
 * begins at or after `until`. */
static int decode_mbox(struct reader *r, const struct bl_mbox_cut *at, size_t until, size_t window,
		       size_t overlap, bl_message_fn each, void *ctx)
{
	struct decode_each d = {r,    r->plan, BL_INPUT_MBOX, window, overlap,
				each, ctx,     until,         false};
	struct framing f = {decode_each, window ? window_long : NULL, window + overlap, &d};
	int rc = frame_mbox(r, at, &f);
	return d.reached && rc == 1 ? 0 : rc;
}

/* A page longer than window + overlap, in windows: those past the first
 * in the charset its first named (<meta charset>), each from the state
 * of the page's decoding the one before found at its first byte; 1
 * (nothing read) when the page is to be read whole. */
static int page_windows(struct reader *r, size_t window, size_t overlap, bl_message_fn each,
			void *ctx)
{
	struct bl_headers page = {.type = "text/html", .has_body = true};
	size_t head = r->len < window + overlap ? r->len : window + overlap;
	if (!bl_html_meta_charset(r->buf, head, page.charset, sizeof page.charset))
		page.charset[0] = '\0';
	/* UTF-16, ISO-2022...: its markup is not in ASCII bytes, where the
	 * cuts are found; read whole */
	if (!bl_charset_ascii_compatible(page.charset))
		return 1;
	struct span sp = {.fmt = BL_INPUT_HTML, .line = 1, .body = &page, .end = SIZE_MAX};
	return bl_span_windows(r, &sp, window, overlap, each, ctx);
}

/* A text or a mail that is not an mbox: in windows when it is longer
 * than window + overlap and can be (window.h), else whole. */
static int decode_one(struct reader *r, enum bl_input_format fmt, size_t window, size_t overlap,
		      bl_message_fn each, void *ctx)
{
	int rc;
	bool text = fmt == BL_INPUT_TEXT || fmt == BL_INPUT_QP;
	bool windowed = window && (text || fmt == BL_INPUT_EML || fmt == BL_INPUT_HTML);
	while (!r->eof && (!windowed || r->len <= window + overlap))
		if ((rc = bl_reader_fill(r)) < 0)
			return rc;
	if (windowed && r->len > window + overlap) {
		if (text) {
			/* UTF-16 or UTF-32 (utf16.c) is decided here, once, from the
			 * start */
			struct span sp = {.fmt = fmt,
					  .line = 1,
					  .end = SIZE_MAX,
					  .wide = bl_wide_order(r->buf, r->len)};
			return bl_span_windows(r, &sp, window, overlap, each, ctx);
		}
		if (fmt == BL_INPUT_HTML) {
			if ((rc = page_windows(r, window, overlap, each, ctx)) != 1)
				return rc;
		} else {
			struct bl_mbox_cut next;
			bool taken;
			rc = window_mail(r, fmt, &bl_mbox_start, 0, window, overlap, each, ctx,
					 &next, &taken);
			if (rc || taken)
				return rc;
		}
		while (!r->eof)
			if ((rc = bl_reader_fill(r)) < 0)
				return rc;
	}
	/* read whole: bl_reader_fill() left at least CHUNK bytes of room after the
	 * end, zeroed here so that decoding reads it in place */
	if (r->buf)
		memset(r->buf + r->len, 0, BL_TEXT_PAD);
	return bl_ingest_one(r->plan, r->buf ? r->buf : "", r->len, 0, 1, 0, fmt, r->buf != NULL,
			     each, ctx);
}

int bl_ingest_stream_window(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
			    enum bl_input_format fmt, size_t window, size_t overlap,
			    bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	struct reader r = {.plan = plan, .rd = rd, .rctx = rctx};
	int rc = 0;
	/* enough of the start to tell what it is */
	while (!r.eof && r.len < CHUNK)
		if ((rc = bl_reader_fill(&r)) < 0)
			goto out;
	if (fmt == BL_INPUT_AUTO)
		fmt = bl_detect_format(r.buf ? r.buf : "", r.len);
	if (window && 2 * overlap >= window)
		overlap = window / 4;
	if (fmt == BL_INPUT_MBOX)
		rc = decode_mbox(&r, &bl_mbox_start, SIZE_MAX, window, overlap, each, ctx);
	else
		rc = decode_one(&r, fmt, window, overlap, each, ctx);
out:
	free(r.buf);
	return rc;
}

int bl_ingest_stream(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
		     enum bl_input_format fmt, bl_message_fn each, void *ctx)
{
	return bl_ingest_stream_window(plan, rd, rctx, fmt, BL_WINDOW_DEFAULT, BL_WINDOW_OVERLAP,
				       each, ctx);
}

int bl_ingest_mbox_piece(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
			 const struct bl_mbox_cut *at, size_t until, bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	struct reader r = {.plan = plan, .rd = rd, .rctx = rctx};
	int rc = decode_mbox(&r, at, until, BL_WINDOW_DEFAULT, BL_WINDOW_OVERLAP, each, ctx);
	free(r.buf);
	return rc;
}

struct cuts {
	const size_t *targets;
	size_t n, done;
	struct bl_mbox_cut *cuts;
	size_t end; /* where the last message seen ends */
};

/* Stops the framing (1) once every target has its message. */
static int take_cut(const char *raw, size_t len, const struct bl_mbox_cut *at, void *fctx)
{
	(void)raw;
	struct cuts *c = fctx;
	while (c->done < c->n && at->offset >= c->targets[c->done])
		c->cuts[c->done++] = *at;
	c->end = at->offset + len;
	return c->done == c->n;
}

static int find_cuts(struct reader *r, const struct bl_mbox_cut *from, const size_t *targets,
		     size_t n, struct bl_mbox_cut *cuts)
{
	struct cuts c = {targets, n, 0, cuts, from->offset};
	struct framing f = {take_cut, skip_long, SKIP_AT, &c};
	int rc = n ? frame_mbox(r, from, &f) : 0;
	if (rc < 0)
		return rc;
	/* no message starts at or after these: they begin at the end */
	for (size_t k = c.done; k < n; k++)
		cuts[k] = (struct bl_mbox_cut){c.end, 0, 0};
	return 0;
}

int bl_mbox_cuts(bl_read_fn rd, void *rctx, const struct bl_mbox_cut *from, const size_t *targets,
		 size_t n, struct bl_mbox_cut *cuts)
{
	struct reader r = {.rd = rd, .rctx = rctx};
	int rc = find_cuts(&r, from, targets, n, cuts);
	free(r.buf);
	return rc;
}

int bl_mbox_cuts_in(const char *s, size_t len, const struct bl_mbox_cut *from,
		    const size_t *targets, size_t n, struct bl_mbox_cut *cuts,
		    void (*done)(void *dctx, size_t upto), void *dctx)
{
	struct reader r = {
		.buf = (char *)s, .in_memory = true, .left = len, .done = done, .dctx = dctx};
	return find_cuts(&r, from, targets, n, cuts);
}
