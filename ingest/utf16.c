/* utf16.c - a text file in UTF-16 made UTF-8: what Windows PowerShell
 * writes for `iozone ... > out.txt`, FF FE (or FE FF) and then two bytes a
 * character, in which no tool's line can be found byte for byte.
 *
 * The map is exact at every character: a stretch of ASCII is one wide map
 * segment (each text byte from the first of its two bytes), any other
 * character a segment of its own where its length changes ("\xE4\xB8\x8A"
 * from 2 bytes), so that a run's first and last bytes, and where a window
 * of the text is cut, are where they are in the input. A lone surrogate,
 * an odd last byte and U+0000 become U+FFFD, reported once with a count. */
#include <stdint.h>

#include "../base/utf8.h"
#include "decode.h"

int bl_utf16_bom(const char *s, size_t n)
{
	if (n < 2)
		return 0;
	unsigned char a = (unsigned char)s[0], b = (unsigned char)s[1];
	return a == 0xFF && b == 0xFE ? BL_UTF16_LE : a == 0xFE && b == 0xFF ? BL_UTF16_BE : 0;
}

/* Whether s[i] s[i+1] is an ASCII character (a tab, a line break, a
 * printable one) as UTF-16 of that order writes it: "A\0" in LE. */
static bool ascii_unit(const unsigned char *s, size_t i, bool big)
{
	unsigned char lo = big ? s[i + 1] : s[i], hi = big ? s[i] : s[i + 1];
	return hi == 0 && (lo == '\t' || lo == '\n' || lo == '\r' || (lo >= 0x20 && lo < 0x7F));
}

int bl_utf16_order(const char *s, size_t n)
{
	int bom = bl_utf16_bom(s, n);
	if (bom || n < 16)
		return bom;
	/* no mark: nearly every unit of the first 512 an ASCII character
	 * (text in UTF-8 has no NUL byte every other byte) */
	const unsigned char *u = (const unsigned char *)s;
	size_t units = (n < 1024 ? n : 1024) / 2, le = 0, be = 0;
	for (size_t k = 0; k < units; k++) {
		le += ascii_unit(u, 2 * k, false);
		be += ascii_unit(u, 2 * k, true);
	}
	return le * 8 >= units * 7 ? BL_UTF16_LE : be * 8 >= units * 7 ? BL_UTF16_BE : 0;
}

static unsigned unit_at(const unsigned char *s, bool big)
{
	return big ? (unsigned)s[0] << 8 | s[1] : (unsigned)s[1] << 8 | s[0];
}

unsigned bl_utf16_unit(const char *s, int order)
{
	return unit_at((const unsigned char *)s, order == BL_UTF16_BE);
}

/* The character at s[i] (one unit, or a surrogate pair): its code point,
 * U+FFFD when it is not one (*bad); *used: its bytes. */
static uint32_t char_at(const unsigned char *s, size_t n, size_t i, bool big, size_t *used,
			bool *bad)
{
	*used = 2;
	*bad = true;
	if (n - i < 2) {
		*used = n - i;
		return 0xFFFD;
	}
	unsigned u = unit_at(s + i, big);
	if (u >= 0xD800 && u < 0xDC00 && n - i >= 4) {
		unsigned lo = unit_at(s + i + 2, big);
		if (lo >= 0xDC00 && lo < 0xE000) {
			*used = 4;
			*bad = false;
			return 0x10000 + ((uint32_t)(u - 0xD800) << 10) + (lo - 0xDC00);
		}
	}
	if (u == 0 || (u >= 0xD800 && u < 0xE000))
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

static void flush(struct bl_tbuf *out, struct ascii *a)
{
	bl_tbuf_put_wide(out, a->buf, a->n, a->origin);
	a->n = 0;
}

bool bl_utf16_to_utf8(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, int order)
{
	const unsigned char *s = (const unsigned char *)in->s;
	bool big = order == BL_UTF16_BE;
	/* the mark is at the text's start, not at a window's */
	bool start = !m->window.on || m->window.index == 0;
	size_t n = in->len, i = start && bl_utf16_bom(in->s, n) ? 2 : 0, bad = 0, first_bad = 0;
	if (!bl_tbuf_reserve(out, n / 2 + 16))
		return true;
	struct ascii a = {.n = 0};
	while (i < n && !out->failed) {
		size_t used;
		bool wrong;
		uint32_t c = char_at(s, n, i, big, &used, &wrong);
		if (wrong && !bad++)
			first_bad = i;
		if (c < 0x80) {
			if (!a.n)
				a.origin = bl_src_origin(in, i);
			a.buf[a.n++] = (char)c;
			if (a.n == sizeof a.buf)
				flush(out, &a);
		} else {
			/* longer than its bytes ("\xE4\xB8\x8A" from 2): a
			 * replacement, a byte inside it mapped to one of them
			 * even as the text's last */
			char u[4];
			size_t k = bl_utf8_put(c, u);
			flush(out, &a);
			if (k > used)
				bl_tbuf_put_at(out, u, k, bl_src_origin(in, i));
			else
				bl_tbuf_put(out, u, k, bl_src_origin(in, i));
		}
		i += used;
	}
	flush(out, &a);
	if (bad)
		bl_message_diag(m, BL_WARNING, "charset.invalid", bl_src_origin(in, first_bad),
				"%zu character%s not text in UTF-16 (NUL, a lone surrogate, an odd "
				"last byte) replaced by U+FFFD (first at byte %zu)",
				bad, bad == 1 ? "" : "s",
				m->raw_offset + bl_src_origin(in, first_bad));
	return true;
}
