/* ingest.c - raw bytes to messages: framing (mbox or one message), then
 * each message's decoding pipeline:
 *
 *   mbox:  ">From " unquoted, then as eml
 *   eml:   headers (RFC 2047), MIME body (qp/base64, charset, HTML)
 *   html:  <meta> charset, then text from the markup
 *   text:  quoted-printable if it looks so, then UTF-8 repaired
 *   all:   flattened lines split, quoting stripped, wrapped lines joined
 *
 * Each step reads the previous text with its map and writes a new one, so
 * the map always leads back to the input; a step that changes nothing is
 * dropped and leaves no trace in source.decoding. */
#include "ingest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sites.h"
#include "../base/find.h"
#include "decode.h"
#include "window.h"

static void add_decoding(struct bl_message *m, const char *name)
{
	if (name)
		bl_message_add_decoding(m, name);
}

/* The current text of a message being decoded: the message's raw bytes
 * themselves until a step changes them (no copy of a large input that
 * needs no decoding), then the output of the last step that did. */
struct stage {
	struct bl_tbuf cur;
	bool raw;
	size_t skip; /* raw bytes before the text (an mbox separator line) */
};

static const char *cur_s(const struct stage *st, const struct bl_message *m)
{
	return st->raw ? m->raw + st->skip : st->cur.s;
}

static size_t cur_len(const struct stage *st, const struct bl_message *m)
{
	return st->raw ? m->raw_len - st->skip : st->cur.len;
}

/* Runs one step: on `changed`, the output replaces the current text (and
 * the sites found on the text before are dropped). */
#define STEP(st, call_expr, name, m)                                                               \
	do {                                                                                       \
		struct bl_src in_;                                                                 \
		struct bl_tbuf out_;                                                               \
		if ((st)->raw)                                                                     \
			bl_src_plain(&in_, (m)->raw + (st)->skip, (m)->raw_len - (st)->skip,       \
				     (st)->skip);                                                  \
		else                                                                               \
			bl_src_from_tbuf(&in_, &(st)->cur);                                        \
		bl_tbuf_init(&out_);                                                               \
		struct bl_src *in = &in_;                                                          \
		struct bl_tbuf *out = &out_;                                                       \
		bool changed_ = (call_expr);                                                       \
		(void)in;                                                                          \
		(void)out;                                                                         \
		if (changed_ && !out_.failed) {                                                    \
			bl_tbuf_free(&(st)->cur);                                                  \
			(st)->cur = out_;                                                          \
			(st)->raw = false;                                                         \
			bl_sites_free((m)->sites);                                                 \
			(m)->sites = NULL;                                                         \
			add_decoding((m), (name));                                                 \
		} else {                                                                           \
			bl_tbuf_free(&out_);                                                       \
		}                                                                                  \
	} while (0)

static bool qp_step(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	/* the text before decoding: its sites serve this once */
	struct bl_sites *sites = m->plan ? bl_sites_find(m->plan, in->s, in->len) : NULL;
	bool flat = bl_unflatten_detect(in->s, in->len, sites);
	bl_sites_free(sites);
	bl_qp_decode(m, in, out, flat);
	return true;
}

static bool mbox_step(struct bl_src *in, struct bl_tbuf *out)
{
	bl_mbox_unquote(in, out);
	return true;
}

static bool html_step(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	bl_html_to_text(m, in, out);
	return true;
}

static bool eml_step(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool *flowed,
		     bool *delsp)
{
	struct bl_headers h;
	bl_headers_parse(in, &h);
	if (!h.has_body)
		bl_message_diag(
			m, BL_WARNING, "mail.no-body", bl_src_origin(in, h.body),
			"the mail headers are not followed by an empty line: "
			"the body is taken to start at the first line that is not a header");
	m->subject = h.subject;
	m->from = h.from;
	m->date = h.date;
	m->message_id = h.message_id;
	h.subject = h.from = h.date = h.message_id = NULL;
	if (!h.type[0])
		snprintf(h.type, sizeof h.type, "text/plain");
	*flowed = h.flowed && strcmp(h.type, "text/plain") == 0;
	*delsp = h.delsp;
	bl_mime_body(m, in, &h, out);
	bl_headers_free(&h);
	return true;
}

/* The stage's first text: the raw bytes, read in place when they are
 * padded or when the first step reads them `in_place`, else a copy of
 * them; false when out of memory. */
