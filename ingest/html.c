/* html.c - the text of an HTML page: mailing-list archives (pipermail,
 * hypermail: the mail inside <pre>), forums and blogs.
 *
 *   <pre>srebrny# time dd if=/dev/zero of=/data01/test01 bs=1m</pre>
 *   2000+0 records in<br>2000+0 records out<br>
 *   <td>eli.zfs</td><td>19</td>      cells become blank-separated
 *   &gt; quoted&nbsp;&nbsp;text      entities decoded; &nbsp; is a space
 *
 * Outside <pre>, white space collapses as a browser shows it; <br> and
 * block elements end lines; script, style and comments are dropped. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/find.h"
#include "../base/utf8.h"
#include "decode.h"

#define MAX_TAG 4096

struct html {
	struct bl_message *m;
	struct bl_src *in;
	struct bl_tbuf *out;
	int pre;
	bool pending_space;
	int newlines; /* newlines at the end of out */
	/* a window past a page's first: text came before out's, and the
	 * line breaks that ended it (pre_text counts them on) */
	bool started;
	int carried_newlines;
	enum bl_html_open open; /* what the bytes ended inside */
	bool section; /* the markup last read was a comment, CDATA, script
		       * or style: its text is skipped or kept whole */
	bool h1_before, title_before; /* found in a window before */
	/* the comment left open at the end of the bytes: where its "<!--"
	 * is in them, or (carried) before them, at comment_from and
	 * comment_line (comment_before: the bytes start inside one) */
	size_t comment_at;
	bool comment_before, carried;
	size_t comment_from, comment_line;
	/* the page's heading (<h1>, else <title>): where its text starts in
	 * out, and what it says */
	size_t heading_from;
	bool in_heading;
	char *h1, *title;
};

/* The text of out from `from` on, blanks trimmed, for a heading. */
static char *heading_text(const struct bl_tbuf *out, size_t from)
{
	if (from > out->len || !out->s) /* nothing written yet: no text */
		return NULL;
	const char *t = out->s + from;
	size_t n = out->len - from;
	while (n && (t[0] == ' ' || t[0] == '\n' || t[0] == '\t')) {
		t++;
		n--;
	}
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\n' || t[n - 1] == '\t'))
		n--;
	if (!n || n > 300 || memchr(t, '\n', n))
		return NULL;
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, t, n);
		r[n] = '\0';
	}
	return r;
}

static bool has_prefix_ci(const char *s, size_t n, const char *p)
{
	size_t pl = strlen(p);
	return n >= pl && strncasecmp(s, p, pl) == 0;
}

/* Whether text came before: in out, or before the window out is of. */
static bool has_text(const struct html *h)
{
	return h->out->len || h->started;
}

static void emit_newline(struct html *h, size_t origin)
{
	h->pending_space = false;
	if (h->newlines >= 2 || !has_text(h))
		return;
	bl_tbuf_putc(h->out, '\n', origin);
	h->newlines++;
}

static void emit_text(struct html *h, size_t off, size_t n)
{
	if (h->pending_space && has_text(h) && !h->newlines)
		bl_tbuf_putc(h->out, ' ', bl_src_origin(h->in, off));
	h->pending_space = false;
	bl_tbuf_copy(h->out, h->in, off, n);
	h->newlines = 0;
}

static void emit_bytes(struct html *h, const char *s, size_t n, size_t origin)
{
	if (h->pending_space && has_text(h) && !h->newlines)
		bl_tbuf_putc(h->out, ' ', origin);
	h->pending_space = false;
	bl_tbuf_put_at(h->out, s, n, origin);
	h->newlines = 0;
}

