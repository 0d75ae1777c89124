/* message.c - decoded text with an offset map back to the original bytes. */
#include "message.h"

#include <stdlib.h>
#include <string.h>

static int seg_push(struct bl_message *m, size_t text_off, size_t raw_off)
{
	if (m->nsegs && m->segs[m->nsegs - 1].text_off == text_off) {
		m->segs[m->nsegs - 1].raw_off = raw_off;
		return 0;
	}
	if (m->nsegs == m->segcap) {
		size_t cap = m->segcap ? m->segcap * 2 : 8;
		struct bl_offset_seg *v = realloc(m->segs, cap * sizeof *v);
		if (!v)
			return -1;
		m->segs = v;
		m->segcap = cap;
	}
	m->segs[m->nsegs].text_off = text_off;
	m->segs[m->nsegs].raw_off = raw_off;
	m->nsegs++;
	return 0;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid.
 * Rejects overlongs, surrogates and code points past U+10FFFF. */
static size_t utf8_valid_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if (c == 0xE0 && s[1] < 0xA0)
			return 0;
		if (c == 0xED && s[1] >= 0xA0)
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		if (c == 0xF0 && s[1] < 0x90)
			return 0;
		if (c == 0xF4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

int bl_message_from_text(struct bl_message *m, const char *raw, size_t len,
			 size_t raw_offset, size_t raw_line)
{
	memset(m, 0, sizeof *m);
	m->raw = raw;
	m->raw_len = len;
	m->raw_offset = raw_offset;
	m->raw_line = raw_line ? raw_line : 1;
	m->line_cache_line = m->raw_line;

	/* First pass: count what needs replacing, so that valid input (the
	 * usual case) is copied once with no map beyond one segment. */
	const unsigned char *u = (const unsigned char *)raw;
	size_t bad = 0, nul = 0, first_bad = 0, first_nul = 0;
	for (size_t i = 0; i < len;) {
		if (u[i] == 0) {
			if (!nul++)
				first_nul = i;
			i++;
			continue;
		}
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = utf8_valid_len(u + i, len - i);
		if (!k) {
			if (!bad++)
				first_bad = i;
			i++;
		} else {
			i += k;
		}
	}
	size_t out_len = len + 2 * (bad + nul); /* U+FFFD is 3 bytes */
	if (out_len < len)
		goto oom;
	m->text = malloc(out_len + 1);
	if (!m->text || seg_push(m, 0, 0) < 0)
		goto oom;
	if (!bad && !nul) {
		memcpy(m->text, raw, len);
		m->len = len;
	} else {
		size_t o = 0;
		for (size_t i = 0; i < len;) {
			size_t k = u[i] ? (u[i] < 0x80 ? 1 : utf8_valid_len(u + i, len - i)) : 0;
			if (k) {
				memcpy(m->text + o, raw + i, k);
				o += k;
				i += k;
				continue;
			}
			if (seg_push(m, o, i) < 0)
				goto oom;
			memcpy(m->text + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
			if (seg_push(m, o, i) < 0)
				goto oom;
		}
		m->len = o;
		bl_message_add_decoding(m, "utf-8-repair");
	}
	m->text[m->len] = '\0';
	if (bad)
		bl_diags_add(&m->diags, BL_WARNING, "ingest.invalid-utf8",
			     0, raw_offset + first_bad,
			     "%zu invalid UTF-8 byte%s replaced by U+FFFD (first at byte %zu)",
			     bad, bad == 1 ? "" : "s", raw_offset + first_bad);
	if (nul)
		bl_diags_add(&m->diags, BL_WARNING, "ingest.nul-byte", 0,
			     raw_offset + first_nul,
			     "%zu NUL byte%s replaced by U+FFFD (first at byte %zu)",
			     nul, nul == 1 ? "" : "s", raw_offset + first_nul);
	/* Fill in the line numbers now that the map exists. */
	for (size_t i = 0; i < m->diags.n; i++) {
		size_t roff = m->diags.v[i].offset - raw_offset;
		size_t line = m->raw_line;
		for (size_t j = 0; j < roff && j < len; j++)
			line += raw[j] == '\n';
		m->diags.v[i].line = line;
	}
	return 0;
oom:
	free(m->text);
	m->text = NULL;
	m->len = 0;
	return -1;
}

size_t bl_message_origin(const struct bl_message *m, size_t text_off)
{
	if (!m->nsegs)
		return m->raw_offset + text_off;
	/* last segment with text_off <= off */
	size_t lo = 0, hi = m->nsegs;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->segs[mid].text_off <= text_off)
			lo = mid;
		else
			hi = mid;
	}
	size_t r = m->segs[lo].raw_off + (text_off - m->segs[lo].text_off);
	if (lo + 1 < m->nsegs && r > m->segs[lo + 1].raw_off)
		r = m->segs[lo + 1].raw_off;
	if (r > m->raw_len)
		r = m->raw_len;
	return m->raw_offset + r;
}

size_t bl_message_line(struct bl_message *m, size_t text_off)
{
	size_t target = bl_message_origin(m, text_off) - m->raw_offset;
	size_t off = m->line_cache_off, line = m->line_cache_line;
	if (target < off) {
		/* walk back: usually a few lines */
		while (off > target) {
			off--;
			if (m->raw[off] == '\n')
				line--;
		}
	} else {
		const char *p = m->raw + off, *end = m->raw + target;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl)
				break;
			line++;
			p = nl + 1;
		}
		off = target;
	}
	m->line_cache_off = off;
	m->line_cache_line = line;
	return line;
}