static bool stage_start(struct stage *st, const struct bl_message *m, bool padded, bool in_place)
{
	bl_tbuf_init(&st->cur);
	st->raw = padded;
	st->skip = 0;
	if (in_place)
		st->raw = true;
	if (!padded && !in_place) {
		bl_tbuf_reserve(&st->cur, m->raw_len);
		bl_tbuf_put(&st->cur, m->raw, m->raw_len, 0);
		if (st->cur.failed)
			return false;
	}
	return true;
}

/* The steps of the input's format: mbox unquoting, a mail's headers and
 * MIME body (and format=flowed), HTML, quoted-printable, UTF-8 repair;
 * false when out of memory. */
static bool format_steps(struct stage *st, struct bl_message *m, enum bl_input_format fmt,
			 bool in_place, bool qp_decided)
{
	bool flowed = false, delsp = false;
	switch (fmt) {
	case BL_INPUT_MBOX:
		if (in_place &&
		    bl_mbox_next_quoted(m->raw, m->raw_len,
					(st->skip = bl_mbox_separator_len(m->raw, m->raw_len))) ==
			    m->raw_len) {
			/* no ">From " line to unquote: the mail step reads the
			 * message in place, past its separator line, and makes
			 * its first text (one copy of the message, not two) */
			add_decoding(m, "mbox");
		} else {
			st->skip = 0;
			STEP(st, mbox_step(in, out), "mbox", m);
			if (st->raw && in_place)
				return false; /* no text of its own: out of memory */
		}
		/* fall through */
	case BL_INPUT_EML:
		STEP(st, eml_step(m, in, out, &flowed, &delsp), NULL, m);
		if (st->raw && in_place)
			return false;
		break;
	case BL_INPUT_HTML: {
		char cs[48];
		if (bl_html_meta_charset(cur_s(st, m), cur_len(st, m), cs, sizeof cs) &&
		    strcmp(cs, "utf-8") != 0)
			STEP(st, bl_charset_to_utf8(m, in, out, cs), "charset", m);
		else
			STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
	}
		STEP(st, html_step(m, in, out), "html", m);
		break;
	case BL_INPUT_QP:
		STEP(st, qp_step(m, in, out), "quoted-printable", m);
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
		break;
	default:
		if (!qp_decided && bl_qp_detect(cur_s(st, m), cur_len(st, m)))
			STEP(st, qp_step(m, in, out), "quoted-printable", m);
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
		break;
	}
	if (flowed)
		STEP(st, bl_flowed_decode(m, in, out, delsp), "format-flowed", m);
	if (fmt != BL_INPUT_HTML)
		STEP(st, bl_html_regions(m, in, out), "html-regions", m);
	STEP(st, bl_qp_stray(m, in, out), "quoted-printable-stray", m);
	return true;
}

/* The sites of the decoded text: the places the unflattener, and later
 * the scan and the system reader, look at. */
static void decoded_sites(struct stage *st, struct bl_message *m)
{
	/* detection runs PCRE2's JIT over the text: bl_src_from_tbuf zeroes
	 * the bytes past the end of a decoded text that the JIT may read (the
	 * raw input is padded where it was read) */
	if (!st->raw) {
		struct bl_src probe;
		bl_src_from_tbuf(&probe, &st->cur);
	}
	/* found once, kept while the text stays as it is (NULL when memory
	 * ran out: each then searches on its own) */
	bl_sites_free(m->sites);
	m->sites = m->plan ? bl_sites_find(m->plan, cur_s(st, m), cur_len(st, m)) : NULL;
}

/* The steps of every text: flattened lines split, quoting stripped,
 * wrapped lines joined. *unbroken and *breaks: the sites of the text
 * before the unflattener broke its lines, and the breaks, kept to make
 * those of the final text when no later step changes it (a break
 * replaces a blank: the sites change only around each,
 * bl_sites_update). */
