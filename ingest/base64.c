/* base64.c - base64 bodies (RFC 2045 6.8).
 *
 * Line breaks and blanks between characters are skipped; any other stray
 * byte is reported once (with its count) and skipped; '=' ends the data;
 * a last group cut short keeps its whole bytes and is reported.
 *
 * The bytes of a line of base64 (57 for its usual 76 characters) are
 * written with one map segment: byte j at the character that holds the
 * first bits of the line's first byte, + j, on the line that holds its
 * own bits. A line longer than BL_BASE64_BLOCK is written in pieces that
 * start at the first group of four characters in each block of the
 * input, so that a window of a long body starting at such a group maps
 * its bytes as a whole reading does. (The character that holds each
 * byte's first bits took a segment per three bytes: a 30 MB base64 mail
 * held 117 MB of map.) */
#include <string.h>

#include "decode.h"

/* Bytes of one piece, waiting to be written: a line, or a block's part
 * of it (at most 3/4 of BL_BASE64_BLOCK, and the bytes of a group that
 * straddles into it). */
#define LINE_BYTES BL_BASE64_BLOCK

struct pending {
	char b[LINE_BYTES];
	size_t n, from; /* from: the input character of b[0]'s first bits */
	size_t block; /* the input block of the last group's start */
};

static void flush(struct pending *p, struct bl_src *in, struct bl_tbuf *out)
{
	if (p->n)
		bl_tbuf_put(out, p->b, p->n, bl_src_origin(in, p->from));
	p->n = 0;
}

static void push(struct pending *p, char c, size_t from, struct bl_src *in, struct bl_tbuf *out)
{
	if (!p->n)
		p->from = from;
	p->b[p->n++] = c;
	if (p->n == LINE_BYTES)
		flush(p, in, out);
}

static int b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

int bl_base64_value(unsigned char c)
{
	return b64val(c);
}

void bl_base64_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const unsigned char *s = (const unsigned char *)in->s;
	size_t n = in->len, bad = 0, first_bad = 0;
	unsigned acc = 0;
	int bits = 0;
	size_t pos[4] = {0, 0, 0, 0};
	int have = 0;
	bool ended = false;
	struct pending line = {.n = 0};
	if (!bl_tbuf_reserve(out, n / 4 * 3 + 3))
		return;
	for (size_t i = 0; i < n && !ended; i++) {
		unsigned char c = s[i];
		if (c == '\n')
			flush(&line, in, out);
		if (c == '\n' || c == '\r' || c == ' ' || c == '\t')
			continue;
		if (c == '=') {
			ended = true;
			break;
		}
		int v = b64val(c);
		if (v < 0) {
			if (!bad++)
				first_bad = i;
			continue;
		}
		if (have == 0) {
			/* a group starts: a new piece in a new block */
			size_t block = (m->raw_offset + bl_src_origin(in, i)) / BL_BASE64_BLOCK;
			if (line.n && block != line.block)
				flush(&line, in, out);
			line.block = block;
		}
		pos[have++] = i;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			/* the byte's first bit is in the character before the last
			 * one that completed it, except for the first byte */
			push(&line, (char)((acc >> bits) & 0xFF), pos[have >= 2 ? have - 2 : 0], in,
			     out);
		}
		if (have == 4) {
			have = 0;
			acc = 0;
			bits = 0;
		}
	}
	flush(&line, in, out);
	if (bad)
		bl_message_diag(m, BL_WARNING, "base64.bad-char", bl_src_origin(in, first_bad),
				"%zu byte%s that are not base64 skipped (first at byte %zu)", bad,
				bad == 1 ? "" : "s", m->raw_offset + bl_src_origin(in, first_bad));
	/* a window before the last ends where its bytes do, inside a group */
	bool cut = m->window.on && !m->window.last;
	if (have == 1 && !cut)
		m->truncated = true;
	if (have == 1 && !cut)
		bl_message_diag(
			m, BL_WARNING, "base64.truncated", bl_src_origin(in, pos[0]),
			"base64 data ends in the middle of a byte: the last character is dropped");
}

size_t bl_base64_decode_plain(const char *str, size_t n, unsigned char *out)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned acc = 0;
	int bits = 0;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=')
			break;
		int v = b64val(s[i]);
		if (v < 0)
			continue;
		acc = ((acc << 6) | (unsigned)v) & 0xFFFFFF;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)((acc >> bits) & 0xFF);
		}
	}
	return o;
}
