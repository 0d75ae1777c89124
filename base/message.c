/* message.c - decoded text with an offset map back to the original bytes. */
#include "message.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sites.h"
#include "utf8.h"

/* Past this many segments (8 MB of map) the map stops growing: later
 * offsets are then approximate, never out of the message. Text that is
 * invalid byte after valid byte for megabytes gets there. */
#define MAX_SEGS ((size_t)1 << 20)

static int seg_push(struct bl_message *m, size_t text_off, size_t raw_off)
{
	if (text_off > BL_SEG_MAX || raw_off > BL_SEG_RAW_MAX)
		return 0; /* past 1 GB: approximate, as past MAX_SEGS */
	if (m->nsegs && m->segs[m->nsegs - 1].text_off == text_off) {
		m->segs[m->nsegs - 1].raw_off = (uint32_t)raw_off;
		m->segs[m->nsegs - 1].step = 0;
		return 0;
	}
	if (m->nsegs >= MAX_SEGS)
		return 0;
	if (m->nsegs == m->segcap) {
		size_t cap = m->segcap ? m->segcap * 2 : 8;
		struct bl_offset_seg *v = realloc(m->segs, cap * sizeof *v);
		if (!v)
			return -1;
		m->segs = v;
		m->segcap = cap;
	}
	m->segs[m->nsegs] = (struct bl_offset_seg){.text_off = (uint32_t)text_off,
						   .raw_off = (uint32_t)raw_off};
	m->nsegs++;
	return 0;
}

/* What a text holds that is not UTF-8 text: NUL bytes (in runs) and
 * invalid bytes, and where each kind is first. */
struct repairs {
	size_t bad, nul, nul_runs, first_bad, first_nul;
};

static void count_repairs(const unsigned char *u, size_t len, struct repairs *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < len;) {
		/* eight ASCII bytes, none of them NUL, at a time: most text */
		while (len - i >= 8) {
			uint64_t w;
			memcpy(&w, u + i, 8);
			if ((w & 0x8080808080808080ull) ||
			    ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (u[i] == 0) {
			if (!c->nul++)
				c->first_nul = i;
			if (!i || u[i - 1] != 0)
				c->nul_runs++;
			i++;
			continue;
		}
		size_t k = u[i] < 0x80 ? 1 : bl_utf8_len(u + i, len - i);
		if (!k && !c->bad++)
			c->first_bad = i;
		i += k ? k : 1;
	}
}

/* Copies raw[0, len) into m->text with a U+FFFD for each run of NUL bytes
 * and each invalid byte, each such run mapped as a segment of its own. */
static int copy_repaired(struct bl_message *m, const char *raw, size_t len)
{
	const unsigned char *u = (const unsigned char *)raw;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t k = u[i] ? (u[i] < 0x80 ? 1 : bl_utf8_len(u + i, len - i)) : 0;
		if (k) {
			memcpy(m->text + o, raw + i, k);
			o += k;
			i += k;
			continue;
		}
		if (seg_push(m, o, i) < 0)
			return -1;
		if (u[i] == 0) {
			while (i < len && u[i] == 0)
				i++;
			memcpy(m->text + o, "\xEF\xBF\xBD", 3);
			o += 3;
		} else {
			do {
				memcpy(m->text + o, "\xEF\xBF\xBD", 3);
				o += 3;
				i++;
			} while (i < len && u[i] >= 0x80 && !bl_utf8_len(u + i, len - i));
		}
		if (seg_push(m, o, i) < 0)
			return -1;
	}
	m->len = o;
	return 0;
}

/* The diagnostics of what was replaced, with their lines. */
static void say_repairs(struct bl_message *m, const struct repairs *c)
{
	size_t at = m->raw_offset;
	if (c->bad)
		bl_diags_add(&m->diags, BL_WARNING, "ingest.invalid-utf8", 0, at + c->first_bad,
			     "%zu invalid UTF-8 byte%s replaced by U+FFFD (first at byte %zu)",
			     c->bad, c->bad == 1 ? "" : "s", at + c->first_bad);
	if (c->nul)
		bl_diags_add(&m->diags, BL_WARNING, "ingest.nul-byte", 0, at + c->first_nul,
			     "%zu NUL byte%s replaced by U+FFFD (first at byte %zu)", c->nul,
			     c->nul == 1 ? "" : "s", at + c->first_nul);
	for (size_t i = 0; i < m->diags.n; i++) {
		size_t roff = m->diags.v[i].offset - at;
		size_t line = m->raw_line;
		for (size_t j = 0; j < roff && j < m->raw_len; j++)
			line += m->raw[j] == '\n';
		m->diags.v[i].line = line;
	}
}