static void line_steps(struct stage *st, struct bl_message *m, enum bl_input_format fmt,
		       struct bl_sites **unbroken, size_t **breaks, size_t *nbreaks)
{
	size_t steps = m->ndecodings;
	if (bl_unflatten_detect(cur_s(st, m), cur_len(st, m), m->sites)) {
		/* a flattened mail's headers: at the start of the input */
		if (fmt != BL_INPUT_MBOX && fmt != BL_INPUT_EML && m->window.index == 0)
			bl_unflatten_headers(m, cur_s(st, m), cur_len(st, m));
		/* kept from the step, which drops the sites of a text it
		 * changes */
		*unbroken = m->sites;
		m->sites = NULL;
		STEP(st, bl_unflatten_breaks(m, in, out, *unbroken, breaks, nbreaks), "unflatten",
		     m);
		if (m->ndecodings == steps) {
			m->sites = *unbroken; /* the text is as it was */
			*unbroken = NULL;
		}
		steps = m->ndecodings;
	}
	STEP(st, bl_quote_strip(m, in, out), "unquote", m);
	STEP(st, bl_rewrap(m, in, out, false, false), "rewrap", m);
	if (*unbroken && m->ndecodings != steps) {
		bl_sites_free(*unbroken); /* found again on the final text */
		*unbroken = NULL;
	}
}

/* The sites of the final text, when a step changed it: found here, not
 * by the first reader, so that they are of the whole text even when a
 * reader looks at a part of it (a window's own part, which the system
 * reader reads with the length cut short). Frees unbroken and breaks. */
static void final_sites(struct bl_message *m, struct bl_sites *unbroken, size_t *breaks,
			size_t nbreaks)
{
	if (unbroken && !m->sites &&
	    bl_sites_update(m->plan, unbroken, m->text, m->len, breaks, nbreaks)) {
		m->sites = unbroken;
		unbroken = NULL;
	}
	bl_sites_free(unbroken);
	free(breaks);
	if (!m->sites && m->plan)
		m->sites = bl_sites_find(m->plan, m->text, m->len);
}

/* `padded`: BL_TEXT_PAD readable zero bytes follow m->raw, so the first
 * step may read it in place (PCRE2's JIT reads a little past the end).
 * `qp_decided`: plain text whose quoted-printable test was made already
 * (on the first window of a large input): not made again. */
static int decode_message(struct bl_message *m, enum bl_input_format fmt, bool padded,
			  bool qp_decided)
{
	struct stage st;
	/* the sites of the text before the unflattener broke its lines, and
	 * the breaks (see line_steps) */
	struct bl_sites *unbroken = NULL;
	size_t *breaks = NULL, nbreaks = 0;
	/* an mbox message's first step reads the raw bytes in place (it
	 * needs no zero bytes after them) and always writes a text of its
	 * own: the message is not copied first */
	bool in_place = !padded && fmt == BL_INPUT_MBOX;
	if (!stage_start(&st, m, padded, in_place))
		goto oom;
	if (!format_steps(&st, m, fmt, in_place, qp_decided))
		goto oom;
	decoded_sites(&st, m);
	line_steps(&st, m, fmt, &unbroken, &breaks, &nbreaks);
	if (st.raw && st.skip) {
		/* the sites are of the text after the separator line */
		bl_sites_free(m->sites);
		m->sites = NULL;
	}
	if (st.raw) {
		/* nothing changed: the text is the input itself, which is
		 * padded (a plain file of valid UTF-8 is never copied) */
		m->text = (char *)m->raw;
		m->len = m->raw_len;
		m->text_borrowed = true;
		goto done;
	}
	if (st.cur.failed)
		goto oom;
	bl_tbuf_to_message(&st.cur, m);
	if (!m->text)
		return -1;
done:
	final_sites(m, unbroken, breaks, nbreaks);
	bl_message_diag_lines(m);
	return 0;
oom:
	bl_sites_free(unbroken);
	free(breaks);
	bl_tbuf_free(&st.cur);
	return -1;
}

static int one_message(const struct bl_ingest_plan *plan, const char *raw, size_t len,
		       size_t raw_offset, size_t raw_line, size_t index, enum bl_input_format fmt,
		       bool padded, bl_message_fn each, void *ctx)
{
	struct bl_message m;
	memset(&m, 0, sizeof m);
	m.plan = plan ? plan->sites : NULL;
	m.raw = raw;
	m.raw_len = len;
	m.raw_offset = raw_offset;
	m.raw_line = raw_line ? raw_line : 1;
	m.line_cache_line = m.raw_line;
	m.index = index;
	if (decode_message(&m, fmt, padded, false) < 0) {
		bl_message_free(&m);
		return -1;
	}
	int rc = each(&m, ctx);
	bl_message_free(&m);
	return rc;
}

static size_t count_lines(const char *s, size_t n)
{
	return bl_count_byte(s, n, '\n');
}

