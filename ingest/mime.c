/* mime.c - the readable text of a MIME entity (RFC 2045/2046).
 *
 *   multipart/alternative: text/plain preferred, else text/html;
 *   multipart/mixed and others: every text part in order;
 *   message/rfc822: the enclosed message's body;
 *   other types (images, application/octet-stream): skipped, noted.
 * Each chosen part has its transfer encoding undone, its charset made
 * UTF-8, and HTML made text. Damage is reported with its position and the
 * rest is read: a missing boundary, a missing closing delimiter, a
 * boundary declared but never used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decode.h"

#define MAX_DEPTH 16
#define MAX_PARTS 1000

struct walk {
	struct bl_message *m;
	struct bl_tbuf *out;
	size_t parts;
};

static void entity(struct walk *w, struct bl_src *src, const struct bl_headers *h, int depth);

bool bl_mime_is_text(const struct bl_headers *h)
{
	return !h->type[0] || strncmp(h->type, "text/", 5) == 0;
}

bool bl_mime_is_html(const struct bl_headers *h)
{
	return strcmp(h->type, "text/html") == 0;
}

static void separate(struct walk *w, size_t origin)
{
	if (w->out->len && w->out->s[w->out->len - 1] != '\n')
		bl_tbuf_putc(w->out, '\n', origin);
}

bool bl_mime_utf8_repair(struct bl_message *m, struct bl_src *in, const struct bl_headers *h,
			 struct bl_tbuf *out)
{
	if (!bl_utf8_repair(m, in, out))
		return false;
	if (h->charset[0])
		bl_message_add_decoding(m, "charset");
	return true;
}

/* A leaf: transfer decoding, charset, HTML. */
static void leaf(struct walk *w, struct bl_src *body, const struct bl_headers *h)
{
	struct bl_message *m = w->m;
	struct bl_tbuf dec, txt;
	struct bl_src s1, s2;
	bl_tbuf_init(&dec);
	bl_tbuf_init(&txt);
	if (strcmp(h->encoding, "quoted-printable") == 0) {
		bl_qp_decode(m, body, &dec, false);
		bl_message_add_decoding(m, "quoted-printable");
		bl_src_from_tbuf(&s1, &dec);
	} else if (strcmp(h->encoding, "base64") == 0) {
		bl_base64_decode(m, body, &dec);
		bl_message_add_decoding(m, "base64");
		bl_src_from_tbuf(&s1, &dec);
	} else {
		if (h->encoding[0] && strcmp(h->encoding, "7bit") != 0 &&
		    strcmp(h->encoding, "8bit") != 0 && strcmp(h->encoding, "binary") != 0)
			bl_message_diag(
				m, BL_WARNING, "mime.unknown-encoding", bl_src_origin(body, 0),
				"unknown Content-Transfer-Encoding '%.40s': the part is read as is",
				h->encoding);
		s1 = *body;
	}
	const char *cs = h->charset[0] ? h->charset : NULL;
	if (!bl_mime_is_html(h) && bl_charset_is_utf8(cs)) {
		/* valid UTF-8 (nearly every part) is copied once, to the
		 * output, not first to a buffer of its own */
		if (bl_mime_utf8_repair(m, &s1, h, &txt))
			bl_src_from_tbuf(&s2, &txt);
		else
			s2 = s1;
	} else {
		if (bl_charset_to_utf8(m, &s1, &txt, cs) && cs)
			bl_message_add_decoding(m, "charset");
		bl_src_from_tbuf(&s2, &txt);
	}
	separate(w, bl_src_origin(body, 0));
	struct bl_tbuf *whole = s2.s == txt.s ? &txt : s2.s == dec.s ? &dec : NULL;
	if (bl_mime_is_html(h)) {
		bl_html_to_text(m, &s2, w->out);
		bl_message_add_decoding(m, "html");
	} else if (whole && whole->s && !whole->failed && !w->out->len && !w->out->failed) {
		/* the body's first text (a mail's one part, a window of it):
		 * taken over with its map, which a copy would make again */
		bl_tbuf_free(w->out);
		*w->out = *whole;
		bl_tbuf_init(whole);
	} else {
		bl_tbuf_copy(w->out, &s2, 0, s2.len);
	}
	if (dec.failed || txt.failed) {
		/* a part not decoded whole: the mail's text is not made */
		w->out->failed = true;
		w->out->too_long |= dec.too_long || txt.too_long;
	}
	bl_tbuf_free(&dec);
	bl_tbuf_free(&txt);
}