void bl_message_add_decoding(struct bl_message *m, const char *name)
{
	for (size_t i = 0; i < m->ndecodings; i++)
		if (strcmp(m->decodings[i], name) == 0)
			return;
	if (m->ndecodings < BL_MAX_DECODINGS)
		m->decodings[m->ndecodings++] = name;
}

int bl_message_quote_depth(const struct bl_message *m, size_t text_off)
{
	if (!m->nquotes)
		return 0;
	size_t raw = bl_message_origin(m, text_off) - m->raw_offset;
	if (m->quotes[0].raw_off > raw)
		return 0;
	size_t lo = 0, hi = m->nquotes;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->quotes[mid].raw_off <= raw)
			lo = mid;
		else
			hi = mid;
	}
	return m->quotes[lo].depth;
}

void bl_message_free(struct bl_message *m)
{
	free(m->text);
	free(m->segs);
	free(m->subject);
	free(m->from);
	free(m->date);
	free(m->message_id);
	free(m->quotes);
	bl_diags_free(&m->diags);
	memset(m, 0, sizeof *m);
}

/* The line cache is not part of the message's value: lookups through a
 * const message may update it. */
static void cache_line(const struct bl_message *m, size_t start, size_t end)
{
	struct bl_message *w = (struct bl_message *)m;
	w->text_line_start = start;
	w->text_line_end = end;
	w->text_line_valid = true;
}

static void fill_line(const struct bl_message *m, size_t start,
		      struct bl_line *out)
{
	size_t end;
	if (m->text_line_valid && m->text_line_start == start) {
		end = m->text_line_end;
	} else {
		const char *nl = memchr(m->text + start, '\n', m->len - start);
		end = nl ? (size_t)(nl - m->text) : m->len;
		cache_line(m, start, end);
	}
	const char *nl = end < m->len ? m->text + end : NULL;
	out->s = m->text + start;
	out->off = start;
	out->next = nl ? end + 1 : m->len;
	out->len = end - start;
	if (out->len && out->s[out->len - 1] == '\r')
		out->len--;
}

void bl_line_at(const struct bl_message *m, size_t off, struct bl_line *out)
{
	if (off > m->len)
		off = m->len;
	size_t start = off;
	if (m->text_line_valid && m->text_line_start <= off && off <= m->text_line_end &&
	    m->text_line_end <= m->len) {
		fill_line(m, m->text_line_start, out);
		return;
	}
	while (start > 0 && m->text[start - 1] != '\n')
		start--;
	fill_line(m, start, out);
}

bool bl_line_next(const struct bl_message *m, const struct bl_line *cur,
		  struct bl_line *out)
{
	if (cur->next >= m->len)
		return false;
	fill_line(m, cur->next, out);
	return true;
}

bool bl_line_prev(const struct bl_message *m, const struct bl_line *cur,
		  struct bl_line *out)
{
	if (cur->off == 0)
		return false;
	bl_line_at(m, cur->off - 1, out);
	return true;
}