/* Finds the next separator line at or after `from` (which must be a line
 * start or just after one). Returns its offset, or len when there is none
 * in [from, len); *incomplete when a candidate's line is cut by the end of
 * the buffer. */
static size_t next_separator(const char *s, size_t len, size_t from, bool at_eof, bool *incomplete)
{
	*incomplete = false;
	size_t i = from;
	while (i < len) {
		/* found by the "\nF" of a line that starts with F (by both
		 * bytes at once, 32 a step): glibc's memmem was a tenth of the
		 * time spent on an archive of plain messages, and a memchr of
		 * the 'F' stopped at every capital F of prose */
		const char *p = bl_find_lit(s + i, len - i, "\nF", 2);
		if (!p)
			return len;
		if ((size_t)(s + len - p) < 6 || memcmp(p, "\nFrom ", 6) != 0) {
			i = (size_t)(p - s) + 1;
			continue;
		}
		size_t at = (size_t)(p - s) + 1;
		const char *nl = memchr(s + at, '\n', len - at);
		if (!nl && !at_eof) {
			*incomplete = true;
			return at;
		}
		size_t ll = nl ? (size_t)(nl - s) - at : len - at;
		if (ll && s[at + ll - 1] == '\r')
			ll--;
		if (bl_mbox_is_separator(s + at, ll))
			return at;
		i = at;
	}
	return len;
}

int bl_ingest_buffer_as(const struct bl_ingest_plan *plan, const char *raw, size_t len,
			enum bl_input_format fmt, bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	if (fmt == BL_INPUT_AUTO)
		fmt = bl_detect_format(raw, len);
	if (fmt != BL_INPUT_MBOX)
		return one_message(plan, raw, len, 0, 1, 0, fmt, false, each, ctx);
	size_t start = 0, line = 1, index = 0;
	while (start < len) {
		bool inc;
		size_t sep = next_separator(raw, len, start, true, &inc);
		int rc = one_message(plan, raw + start, sep - start, start, line, index++, fmt,
				     false, each, ctx);
		if (rc)
			return rc;
		line += count_lines(raw + start, sep - start);
		start = sep;
	}
	if (!len)
		return one_message(plan, raw, 0, 0, 1, 0, fmt, false, each, ctx);
	return 0;
}

int bl_ingest_buffer(const struct bl_ingest_plan *plan, const char *raw, size_t len,
		     bl_message_fn each, void *ctx)
{
	return bl_ingest_buffer_as(plan, raw, len, BL_INPUT_AUTO, each, ctx);
}

#define CHUNK ((size_t)1 << 16)
#define READ_MAX ((size_t)1 << 20)

struct reader {
	const struct bl_ingest_plan *plan; /* the tools' sites and shapes */
	bl_read_fn rd;
	void *rctx;
	char *buf;
	size_t len, cap;
	bool eof;
};

/* Room for n more bytes after r->len (so that BL_TEXT_PAD zero bytes can
 * follow a window in place). */