int bl_mime_delimiter(const char *s, size_t len, const char *b, size_t bl)
{
	if (len < bl + 2 || s[0] != '-' || s[1] != '-' || memcmp(s + 2, b, bl) != 0)
		return 0;
	size_t k = bl + 2;
	bool close = len >= k + 2 && s[k] == '-' && s[k + 1] == '-';
	if (close)
		k += 2;
	while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
		k++;
	if (k != len)
		return 0;
	return close ? 2 : 1;
}

void bl_mime_part_defaults(struct bl_headers *ph, const struct bl_headers *h)
{
	if (!ph->type[0])
		snprintf(ph->type, sizeof ph->type, "%s",
			 strcmp(h->type, "multipart/digest") == 0 ? "message/rfc822"
								  : "text/plain");
	if (!ph->charset[0] && h->charset[0])
		memcpy(ph->charset, h->charset, sizeof ph->charset);
}

size_t bl_mime_pick(const struct bl_headers *ph, size_t np)
{
	/* the plain text, else HTML, else the first part we can read */
	size_t pick = np;
	for (size_t k = 0; k < np && pick == np; k++)
		if (strcmp(ph[k].type, "text/plain") == 0)
			pick = k;
	for (size_t k = 0; k < np && pick == np; k++)
		if (bl_mime_is_html(&ph[k]))
			pick = k;
	for (size_t k = 0; k < np && pick == np; k++)
		if (bl_mime_is_text(&ph[k]) || strncmp(ph[k].type, "multipart/", 10) == 0)
			pick = k;
	return pick;
}

struct part {
	size_t off, len;
};

static void multipart(struct walk *w, struct bl_src *body, const struct bl_headers *h, int depth)
{
	struct bl_message *m = w->m;
	size_t bl = strlen(h->boundary);
	struct part *parts = NULL;
	size_t np = 0, cap = 0;
	size_t i = 0, start = 0;
	bool in_part = false, closed = false;
	const char *s = body->s;
	size_t n = body->len;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t next = nl ? end + 1 : n;
		int d = (end - i >= bl + 2 && s[i] == '-')
				? bl_mime_delimiter(s + i, end - i, h->boundary, bl)
				: 0;
		if (d) {
			if (in_part && np < MAX_PARTS) {
				if (np == cap) {
					cap = cap ? cap * 2 : 8;
					struct part *v = realloc(parts, cap * sizeof *v);
					if (!v)
						break;
					parts = v;
				}
				/* the line break before the delimiter belongs to it */
				size_t pe = i;
				if (pe > start && s[pe - 1] == '\n')
					pe--;
				if (pe > start && s[pe - 1] == '\r')
					pe--;
				parts[np].off = start;
				parts[np].len = pe - start;
				np++;
			}
			if (d == 2) {
				closed = true;
				break;
			}
			in_part = true;
			start = next;
		}
		i = next;
	}
	if (!closed && in_part && np < MAX_PARTS) {
		m->truncated = true;
		bl_message_diag(m, BL_WARNING, "mime.truncated", bl_src_origin(body, n),
				"multipart body ends without its closing boundary '--%.60s--': "
				"the last part is read as far as it goes",
				h->boundary);
		struct part *v = np == cap ? realloc(parts, (cap + 1) * sizeof *v) : parts;
		if (v) {
			parts = v;
			parts[np].off = start;
			parts[np].len = n - start;
			np++;
		}
	}
	if (!np) {
		bl_message_diag(
			m, BL_WARNING, "mime.missing-boundary", bl_src_origin(body, 0),
			"multipart body without any '--%.60s' delimiter: read as plain text",
			h->boundary);
		struct bl_headers plain = *h;
		plain.type[0] = '\0';
		plain.subject = plain.from = plain.date = plain.message_id = NULL;
		leaf(w, body, &plain);
		free(parts);
		return;
	}
	bl_message_add_decoding(m, "mime");
	bool alternative = strcmp(h->type, "multipart/alternative") == 0;
	/* parse each part's headers once */
	struct bl_headers *ph = calloc(np, sizeof *ph);
	struct bl_src *ps = calloc(np, sizeof *ps);
	if (!ph || !ps) {
		free(ph);
		free(ps);
		free(parts);
		return;
	}
	for (size_t k = 0; k < np; k++) {
		bl_src_sub(&ps[k], body, parts[k].off, parts[k].len);
		bl_headers_parse(&ps[k], &ph[k]);
		bl_mime_part_defaults(&ph[k], h);
	}
	if (alternative) {
		size_t pick = bl_mime_pick(ph, np);
		if (pick < np)
			entity(w, &ps[pick], &ph[pick], depth + 1);
	} else {
		for (size_t k = 0; k < np; k++)
			entity(w, &ps[k], &ph[k], depth + 1);
	}
	for (size_t k = 0; k < np; k++)
		bl_headers_free(&ph[k]);
	free(ph);
	free(ps);
	free(parts);
}