static const struct {
	const char *name;
	unsigned long cp;
} entities[] = {
	{"amp", '&'},      {"lt", '<'},       {"gt", '>'},        {"quot", '"'},
	{"apos", '\''},    {"nbsp", ' '},     {"copy", 0xA9},     {"reg", 0xAE},
	{"deg", 0xB0},     {"micro", 0xB5},   {"middot", 0xB7},   {"times", 0xD7},
	{"laquo", 0xAB},   {"raquo", 0xBB},   {"hellip", 0x2026}, {"ndash", 0x2013},
	{"mdash", 0x2014}, {"lsquo", 0x2018}, {"rsquo", 0x2019},  {"ldquo", 0x201C},
	{"rdquo", 0x201D}, {"bull", 0x2022},  {"euro", 0x20AC},   {"shy", 0xAD},
	{"aacute", 0xE1},  {"eacute", 0xE9},  {"iacute", 0xED},   {"oacute", 0xF3},
	{"uacute", 0xFA},  {"ouml", 0xF6},    {"uuml", 0xFC},     {"auml", 0xE4},
	{"szlig", 0xDF},   {"ccedil", 0xE7},  {"egrave", 0xE8},   {"agrave", 0xE0},
	{"ntilde", 0xF1},  {"odblac", 0x151}, {"Aacute", 0xC1},   {"Eacute", 0xC9},
	{"Ouml", 0xD6},    {"Uuml", 0xDC},    {"Auml", 0xC4},     {"thinsp", 0x2009},
	{"ensp", 0x2002},  {"emsp", 0x2003},  {NULL, 0},
};

/* "&gt;", "&#62;", "&#x3e;" at s: the code point and the length, or 0. */
static size_t entity(const char *s, size_t n, unsigned long *cp)
{
	if (n < 3 || s[0] != '&')
		return 0;
	size_t i = 1;
	if (s[1] == '#') {
		bool hex = n > 2 && (s[2] == 'x' || s[2] == 'X');
		i = hex ? 3 : 2;
		unsigned long v = 0;
		size_t d = 0;
		while (i < n && d < 8 &&
		       (hex ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i]))) {
			int c = (unsigned char)s[i];
			v = v * (hex ? 16 : 10) +
			    (unsigned long)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
			i++;
			d++;
		}
		if (!d)
			return 0;
		if (i < n && s[i] == ';')
			i++;
		*cp = v;
		return i;
	}
	while (i < n && i < 12 && isalnum((unsigned char)s[i]))
		i++;
	size_t nl = i - 1;
	for (size_t k = 0; entities[k].name; k++)
		if (strlen(entities[k].name) == nl && memcmp(entities[k].name, s + 1, nl) == 0) {
			if (i < n && s[i] == ';')
				i++;
			else if (nl > 4)
				return 0;
			*cp = entities[k].cp;
			return i;
		}
	return 0;
}

static bool block_element(const char *t, size_t tl)
{
	static const char *const blocks[] = {
		"p",       "div",        "tr",      "li",      "ul",         "ol",
		"dl",      "dt",         "dd",      "table",   "h1",         "h2",
		"h3",      "h4",         "h5",      "h6",      "blockquote", "pre",
		"hr",      "title",      "section", "article", "header",     "footer",
		"address", "center",     "form",    "tbody",   "thead",      "caption",
		"figure",  "figcaption", "main",    "nav",     "aside",      NULL,
	};
	for (const char *const *b = blocks; *b; b++)
		if (strlen(*b) == tl && strncasecmp(*b, t, tl) == 0)
			return true;
	return false;
}

/* Finds the end of raw-text content (</script>, </style>) from i; one
 * the bytes end in is open at their end (h->open = `open`). */
static size_t skip_raw(struct html *h, size_t i, const char *name, enum bl_html_open open)
{
	const char *s = h->in->s;
	size_t n = h->in->len, nl = strlen(name);
	while (i < n) {
		const char *lt = memchr(s + i, '<', n - i);
		if (!lt)
			break;
		i = (size_t)(lt - s);
		if (i + 2 + nl <= n && s[i + 1] == '/' && strncasecmp(s + i + 2, name, nl) == 0) {
			const char *gt = memchr(s + i, '>', n - i);
			if (!gt)
				break;
			return (size_t)(gt - s) + 1;
		}
		i++;
	}
	h->open = open;
	return n;
}

/* The end of the tag whose name ends at j, from its '<' at i: its '>',
 * quotes respected, within MAX_TAG; else where the search stopped. */
