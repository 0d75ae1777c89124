/* charset.c - text in the charset a mail or page declares, to UTF-8.
 *
 * iconv does the conversion; it is fed one character at a time (a byte,
 * or more while it says the sequence is incomplete) so that each UTF-8
 * character written maps to the input character it came from. Bytes
 * iconv rejects become U+FFFD and are reported once with a count. */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/find.h"
#include "../base/utf8.h"
#include "decode.h"

static const char REPLACEMENT[] = "\xEF\xBF\xBD";

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid or NUL. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	return s[0] ? bl_utf8_len(s, n) : 0;
}

/* Copies valid UTF-8, replacing invalid bytes and NUL by U+FFFD. */
static bool repair(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const unsigned char *s = (const unsigned char *)in->s;
	size_t n = in->len, bad = 0, nul = 0, first_bad = 0, first_nul = 0, i = 0;
	/* in[0, done) is written; nothing is until the first byte to replace,
	 * so that valid text (nearly always) is not copied */
	size_t done = 0;
	while (i < n) {
		size_t j = i;
		while (j < n) {
			if (s[j] && s[j] < 0x80) {
				j += bl_ascii_span((const char *)s + j, n - j);
				continue;
			}
			size_t k = utf8_len(s + j, n - j);
			if (!k)
				break;
			j += k;
		}
		if (j >= n)
			break;
		if (!done && !bad && !nul && !bl_tbuf_reserve(out, n))
			return false;
		bl_tbuf_copy(out, in, done, j - done);
		/* a run of NUL bytes, or of bytes that are not UTF-8, becomes one
		 * U+FFFD: one map entry per run keeps a 1 GB sparse file or a
		 * binary attachment from costing a map entry per byte */
		bl_tbuf_put_at(out, REPLACEMENT, 3, bl_src_origin(in, j));
		if (s[j] == 0) {
			if (!nul)
				first_nul = j;
			while (j < n && s[j] == 0) {
				nul++;
				j++;
			}
		} else {
			if (!bad)
				first_bad = j;
			do {
				bad++;
				j++;
			} while (j < n && s[j] >= 0x80 && !utf8_len(s + j, n - j));
		}
		i = j;
		done = j;
	}
	if (bad || nul)
		bl_tbuf_copy(out, in, done, n - done);
	if (bad)
		bl_message_diag(m, BL_WARNING, "ingest.invalid-utf8", bl_src_origin(in, first_bad),
				"%zu invalid UTF-8 byte%s replaced by U+FFFD (first at byte %zu)",
				bad, bad == 1 ? "" : "s",
				m->raw_offset + bl_src_origin(in, first_bad));
	if (nul)
		bl_message_diag(m, BL_WARNING, "ingest.nul-byte", bl_src_origin(in, first_nul),
				"%zu NUL byte%s replaced by U+FFFD (first at byte %zu)", nul,
				nul == 1 ? "" : "s", m->raw_offset + bl_src_origin(in, first_nul));
	return bad || nul;
}

static bool is_utf8_name(const char *cs)
{
	return !cs || !*cs || strcasecmp(cs, "utf-8") == 0 || strcasecmp(cs, "utf8") == 0 ||
	       strcasecmp(cs, "us-ascii") == 0 || strcasecmp(cs, "ascii") == 0 ||
	       strcasecmp(cs, "ansi_x3.4-1968") == 0;
}

bool bl_charset_ascii_compatible(const char *cs)
{
	return strncasecmp(cs, "iso-2022", 8) != 0 && strncasecmp(cs, "utf-16", 6) != 0 &&
	       strncasecmp(cs, "utf-32", 6) != 0 && strncasecmp(cs, "utf-7", 5) != 0 &&
	       strncasecmp(cs, "ucs-", 4) != 0 && strcasecmp(cs, "hz-gb-2312") != 0;
}

/* Names mail clients write that iconv spells differently. */
static const char *iconv_name(const char *cs)
{
	if (strcasecmp(cs, "gb2312") == 0 || strcasecmp(cs, "x-gbk") == 0)
		return "GBK"; /* a superset, what senders really used */
	if (strcasecmp(cs, "ks_c_5601-1987") == 0)
		return "CP949";
	if (strcasecmp(cs, "x-sjis") == 0 || strcasecmp(cs, "shift-jis") == 0)
		return "SHIFT_JIS";
	if (strcasecmp(cs, "iso-8859-8-i") == 0)
		return "ISO-8859-8";
	if (strcasecmp(cs, "x-mac-roman") == 0)
		return "MACINTOSH";
	return cs;
}

