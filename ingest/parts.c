/* parts.c - a long multipart mail read part by part: memory holds a
 * window of one text part, not the mail.
 *
 * A mail longer than a window whose body is multipart (a log attached
 * beside a few lines, a tarball beside a table, plain text and HTML as
 * an alternative) is walked in one pass over its bytes, as mime.c walks
 * a mail read whole:
 *   - each text part is read in windows (a short one in one), decoded by
 *     its own headers; HTML, and a charset whose line breaks are not
 *     bytes '\n', are read whole, part by part;
 *   - a part that is not text is passed over as it is read, its bytes
 *     dropped, and noted (mime.skipped-part);
 *   - an alternative is held up to its plain text (to its end when it
 *     has none), to pick its part as mime.c does (bl_mime_pick);
 *   - message/rfc822 parts and nested multiparts are walked alike.
 * Its windows make one document: an empty window at the mail's start
 * gives it the mail's headers, and one at its end closes it, with what
 * was said of the parts after the last text.
 *
 * Damage reads as in mime.c: a multipart that ends without its closing
 * delimiter (mime.truncated); one with no delimiter of its own is read as
 * plain text (mime.missing-boundary) when its end is within a window of
 * its start; past that, what was passed over looking for one is lost,
 * and said so. A mail whose body has no delimiter within a window of its
 * start is left to be read whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/find.h"
#include "reader.h"

#define MAX_DEPTH 16 /* as mime.c */
#define MAX_PARTS 1000
/* The most of a part's header block read */
#define HEAD_MAX ((size_t)64 << 10)
/* Bytes passed over are dropped once this many are held */
#define DROP_AT ((size_t)1 << 20)
/* The longest delimiter line looked at: "--", a boundary, blanks */
#define DELIM_MAX ((size_t)4096)

struct bl_parts {
	struct reader *r;
	enum bl_input_format fmt;
	size_t index, window, overlap;
	bl_message_fn each;
	void *ctx;
	struct span mail; /* framed: where the mail ends (mail.end) */
	struct {
		char boundary[sizeof((struct bl_headers *)0)->boundary];
		size_t len;
	} lv[MAX_DEPTH + 2];
	int depth; /* the multiparts open */
	size_t pos, line; /* where the walk stands, and its line */
	/* the search for a delimiter: the line start it goes on from, the
	 * last line it checked, and where the search for line starts that
	 * may be one ("\n--") goes on */
	size_t scan, checked, seen;
	/* the delimiter found: its line (at; the line after it: after), its
	 * level (-1: none, the mail ends at `at`), and whether it closes */
	size_t at, after;
	int hit;
	bool close;
	size_t windows, parts;
	int hold; /* an alternative being held: no byte is dropped */
	/* for the next window: what was said of bytes no window reads, that
	 * a multipart was read, that one was cut short */
	struct bl_diags said;
	bool mime, truncated;
	struct bl_headers *mail_h; /* the mail's: its fields go to window 0 */
	/* the mail's Subject or a page before named the document; the page
	 * being read did (html.c) */
	bool named, naming;
};

static const char *at_(const struct bl_parts *w, size_t off)
{
	return w->r->buf + (off - w->r->base);
}

/* Moves the walk on to input offset `to` (held), counting lines. */
static void advance(struct bl_parts *w, size_t to)
{
	if (to <= w->pos)
		return;
	w->line += bl_count_byte(at_(w, w->pos), to - w->pos, '\n');
	w->pos = to;
}

/* Says, for the next window, a diagnostic of input offset `off` (held,
 * at or after where the walk stands). */
__attribute__((format(printf, 5, 6))) static void say(struct bl_parts *w, enum bl_level level,
						      const char *code, size_t off, const char *fmt,
						      ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t line = w->line;
	if (off > w->pos)
		line += bl_count_byte(at_(w, w->pos), off - w->pos, '\n');
	bl_diags_add(&w->said, level, code, line, off, "%s", buf);
}

/* Whether a line (s, len bytes, without its newline) is a delimiter of
 * an open multipart (w->hit, w->close): of the outermost it may be, whose
 * part it ends before an inner one sees it (as mime.c splits a body
 * before it walks its parts). */
static bool delimiter_of(struct bl_parts *w, const char *s, size_t len)
{
	for (int k = 0; k < w->depth; k++) {
		int d = bl_mime_delimiter(s, len, w->lv[k].boundary, w->lv[k].len);
		if (d) {
			w->hit = k;
			w->close = d == 2;
			return true;
		}
	}
	return false;
}