static size_t tag_end(const char *s, size_t n, size_t i, size_t j)
{
	size_t k = j;
	char q = 0;
	while (k < n && k - i < MAX_TAG) {
		if (q) {
			if (s[k] == q)
				q = 0;
		} else if (s[k] == '"' || s[k] == '\'') {
			q = s[k];
		} else if (s[k] == '>') {
			break;
		}
		k++;
	}
	return k;
}

/* "<h1>Re: benchmarks</h1>", "<title>...</title>": the first of each
 * names the page; its text is taken at the closing tag. */
static void heading_tag(struct html *h, const char *t, size_t tl, bool close)
{
	bool h1 = tl == 2 && strncasecmp(t, "h1", 2) == 0;
	bool ttl = tl == 5 && strncasecmp(t, "title", 5) == 0;
	if ((h1 && !h->h1 && !h->h1_before) || (ttl && !h->title && !h->title_before)) {
		if (!close) {
			h->in_heading = true;
			h->heading_from = h->out->len;
		} else if (h->in_heading) {
			h->in_heading = false;
			if (h1)
				h->h1 = heading_text(h->out, h->heading_from);
			else
				h->title = heading_text(h->out, h->heading_from);
		}
	}
}

/* What tag t does to the text: <pre> and <br>, a block's line end, a
 * table cell's blank. */
static void apply_tag(struct html *h, const char *t, size_t tl, bool close, size_t origin)
{
	if (tl == 3 && strncasecmp(t, "pre", 3) == 0) {
		h->pre += close ? (h->pre > 0 ? -1 : 0) : 1;
		emit_newline(h, origin);
	} else if (tl == 2 && strncasecmp(t, "br", 2) == 0) {
		h->pending_space = false;
		bl_tbuf_putc(h->out, '\n', origin);
		h->newlines++;
	} else if (tl && block_element(t, tl)) {
		emit_newline(h, origin);
		heading_tag(h, t, tl, close);
	} else if ((tl == 2 && (strncasecmp(t, "td", 2) == 0 || strncasecmp(t, "th", 2) == 0)) &&
		   !close) {
		if (has_text(h) && !h->newlines)
			h->pending_space = true;
	}
}

/* A tag at i ("<td>", "</pre>", "<!DOCTYPE html>"), its element's raw
 * text skipped (script, style), or a '<' that starts none ("a < b"),
 * kept as text; where the page goes on. */
static size_t tag(struct html *h, size_t i)
{
	const char *s = h->in->s;
	size_t n = h->in->len, j = i + 1;
	bool close = j < n && s[j] == '/';
	if (close)
		j++;
	size_t t0 = j;
	while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '-' || s[j] == ':'))
		j++;
	size_t tl = j - t0;
	bool decl = i + 1 < n && (s[i + 1] == '!' || s[i + 1] == '?');
	if (!tl && !decl) {
		/* a lone '<' ("a < b"): text */
		emit_text(h, i, 1);
		return i + 1;
	}
	size_t k = tag_end(s, n, i, j);
	if (k >= n || s[k] != '>') {
		emit_text(h, i, 1);
		return i + 1;
	}
	const char *t = s + t0;
	size_t origin = bl_src_origin(h->in, i);
	h->section = !close && ((tl == 6 && strncasecmp(t, "script", 6) == 0) ||
				(tl == 5 && strncasecmp(t, "style", 5) == 0));
	if (h->section)
		return skip_raw(h, k + 1, tl == 6 ? "script" : "style",
				tl == 6 ? BL_HTML_IN_SCRIPT : BL_HTML_IN_STYLE);
	apply_tag(h, t, tl, close, origin);
	return k + 1;
}

/* The text of a CDATA section from i on, up to its "]]>"; where the
 * page goes on. A section the bytes end in is open at their end (a
 * window cut at one of its line breaks goes on inside it). */
static size_t cdata(struct html *h, size_t i)
{
	const char *s = h->in->s;
	size_t n = h->in->len;
	const char *e = memmem(s + i, n - i, "]]>", 3);
	size_t end = e ? (size_t)(e - s) : n;
	emit_text(h, i, end - i);
	if (!e)
		h->open = BL_HTML_IN_CDATA;
	return e ? end + 3 : n;
}

/* A comment's rest from i on, dropped, up to its "-->"; where the page
 * goes on. One never closed hides the rest of the page (from `start`, a
 * '<' or the window's first byte), reported where the page ends: a window
 * before the last leaves it open at its end. */