static int room(struct reader *r, size_t n)
{
	if (r->cap - r->len >= n)
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
static int fill(struct reader *r)
{
	if (r->eof)
		return 0;
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

/* Where in input bytes [lo, hi) a window may start (lo < hi; buf[0] is
 * input byte `base`): after a line break of the decoded window m, so that
 * the next window splits its lines where a reading of the whole input
 * would (the unflattener's breaks included: a long line is re-broken the
 * same way from any of its breaks on); else by the bytes (window.h).
 * *rough: no safe point was found. */
static size_t pick_cut(const struct bl_message *m, const char *buf, size_t base, size_t lo,
		       size_t hi, bool *rough)
{
	size_t tlo = bl_message_text_at(m, lo), thi = bl_message_text_at(m, hi);
	if (thi > tlo) {
		const char *nl = memrchr(m->text + tlo, '\n', thi - tlo);
		if (nl) {
			size_t at = bl_message_origin(m, (size_t)(nl - m->text)) + 1;
			if (at > lo && at <= hi) {
				*rough = false;
				return at;
			}
		}
	}
	enum bl_cut kind;
	size_t at = base + bl_window_cut(buf, lo - base, hi - base, &kind);
	*rough = kind >= BL_CUT_BLANK;
	return at;
}

/* A window being read: input bytes [s, e), starting at line `line`,
 * owning the runs that start in [own_from, own_to). */
struct win {
	size_t s, e, line, index, own_from, own_to;
	bool last, rough;
};

/* Decodes input bytes [w->s, w->e) (buf[0] is input byte `base`) in place
 * (the bytes after them are zeroed meanwhile, then put back), picks the
 * end of its own part in [cut_lo, cut_hi) unless it is the last, hands it
 * over, and picks where the next window starts (*next: at least `overlap`
 * bytes before the cut). */
static int window_message(struct reader *r, size_t base, struct win *w, size_t cut_lo,
			  size_t cut_hi, size_t overlap, size_t *next, enum bl_input_format fmt,
			  bl_message_fn each, void *ctx)
{
	char *raw = r->buf + (w->s - base);
	size_t len = w->e - w->s;
	char save[BL_TEXT_PAD];
	memcpy(save, raw + len, BL_TEXT_PAD);
	memset(raw + len, 0, BL_TEXT_PAD);
	struct bl_message m;
	memset(&m, 0, sizeof m);
	m.plan = r->plan ? r->plan->sites : NULL;
	m.raw = raw;
	m.raw_len = len;
	m.raw_offset = w->s;
	m.raw_line = w->line;
	m.line_cache_line = w->line;
	m.window.on = true;
	m.window.last = w->last;
	m.window.index = w->index;
	m.window.own_from = w->own_from;
	m.window.rough_cut = w->rough;
	int rc = decode_message(&m, fmt, true, true);
	if (rc == 0 && !w->last) {
		bool rough, unused;
		w->own_to = pick_cut(&m, r->buf, base, cut_lo, cut_hi, &rough);
		/* from the window's own part: decoded as a whole reading would */
		size_t hi = w->own_to - overlap;
		size_t lo = hi - w->own_from > cut_lo - w->own_from ? hi - (cut_lo - w->own_from)
								    : w->own_from;
		*next = lo < hi ? pick_cut(&m, r->buf, base, lo, hi, &unused) : w->own_from;
		w->rough = rough;
	}
	m.window.own_to = w->own_to;
	m.window.next_from = w->last ? w->e : *next;
	if (rc == 0)
		rc = each(&m, ctx);
	bl_message_free(&m);
	memcpy(raw + len, save, BL_TEXT_PAD);
	return rc;
}

/* A text input larger than window + overlap, a window at a time (see
 * window.h). `overlap` < window / 2. */
static int stream_windows(struct reader *r, enum bl_input_format fmt, size_t window, size_t overlap,
			  bl_message_fn each, void *ctx)
{
	size_t base = 0; /* input offset of buf[0] */
	struct win w = {.s = 0, .line = 1, .index = 0, .own_from = 0, .rough = false};
	int rc;
	for (;;) {
		/* the window's own part and the context after it */
		size_t want = w.own_from + window + overlap;
		while (!r->eof && base + r->len < want)
			if ((rc = fill(r)) < 0)
				return rc;
		if ((rc = room(r, BL_TEXT_PAD)) < 0)
			return rc;
		size_t end = base + r->len;
		if (w.index == 0 && fmt == BL_INPUT_TEXT && bl_qp_detect(r->buf, r->len))
			fmt = BL_INPUT_QP; /* decided once, on the first window */
		w.last = r->eof && end <= want;
		w.e = w.last ? end : want;
		w.own_to = end;
		size_t next = 0;
		rc = window_message(r, base, &w, w.own_from + window / 2, w.own_from + window,
				    overlap, &next, fmt, each, ctx);
		if (rc != 0 || w.last)
			return rc;
		w.line += count_lines(r->buf + (w.s - base), next - w.s);
		w.s = next;
		w.own_from = w.own_to;
		w.index++;
		memmove(r->buf, r->buf + (next - base), r->len - (next - base));
		r->len -= next - base;
		base = next;
	}
}

/* A message framed in an mbox: raw bytes and where they begin in the
 * whole input. A non-zero return stops the framing. */
typedef int (*frame_fn)(const char *raw, size_t len, const struct bl_mbox_cut *at, void *fctx);

/* Splits the mbox read by r at its "From " lines, from the message start
 * `at` on, and hands each message to fn before the next is read: memory
 * holds one message and a chunk. */
static int frame_mbox(struct reader *r, const struct bl_mbox_cut *at, frame_fn fn, void *fctx)
{
	/* buf[0] is at input offset `base` */
	size_t base = at->offset, start = 0, scan = 0, line = at->line, index = at->index;
	int rc;
	for (;;) {
		bool inc;
		size_t sep = next_separator(r->buf, r->len, scan, r->eof, &inc);
		if (sep < r->len && !inc) {
			if (sep > start) {
				struct bl_mbox_cut m = {base + start, line, index++};
				if ((rc = fn(r->buf + start, sep - start, &m, fctx)))
					return rc;
				line += count_lines(r->buf + start, sep - start);
			}
			start = sep;
			scan = sep;
			continue;
		}
		if (r->eof) {
			/* an empty input is one empty message (a piece that
			 * begins at the end of its input holds none) */
			if (r->len > start || (index == 0 && at->offset == 0)) {
				struct bl_mbox_cut m = {base + start, line, index++};
				return fn(r->buf ? r->buf + start : "", r->len - start, &m, fctx);
			}
			return 0;
		}
		/* keep only the current message, then read on */
		/* resume the search at the '\n' before a cut candidate line, or
		 * where "\nFrom " may straddle the end of what was read */
		size_t keep_from = inc ? sep - 1 : (r->len >= 6 ? r->len - 6 : 0);
		if (keep_from < start)
			keep_from = start;
		if (start)
			memmove(r->buf, r->buf + start, r->len - start);
		r->len -= start;
		base += start;
		scan = keep_from - start;
		start = 0;
		if ((rc = fill(r)) < 0)
			return rc;
	}
}

const struct bl_mbox_cut bl_mbox_start = {0, 1, 0};

struct decode_each {
	const struct bl_ingest_plan *plan;
	enum bl_input_format fmt;
	bl_message_fn each;
	void *ctx;
};

static int decode_each(const char *raw, size_t len, const struct bl_mbox_cut *at, void *fctx)
{
	const struct decode_each *d = fctx;
	return one_message(d->plan, raw, len, at->offset, at->line, at->index, d->fmt, false,
			   d->each, d->ctx);
}

int bl_ingest_stream_window(const struct bl_ingest_plan *plan, bl_read_fn rd, void *rctx,
			    enum bl_input_format fmt, size_t window, size_t overlap,
			    bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	struct reader r = {plan, rd, rctx, NULL, 0, 0, false};
	int rc = 0;
	/* enough of the start to tell what it is */
	while (!r.eof && r.len < CHUNK)
		if ((rc = fill(&r)) < 0)
			goto out;
	if (fmt == BL_INPUT_AUTO)
		fmt = bl_detect_format(r.buf ? r.buf : "", r.len);
	if (fmt != BL_INPUT_MBOX) {
		bool windowed = window && (fmt == BL_INPUT_TEXT || fmt == BL_INPUT_QP);
		if (windowed && 2 * overlap >= window)
			overlap = window / 4;
		while (!r.eof && (!windowed || r.len <= window + overlap))
			if ((rc = fill(&r)) < 0)
				goto out;
		if (windowed && r.len > window + overlap) {
			rc = stream_windows(&r, fmt, window, overlap, each, ctx);
			goto out;
		}
		/* read whole: fill() left at least CHUNK bytes of room after
		 * the end, zeroed here so that decoding reads it in place */
		if (r.buf)
			memset(r.buf + r.len, 0, BL_TEXT_PAD);
		rc = one_message(plan, r.buf ? r.buf : "", r.len, 0, 1, 0, fmt, r.buf != NULL, each,
				 ctx);
		goto out;
	}
	rc = frame_mbox(&r, &bl_mbox_start, decode_each,
			&(struct decode_each){plan, fmt, each, ctx});
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
			 const struct bl_mbox_cut *at, bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	struct reader r = {plan, rd, rctx, NULL, 0, 0, false};
	int rc = frame_mbox(&r, at, decode_each,
			    &(struct decode_each){plan, BL_INPUT_MBOX, each, ctx});
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

int bl_mbox_cuts(bl_read_fn rd, void *rctx, const struct bl_mbox_cut *from, const size_t *targets,
		 size_t n, struct bl_mbox_cut *cuts)
{
	struct reader r = {NULL, rd, rctx, NULL, 0, 0, false};
	struct cuts c = {targets, n, 0, cuts, from->offset};
	int rc = n ? frame_mbox(&r, from, take_cut, &c) : 0;
	free(r.buf);
	if (rc < 0)
		return rc;
	/* no message starts at or after these: they begin at the end */
	for (size_t k = c.done; k < n; k++)
		cuts[k] = (struct bl_mbox_cut){c.end, 0, 0};
	return 0;
}