int bl_message_from_text(struct bl_message *m, const char *raw, size_t len, size_t raw_offset,
			 size_t raw_line)
{
	memset(m, 0, sizeof *m);
	m->raw = raw;
	m->raw_len = len;
	m->raw_offset = raw_offset;
	m->raw_line = raw_line ? raw_line : 1;
	m->line_cache_line = m->raw_line;

	/* counted first, so that valid input (the usual case) is copied once
	 * with no map beyond one segment */
	struct repairs c;
	count_repairs((const unsigned char *)raw, len, &c);
	/* U+FFFD is 3 bytes: one per invalid byte, one per run of NUL bytes (a
	 * sparse file or zero padding must not triple in size) */
	if (len > SIZE_MAX / 3)
		return -1;
	size_t out_len = len - c.nul + 3 * c.nul_runs + 2 * c.bad;
	m->text = malloc(out_len + BL_TEXT_PAD);
	if (!m->text || seg_push(m, 0, 0) < 0)
		goto oom;
	if (!c.bad && !c.nul) {
		memcpy(m->text, raw, len);
		m->len = len;
	} else {
		if (copy_repaired(m, raw, len) < 0)
			goto oom;
		bl_message_add_decoding(m, "utf-8-repair");
	}
	/* zeroed past the end: PCRE2's JIT and the vector scan read ahead of
	 * a subject's end (harmless, but valgrind would see uninitialized
	 * bytes) */
	memset(m->text + m->len, 0, out_len + BL_TEXT_PAD - m->len);
	say_repairs(m, &c);
	return 0;
oom:
	free(m->text);
	m->text = NULL;
	m->len = 0;
	return -1;
}

int bl_message_map_from(struct bl_message *m, size_t raw_off)
{
	if (raw_off > BL_SEG_RAW_MAX)
		return -1;
	m->nsegs = 0;
	return seg_push(m, 0, raw_off);
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
	size_t r = bl_seg_raw(&m->segs[lo], text_off);
	/* inside a replacement longer than what it replaced (U+FFFD for one
	 * byte, "é" for Latin-1 0xE9): the last byte it replaced (a segment
	 * of a step over one maps each of its bytes where it came from) */
	if (!m->segs[lo].step && lo + 1 < m->nsegs && r >= m->segs[lo + 1].raw_off)
		r = m->segs[lo + 1].raw_off > m->segs[lo].raw_off ? m->segs[lo + 1].raw_off - 1
								  : m->segs[lo].raw_off;
	if (r > m->raw_len)
		r = m->raw_len;
	return m->raw_offset + r;
}

