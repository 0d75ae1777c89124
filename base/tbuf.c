/* tbuf.c - decoded text with its offset map, built byte by byte. */
#include "tbuf.h"

#include <stdlib.h>
#include <string.h>

void bl_tbuf_init(struct bl_tbuf *b)
{
	memset(b, 0, sizeof *b);
}

void bl_tbuf_free(struct bl_tbuf *b)
{
	free(b->s);
	free(b->segs);
	memset(b, 0, sizeof *b);
}

static size_t tbuf_max = BL_TBUF_MAX;

void bl_tbuf_set_max(size_t max)
{
	tbuf_max = max && max < BL_TBUF_MAX ? max : BL_TBUF_MAX;
}

bool bl_tbuf_reserve(struct bl_tbuf *b, size_t n)
{
	if (b->failed)
		return false;
	if (n > tbuf_max || b->len + n > tbuf_max) {
		b->failed = b->too_long = true;
		return false;
	}
	/* room for BL_TEXT_PAD more bytes than asked, all initialized: the
	 * decoders run PCRE2's JIT over this buffer, and it may read a few
	 * bytes past the end of its subject */
	if (b->len + n + BL_TEXT_PAD > b->cap) {
		/* the first reservation is usually the whole output (a decoder
		 * reserves its input's length): exactly that; then half as much
		 * again each time, not twice, so a text of a few hundred MB does
		 * not sit in a buffer of twice its size */
		size_t need = b->len + n + BL_TEXT_PAD;
		size_t cap = b->cap ? b->cap + b->cap / 2 : 256;
		if (cap < need)
			cap = need;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->failed = true;
			return false;
		}
		b->s = s;
		b->cap = cap;
	}
	return true;
}

/* Whether the next bytes, from `origin` on at this step, continue the
 * current segment. */
static bool continues(const struct bl_tbuf *b, size_t origin, unsigned step)
{
	if (!b->nsegs)
		return false;
	const struct bl_offset_seg *g = &b->segs[b->nsegs - 1];
	return g->step == step && bl_seg_raw(g, b->len) == origin;
}

static void seg_push(struct bl_tbuf *b, size_t origin, unsigned step)
{
	if (origin > BL_SEG_RAW_MAX || b->len > BL_SEG_MAX) {
		b->failed = b->too_long = true; /* a message of over 1 GB read whole */
		return;
	}
	if (b->nsegs && b->segs[b->nsegs - 1].text_off == b->len) {
		b->segs[b->nsegs - 1].raw_off = (uint32_t)origin;
		b->segs[b->nsegs - 1].step = step;
		return;
	}
	if (b->nsegs == b->segcap) {
		size_t cap = b->segcap ? b->segcap * 2 : 16;
		struct bl_offset_seg *v = realloc(b->segs, cap * sizeof *v);
		if (!v) {
			b->failed = true;
			return;
		}
		b->segs = v;
		b->segcap = cap;
	}
	b->segs[b->nsegs] = (struct bl_offset_seg){
		.text_off = (uint32_t)b->len, .raw_off = (uint32_t)origin, .step = step};
	b->nsegs++;
}

/* Whether a byte from `origin` goes on the current segment: as its next
 * byte, or, when the segment holds one byte so far, as the second of a
 * step that takes it there (the '=' of "=BC" after the one of "=E6": 3
 * bytes on), the segment then of that step. */
static bool goes_on(struct bl_tbuf *b, size_t origin)
{
	if (!b->nsegs)
		return false;
	struct bl_offset_seg *g = &b->segs[b->nsegs - 1];
	if (bl_seg_raw(g, b->len) == origin)
		return true;
	if (b->len - g->text_off != 1 || origin <= g->raw_off || origin - g->raw_off > 4)
		return false;
	g->step = (uint32_t)(origin - g->raw_off - 1);
	return true;
}

void bl_tbuf_putc(struct bl_tbuf *b, char c, size_t origin)
{
	if (!bl_tbuf_reserve(b, 1))
		return;
	if (!goes_on(b, origin))
		seg_push(b, origin, 0);
	b->s[b->len++] = c;
}

static void put_seg(struct bl_tbuf *b, const char *s, size_t n, size_t origin, unsigned step)
{
	if (!n || !bl_tbuf_reserve(b, n))
		return;
	if (!continues(b, origin, step))
		seg_push(b, origin, step);
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

void bl_tbuf_put(struct bl_tbuf *b, const char *s, size_t n, size_t origin)
{
	put_seg(b, s, n, origin, 0);
}

void bl_tbuf_put_wide(struct bl_tbuf *b, const char *s, size_t n, size_t origin, size_t unit)
{
	put_seg(b, s, n, origin, (unsigned)unit - 1);
}

void bl_tbuf_put_at(struct bl_tbuf *b, const char *s, size_t n, size_t origin)
{
	/* One segment, as for a copy: the replacement's first byte maps to
	 * `origin`, the others to the bytes after it, which lookups clamp to
	 * the last byte before the next segment's origin (bl_src_origin,
	 * bl_message_origin): a byte inside "é" (2 bytes for 1 in Latin-1)
	 * maps to the Latin-1 byte, inside U+FFFD to the bytes it replaced.
	 * A segment per byte, all at `origin`, made an input with an invalid
	 * byte every few bytes cost 16 times its size in map entries.
	 * A replacement longer than one byte then gets an empty segment after
	 * it at origin + 1, the least it replaced: at the end of a text there
	 * is no next segment to clamp to, and the bytes inside a U+FFFD that
	 * replaced the input's last byte mapped past the end of the input
	 * (fuzz_mime). The next byte written continues or overwrites that
	 * segment, so it costs no entry. */
	bl_tbuf_put(b, s, n, origin);
	if (n > 1 && !b->failed)
		seg_push(b, origin + 1, 0);
}

/* Index of the segment holding map coordinate t (last with text_off <= t). */
static size_t seg_find(struct bl_src *src, size_t t)
{
	size_t i = src->cursor < src->nsegs ? src->cursor : 0;
	if (src->segs[i].text_off > t)
		i = 0;
	/* forward a few steps, then binary search */
	for (int k = 0; k < 8; k++) {
		if (i + 1 >= src->nsegs || src->segs[i + 1].text_off > t) {
			src->cursor = i;
			return i;
		}
		i++;
	}
	size_t lo = i, hi = src->nsegs;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (src->segs[mid].text_off <= t)
			lo = mid;
		else
			hi = mid;
	}
	src->cursor = lo;
	return lo;
}