static size_t comment(struct html *h, size_t i, size_t start)
{
	const char *s = h->in->s;
	size_t n = h->in->len;
	const char *e = memmem(s + i, n - i, "-->", 3);
	if (e)
		return (size_t)(e - s) + 3;
	/* a window that starts inside a comment goes on from its byte 0 */
	bool resumed = i == start && h->comment_before;
	h->open = BL_HTML_IN_COMMENT;
	h->comment_at = start;
	h->carried = resumed;
	if (h->m->window.on && !h->m->window.last)
		return n;
	h->m->truncated = true;
	static const char msg[] = "an HTML comment is never closed: the rest of the page is hidden";
	if (resumed)
		/* opened in a window before: said of where it opened */
		bl_diags_add(&h->m->diags, BL_WARNING, "html.unclosed-comment", h->comment_line,
			     h->comment_from, "%s", msg);
	else
		bl_message_diag(h->m, BL_WARNING, "html.unclosed-comment",
				bl_src_origin(h->in, start), "%s", msg);
	return n;
}

/* Where a window that starts inside markup (h->open) goes on: after the
 * comment, script, style or CDATA section it is in. */
static size_t go_on(struct html *h)
{
	enum bl_html_open open = h->open;
	h->open = BL_HTML_IN_TEXT;
	switch (open) {
	case BL_HTML_IN_CDATA: return cdata(h, 0);
	case BL_HTML_IN_COMMENT: return comment(h, 0, 0);
	case BL_HTML_IN_SCRIPT: return skip_raw(h, 0, "script", open);
	case BL_HTML_IN_STYLE: return skip_raw(h, 0, "style", open);
	default: return 0;
	}
}

/* The markup at i ('<'): a comment, dropped ("<!-- ... -->"; one never
 * closed hides the rest of the page), a CDATA section, kept as text, or
 * a tag; where the page goes on. */
static size_t markup(struct html *h, size_t i)
{
	const char *s = h->in->s;
	size_t n = h->in->len;
	h->section = true;
	if (has_prefix_ci(s + i, n - i, "<!--"))
		return comment(h, i + 4, i);
	if (has_prefix_ci(s + i, n - i, "<![CDATA["))
		return cdata(h, i + 9);
	h->section = false;
	return tag(h, i);
}

/* A character reference at i ("&gt;", "&#62;") as UTF-8, or a '&' that
 * starts none, kept; where the page goes on. */
static size_t char_reference(struct html *h, size_t i)
{
	unsigned long cp;
	size_t el = entity(h->in->s + i, h->in->len - i, &cp);
	if (el) {
		char buf[4];
		size_t bl = bl_utf8_put(cp, buf);
		emit_bytes(h, buf, bl, bl_src_origin(h->in, i));
		return i + el;
	}
	emit_text(h, i, 1);
	return i + 1;
}

/* Text inside <pre> from i up to the next '<' or '&', kept as it is;
 * where it ends. */
static size_t pre_text(struct html *h, size_t i)
{
	const char *s = h->in->s;
	size_t n = h->in->len, j = i;
	while (j < n && s[j] != '<' && s[j] != '&')
		j++;
	emit_text(h, i, j - i);
	/* the run may end with line breaks */
	size_t nlc = 0;
	size_t k = j;
	for (; k > i && (s[k - 1] == '\n' || s[k - 1] == '\r'); k--)
		nlc += s[k - 1] == '\n';
	/* a window that starts inside the run: its breaks before the cut */
	if (k == 0)
		nlc += (size_t)h->carried_newlines;
	h->newlines = (int)nlc;
	return j;
}

/* Text outside <pre> at i: a blank, collapsed with the blanks around it,
 * or a word up to the next blank, '<' or '&'; where it ends. */
static size_t flowing_text(struct html *h, size_t i)
{
	const char *s = h->in->s;
	size_t n = h->in->len;
	unsigned char c = (unsigned char)s[i];
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
		if (has_text(h) && !h->newlines)
			h->pending_space = true;
		return i + 1;
	}
	size_t j = i;
	while (j < n && s[j] != '<' && s[j] != '&' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' &&
	       s[j] != '\r' && s[j] != '\f')
		j++;
	emit_text(h, i, j - i);
	return j;
}