/* A new search for a delimiter, from line start `from` on. */
static void search_from(struct bl_parts *w, size_t from)
{
	w->scan = from;
	w->checked = SIZE_MAX;
	w->seen = 0;
}

/* Whether the line at input offset i (held, before lim) is a delimiter
 * of an open multipart (w->at, w->after, w->hit, w->close); *wait when
 * it is not read whole. A line longer than DELIM_MAX is none. */
static bool delimiter_at(struct bl_parts *w, size_t i, size_t lim, bool all, bool *wait)
{
	const char *s = at_(w, i);
	size_t n = lim - i < DELIM_MAX ? lim - i : DELIM_MAX;
	*wait = n < 2 && !all;
	if (n < 2 || s[0] != '-' || s[1] != '-')
		return false;
	const char *nl = memchr(s, '\n', n);
	if (!nl && !all && n < DELIM_MAX) {
		*wait = true;
		return false;
	}
	if (!nl && n == DELIM_MAX)
		return false;
	size_t len = nl ? (size_t)(nl - s) : n;
	if (!delimiter_of(w, s, len))
		return false;
	w->at = i;
	w->after = nl ? i + len + 1 : lim;
	return true;
}

/* Looks in what r holds for the next delimiter line of an open
 * multipart from w->scan on, or for the mail's end: true when one is
 * found (w->at, w->after, w->hit, w->close). Each byte is searched
 * once, whatever the number of calls. */
static bool find_delim(struct bl_parts *w)
{
	const struct reader *r = w->r;
	bl_span_find_end(r, &w->mail);
	size_t lim = w->mail.end != SIZE_MAX ? w->mail.end : r->base + r->len;
	bool all = w->mail.end != SIZE_MAX || r->eof; /* what is held ends the mail */
	size_t i = w->scan;
	if (i < r->base) {
		/* a window of a part dropped the start of a long line: not a
		 * delimiter, and the search goes on past it */
		i = w->checked = r->base;
		w->seen = w->seen > i ? w->seen : i;
	}
	while (i < lim) {
		bool wait;
		if (w->checked != i) {
			if (delimiter_at(w, i, lim, all, &wait)) {
				w->scan = i;
				return true;
			}
			if (wait)
				break;
			w->checked = i;
		}
		/* the next line that starts with "--": "\n--" may straddle
		 * what was searched before */
		size_t from = w->seen >= i + 2 ? w->seen - 2 : i;
		const char *q = from < lim ? memmem(at_(w, from), lim - from, "\n--", 3) : NULL;
		if (!q) {
			/* on from the last line start, so that what is passed
			 * over may be dropped */
			const char *nl = memrchr(at_(w, from), '\n', lim - from);
			w->seen = lim;
			i = nl ? (size_t)(nl - r->buf) + r->base + 1 : i;
			break;
		}
		i = (size_t)(q - r->buf) + r->base + 1;
	}
	w->scan = i;
	if (!all)
		return false;
	w->at = w->after = lim;
	w->hit = -1;
	w->close = false;
	return true;
}

/* Drops what the walk passed over, when it is much and nothing is held. */
static void drop_passed(struct bl_parts *w)
{
	if (!w->hold && w->pos - w->r->base >= DROP_AT)
		bl_reader_drop(w->r, w->pos);
}

/* How far the search has passed: to its line start, or on into that
 * line as far as it looked for a next one (a line of megabytes of base64
 * is not held); two bytes short of it, the "\r\n" a part's end is read
 * before (entity_end) and the "\n" of a "\n--" cut by what was read. */
static size_t passed(const struct bl_parts *w)
{
	size_t to = w->scan;
	if (w->checked == w->scan && w->seen > to)
		to = w->seen;
	return to >= w->pos + 2 ? to - 2 : w->pos;
}

/* Reads on to the next delimiter or the mail's end (find_delim); what is
 * passed over is dropped unless held. */