bool bl_utf8_repair(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	return repair(m, in, out);
}

/* repair() and, when it had nothing to replace, the text copied as is. */
bool bl_charset_is_utf8(const char *charset)
{
	return is_utf8_name(charset);
}

static bool repair_full(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	bool changed = repair(m, in, out);
	if (!changed && bl_tbuf_reserve(out, in->len))
		bl_tbuf_copy(out, in, 0, in->len);
	return changed;
}

bool bl_charset_to_utf8(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out,
			const char *charset)
{
	if (is_utf8_name(charset))
		return repair_full(m, in, out);
	iconv_t cd = iconv_open("UTF-8", iconv_name(charset));
	if (cd == (iconv_t)-1) {
		bl_message_diag(m, BL_WARNING, "charset.unknown", bl_src_origin(in, 0),
				"unknown charset '%.60s': the text is read as UTF-8", charset);
		repair_full(m, in, out);
		return true;
	}
	bool fast = bl_charset_ascii_compatible(charset);
	const unsigned char *s = (const unsigned char *)in->s;
	size_t n = in->len, i = 0, bad = 0, first_bad = 0;
	if (!bl_tbuf_reserve(out, n + n / 2))
		goto done;
	while (i < n && !out->failed) {
		if (fast && s[i] && s[i] < 0x80) {
			size_t j = i;
			while (j < n && s[j] && s[j] < 0x80)
				j++;
			bl_tbuf_copy(out, in, i, j - i);
			i = j;
			continue;
		}
		size_t take = 1, produced = 0;
		char obuf[32];
		for (;;) {
			char *ip = (char *)(s + i), *op = obuf;
			size_t il = take, ol = sizeof obuf;
			size_t r = iconv(cd, &ip, &il, &op, &ol);
			if (r != (size_t)-1 || (il == 0)) {
				produced = sizeof obuf - ol;
				break;
			}
			/* incomplete: iconv kept its shift state; offer one more byte */
			if (errno == EINVAL && take < 8 && i + take < n) {
				take++;
				continue;
			}
			take = 0;
			break;
		}
		if (!take) {
			/* rejected (or cut at the end): one byte becomes U+FFFD */
			if (!bad++)
				first_bad = i;
			bl_tbuf_put_at(out, REPLACEMENT, 3, bl_src_origin(in, i));
			i++;
			continue;
		}
		/* a NUL (or anything not UTF-8, which iconv should never
		 * write) becomes U+FFFD like in text read as UTF-8 */
		if (produced && (memchr(obuf, 0, produced) || !bl_utf8_valid(obuf, produced))) {
			if (!bad++)
				first_bad = i;
			bl_tbuf_put_at(out, REPLACEMENT, 3, bl_src_origin(in, i));
		} else if (produced) {
			bl_tbuf_put_at(out, obuf, produced, bl_src_origin(in, i));
		}
		i += take;
	}
	if (bad)
		bl_message_diag(
			m, BL_WARNING, "charset.invalid", bl_src_origin(in, first_bad),
			"%zu byte%s not valid in %.60s replaced by U+FFFD (first at byte %zu)", bad,
			bad == 1 ? "" : "s", charset, m->raw_offset + bl_src_origin(in, first_bad));
done:
	iconv_close(cd);
	return true;
}

char *bl_charset_string(const char *s, size_t n, const char *charset)
{
	/* ASCII without a NUL byte, nearly every header's value, is its own
	 * UTF-8: copied, without a message and a map made for it */
	if (is_utf8_name(charset) && bl_ascii_span(s, n) == n) {
		char *r = malloc(n + 1);
		if (r && n)
			memcpy(r, s, n);
		if (r)
			r[n] = '\0';
		return r;
	}
	struct bl_message tmp;
	memset(&tmp, 0, sizeof tmp);
	struct bl_src src;
	struct bl_tbuf out;
	bl_src_plain(&src, s, n, 0);
	bl_tbuf_init(&out);
	bl_charset_to_utf8(&tmp, &src, &out, charset);
	bl_diags_free(&tmp.diags);
	if (out.failed || !bl_tbuf_reserve(&out, 1)) {
		bl_tbuf_free(&out);
		return NULL;
	}
	char *r = out.s ? out.s : strdup("");
	if (out.s)
		r[out.len] = '\0';
	free(out.segs);
	return r;
}
