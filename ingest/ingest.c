/* ingest.c - raw bytes to messages: a buffer framed (mbox or one
 * message; a stream is framed by stream.c), then each message's decoding
 * pipeline:
 *
 *   mbox:  ">From " unquoted, then as eml
 *   eml:   headers (RFC 2047), MIME body (qp/base64, charset, HTML)
 *   body:  a window of a mail's body past the first: ">From " unquoted,
 *          then its transfer encoding and charset, by the mail's headers
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

static void add_decoding(struct bl_message *m, const char *name)
{
	if (name)
		bl_message_add_decoding(m, name);
}

/* A step whose output could not be made: the text goes on as it stood
 * before it, and the document says so. */
static void step_failed(struct bl_message *m, const char *name, size_t ndecodings,
			const struct bl_tbuf *out)
{
	m->ndecodings = ndecodings; /* those the step listed, not made */
	bl_message_diag(m, BL_WARNING, "ingest.step-failed", 0,
			"the %s decoding was not applied (%s): the text is read as it stood "
			"before it",
			name ? name : "mail",
			out->too_long ? "its text is over 1 GB" : "out of memory");
}

int bl_decoding_rank(const char *name)
{
	/* format steps (the mail's leaf: transfer encoding, charset, HTML),
	 * then those of every format, then the line steps */
	static const char *const order[] = {
		"mbox",
		"mime",
		"quoted-printable",
		"base64",
		"charset",
		"utf-8-repair",
		"html",
		"format-flowed",
		"html-regions",
		"quoted-printable-stray",
		"unflatten",
		"unquote",
		"rewrap",
	};
	int n = (int)(sizeof order / sizeof order[0]);
	for (int i = 0; i < n; i++)
		if (strcmp(order[i], name) == 0)
			return i;
	return n;
}

/* The current text of a message being decoded: the message's raw bytes
 * themselves until a step changes them (no copy of a large input that
 * needs no decoding), then the output of the last step that did. */