static int next_delim(struct bl_parts *w)
{
	while (!find_delim(w)) {
		if (!w->hold) {
			advance(w, passed(w));
			drop_passed(w);
		}
		int rc = bl_reader_fill(w->r);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Passes over what is left of an entity, from `from` to the next
 * delimiter. */
static int pass(struct bl_parts *w, size_t from)
{
	search_from(w, from);
	return next_delim(w);
}

/* Where the entity whose content starts at `from` ends: before the line
 * break of the delimiter found (mime.c's part end), or at the mail's
 * end. */
static size_t entity_end(const struct bl_parts *w, size_t from)
{
	size_t e = w->at;
	if (w->hit >= 0 && e > from && e > w->r->base && *at_(w, e - 1) == '\n')
		e--;
	if (w->hit >= 0 && e > from && e > w->r->base && *at_(w, e - 1) == '\r')
		e--;
	return e;
}

void bl_parts_find_end(struct bl_parts *w, struct span *sp)
{
	if (find_delim(w))
		sp->end = entity_end(w, sp->start);
}

/* The header block of the part whose first line starts at `from` (held
 * from there), parsed into h as mime.c parses it: within the part's
 * bytes when its end is read with them. */
static int part_headers(struct bl_parts *w, size_t from, struct bl_headers *h)
{
	struct reader *r = w->r;
	int rc;
	while (!r->eof && r->base + r->len - from < HEAD_MAX)
		if ((rc = bl_reader_fill(r)) < 0)
			return rc;
	search_from(w, from);
	size_t end = find_delim(w) ? entity_end(w, from) : r->base + r->len;
	if (end - from > HEAD_MAX)
		end = from + HEAD_MAX;
	struct bl_src src;
	bl_src_plain(&src, at_(w, from), end - from, from);
	bl_headers_parse(&src, h);
	return 0;
}

/* The walk's own for each window: the mail's fields to window 0, and
 * what the walk has to say to the next window. */
static int part_each(struct bl_message *m, void *ctx)
{
	struct bl_parts *w = ctx;
	struct bl_headers *h = w->mail_h;
	if (m->window.index == 0) {
		m->from = h->from;
		m->date = h->date;
		m->message_id = h->message_id;
		m->subject = h->subject;
		h->from = h->date = h->message_id = h->subject = NULL;
		w->named = m->subject != NULL;
	} else if (m->subject && w->named) {
		/* a page names the mail only when nothing did before it */
		free(m->subject);
		m->subject = NULL;
	}
	/* a later window of the page that named it may name it again: its
	 * first <h1> over its <title> (html.c) */
	w->naming |= m->subject != NULL;
	if (w->mime)
		bl_message_add_decoding(m, "mime");
	w->mime = false;
	for (size_t i = 0; i < w->said.n; i++) {
		const struct bl_diag *d = &w->said.v[i];
		bl_diags_add(&m->diags, d->level, d->code, d->line, d->offset, "%s", d->message);
	}
	m->diags.dropped += w->said.dropped;
	bl_diags_free(&w->said);
	memset(&w->said, 0, sizeof w->said);
	bl_message_diag_lines(m); /* in order of their offsets */
	m->truncated |= w->truncated;
	w->windows++;
	return w->each(m, w->ctx);
}

static int entity(struct bl_parts *w, struct bl_headers *h, size_t start, int depth);

/* A text part whose content starts at `body`, in windows. */
static int leaf(struct bl_parts *w, const struct bl_headers *h, size_t body)
{
	advance(w, body);
	struct bl_headers ph = *h;
	ph.subject = ph.from = ph.date = ph.message_id = NULL;
	ph.body = 0;
	ph.flowed = false; /* format=flowed is read of a mail's one part only */
	/* a page in a transfer encoding cannot be decoded from where a
	 * window before left it (html.c reads the page's bytes), and a
	 * charset whose line breaks are not bytes '\n' cannot be cut at them */
	bool whole = (bl_mime_is_html(&ph) && !bl_mime_identity(&ph)) ||
		     (ph.charset[0] && !bl_charset_ascii_compatible(ph.charset));
	struct span sp = {.fmt = w->fmt,
			  .index = w->index,
			  .start = body,
			  .line = w->line,
			  .body = &ph,
			  .base64 = strcmp(ph.encoding, "base64") == 0,
			  .data_from = body,
			  .end = SIZE_MAX,
			  .part_of = w,
			  .first_index = w->windows,
			  .more = true};
	search_from(w, body);
	w->naming = false;
	int rc = bl_span_windows(w->r, &sp, whole ? SIZE_MAX / 4 : w->window, w->overlap, part_each,
				 w);
	w->named |= w->naming;
	if (rc)
		return rc;
	w->pos = sp.end;
	w->line = sp.end_line;
	return 0;
}

/* Says that multipart level L ends: passed its closing delimiter, and
 * over its epilogue to the next delimiter around it; or cut short by a
 * delimiter around it or the mail's end (mime.truncated). */
static int close_level(struct bl_parts *w, int L)
{
	bool closed = w->hit == L && w->close;
	w->depth = L;
	if (closed)
		return pass(w, w->after);
	say(w, BL_WARNING, "mime.truncated", entity_end(w, w->pos),
	    "multipart body ends without its closing boundary '--%.60s--': "
	    "the last part is read as far as it goes",
	    w->lv[L].boundary);
	w->truncated = true;
	return 0;
}

/* The parts of multipart level L (headers h), from its first delimiter:
 * each walked in turn. */
static int each_part(struct bl_parts *w, const struct bl_headers *h, int depth, int L)
{
	while (w->hit == L && !w->close) {
		size_t start = w->after;
		struct bl_headers ph;
		advance(w, start);
		int rc = part_headers(w, start, &ph);
		if (rc)
			return rc;
		bl_mime_part_defaults(&ph, h);
		rc = entity(w, &ph, start, depth + 1);
		bl_headers_free(&ph);
		if (rc)
			return rc;
	}
	return 0;
}

/* An alternative (level L, headers h), from its first delimiter: its
 * parts held, their headers read, up to its first plain text, which is
 * bl_mime_pick's choice whatever follows it (as a mail client sends an
 * alternative, nothing is held), or to its end; then its pick walked and
 * the others passed over. */
static int alternative(struct bl_parts *w, const struct bl_headers *h, int depth, int L)
{
	struct bl_headers *ph = NULL;
	size_t *starts = NULL, np = 0, cap = 0;
	int rc = 0;
	w->hold++;
	while (w->hit == L && !w->close && np < MAX_PARTS) {
		if (np == cap) {
			cap = cap ? 2 * cap : 4;
			struct bl_headers *v = realloc(ph, cap * sizeof *v);
			size_t *s = v ? realloc(starts, cap * sizeof *s) : NULL;
			ph = v ? v : ph;
			starts = s ? s : starts;
			if (!s) {
				rc = -1;
				break;
			}
		}
		starts[np] = w->after;
		if ((rc = part_headers(w, starts[np], &ph[np])) != 0)
			break;
		bl_mime_part_defaults(&ph[np], h);
		if (strcmp(ph[np++].type, "text/plain") == 0)
			break;
		if ((rc = pass(w, starts[np - 1] + ph[np - 1].body)) != 0)
			break;
	}
	w->hold--;
	size_t pick = rc ? np : bl_mime_pick(ph, np);
	if (pick < np) {
		rc = entity(w, &ph[pick], starts[pick], depth + 1);
		while (rc == 0 && w->hit == L && !w->close)
			rc = pass(w, w->after);
	}
	for (size_t k = 0; k < np; k++)
		bl_headers_free(&ph[k]);
	free(ph);
	free(starts);
	return rc;
}

/* Looks for the first delimiter of level L, its body from `body` on held
 * up to a window: true when one of any level, or the mail's end, is
 * found within it. */
static int first_delim(struct bl_parts *w, size_t body, bool *found)
{
	int rc = 0;
	search_from(w, body);
	w->hold++;
	while (!(*found = find_delim(w)) && w->r->base + w->r->len - body < w->window)
		if ((rc = bl_reader_fill(w->r)) < 0)
			break;
	w->hold--;
	return rc;
}

/* A multipart (headers h), its body from `body` on. */
static int multipart(struct bl_parts *w, struct bl_headers *h, size_t body, int depth)
{
	int L = w->depth++;
	advance(w, body);
	snprintf(w->lv[L].boundary, sizeof w->lv[L].boundary, "%s", h->boundary);
	w->lv[L].len = strlen(w->lv[L].boundary);
	bool found;
	size_t line = w->line;
	int rc = first_delim(w, body, &found);
	if (rc == 0 && !found)
		rc = next_delim(w); /* a preamble longer than a window */
	if (rc)
		return rc;
	if (w->hit != L || w->close) {
		/* no part: mime.c reads the whole body as plain text */
		w->depth = L;
		if (!found) {
			bl_diags_add(&w->said, BL_WARNING, "mime.missing-boundary", line, body,
				     "multipart body without any '--%.60s' delimiter: too long "
				     "to hold, passed over",
				     h->boundary);
			h->type[0] = '\0';
			/* what follows a closing delimiter is its body's too */
			return w->hit == L ? leaf(w, h, w->after) : 0;
		}
		say(w, BL_WARNING, "mime.missing-boundary", body,
		    "multipart body without any '--%.60s' delimiter: read as plain text",
		    h->boundary);
		h->type[0] = '\0';
		return leaf(w, h, body);
	}
	w->mime = true;
	rc = strcmp(h->type, "multipart/alternative") == 0 ? alternative(w, h, depth, L)
							   : each_part(w, h, depth, L);
	return rc ? rc : close_level(w, L);
}

/* An entity whose first line starts at `start` (held), its headers h
 * (from bl_headers_parse there): walked to the next delimiter. */
static int entity(struct bl_parts *w, struct bl_headers *h, size_t start, int depth)
{
	size_t body = start + h->body;
	advance(w, start);
	if (++w->parts > MAX_PARTS || depth > MAX_DEPTH) {
		if (w->parts == MAX_PARTS + 1 || depth == MAX_DEPTH + 1)
			say(w, BL_WARNING, "mime.too-deep", start,
			    "MIME nesting or part count past its limit: the rest is skipped");
		return pass(w, body);
	}
	if (strncmp(h->type, "multipart/", 10) == 0) {
		if (h->boundary[0])
			return multipart(w, h, body, depth);
		say(w, BL_WARNING, "mime.no-boundary", start,
		    "%s without a boundary parameter: read as plain text", h->type);
		h->type[0] = '\0';
		return leaf(w, h, body);
	}
	if (strcmp(h->type, "message/rfc822") == 0) {
		struct bl_headers inner;
		int rc = part_headers(w, body, &inner);
		if (rc)
			return rc;
		if (!inner.type[0])
			snprintf(inner.type, sizeof inner.type, "text/plain");
		rc = entity(w, &inner, body, depth + 1);
		bl_headers_free(&inner);
		return rc;
	}
	if (bl_mime_is_text(h))
		return leaf(w, h, body);
	size_t line = w->line;
	int rc = pass(w, body);
	if (rc)
		return rc;
	size_t end = entity_end(w, body);
	bl_diags_add(&w->said, BL_INFO, "mime.skipped-part", line, start,
		     "a %.60s part (%zu bytes) is not text: skipped", h->type, end - body);
	return 0;
}

/* An empty window of the document at input offset `at` (the mail's start
 * or its end: `more`, windows follow). */
static int empty_window(struct bl_parts *w, size_t at, bool more)
{
	static const struct bl_headers plain = {.type = "text/plain", .has_body = true};
	advance(w, at);
	struct span sp = {.fmt = w->fmt,
			  .index = w->index,
			  .start = at,
			  .line = w->line,
			  .body = &plain,
			  .end = at,
			  .part_of = w,
			  .first_index = w->windows,
			  .more = more};
	w->naming = false;
	int rc = bl_span_windows(w->r, &sp, w->window, w->overlap, part_each, w);
	w->named |= w->naming;
	w->pos = at;
	return rc;
}

/* Whether the body from `body` on has a delimiter of boundary h->boundary
 * in what r holds. */
static bool delimited(struct bl_parts *w, const struct bl_headers *h, size_t body)
{
	snprintf(w->lv[0].boundary, sizeof w->lv[0].boundary, "%s", h->boundary);
	w->lv[0].len = strlen(w->lv[0].boundary);
	w->depth = 1;
	search_from(w, body);
	bool found = find_delim(w) && w->hit == 0 && !w->close;
	w->depth = 0;
	return found;
}

int bl_parts_windows(struct reader *r, enum bl_input_format fmt, const struct bl_mbox_cut *at,
		     size_t scan, struct bl_headers *h, size_t body_at, size_t window,
		     size_t overlap, bl_message_fn each, void *ctx, struct bl_mbox_cut *next,
		     bool *taken)
{
	struct bl_parts w = {
		.r = r,
		.fmt = fmt,
		.index = at->index,
		.window = window,
		.overlap = overlap,
		.each = each,
		.ctx = ctx,
		.mail = {.framed = fmt == BL_INPUT_MBOX, .end = SIZE_MAX, .scan = scan},
		.pos = at->offset,
		.line = at->line,
		.mail_h = h};
	*taken = delimited(&w, h, body_at);
	if (!*taken) {
		bl_headers_free(h);
		return 0;
	}
	w.parts = 1;
	int rc = empty_window(&w, at->offset, true);
	if (rc == 0)
		rc = multipart(&w, h, body_at, 0);
	if (rc == 0)
		rc = empty_window(&w, w.at, false);
	*next = (struct bl_mbox_cut){w.pos, w.line, at->index + 1};
	bl_diags_free(&w.said);
	bl_headers_free(h);
	return rc;
}