/* A page with no mail headers around it is named by its heading; the
 * headings not taken are freed. */
static void name_page(struct html *h)
{
	if (!h->m->subject) {
		h->m->subject = h->h1 ? h->h1 : h->title;
		if (h->h1)
			h->h1 = NULL;
		else
			h->title = NULL;
	}
	free(h->h1);
	free(h->title);
}

static void name_none(struct html *h)
{
	free(h->h1);
	free(h->title);
	h->h1 = h->title = NULL;
}

/* A window past a page's first names the page when it holds the page's
 * first <h1>, or its first <title> and no <h1> came before
 * (bl_window_doc_add takes it): as name_page names a page read whole. */
static void name_later(struct html *h)
{
	if (!h->m->subject && h->h1) {
		h->m->subject = h->h1;
		h->h1 = NULL;
	} else if (!h->m->subject && h->title && !h->h1_before) {
		h->m->subject = h->title;
		h->title = NULL;
	}
	name_none(h);
}

/* Decodes the page bytes of h->in, from the state h was set to. */
static void decode(struct html *h)
{
	size_t n = h->in->len, i = 0;
	if (h->open)
		i = go_on(h);
	while (i < n) {
		if (h->in->s[i] == '<')
			i = markup(h, i);
		else if (h->in->s[i] == '&')
			i = char_reference(h, i);
		else if (h->pre)
			i = pre_text(h, i);
		else
			i = flowing_text(h, i);
	}
}

static void set_state(struct html *h, const struct bl_html_state *from)
{
	h->pre = from->pre;
	h->newlines = h->carried_newlines = from->newlines;
	h->pending_space = from->pending_space;
	h->started = from->started;
	h->open = from->open;
	h->h1_before = from->h1_found;
	h->title_before = from->title_found;
	h->comment_before = from->open == BL_HTML_IN_COMMENT;
	h->comment_from = from->comment_from;
	h->comment_line = from->comment_line;
}

void bl_html_to_text(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	struct html h = {.m = m, .in = in, .out = out};
	size_t n = in->len;
	if (!bl_tbuf_reserve(out, n / 2))
		return;
	/* a window past the first goes on where the one before stood there
	 * (all zero: the page's start) */
	set_state(&h, &m->window.html);
	decode(&h);
	if (m->window.index == 0)
		name_page(&h);
	else
		name_later(&h);
	if (out->len && out->s[out->len - 1] != '\n')
		bl_tbuf_putc(out, '\n', bl_src_origin(in, n));
}

/* A decoding of page bytes alone, from a state (NULL: the page's
 * start), its text and diagnostics thrown away: where it stands is all
 * that is asked of it. */
struct scratch {
	struct bl_message m;
	struct bl_src in;
	struct bl_tbuf out;
	struct html h;
};

static void scratch_open(struct scratch *x, const char *s, size_t n,
			 const struct bl_html_state *from)
{
	static const struct bl_html_state start;
	memset(&x->m, 0, sizeof x->m);
	bl_src_plain(&x->in, s, n, 0);
	bl_tbuf_init(&x->out);
	x->h = (struct html){.m = &x->m, .in = &x->in, .out = &x->out};
	set_state(&x->h, from ? from : &start);
}

static void scratch_close(struct scratch *x)
{
	name_none(&x->h);
	bl_tbuf_free(&x->out);
	bl_message_free(&x->m);
}

/* Where the section (comment, CDATA, script, style) markup read at
 * [i, j) closes: its "-->" or "]]>", or the '<' of its end tag. */
static size_t closer_at(const char *s, size_t i, size_t j)
{
	if (j - i >= 3 && (memcmp(s + j - 3, "-->", 3) == 0 || memcmp(s + j - 3, "]]>", 3) == 0))
		return j - 3;
	const char *lt = memrchr(s + i + 1, '<', j - i - 1);
	return lt ? (size_t)(lt - s) : i;
}