struct stage {
	struct bl_tbuf cur;
	bool raw;
	size_t skip; /* raw bytes before the text (an mbox separator line) */
	bool failed; /* a step could not be made (step_failed) */
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
		size_t ndecodings_ = (m)->ndecodings;                                              \
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
			if (changed_) {                                                            \
				step_failed((m), (name), ndecodings_, &out_);                      \
				(st)->failed = true;                                               \
			}                                                                          \
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

/* A mail's headers parsed: what the message keeps of them, and whether
 * its body is format=flowed. */
static void mail_fields(struct bl_message *m, struct bl_headers *h, bool *flowed, bool *delsp)
{
	m->subject = h->subject;
	m->from = h->from;
	m->date = h->date;
	m->message_id = h->message_id;
	h->subject = h->from = h->date = h->message_id = NULL;
	if (!h->type[0])
		snprintf(h->type, sizeof h->type, "text/plain");
	*flowed = h->flowed && strcmp(h->type, "text/plain") == 0;
	*delsp = h->delsp;
}

/* The mail in `in`: its headers (`parsed`, taken over, or parsed here)
 * and the text of its MIME body. */
static bool eml_step(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
		     struct bl_headers *parsed, bool *flowed, bool *delsp)
{
	struct bl_headers h;
	if (parsed)
		h = *parsed;
	else
		bl_headers_parse(in, &h);
	if (!h.has_body)
		bl_message_diag(
			m, BL_WARNING, "mail.no-body", bl_src_origin(in, h.body),
			"the mail headers are not followed by an empty line: "
			"the body is taken to start at the first line that is not a header");
	mail_fields(m, &h, flowed, delsp);
	bl_mime_body(m, in, &h, out);
	bl_headers_free(&h);
	return true;
}

/* A mail read in place (padded), its headers parsed into *h: when its
 * body is one plain-text part that needs no decoding (bl_mime_as_is, and
 * valid UTF-8 without a NUL byte: most mails of a list), its text is its
 * body, read in place past its headers (st->skip), where eml_step would
 * copy it. False, with *h left to eml_step, for any other mail. */
static bool mail_as_is(struct stage *st, struct bl_message *m, struct bl_headers *h, bool *flowed,
		       bool *delsp)
{
	struct bl_src in;
	bl_src_plain(&in, m->raw + st->skip, m->raw_len - st->skip, st->skip);
	bl_headers_parse(&in, h);
	/* no Content-Type: text/plain, which bl_mime_as_is takes it for */
	if (!h->has_body || !bl_mime_as_is(h) || !bl_utf8_valid(in.s + h->body, in.len - h->body))
		return false;
	mail_fields(m, h, flowed, delsp);
	st->skip += h->body;
	bl_headers_free(h);
	return true;
}

/* An empty text, when no other can be made (a step_failed diagnostic
 * says why). */
static void no_text(struct stage *st)
{
	bl_tbuf_free(&st->cur);
	bl_tbuf_init(&st->cur);
	bl_tbuf_reserve(&st->cur, 0);
	st->raw = false;
	st->skip = 0;
}

/* The text of a stage whose first step, reading an mbox mail in place
 * unpadded, could not write one (step_failed): a copy of the bytes past
 * st->skip, or no text at all when even that cannot be made. */
static void own_copy(struct stage *st, const struct bl_message *m)
{
	if (bl_tbuf_reserve(&st->cur, m->raw_len - st->skip))
		bl_tbuf_put(&st->cur, m->raw + st->skip, m->raw_len - st->skip, st->skip);
	if (st->cur.failed) {
		no_text(st);
		return;
	}
	st->raw = false;
	st->skip = 0;
}

/* The stage's first text: the raw bytes, read in place when they are
 * padded or when the first step reads them `in_place`, else a copy of
 * them; false when out of memory. */
static bool stage_start(struct stage *st, const struct bl_message *m, bool padded, bool in_place)
{
	bl_tbuf_init(&st->cur);
	st->raw = padded;
	st->skip = 0;
	st->failed = false;
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

/* A window of a mail's body past its first (`body`: the mail's headers,
 * of a single text/plain part): its ">From " lines unquoted, then its
 * transfer encoding and charset undone as the whole body's would be. */
static bool body_step(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
		      const struct bl_headers *body)
{
	/* a plain part's window is its own text, read in place, unless it
	 * has bytes to replace (what bl_mime_body would do to it): a long
	 * `zpool iostat` pasted in a mail is not copied window by window */
	if (m->window.ended)
		return true; /* base64 data that ended in a window before */
	if (bl_mime_as_is(body))
		return bl_mime_utf8_repair(m, in, body, out);
	struct bl_headers h = *body;
	h.body = 0;
	bl_mime_body(m, in, &h, out);
	return true;
}

/* A window's bytes from the first line start on: its first byte, or
 * after its first newline when the window begins inside a line (a
 * ">From " there is not at a line's start, and a line that looks like a
 * separator there is the mail's, not a frame). */
static size_t first_line_start(const struct bl_message *m)
{
	if (!m->window.mid_line)
		return 0;
	const char *nl = memchr(m->raw, '\n', m->raw_len);
	return nl ? (size_t)(nl - m->raw) + 1 : m->raw_len;
}

static bool unquote_step(struct bl_src *in, struct bl_tbuf *out, size_t from)
{
	bl_mbox_unquote_from(in, out, 0, from);
	return true;
}

/* The charset step of a page: the one its <meta> names (`cs`), else a
 * repair of what is not UTF-8. */
static void page_charset_step(struct stage *st, struct bl_message *m, const char *cs)
{
	if (cs[0] && strcmp(cs, "utf-8") != 0)
		STEP(st, bl_charset_to_utf8(m, in, out, cs), "charset", m);
	else
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
	STEP(st, html_step(m, in, out), "html", m);
}

static void body_steps(struct stage *st, struct bl_message *m, enum bl_input_format fmt,
		       const struct bl_headers *body)
{
	if (fmt == BL_INPUT_HTML) {
		page_charset_step(st, m, body->charset);
		return;
	}
	if (fmt == BL_INPUT_MBOX) {
		size_t from = first_line_start(m);
		if (bl_mbox_next_quoted(m->raw, m->raw_len, from) == m->raw_len)
			add_decoding(m, "mbox");
		else
			STEP(st, unquote_step(in, out, from), "mbox", m);
	}
	STEP(st, body_step(m, in, out, body), NULL, m);
}

/* The steps of the input's format: mbox unquoting, a mail's headers and
 * MIME body (*flowed, *delsp: format=flowed), HTML, quoted-printable,
 * UTF-8 repair. */
static void first_steps(struct stage *st, struct bl_message *m, enum bl_input_format fmt,
			bool in_place, bool qp_decided, bool *flowed, bool *delsp)
{
	switch (fmt) {
	case BL_INPUT_MBOX:
		/* read in place: by the first step (in_place), or padded (a
		 * mail of a streamed mbox, the first window of a long mail) */
		if (st->raw &&
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
				own_copy(st, m);
		}
		/* fall through */
	case BL_INPUT_EML: {
		/* padded: not read in place by the first step alone */
		struct bl_headers h;
		bool parsed = st->raw && !in_place;
		if (parsed && mail_as_is(st, m, &h, flowed, delsp))
			break;
		STEP(st, eml_step(m, in, out, parsed ? &h : NULL, flowed, delsp), NULL, m);
		if (st->raw && in_place)
			own_copy(st, m);
		break;
	}
	case BL_INPUT_HTML: {
		char cs[48];
		if (!bl_html_meta_charset(cur_s(st, m), cur_len(st, m), cs, sizeof cs))
			cs[0] = '\0';
		page_charset_step(st, m, cs);
		break;
	}
	case BL_INPUT_QP:
		STEP(st, qp_step(m, in, out), "quoted-printable", m);
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
		break;
	default: {
		/* a file Windows PowerShell wrote: FF FE, two bytes a character
		 * (or four: UTF-32); a window: as the start of its text was
		 * found to be */
		int order =
			m->window.on ? m->window.wide : bl_wide_order(cur_s(st, m), cur_len(st, m));
		if (order) {
			m->raw_wide = order;
			STEP(st, bl_wide_to_utf8(m, in, out, order), "charset", m);
			break;
		}
		if (!qp_decided && bl_qp_detect(cur_s(st, m), cur_len(st, m)))
			STEP(st, qp_step(m, in, out), "quoted-printable", m);
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
		break;
	}
	}
}

/* The steps of the input's format (first_steps), or of a window of a
 * mail's body past the first (`body`: body_steps), then those of every
 * format: format=flowed, HTML regions, stray quoted-printable. */
static void format_steps(struct stage *st, struct bl_message *m, enum bl_input_format fmt,
			 bool in_place, bool qp_decided, const struct bl_headers *body)
{
	bool flowed = false, delsp = false;
	if (body) {
		body_steps(st, m, fmt, body);
		flowed = body->flowed;
		delsp = body->delsp;
	} else {
		first_steps(st, m, fmt, in_place, qp_decided, &flowed, &delsp);
	}
	if (flowed)
		STEP(st, bl_flowed_decode(m, in, out, delsp), "format-flowed", m);
	if (fmt != BL_INPUT_HTML)
		STEP(st, bl_html_regions(m, in, out), "html-regions", m);
	STEP(st, bl_qp_stray(m, in, out), "quoted-printable-stray", m);
	if (st->failed) {
		/* a step not made left bytes that no decoder made valid UTF-8,
		 * which the patterns must not be given */
		st->failed = false;
		STEP(st, bl_utf8_repair(m, in, out), "utf-8-repair", m);
		if (st->failed || !bl_utf8_valid(cur_s(st, m), cur_len(st, m)))
			no_text(st);
	}
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
		if (!st->raw) {
			/* the stage's own text: its blanks made newlines in
			 * place, not in a copy of it and its map */
			struct bl_src own;
			bl_src_from_tbuf(&own, &st->cur);
			if (bl_unflatten_breaks_in_place(m, &own, st->cur.s, *unbroken, breaks,
							 nbreaks))
				add_decoding(m, "unflatten");
		} else {
			STEP(st, bl_unflatten_breaks(m, in, out, *unbroken, breaks, nbreaks),
			     "unflatten", m);
		}
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

/* (decode.h) The first step may read a padded m->raw in place: PCRE2's
 * JIT reads a little past the end. */
int bl_ingest_decode(struct bl_message *m, enum bl_input_format fmt, bool padded, bool qp_decided,
		     const struct bl_headers *body)
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
	format_steps(&st, m, fmt, in_place, qp_decided, body);
	decoded_sites(&st, m);
	line_steps(&st, m, fmt, &unbroken, &breaks, &nbreaks);
	if (st.raw) {
		/* nothing changed: the text is the input itself, which is
		 * padded (a plain file of valid UTF-8 is never copied), or a
		 * mail's body in it (mail_as_is) */
		m->text = (char *)m->raw + st.skip;
		m->len = m->raw_len - st.skip;
		m->text_borrowed = true;
		if (st.skip && bl_message_map_from(m, st.skip) < 0)
			goto oom;
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

int bl_ingest_one(const struct bl_ingest_plan *plan, const char *raw, size_t len, size_t raw_offset,
		  size_t raw_line, size_t index, enum bl_input_format fmt, bool padded,
		  bl_message_fn each, void *ctx)
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
	if (bl_ingest_decode(&m, fmt, padded, false, NULL) < 0) {
		bl_message_free(&m);
		return -1;
	}
	int rc = each(&m, ctx);
	bl_message_free(&m);
	return rc;
}

void bl_ingest_as_is(struct bl_message *m, const char *raw, size_t len)
{
	memset(m, 0, sizeof *m);
	m->raw = raw;
	m->raw_len = len;
	m->raw_line = m->line_cache_line = 1;
	m->text = (char *)raw;
	m->len = len;
	m->text_borrowed = true;
}

int bl_ingest_buffer_as(const struct bl_ingest_plan *plan, const char *raw, size_t len,
			enum bl_input_format fmt, bl_message_fn each, void *ctx)
{
	if (!bl_shapes_use(plan))
		return -1;
	if (fmt == BL_INPUT_AUTO)
		fmt = bl_detect_format(raw, len);
	if (fmt != BL_INPUT_MBOX)
		return bl_ingest_one(plan, raw, len, 0, 1, 0, fmt, false, each, ctx);
	size_t start = 0, line = 1, index = 0;
	while (start < len) {
		bool inc;
		size_t sep = bl_mbox_next_separator(raw, len, start, true, &inc);
		int rc = bl_ingest_one(plan, raw + start, sep - start, start, line, index++, fmt,
				       false, each, ctx);
		if (rc)
			return rc;
		line += bl_count_byte(raw + start, sep - start, '\n');
		start = sep;
	}
	if (!len)
		return bl_ingest_one(plan, raw, 0, 0, 1, 0, fmt, false, each, ctx);
	return 0;
}

int bl_ingest_buffer(const struct bl_ingest_plan *plan, const char *raw, size_t len,
		     bl_message_fn each, void *ctx)
{
	return bl_ingest_buffer_as(plan, raw, len, BL_INPUT_AUTO, each, ctx);
}
