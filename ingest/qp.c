/* qp.c - quoted-printable, in mail bodies and in text that kept it.
 *
 * Archives show it as plain text:
 *   # dd if=3D/dev/zero of=3D/root/zerofile.000 bs=3D1M count=3D200
 *   I decided to =
 *   test my own server.
 * and a flattened page shows the soft break as "= " between two words. */
#include <string.h>

#include "decode.h"

int bl_hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void bl_qp_decode(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out, bool flattened)
{
	const unsigned char *s = (const unsigned char *)in->s;
	size_t n = in->len, bad = 0, first_bad = 0, i = 0;
	if (!bl_tbuf_reserve(out, n))
		return;
	while (i < n) {
		const unsigned char *eq = memchr(s + i, '=', n - i);
		size_t stop = eq ? (size_t)(eq - s) : n;
		if (stop > i)
			bl_tbuf_copy(out, in, i, stop - i);
		i = stop;
		if (i >= n)
			break;
		/* s[i] == '=' */
		if (i + 2 < n && bl_hex_value(s[i + 1]) >= 0 && bl_hex_value(s[i + 2]) >= 0) {
			char c = (char)(bl_hex_value(s[i + 1]) * 16 + bl_hex_value(s[i + 2]));
			bl_tbuf_putc(out, c, bl_src_origin(in, i));
			i += 3;
			continue;
		}
		/* soft break: "=" then optional blanks then the line end */
		size_t k = i + 1;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k >= n) {
			i = n;
			break;
		}
		if (s[k] == '\n') {
			i = k + 1;
			continue;
		}
		if (s[k] == '\r' && k + 1 < n && s[k + 1] == '\n') {
			i = k + 2;
			continue;
		}
		if (flattened && k == i + 2 && s[i + 1] == ' ') {
			/* "to = test": the newline after '=' became one space */
			i += 2;
			continue;
		}
		/* not an escape: keep it, as RFC 2045 advises */
		if (!bad++)
			first_bad = i;
		bl_tbuf_copy(out, in, i, 1);
		i++;
	}
	if (bad)
		bl_message_diag(m, BL_WARNING, "qp.bad-escape", bl_src_origin(in, first_bad),
				"%zu '=' not followed by two hex digits or a line end kept as "
				"text (first at byte %zu)",
				bad, m->raw_offset + bl_src_origin(in, first_bad));
}

/* Encoders break lines at 76 columns (RFC 2045), quopri and most mailers
 * at 73 to 76: a line that long ending in "=" is a soft break, even in a
 * table with no '=' of its own:
 *   pool        alloc   free   read  write   read  write   read  write  =
 *   read  write
 * A shorter line ending in "=" ("export CFLAGS=") is only counted. */
#define QP_WIDTH_MIN 60
#define QP_WIDTH_MAX 76

/* The length of the line that holds s[i], up to s[i] included, or
 * QP_WIDTH_MAX + 1 when it is longer. */
static size_t line_length(const unsigned char *s, size_t i)
{
	size_t k = 0;
	while (k <= QP_WIDTH_MAX && k < i && s[i - k - 1] != '\n')
		k++;
	return k + 1;
}

static bool upper_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

bool bl_qp_detect(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t esc = 0, soft = 0, bad = 0, strong = 0, sure = 0;
	for (size_t i = 0; i < len;) {
		const unsigned char *eq = memchr(s + i, '=', len - i);
		if (!eq)
			break;
		i = (size_t)(eq - s);
		bool h1 = i + 1 < len && upper_hex(s[i + 1]);
		bool h2 = i + 2 < len && upper_hex(s[i + 2]);
		if (h1 && h2) {
			esc++;
			/* "=3D" (a literal '='), "=20"/"=09" ending a line
			 * (trailing blanks; "=20 " once flattened) and 8-bit
			 * bytes are what encoders write; count=2000 is not */
			bool eol = i + 3 >= len || s[i + 3] == '\n' || s[i + 3] == '\r';
			bool blank = (s[i + 1] == '2' && s[i + 2] == '0') ||
				     (s[i + 1] == '0' && s[i + 2] == '9');
			if ((s[i + 1] == '3' && s[i + 2] == 'D') || (blank && eol) ||
			    s[i + 1] >= '8')
				sure++;
			if (blank && !eol && s[i + 3] == ' ')
				strong++;
			i += 3;
			continue;
		}
		size_t k = i + 1;
		while (k < len && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k < len && (s[k] == '\n' || s[k] == '\r')) {
			soft++;
			size_t w = line_length(s, i);
			if (k == i + 1 && w >= QP_WIDTH_MIN && w <= QP_WIDTH_MAX)
				sure++; /* a soft break at the encoder's width */
		} else if (k == i + 2 && k < len && s[k] != '=') {
			soft++; /* "= " in a flattened text */
		} else {
			bad++;
		}
		i++;
	}
	/* one sign that only an encoder leaves is enough when no '=' says
	 * otherwise; "=20 " (a flattened trailing blank, or "count=20 bs")
	 * needs company */
	if (sure && !bad)
		return true;
	return sure + strong && esc + soft >= 3 && bad * 4 <= esc + soft;
}

/* A '=' left encoded in text that is not quoted-printable any more: a
 * reply in 7bit quoting a line of a quoted-printable mail,
 *   >  Timing buffered disk reads:  64 MB in  5.63 seconds =3D 11.37 MB/sec
 * "=3D" between blanks or before a digit, a '/' or a letter's word (an
 * operand: "if=3D/dev/zero", "bs=3D1M") is made '=' again; base64 has no
 * '=' but at its end, so it holds no such sequence. */
bool bl_qp_stray(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const char *s = in->s;
	size_t n = in->len, i = 0, done = 0, fixed = 0, first = 0;
	const char *eq;
	/* memchr for the '=' (memmem has no vector search) */
	while (i + 3 <= n && (eq = memchr(s + i, '=', n - i - 2))) {
		size_t at = (size_t)(eq - s);
		i = at + 1;
		if (eq[1] != '3' || eq[2] != 'D')
			continue;
		i = at + 3;
		char after = i < n ? s[i] : '\n';
		if (after != ' ' && after != '\t' && after != '/' &&
		    !(after >= '0' && after <= '9'))
			continue;
		if (!fixed && !bl_tbuf_reserve(out, n))
			return false;
		if (!fixed)
			first = at;
		fixed++;
		bl_tbuf_copy(out, in, done, at - done);
		bl_tbuf_put_at(out, "=", 1, bl_src_origin(in, at));
		done = i;
	}
	if (!fixed)
		return false;
	bl_tbuf_copy(out, in, done, n - done);
	bl_message_diag(m, BL_INFO, "qp.stray-escape", bl_src_origin(in, first),
			"%zu quoted-printable '=3D' left in text that is not quoted-printable: "
			"read as '='",
			fixed);
	return true;
}