size_t bl_src_origin(struct bl_src *src, size_t off)
{
	if (!src->segs || !src->nsegs)
		return src->base + src->shift + off;
	size_t t = src->shift + off;
	size_t i = seg_find(src, t);
	size_t r = bl_seg_raw(&src->segs[i], t);
	/* inside a replacement longer than what it replaced (put_at): the
	 * last byte it replaced (a segment of a step over one maps each of
	 * its bytes where it came from) */
	if (!src->segs[i].step && i + 1 < src->nsegs && r >= src->segs[i + 1].raw_off)
		r = src->segs[i + 1].raw_off > src->segs[i].raw_off ? src->segs[i + 1].raw_off - 1
								    : src->segs[i].raw_off;
	return r;
}

void bl_tbuf_copy(struct bl_tbuf *b, struct bl_src *src, size_t off, size_t n)
{
	if (off > src->len)
		return;
	if (n > src->len - off)
		n = src->len - off;
	if (!src->segs || !src->nsegs) {
		bl_tbuf_put(b, src->s + off, n, src->base + src->shift + off);
		return;
	}
	while (n) {
		size_t t = src->shift + off;
		size_t i = seg_find(src, t);
		size_t run = n;
		if (i + 1 < src->nsegs && src->segs[i + 1].text_off - t < run)
			run = src->segs[i + 1].text_off - t;
		if (!run)
			run = 1;
		put_seg(b, src->s + off, run, bl_seg_raw(&src->segs[i], t), src->segs[i].step);
		off += run;
		n -= run;
		if (b->failed)
			return;
	}
}

void bl_src_from_tbuf(struct bl_src *src, const struct bl_tbuf *b)
{
	/* the next decoder runs PCRE2's JIT over this text, which may read a
	 * few bytes past its end: make them zeros (bl_tbuf_reserve always
	 * leaves BL_TEXT_PAD bytes of room; the cache of the text is not part
	 * of its value, so this writes through the const pointer) */
	if (b->s && b->cap >= b->len + BL_TEXT_PAD)
		memset(((struct bl_tbuf *)b)->s + b->len, 0, BL_TEXT_PAD);
	memset(src, 0, sizeof *src);
	src->s = b->s ? b->s : "";
	src->len = b->len;
	src->segs = b->segs;
	src->nsegs = b->nsegs;
}

void bl_src_plain(struct bl_src *src, const char *s, size_t len, size_t base)
{
	memset(src, 0, sizeof *src);
	src->s = s;
	src->len = len;
	src->base = base;
}

void bl_src_sub(struct bl_src *out, const struct bl_src *src, size_t off, size_t len)
{
	*out = *src;
	if (off > src->len)
		off = src->len;
	if (len > src->len - off)
		len = src->len - off;
	out->s = src->s + off;
	out->len = len;
	out->shift = src->shift + off;
	out->cursor = 0;
}

void bl_tbuf_to_message(struct bl_tbuf *b, struct bl_message *m)
{
	/* the text is followed by BL_TEXT_PAD zero bytes, as every message's
	 * is: PCRE2's JIT may read a little past the end of a subject */
	if (!bl_tbuf_reserve(b, BL_TEXT_PAD) || !b->s) {
		/* keep the message valid: empty text */
		free(b->s);
		b->s = calloc(1, BL_TEXT_PAD);
		b->len = 0;
		b->failed = b->s == NULL;
	}
	if (!m->text_borrowed)
		free(m->text);
	m->text_borrowed = false;
	free(m->segs);
	m->text = b->s;
	if (m->text)
		memset(m->text + b->len, 0, BL_TEXT_PAD);
	m->len = m->text ? b->len : 0;
	m->segs = b->segs;
	/* the line cache described the old text */
	m->lc_start[0] = m->lc_start[1] = m->lc_hi[0] = m->lc_hi[1] = 0;
	m->lc_last = 0;
	m->nsegs = b->nsegs;
	m->segcap = b->segcap;
	if (!m->nsegs) {
		/* an empty text still maps to the start of the message */
		free(m->segs);
		m->segs = NULL;
		m->segcap = 0;
	}
	memset(b, 0, sizeof *b);
}
