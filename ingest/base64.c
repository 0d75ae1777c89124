/* base64.c - base64 bodies (RFC 2045 6.8).
 *
 * Line breaks and blanks between characters are skipped; any other stray
 * byte is reported once (with its count) and skipped; '=' ends the data;
 * a last group cut short keeps its whole bytes and is reported. Each
 * decoded byte maps to the character that holds its first bits. */
#include <string.h>

#include "decode.h"

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

void bl_base64_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const unsigned char *s = (const unsigned char *)in->s;
	size_t n = in->len, bad = 0, first_bad = 0;
	unsigned acc = 0;
	int bits = 0;
	size_t pos[4] = {0, 0, 0, 0};
	int have = 0;
	bool ended = false;
	if (!bl_tbuf_reserve(out, n / 4 * 3 + 3))
		return;
	for (size_t i = 0; i < n && !ended; i++) {
		unsigned char c = s[i];
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
		pos[have++] = i;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			/* the byte's first bit is in the character before the last
			 * one that completed it, except for the first byte */
			size_t from = pos[have >= 2 ? have - 2 : 0];
			bl_tbuf_putc(out, (char)((acc >> bits) & 0xFF), bl_src_origin(in, from));
		}
		if (have == 4) {
			have = 0;
			acc = 0;
			bits = 0;
		}
	}
	if (bad)
		bl_message_diag(m, BL_WARNING, "base64.bad-char", bl_src_origin(in, first_bad),
				"%zu byte%s that are not base64 skipped (first at byte %zu)", bad,
				bad == 1 ? "" : "s", m->raw_offset + bl_src_origin(in, first_bad));
	if (have == 1)
		m->truncated = true;
	if (have == 1)
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