size_t bl_html_safe_cut(const char *s, size_t n, const struct bl_html_state *from, size_t lo,
			size_t c)
{
	struct scratch x;
	scratch_open(&x, s, n, from);
	struct html *h = &x.h;
	size_t i = 0, at = c;
	bool section = h->open != BL_HTML_IN_TEXT;
	if (section)
		i = go_on(h);
	section = section && i > c;
	while (i <= c && !section) {
		if (i == c)
			break; /* between two items */
		bool text = s[i] != '<' && s[i] != '&';
		size_t j = s[i] == '<'   ? markup(h, i)
			   : s[i] == '&' ? char_reference(h, i)
			   : h->pre      ? pre_text(h, i)
					 : flowing_text(h, i);
		if (j > c && !text) {
			/* a tag or an entity: before it; a section: inside it,
			 * short of its closer */
			bool sec = h->section;
			size_t closer = h->open != BL_HTML_IN_TEXT ? n : closer_at(s, i, j);
			at = i >= lo               ? i
			     : sec && c < closer   ? c
			     : sec && closer >= lo ? closer
						   : SIZE_MAX;
			break;
		}
		i = j;
	}
	if (section) {
		/* the window starts inside a section that closes past c */
		size_t closer = h->open != BL_HTML_IN_TEXT ? n : closer_at(s, 0, i);
		at = c < closer ? c : closer >= lo ? closer : SIZE_MAX;
	}
	scratch_close(&x);
	return at;
}

bool bl_html_state_after(const char *s, size_t n, size_t offset, size_t line,
			 const struct bl_html_state *from, struct bl_html_state *at)
{
	struct scratch x;
	scratch_open(&x, s, n, from);
	struct html *h = &x.h;
	decode(h);
	*at = (struct bl_html_state){.open = h->open,
				     .pre = h->pre,
				     .newlines = h->newlines,
				     .pending_space = h->pending_space,
				     .started = has_text(h),
				     .h1_found = h->h1_before || h->h1,
				     .title_found = h->title_before || h->title};
	if (h->open == BL_HTML_IN_COMMENT && h->carried) {
		at->comment_from = h->comment_from;
		at->comment_line = h->comment_line;
	} else if (h->open == BL_HTML_IN_COMMENT) {
		at->comment_from = offset + h->comment_at;
		at->comment_line = line + bl_count_byte(s, h->comment_at, '\n');
	}
	bool ok = !x.out.failed;
	scratch_close(&x);
	return ok;
}

static bool find_ci(const char *s, size_t n, const char *p, size_t *at)
{
	size_t pl = strlen(p);
	for (size_t i = 0; i + pl <= n; i++)
		if (strncasecmp(s + i, p, pl) == 0) {
			*at = i;
			return true;
		}
	return false;
}

bool bl_html_detect(const char *s, size_t len)
{
	size_t i = 0;
	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i >= len || s[i] != '<')
		return false;
	size_t n = len - i < 2048 ? len - i : 2048, at;
	static const char *const marks[] = {"<!doctype html", "<html", "<head", "<body",  "<pre",
					    "<div",           "<p>",   "<br",   "<table", NULL};
	for (const char *const *mk = marks; *mk; mk++)
		if (find_ci(s + i, n, *mk, &at))
			return true;
	return false;
}

bool bl_html_meta_charset(const char *s, size_t len, char *out, size_t outsz)
{
	size_t n = len < 8192 ? len : 8192, i = 0, at;
	while (i < n && find_ci(s + i, n - i, "<meta", &at)) {
		size_t t = i + at;
		const char *gt = memchr(s + t, '>', n - t);
		size_t te = gt ? (size_t)(gt - s) : n, c;
		if (find_ci(s + t, te - t, "charset=", &c)) {
			size_t v = t + c + 8;
			while (v < te && (s[v] == '"' || s[v] == '\'' || s[v] == ' '))
				v++;
			size_t o = 0;
			while (v < te && o + 1 < outsz &&
			       (isalnum((unsigned char)s[v]) || s[v] == '-' || s[v] == '_' ||
				s[v] == ':' || s[v] == '.'))
				out[o++] = (char)tolower((unsigned char)s[v++]);
			out[o] = '\0';
			return o > 0;
		}
		i = te;
	}
	return false;
}