size_t bl_message_text_at(const struct bl_message *m, size_t origin)
{
	size_t lo = 0, hi = m->len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (bl_message_origin(m, mid) >= origin)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Newlines in p[0, n): 32 bytes at a time with GCC vector extensions,
 * each lane counting up to 255 before the lanes are summed. */
typedef unsigned char nl_vec __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static size_t
count_newlines(const unsigned char *p, size_t n)
{
	size_t c = 0, i = 0;
	while (n - i >= sizeof(nl_vec)) {
		nl_vec acc = {0};
		for (int k = 0; k < 255 && n - i >= sizeof(nl_vec); k++, i += sizeof(nl_vec)) {
			nl_vec v;
			memcpy(&v, p + i, sizeof v);
			acc -= (nl_vec)(v == '\n'); /* a match is all ones: -1 */
		}
		for (size_t j = 0; j < sizeof acc; j++)
			c += acc[j];
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

size_t bl_raw_lines(const char *s, size_t n, int wide)
{
	const unsigned char *u = (const unsigned char *)s;
	if (!wide)
		return count_newlines(u, n);
	/* a unit of the value 10: "\n\0" (UTF-16LE), "\0\0\0\n"
	 * (UTF-32BE)... */
	size_t c = 0, us = bl_wide_size(wide);
	size_t lf = wide == BL_UTF16_BE || wide == BL_UTF32_BE ? us - 1 : 0;
	for (size_t k = 0; k + us <= n; k += us) {
		bool is_lf = u[k + lf] == '\n';
		for (size_t j = 0; j < us && is_lf; j++)
			is_lf = j == lf || u[k + j] == 0;
		c += is_lf;
	}
	return c;
}

size_t bl_message_raw_lines(const struct bl_message *m, size_t from, size_t to)
{
	if (m->raw_wide) {
		/* units start at multiples of their size: one that starts
		 * before `to` ends before the next multiple */
		size_t us = bl_wide_size(m->raw_wide);
		from += (us - from % us) % us;
		to += (us - to % us) % us;
	}
	if (to > m->raw_len)
		to = m->raw_len;
	return from < to ? bl_raw_lines(m->raw + from, to - from, m->raw_wide) : 0;
}

bool bl_message_raw_line_start(const struct bl_message *m, size_t at)
{
	if (!at)
		return true;
	if (!m->raw_wide)
		return m->raw[at - 1] == '\n';
	size_t us = bl_wide_size(m->raw_wide);
	return at >= us && at % us == 0 && bl_raw_lines(m->raw + at - us, us, m->raw_wide) == 1;
}

size_t bl_message_line(struct bl_message *m, size_t text_off)
{
	size_t target = bl_message_origin(m, text_off) - m->raw_offset;
	size_t off = m->line_cache_off, line = m->line_cache_line;
	if (target < off) {
		if (off - target < target)
			line -= bl_message_raw_lines(m, target, off);
		else
			line = m->raw_line + bl_message_raw_lines(m, 0, target);
	} else {
		line += bl_message_raw_lines(m, off, target);
	}
	m->line_cache_off = target;
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
	if (!m->text_borrowed)
		free(m->text);
	free(m->segs);
	free(m->subject);
	free(m->from);
	free(m->date);
	free(m->message_id);
	free(m->quotes);
	free(m->prefixes);
	bl_sites_free(m->sites);
	bl_diags_free(&m->diags);
	memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ lines
 *
 * Finding the line around an offset walks back to the previous newline. On
 * ordinary text that is a few dozen bytes; on a flattened post it would be
 * the whole 100 MB line, once per anchor: quadratic. So long lines are
 * remembered (start and how far they are known to run without a newline),
 * and handed out in pieces of at most BL_LINE_MAX bytes. */

/* Piece boundary k: k * BL_LINE_MAX, moved forward to a character start. */
static size_t boundary(const struct bl_message *m, size_t k)
{
	if (k == 0)
		return 0;
	size_t b = k * BL_LINE_MAX;
	for (int i = 0; i < 3 && b < m->len && ((unsigned char)m->text[b] & 0xC0) == 0x80; i++)
		b++;
	return b;
}

size_t bl_line_cut(const struct bl_message *m, size_t k)
{
	return boundary(m, k);
}

/* Start of the line holding `off`; *is_long when that line is known to be
 * longer than BL_LINE_MAX. The cache is not part of the message's value,
 * so it is updated through a const pointer. */
static size_t line_start(const struct bl_message *cm, size_t off, bool *is_long)
{
	struct bl_message *m = (struct bl_message *)cm;
	for (unsigned i = 0; i < 2; i++) {
		size_t st = m->lc_start[i], hi = m->lc_hi[i];
		if (hi - st <= BL_LINE_MAX || off < st ||
		    (off > hi && memrchr(m->text + hi, '\n', off - hi)))
			continue;
		/* [st, off) holds no newline: off is on the cached line */
		if (off > hi)
			m->lc_hi[i] = off;
		m->lc_last = i;
		*is_long = true;
		return st;
	}
	const char *nl = off ? memrchr(m->text, '\n', off) : NULL;
	size_t ls = nl ? (size_t)(nl - m->text) + 1 : 0;
	/* is it long? look at most BL_LINE_MAX + 1 bytes ahead */
	size_t ahead = m->len - ls < BL_LINE_MAX + 1 ? m->len - ls : BL_LINE_MAX + 1;
	size_t known = off - ls;
	if (known <= BL_LINE_MAX)
		known = memchr(m->text + ls, '\n', ahead) ? 0 : ahead;
	*is_long = known > BL_LINE_MAX;
	if (*is_long) {
		unsigned i = m->lc_last ^ 1;
		m->lc_start[i] = ls;
		m->lc_hi[i] = ls + known > off ? ls + known : off;
		m->lc_last = i;
	}
	return ls;
}

bool bl_message_prefix_add(struct bl_message *m, size_t from, size_t to, size_t at, size_t n)
{
	if (from >= to || !n || (m->nprefixes && from < m->prefixes[m->nprefixes - 1].to))
		return false;
	if (m->nprefixes == m->prefixcap) {
		size_t cap = m->prefixcap ? m->prefixcap * 2 : 8;
		struct bl_prefix_seg *v = realloc(m->prefixes, cap * sizeof *v);
		if (!v)
			return false;
		m->prefixes = v;
		m->prefixcap = cap;
	}
	m->prefixes[m->nprefixes++] = (struct bl_prefix_seg){from, to, at, n};
	return true;
}

void bl_message_prefix_drop(struct bl_message *m)
{
	if (m->nprefixes)
		m->nprefixes--;
}

size_t bl_message_prefix_at(const struct bl_message *m, size_t ls, size_t len)
{
	size_t lo = 0, hi = m->nprefixes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->prefixes[mid].to <= ls)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->nprefixes || m->prefixes[lo].from > ls)
		return 0;
	const struct bl_prefix_seg *p = &m->prefixes[lo];
	size_t b = 0;
	while (b < len && (m->text[ls + b] == ' ' || m->text[ls + b] == '\t'))
		b++;
	/* a line of the block without the prefix (a line wrapped) is whole */
	if (len - b <= p->n || memcmp(m->text + ls + b, m->text + p->at, p->n) != 0)
		return 0;
	return b + p->n;
}

/* A whole line `l` (starting at a line start) without the prefix of its
 * block, if it stands in one. */
static void leave_out_prefix(const struct bl_message *m, struct bl_line *l)
{
	size_t k = bl_message_prefix_at(m, l->off, l->len);
	if (!k)
		return;
	l->s += k;
	l->off += k;
	l->len -= k;
	l->cut = k;
}

void bl_line_at(const struct bl_message *m, size_t off, struct bl_line *out)
{
	if (off > m->len)
		off = m->len;
	bool is_long;
	size_t ls = line_start(m, off, &is_long);
	size_t ps = ls, cut = m->len; /* piece start; where a long line is cut */
	if (is_long) {
		size_t k = off / BL_LINE_MAX, b = boundary(m, k);
		if (b > off)
			b = boundary(m, k - 1);
		if (b > ps)
			ps = b;
		cut = boundary(m, ps / BL_LINE_MAX + 1);
		if (cut > m->len)
			cut = m->len;
	}
	const char *nl = memchr(m->text + ps, '\n', cut - ps);
	size_t end = nl ? (size_t)(nl - m->text) : cut;
	out->s = m->text + ps;
	out->off = ps;
	out->len = end - ps;
	out->next = nl ? end + 1 : end;
	/* a cut piece keeps its last byte; a line drops the '\r' of "\r\n" */
	if ((nl || end == m->len) && out->len && out->s[out->len - 1] == '\r')
		out->len--;
	out->cut = 0;
	if (m->nprefixes && ps == ls)
		leave_out_prefix(m, out);
}

bool bl_line_next(const struct bl_message *m, const struct bl_line *cur, struct bl_line *out)
{
	if (cur->next >= m->len)
		return false;
	size_t ls = cur->next;
	if (ls > 0 && m->text[ls - 1] == '\n') {
		/* the common case, a line after a line: one search for its
		 * end, where bl_line_at() also looks back for its start; a
		 * line that may be long is left to bl_line_at() */
		size_t rest = m->len - ls;
		size_t ahead = rest < BL_LINE_MAX + 1 ? rest : BL_LINE_MAX + 1;
		const char *nl = memchr(m->text + ls, '\n', ahead);
		if (nl || rest <= BL_LINE_MAX) {
			size_t end = nl ? (size_t)(nl - m->text) : m->len;
			out->s = m->text + ls;
			out->off = ls;
			out->len = end - ls;
			out->next = nl ? end + 1 : end;
			if (out->len && out->s[out->len - 1] == '\r')
				out->len--;
			out->cut = 0;
			if (m->nprefixes)
				leave_out_prefix(m, out);
			return true;
		}
	}
	bl_line_at(m, ls, out);
	return true;
}

bool bl_line_prev(const struct bl_message *m, const struct bl_line *cur, struct bl_line *out)
{
	/* the line before the one cur stands on, whose prefix cur leaves out */
	size_t ls = cur->off - cur->cut;
	if (ls == 0)
		return false;
	/* most often a short line ended by the '\n' before cur, with no
	 * prefix to leave out: found by one search back for its start, as
	 * bl_line_at would have it (a label's search walks up 200 lines
	 * above each run) */
	size_t end = ls - 1;
	if (!m->nprefixes && m->text[end] == '\n') {
		size_t from = end > BL_LINE_MAX ? end - BL_LINE_MAX : 0;
		const char *nl = memrchr(m->text + from, '\n', end - from);
		if (nl || from == 0) {
			size_t st = nl ? (size_t)(nl - m->text) + 1 : 0;
			out->s = m->text + st;
			out->off = st;
			out->len = end - st;
			out->next = ls;
			out->cut = 0;
			if (out->len && out->s[out->len - 1] == '\r')
				out->len--;
			return true;
		}
	}
	bl_line_at(m, end, out);
	return true;
}

bool bl_line_whole(const struct bl_message *m, const struct bl_line *l, size_t floor,
		   struct bl_line *out)
{
	size_t ls = l->off - l->cut;
	if (floor > ls)
		floor = ls;
	const char *nl = ls > floor ? memrchr(m->text + floor, '\n', ls - floor) : NULL;
	size_t start = nl ? (size_t)(nl - m->text) + 1 : floor;
	bool whole = nl || (floor ? m->text[floor - 1] == '\n' : !m->window.mid_line);
	bl_line_at(m, start, out);
	if (out->off < start) {
		/* cut inside a piece: from the floor, without a prefix */
		out->s = m->text + start;
		out->off = start;
		out->cut = 0;
	}
	const char *end_nl = memchr(m->text + l->off, '\n', m->len - l->off);
	size_t end = end_nl ? (size_t)(end_nl - m->text) : m->len;
	out->len = end - out->off;
	out->next = end_nl ? end + 1 : end;
	/* a line drops the '\r' of "\r\n", as bl_line_at() does */
	if (end_nl && out->len && out->s[out->len - 1] == '\r')
		out->len--;
	return whole;
}

void bl_message_diag(struct bl_message *m, enum bl_level level, const char *code, size_t origin,
		     const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	bl_diags_add(&m->diags, level, code, 0, m->raw_offset + origin, "%s", buf);
}

static int cmp_diag(const void *a, const void *b)
{
	const struct bl_diag *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void bl_message_diag_lines(struct bl_message *m)
{
	if (!m->diags.n)
		return;
	/* stable enough: diagnostics at one offset keep their order in practice */
	qsort(m->diags.v, m->diags.n, sizeof *m->diags.v, cmp_diag);
	size_t line = m->raw_line, pos = 0;
	for (size_t i = 0; i < m->diags.n; i++) {
		/* said of bytes before the message's (a window's, of what an
		 * earlier one read): its line was given */
		if (m->diags.v[i].offset < m->raw_offset)
			continue;
		size_t target = m->diags.v[i].offset - m->raw_offset;
		if (target > m->raw_len)
			target = m->raw_len;
		if (pos < target) {
			line += bl_message_raw_lines(m, pos, target);
			pos = target;
		}
		m->diags.v[i].line = line;
	}
}