/* An entity whose headers are parsed; its body starts at h->body. */
static void entity(struct walk *w, struct bl_src *src, const struct bl_headers *h, int depth)
{
	struct bl_message *m = w->m;
	struct bl_src body;
	bl_src_sub(&body, src, h->body, src->len - h->body);
	if (++w->parts > MAX_PARTS || depth > MAX_DEPTH) {
		if (w->parts == MAX_PARTS + 1 || depth == MAX_DEPTH + 1)
			bl_message_diag(
				m, BL_WARNING, "mime.too-deep", bl_src_origin(src, 0),
				"MIME nesting or part count past its limit: the rest is skipped");
		return;
	}
	if (strncmp(h->type, "multipart/", 10) == 0) {
		if (!h->boundary[0]) {
			bl_message_diag(m, BL_WARNING, "mime.no-boundary", bl_src_origin(src, 0),
					"%s without a boundary parameter: read as plain text",
					h->type);
			struct bl_headers plain = *h;
			plain.type[0] = '\0';
			leaf(w, &body, &plain);
			return;
		}
		multipart(w, &body, h, depth);
		return;
	}
	if (strcmp(h->type, "message/rfc822") == 0) {
		struct bl_headers inner;
		bl_headers_parse(&body, &inner);
		if (!inner.type[0])
			snprintf(inner.type, sizeof inner.type, "text/plain");
		entity(w, &body, &inner, depth + 1);
		bl_headers_free(&inner);
		return;
	}
	if (!bl_mime_is_text(h)) {
		bl_message_diag(m, BL_INFO, "mime.skipped-part", bl_src_origin(src, 0),
				"a %.60s part (%zu bytes) is not text: skipped", h->type, body.len);
		return;
	}
	leaf(w, &body, h);
}

bool bl_mime_identity(const struct bl_headers *h)
{
	return !h->encoding[0] || strcmp(h->encoding, "7bit") == 0 ||
	       strcmp(h->encoding, "8bit") == 0 || strcmp(h->encoding, "binary") == 0;
}

bool bl_mime_as_is(const struct bl_headers *h)
{
	return bl_mime_identity(h) && bl_mime_is_text(h) && !bl_mime_is_html(h) &&
	       bl_charset_is_utf8(h->charset);
}

void bl_mime_body(struct bl_message *m, struct bl_src *src, const struct bl_headers *h,
		  struct bl_tbuf *out)
{
	struct walk w = {.m = m, .out = out, .parts = 0};
	entity(&w, src, h, 0);
}
