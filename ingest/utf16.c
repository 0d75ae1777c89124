/* utf16.c - a text file in UTF-16 made UTF-8: what Windows PowerShell
 * writes for `iozone ... > out.txt`, FF FE (or FE FF) and then two bytes a
 * character, in which no tool's line can be found byte for byte; and the
 * same in UTF-32 (`Out-File -Encoding utf32`: FF FE 00 00, four bytes a
 * character).
 *
 * The map is exact at every character: a stretch of ASCII is one wide map
 * segment (each text byte from the first of its two or four bytes), any other
 * character a segment of its own where its length changes ("\xE4\xB8\x8A"
 * from 2 bytes), so that a run's first and last bytes, and where a window
 * of the text is cut, are where they are in the input. A lone surrogate,
 * a cut last unit, a value past U+10FFFF and U+0000 become U+FFFD,
 * reported once with a count. */
#include <stdint.h>

#include "../base/utf8.h"
#include "decode.h"

int bl_wide_bom(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n >= 4 && u[0] == 0xFF && u[1] == 0xFE && !u[2] && !u[3])
		return BL_UTF32_LE;
	if (n >= 4 && !u[0] && !u[1] && u[2] == 0xFE && u[3] == 0xFF)
		return BL_UTF32_BE;
	if (n < 2)
		return 0;
	return u[0] == 0xFF && u[1] == 0xFE   ? BL_UTF16_LE
	       : u[0] == 0xFE && u[1] == 0xFF ? BL_UTF16_BE
					      : 0;
}

/* Whether the unit at s[i] is an ASCII character (a tab, a line break, a
 * printable one) as an encoding of that order writes it: "A\0" in
 * UTF-16LE, "\0\0\0A" in UTF-32BE. */
static bool ascii_unit(const unsigned char *s, size_t i, int order)
{
	uint32_t c = bl_wide_value((const char *)s + i, order);
	return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7F);
}

/* Whether nearly every unit of order `order` in the first 1 KB is an
 * ASCII character (text in UTF-8 has no NUL byte every other byte). */
static bool mostly_ascii(const unsigned char *u, size_t n, int order)
{
	size_t us = bl_wide_size(order), units = (n < 1024 ? n : 1024) / us, ascii = 0;
	for (size_t k = 0; k < units; k++)
		ascii += ascii_unit(u, us * k, order);
	return ascii * 8 >= units * 7;
}

int bl_wide_order(const char *s, size_t n)
{
	int bom = bl_wide_bom(s, n);
	if (bom || n < 16)
		return bom;
	/* no mark: UTF-32 first, whose ASCII is no UTF-16 character */
	static const int orders[] = {BL_UTF32_LE, BL_UTF32_BE, BL_UTF16_LE, BL_UTF16_BE};
	for (size_t k = 0; k < sizeof orders / sizeof *orders; k++)
		if (mostly_ascii((const unsigned char *)s, n, orders[k]))
			return orders[k];
	return 0;
}

uint32_t bl_wide_value(const char *s, int order)
{
	const unsigned char *u = (const unsigned char *)s;
	switch (order) {
	case BL_UTF16_BE: return (uint32_t)u[0] << 8 | u[1];
	case BL_UTF32_LE:
		return (uint32_t)u[3] << 24 | (uint32_t)u[2] << 16 | (uint32_t)u[1] << 8 | u[0];
	case BL_UTF32_BE:
		return (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3];
	default: return (uint32_t)u[1] << 8 | u[0];
	}
}

/* The character at s[i] (one unit, or a surrogate pair of UTF-16): its
 * code point, U+FFFD when it is not one (*bad); *used: its bytes. */
static uint32_t char_at(const unsigned char *s, size_t n, size_t i, int order, size_t *used,
			bool *bad)
{
	size_t us = bl_wide_size(order);
	*used = us;
	*bad = true;
	if (n - i < us) {
		*used = n - i;
		return 0xFFFD;
	}
	uint32_t u = bl_wide_value((const char *)s + i, order);
	if (us == 2 && u >= 0xD800 && u < 0xDC00 && n - i >= 4) {
		uint32_t lo = bl_wide_value((const char *)s + i + 2, order);
		if (lo >= 0xDC00 && lo < 0xE000) {
			*used = 4;
			*bad = false;
			return 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
		}
	}
	if (u == 0 || (u >= 0xD800 && u < 0xE000) || u > 0x10FFFF)
		return 0xFFFD;
	*bad = false;
	return u;
}

/* A stretch of ASCII characters not yet written, from input offset
 * `origin` on. */
struct ascii {
	char buf[4096];
	size_t n, origin;
};

static void flush(struct bl_tbuf *out, struct ascii *a, size_t unit)
{
	bl_tbuf_put_wide(out, a->buf, a->n, a->origin, unit);
	a->n = 0;
}

bool bl_wide_to_utf8(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, int order)
{
	const unsigned char *s = (const unsigned char *)in->s;
	size_t us = bl_wide_size(order);
	/* the mark is at the text's start, not at a window's */
	bool start = !m->window.on || m->window.index == 0;
	size_t n = in->len, bad = 0, first_bad = 0;
	size_t i = start && n >= us && bl_wide_value(in->s, order) == 0xFEFF ? us : 0;
	if (!bl_tbuf_reserve(out, n / us + 16))
		return true;
	struct ascii a = {.n = 0};
	while (i < n && !out->failed) {
		size_t used;
		bool wrong;
		uint32_t c = char_at(s, n, i, order, &used, &wrong);
		if (wrong && !bad++)
			first_bad = i;
		if (c < 0x80) {
			if (!a.n)
				a.origin = bl_src_origin(in, i);
			a.buf[a.n++] = (char)c;
			if (a.n == sizeof a.buf)
				flush(out, &a, us);
		} else {
			/* longer than its bytes ("\xE4\xB8\x8A" from 2): a
			 * replacement, a byte inside it mapped to one of them
			 * even as the text's last */
			char u[4];
			size_t k = bl_utf8_put(c, u);
			flush(out, &a, us);
			if (k > used)
				bl_tbuf_put_at(out, u, k, bl_src_origin(in, i));
			else
				bl_tbuf_put(out, u, k, bl_src_origin(in, i));
		}
		i += used;
	}
	flush(out, &a, us);
	if (bad)
		bl_message_diag(m, BL_WARNING, "charset.invalid", bl_src_origin(in, first_bad),
				"%zu character%s not text in %s (NUL, a lone surrogate, %s) "
				"replaced by U+FFFD (first at byte %zu)",
				bad, bad == 1 ? "" : "s", us == 2 ? "UTF-16" : "UTF-32",
				us == 2 ? "an odd last byte" : "past U+10FFFF, a cut last unit",
				m->raw_offset + bl_src_origin(in, first_bad));
	return true;
}
